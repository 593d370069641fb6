import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decodeStype2 } from '../wire/voq-stype2.ts';
import { VoqGenerator } from './generator.ts';
import type { VoqGeneratorInput, VoqPortSettings } from './generator-types.ts';

const settingsArb: fc.Arbitrary<VoqPortSettings> = fc.record({
  generation: fc.boolean(),
  participation: fc.boolean(),
  portXoff: fc.boolean(),
});

const depthArb = (ports: number): fc.Arbitrary<VoqGeneratorInput> =>
  fc.record({ port: fc.nat(ports - 1), depth: fc.nat(8) }).map(({ port, depth }) => ({ kind: 'queue-depth', port, depth }));

const scenarioArb = fc.integer({ min: 1, max: 30 }).chain((ports) =>
  fc.tuple(fc.constant(ports), fc.array(settingsArb, { minLength: ports, maxLength: ports }), fc.array(depthArb(ports), { maxLength: 40 })));

const junkArb: fc.Arbitrary<VoqGeneratorInput> = fc.oneof(
  fc.record({ kind: fc.constant('queue-depth' as const), port: fc.integer({ min: -2, max: 40 }), depth: fc.oneof(fc.integer({ min: -3, max: 9 }), fc.double()), vc: fc.integer({ min: -1, max: 9 }) }),
  fc.record({ kind: fc.constant('voq-depth' as const), input: fc.integer({ min: -1, max: 40 }), output: fc.integer({ min: -1, max: 40 }), depth: fc.nat(9) }),
  fc.record({ kind: fc.constant('next-stype2' as const), port: fc.integer({ min: -1, max: 40 }), stype0: fc.integer({ min: -1, max: 9 }), vcid: fc.integer({ min: -1, max: 9 }) }),
  fc.record({
    kind: fc.constant('fill' as const),
    port: fc.integer({ min: -1, max: 40 }),
    symbol: fc.record({ stype0: fc.nat(8), parameter0: fc.nat(70), parameter1: fc.nat(70), stype1: fc.nat(8), cmd: fc.nat(8) }),
  }),
  fc.record({ kind: fc.constant('port-control' as const), port: fc.integer({ min: -1, max: 40 }), settings: fc.record({ generation: fc.boolean(), vcLinking: fc.boolean(), portXoff: fc.boolean(), txPortGroupSize: fc.integer({ min: -1, max: 8 }) }, { requiredKeys: [] }) }),
  fc.record({ kind: fc.constant('link-recovered' as const), port: fc.integer({ min: -1, max: 40 }) }),
  fc.constant({ kind: 'timer', name: 'refresh' } as const),
);

test('VoQ Backpressure §4.2 rule e: after every due symbol is sent each link\'s upstream view equals the reported status of participating ports', () => {
  fc.assert(
    fc.property(scenarioArb, ([ports, settings, inputs]) => {
      const g = new VoqGenerator({ ports, detector: { kind: 'output-queue', high: 5, low: 2 }, portSettings: settings });
      for (const i of inputs) g.handle(i, 0);
      for (let q = 0; q < ports; q++) {
        for (;;) {
          const o = g.handle({ kind: 'next-stype2', port: q, stype0: 0 }, 0).find((x) => x.kind === 'stype2');
          assert.ok(o?.kind === 'stype2');
          if (o.message === null) break;
          assert.equal(settings[q]?.generation, true, 'rule a: only generating links send');
          assert.deepEqual(decodeStype2(o.stype2).congestedPorts, o.message.congestedPorts);
        }
        for (let p = 0; p < ports; p++) {
          const s = settings[p];
          if (settings[q]?.generation !== true || s?.participation !== true) continue;
          const sent = (g.lastSent(q, Math.floor(p / 6)) >>> (p % 6)) & 1;
          assert.equal(sent, g.reportedStatus(q, p), `link ${q} port ${p}`);
        }
      }
    }),
    fcParams(10_000),
  );
});

test('VoQ Backpressure §4.2 (bad input is normal input): no input sequence throws, every stype2 decodes as its message says', () => {
  fc.assert(
    fc.property(fc.constantFrom('seed' as const, 'part12-rev4.1' as const), fc.array(junkArb, { maxLength: 40 }), (format, inputs) => {
      const g = new VoqGenerator({ format, ports: 30, detector: { kind: 'output-queue', high: 3, low: 1 }, portSettings: { generation: true, participation: true }, refreshPeriod: 5, activeVcs: 2 });
      let now = 0;
      for (const i of inputs) {
        for (const o of g.handle(i, now)) {
          if (o.kind !== 'stype2') continue;
          const size = g.settings(o.port)?.txPortGroupSize ?? 0;
          const v = decodeStype2(o.stype2, { voqFormat: format, part12GroupSize: format === 'seed' ? 0 : size });
          assert.deepEqual(v.congestedPorts, o.message?.congestedPorts ?? []);
          if (o.symbol !== undefined) assert.equal(o.symbol.stype2, o.stype2);
        }
        now += 3;
      }
      assert.deepEqual(JSON.parse(JSON.stringify(g.snapshot())), g.snapshot());
    }),
    fcParams(10_000),
  );
});
