import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../../test/support/fc.ts';
import { runStar, star, tmFeature, toDst } from '../../../test/support/sim-tm.ts';
import { TM_MODE_SETTINGS } from '../../streaming/tm-mode.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm.ts';

const STOP = 300_000_000;

/**
 * Each run simulates about 1 ms of a three-host fabric: 6 runs (~2.5 s; every mode, with and
 * without SAR, is run in endpoint-tm-modes.test.ts), more under `npm run fuzz`.
 */
test('Part 10 §3.4.5 rule 4, §3.4.4: whatever the mode, traffic and sink speed, no PDU passes a closed gate or goes without credit, every TM packet is counted, and every PDU a source queued is delivered whole', () => {
  fc.assert(fc.property(
    fc.record({
      mode: fc.constantFrom(...TM_MODE_SETTINGS),
      seed: fc.integer({ min: 1, max: 1000 }),
      sar: fc.boolean(),
      load: fc.double({ min: 0.1, max: 0.8, noNaN: true }),
      bytes: fc.integer({ min: 1, max: 2000 }),
      serviceTime: fc.integer({ min: 0, max: 5_000_000 }),
      levelPeriod: fc.constantFrom(undefined, 0, 500_000, 3_000_000),
      queueLevelBits: fc.integer({ min: 0, max: 8 }),
    }),
    (p) => {
      const tm: EndpointTmConfig = { mode: p.mode, queueLevelBits: p.queueLevelBits, ...(p.levelPeriod === undefined ? {} : { levelPeriod: p.levelPeriod }) };
      const host = (name: string, dsts: number[]) => ({
        name, buffers: { packets: 8 }, sar: p.sar, tm, sink: { serviceTime: p.serviceTime }, queuePdus: 256,
        traffic: dsts.map((d) => toDst(d, p.load, p.bytes, { stop: STOP })),
      });
      const s = star([host('sink', []), host('a', [0, 2]), host('b', [0])], { seed: p.seed });
      // Long enough to drain every source queue (3 × 256 PDUs) and the fabric at the sink's pace.
      const packets = (3 * 256 + 64) * (Math.ceil(p.bytes / 32) + 1);
      runStar(s, STOP + packets * Math.max(p.serviceTime, 2_500_000) + 1_000_000_000);
      s.collector.finish(s.sched.now);
      const r = s.collector.results();
      let sent = 0;
      for (const ep of s.eps) {
        const c = tmFeature(ep).counters();
        assert.equal(c['ingress.gateViolations'], 0, ep.name);
        assert.equal(c['egress.pdusWithoutCredit'], 0, ep.name);
        assert.equal(c['malformed'], 0, ep.name);
        sent += (c['ingress.tmSent'] as number) + (c['egress.tmSent'] as number);
        assert.equal(ep.source.queuedPdus, 0, `${ep.name} drained`);
      }
      assert.equal(r.counts['tm.messages'] ?? 0, sent);
      assert.equal(r.aggregate.pduDefects, 0);
      // A full source queue drops at the source (the offered load may exceed the sink); nothing else is lost.
      const offered = s.eps.reduce((n, ep) => n + ep.counters().pdusOffered - ep.counters().pdusDropped, 0);
      const received = s.eps.reduce((n, ep) => n + ep.counters().pdusReceived, 0);
      assert.equal(received, offered);
    },
  ), fcParams(Math.max(1, Math.floor(FC_RUNS / 16_000))));
});
