import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDU, SLOW, incast, runStar, star, tmFeature, toDst } from '../../../test/support/sim-tm.ts';
import type { Star } from '../../../test/support/sim-tm.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm.ts';
import type { EndpointTraffic } from './endpoint-types.ts';

const MODES = ['BASIC', 'RATE', 'CREDIT', 'CREDIT_RATE'] as const;

/** Hosts 1 and 2 send to host 0 and to each other until 1 ms, then everything drains. */
function drained(mode: (typeof MODES)[number], sar: boolean, seed = 1): Star {
  const tm: EndpointTmConfig = { mode };
  const stop = 600_000_000;
  const host = (name: string, traffic: EndpointTraffic[], serviceTime = 0) => ({ name, buffers: { packets: 8 }, sar, tm, traffic, sink: { serviceTime } });
  const s = star([
    host('sink', [], SLOW),
    host('a', [toDst(0, 0.5, PDU, { stop }), toDst(2, 0.2, 256, { stop, prio: 1 })]),
    host('b', [toDst(0, 0.5, PDU, { stop }), toDst(1, 0.2, 512, { stop, crf: 1 })]),
  ], { seed });
  runStar(s, 1_600_000_000);
  return s;
}

test('Part 10 §3.4.5 rule 4, issue 7 §2: in every mode, with and without SAR, traffic management loses nothing: every PDU queued at a source is delivered whole', () => {
  for (const mode of MODES) {
    for (const sar of [false, true]) {
      const s = drained(mode, sar);
      const offered = s.eps.reduce((n, ep) => n + ep.counters().pdusOffered, 0);
      const dropped = s.eps.reduce((n, ep) => n + ep.counters().pdusDropped, 0);
      const received = s.eps.reduce((n, ep) => n + ep.counters().pdusReceived, 0);
      const defects = s.eps.reduce((n, ep) => n + ep.counters().pduDefects, 0);
      const what = `${mode}${sar ? ' with SAR' : ''}`;
      assert.ok(offered > 100, what);
      assert.deepEqual({ dropped, defects, received }, { dropped: 0, defects: 0, received: offered }, what);
      assert.ok((tmFeature(s.eps[0]!).counters()['messages'] as number) > 0, what);
      for (const ep of s.eps) {
        const c = tmFeature(ep).counters();
        assert.deepEqual([c['ingress.gateViolations'], c['egress.pdusWithoutCredit'], c['malformed']], [0, 0, 0], `${what}: ${ep.name}`);
        assert.equal(ep.source.queuedPdus, 0, `${what}: ${ep.name} drained`);
      }
    }
  }
});

test('issue 7 §3 "counts of … TM messages": tm.messages counts every TM packet sent, and matches the packets on the links', () => {
  for (const mode of MODES) {
    const s = incast({ mode });
    runStar(s, 1_000_000_000);
    s.collector.finish(s.sched.now);
    const r = s.collector.results();
    const onWire = s.trace.filter((t) => t.dir === 'out' && t.packet.kind === 'tm').length;
    const waiting = s.eps.reduce((n, ep) => n + ep.source.controlQueued + (tmFeature(ep).snapshot()['deferred'] as number), 0);
    const byFeature = s.eps.reduce((n, ep) => n + (tmFeature(ep).counters()['messages'] as number), 0);
    assert.ok(onWire > 10, mode);
    assert.equal(r.counts['tm.messages'], onWire + waiting, mode);
    assert.equal(r.headline.tmMessages, byFeature, mode);
    const kinds = ['xoff', 'xon', 'rate', 'allocate', 'retire', 'qStatus', 'creditStatus', 'other'];
    assert.equal(kinds.reduce((n, k) => n + (r.counts[`tm.${k}`] ?? 0), 0), byFeature, `${mode}: every message has one kind`);
    const engines = s.eps.reduce((n, ep) => n + (tmFeature(ep).counters()['ingress.tmSent'] as number) + (tmFeature(ep).counters()['egress.tmSent'] as number), 0);
    assert.equal(engines, byFeature, `${mode}: every packet the engines sent went out`);
  }
});

test('issue 7 §1 determinism: a run with traffic management is a function of its configuration and seed', () => {
  const summary = (seed: number): string => {
    const s = drained('CREDIT_RATE', true, seed);
    s.collector.finish(s.sched.now);
    return JSON.stringify({ results: s.collector.results(), features: s.eps.map((ep) => ep.snapshot()), trace: s.trace.map((t) => [t.at, t.ep, t.dir, t.packet.id]) });
  };
  const a = summary(5);
  assert.equal(summary(5), a);
  assert.notEqual(summary(6), a);
});
