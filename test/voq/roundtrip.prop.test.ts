/**
 * Properties of the generator → link → receiver round trip (test/support/voq-link.ts), over both
 * stype2 formats, every Part 12 group size and VC linking off and on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../support/fc.ts';
import { GEN_LINK, VoqLink } from '../support/voq-link.ts';
import type { VoqLinkConfig } from '../support/voq-link.ts';

/**
 * A link: seed (up to 192 ports) or Part 12 with TX = RX group size 0–6 (up to 256 ports, some
 * of them possibly beyond what the group size can name); linking off (with or without per-VC
 * staging) or on with 1, 2, 4 or 8 optional VCs (Part 6 Table 3-12: VC1; VC1, VC5; VC1, VC3, VC5,
 * VC7; VC1–VC8).
 */
const configArb: fc.Arbitrary<VoqLinkConfig> = fc.record({
  part12: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  ports: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 180, max: 256 })),
  vc: fc.constantFrom('off', 'off-per-vc', 'linked-1', 'linked-2', 'linked-4', 'linked-8'),
}).map(({ part12, ports, vc }): VoqLinkConfig => ({
  ...(part12 === undefined ? { format: 'seed', ports: Math.min(ports, 192) } : { format: 'part12-rev4.1', groupSize: part12, ports }),
  ...(vc === 'off' ? {} : vc === 'off-per-vc' ? { perVcStaging: true, vcs: 8 } : { linking: true, vcs: Number(vc.slice('linked-'.length)) as 1 | 2 | 4 | 8 }),
}));

type Op =
  | { readonly op: 'congest' | 'clear'; readonly port: number; readonly vc: number }
  | { readonly op: 'participation' | 'portXoff'; readonly port: number; readonly on: boolean }
  | { readonly op: 'generation'; readonly on: boolean }
  | { readonly op: 'flush'; readonly max: number };

/** Ports are drawn as a fraction of the device so that every size reaches its last groups. */
const opArb: fc.Arbitrary<{ readonly op: Op['op']; readonly at: number; readonly vc: number; readonly on: boolean; readonly max: number }> = fc.record({
  op: fc.constantFrom('congest', 'congest', 'clear', 'clear', 'participation', 'portXoff', 'generation', 'flush'),
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
  vc: fc.nat(8),
  on: fc.boolean(),
  max: fc.integer({ min: 0, max: 3 }),
});

function apply(l: VoqLink, o: { readonly op: Op['op']; readonly at: number; readonly vc: number; readonly on: boolean; readonly max: number }): void {
  const port = Math.floor(o.at * l.ports);
  const vcs = l.vcList();
  const vc = vcs[o.vc % vcs.length] as number;
  switch (o.op) {
    case 'congest':
      l.congest(port, vc);
      break;
    case 'clear':
      l.clear(port, vc);
      break;
    case 'participation':
      l.genInput({ kind: 'port-control', port, settings: { participation: o.on } });
      break;
    case 'portXoff':
      l.genInput({ kind: 'port-control', port, settings: { portXoff: o.on } });
      break;
    case 'generation':
      // Table 5-3 bit 8 on the link itself: ports keep changing while it is off.
      l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { generation: o.on } });
      break;
    case 'flush':
      l.flush(o.max);
      break;
  }
}

/** The link generates again (a no-op when it already does). */
function generating(l: VoqLink): void {
  l.genInput({ kind: 'port-control', port: GEN_LINK, settings: { generation: true } });
}

test('VoQ Backpressure §4.2 rule e + §4.3 e, Table 5-4 (round trip, property): once every due symbol is sent the receiver holds exactly the status the generator reports for every participating port', () => {
  fc.assert(
    fc.property(configArb, fc.array(opArb, { maxLength: 60 }), (c, ops) => {
      const l = new VoqLink(c);
      for (const o of ops) apply(l, o);
      generating(l);
      l.flush();
      assert.deepEqual(l.disagreements(), []);
      assert.equal(l.gen.pending(GEN_LINK).length, 0);
      assert.equal(l.rx.counters().reservedCmd + l.rx.counters().unknownVc + l.rx.counters().unlinkedBackpressure, 0);
    }),
    fcParams(2000),
  );
});

test('VoQ Backpressure §4.2 rules f, g (round trip, property): after arbitrary symbol loss a timer refresh or a link recovery restores agreement', () => {
  fc.assert(
    fc.property(
      configArb,
      fc.array(opArb, { maxLength: 60 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }),
      fc.constantFrom('timer', 'recovery', 'recovery-keep'),
      (c, ops, mask, cure) => {
        const l = new VoqLink({ ...c, refreshPeriod: cure === 'timer' ? 1000 : null, clearOnLinkUp: cure !== 'recovery-keep', lose: (n) => mask[n % mask.length] === true });
        for (const o of ops) apply(l, o);
        l.flush();
        l.setLose(() => false);
        generating(l);
        if (cure === 'timer') l.advance(1000);
        else l.outage();
        l.flush();
        assert.deepEqual(l.disagreements(), []);
      },
    ),
    fcParams(2000),
  );
});
