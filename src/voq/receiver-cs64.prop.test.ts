import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorInput } from './generator-types.ts';
import { VoqReceiver } from './receiver.ts';
import type { VoqReceiverInput } from './receiver-types.ts';

const VCS = [0, 1, 5] as const;

const scenario = fc.record({
  ports: fc.integer({ min: 1, max: 60 }),
  groupSize: fc.integer({ min: 0, max: 6 }),
  perVc: fc.boolean(),
  depths: fc.array(fc.record({ port: fc.nat(59), vc: fc.constantFrom(...VCS), depth: fc.nat(3) }), { maxLength: 40 }),
});

test('Part 12 §3.2, §3.3, §4.2 e (property): generator → receiver over CS64, any group size, with or without per-VC: after every due symbol is delivered the receiver holds exactly the reported congestion', () => {
  fc.assert(
    fc.property(scenario, ({ ports, groupSize, perVc, depths }) => {
      const g = new VoqGenerator({
        format: 'part12-rev4.1', symbol: 'cs64', ports, activeVcs: 2, detector: { kind: 'output-queue', high: 2, low: 0 },
        portSettings: { generation: true, participation: true, vcLinking: perVc, txPortGroupSize: groupSize },
      });
      const r = new VoqReceiver({
        format: 'part12-rev4.1', symbol: 'cs64', vcs: 2, routes: [],
        ports: [{ queues: 4, perVcStaging: true, enableVcLinking: perVc, rxPortGroupSize: groupSize }],
      });
      for (const d of depths) if (d.port < ports) g.handle({ kind: 'queue-depth', ...d }, 0);
      for (let n = 0; ; n++) {
        assert.ok(n <= 3 * 64, 'the due groups run out');
        const o = g.handle({ kind: 'next-cs64', port: 0 }, 0).find((x) => x.kind === 'cs64');
        assert.ok(o?.kind === 'cs64');
        if (o.symbol === null) break;
        assert.equal(o.symbol.voq?.vcIndName, perVc ? `VC${String(o.message?.vc)}` : 'ALL_VCS');
        r.handle({ kind: 'cs64', port: 0, symbol: o.symbol }, 0);
      }
      const reach = Math.min(ports, (20 - groupSize) * 2 ** groupSize);
      for (const vc of VCS) {
        const want = Array.from({ length: reach }, (_, p) => p).filter((p) => g.reportedStatus(0, p, perVc ? vc : null) === 1);
        assert.deepEqual(r.congestedPorts(0, vc), want, `VC${vc}`);
      }
    }),
    fcParams(2000),
  );
});

const junkGen: fc.Arbitrary<VoqGeneratorInput> = fc.oneof(
  fc.record({ kind: fc.constant('next-cs64' as const), port: fc.integer({ min: -1, max: 9 }), stype1: fc.integer({ min: -2, max: 300 }) }),
  fc.record({ kind: fc.constant('next-stype2' as const), port: fc.integer({ min: -1, max: 9 }), stype0: fc.nat(8) }),
  fc.record({ kind: fc.constant('queue-depth' as const), port: fc.integer({ min: -1, max: 9 }), depth: fc.integer({ min: -1, max: 5 }), vc: fc.integer({ min: -1, max: 9 }) }),
  fc.record({ kind: fc.constant('port-control' as const), port: fc.integer({ min: -1, max: 9 }), settings: fc.record({ generation: fc.boolean(), vcLinking: fc.boolean(), txPortGroupSize: fc.integer({ min: -1, max: 8 }) }, { requiredKeys: [] }) }),
);
const junkRx: fc.Arbitrary<VoqReceiverInput> = fc.oneof(
  fc.record({
    kind: fc.constant('cs64' as const),
    port: fc.integer({ min: -1, max: 2 }),
    symbol: fc.record({ link: fc.constantFrom('cs64', 'cs48'), stype0: fc.integer({ min: -1, max: 16 }), parameter0: fc.integer({ min: -1, max: 4096 }), parameter1: fc.integer({ min: -1, max: 4096 }), stype1: fc.nat(255) }).map((s) => s as unknown as ControlSymbol64),
  }),
  fc.record({ kind: fc.constant('stype2' as const), port: fc.integer({ min: -1, max: 2 }), stype2: fc.nat(0x3fff) }),
  fc.record({ kind: fc.constant('control' as const), port: fc.integer({ min: -1, max: 2 }), rxPortGroupSize: fc.integer({ min: -1, max: 8 }) }),
);

test('Part 12 §3.2 (bad input is normal input): no input sequence to CS64 engines throws, and every symbol the generator builds is a VoQ-backpressure CS64', () => {
  fc.assert(
    fc.property(fc.array(junkGen, { maxLength: 30 }), fc.array(junkRx, { maxLength: 30 }), (gi, ri) => {
      const g = new VoqGenerator({ format: 'part12-rev4.1', symbol: 'cs64', ports: 8, activeVcs: 2, detector: { kind: 'output-queue', high: 2, low: 0 }, portSettings: { generation: true, participation: true } });
      for (const i of gi) {
        for (const o of g.handle(i, 0)) if (o.kind === 'cs64' && o.symbol !== null) assert.equal(o.symbol.stype0Name, 'VoQ-backpressure');
      }
      const r = new VoqReceiver({ format: 'part12-rev4.1', symbol: 'cs64', vcs: 2, ports: [{ perVcStaging: true, enableVcLinking: true }, {}], routes: [] });
      for (const i of ri) r.handle(i, 0);
      assert.deepEqual(JSON.parse(JSON.stringify(g.snapshot())), g.snapshot());
      assert.deepEqual(JSON.parse(JSON.stringify(r.snapshot())), r.snapshot());
    }),
    fcParams(5000),
  );
});
