import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, ccpPacket, pair, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import type { FlowResult } from '../results/results-types.ts';
import type { EndpointTraffic } from './endpoint-types.ts';

const WARMUP = 5_000_000_000;
const END = 55_000_000_000;
/** A 64-byte PDU is one 76-octet packet (8 + 64 = 72, + CRC = 74, pad 76); with its 8-character delimiter 84 × 8000 ps. */
const PACKET_TIME = 672_000;

function overOneLink(load: number): FlowResult {
  const b = bench(7, { warmup: WARMUP });
  const { a } = pair(b, {
    name: 'A', id: 1, buffers: { packets: 8 },
    traffic: [{ load, arrival: { kind: 'poisson' }, destinations: { kind: 'fixed', dst: 2 }, size: { kind: 'fixed', bytes: 64 } }],
  }, { name: 'B', id: 2, buffers: { packets: 8 } });
  a.start(0);
  b.sched.run({ until: END });
  b.collector.finish(END);
  const f = b.collector.results().flows[0];
  assert.ok(f !== undefined);
  return f;
}

test('issue 7 §2–§3 end to end: two end points on one link, throughput = min(load, 1) of the data rate less the delimiters, latency rising under overload', () => {
  const half = overOneLink(0.5);
  const over = overOneLink(1.2);
  const window = END - WARMUP;
  // Data rate 1 Gbit/s; each 76-octet packet takes 84 octets of wire time: 76/84 of the rate at most.
  const ceiling = 76 / 84;
  assert.ok(Math.abs(half.offeredLoad - 0.5) < 0.01, `offered ${half.offeredLoad}`);
  assert.ok(Math.abs((half.throughputFraction as number) - 0.5 * ceiling) < 0.01 * ceiling, `throughput ${half.throughputFraction}`);
  assert.equal(half.droppedPdus, 0);
  assert.ok(Math.abs(over.offeredLoad - 1.2) < 0.015, `offered ${over.offeredLoad}`);
  // Saturated: a packet every 672 000 ps, exactly, give or take the one straddling each end of the window.
  assert.ok(Math.abs(over.deliveredPackets - window / PACKET_TIME) <= 1, `${over.deliveredPackets} packets`);
  assert.ok(Math.abs((over.throughputFraction as number) - ceiling) <= (2 * 76 * 8e12) / window / 1e9);
  // What the link cannot carry is dropped at the source: 1 − 1/1.2 of the offered PDUs.
  assert.ok(Math.abs(over.droppedPdus / over.offeredPdus - (1 - 1 / 1.2)) < 0.01);
  // Under overload the source queue (64 PDUs) stays full: latency ≈ 64 packet times, against ≈ 1.5 at load 0.5.
  assert.ok(half.packetLatency.mean < 2 * PACKET_TIME, `mean at 0.5: ${half.packetLatency.mean}`);
  assert.ok(over.packetLatency.mean > 60 * PACKET_TIME, `mean at 1.2: ${over.packetLatency.mean}`);
  assert.ok(over.packetLatency.p99 > half.packetLatency.p99 * 10);
  assert.equal(over.pduLatency.count, over.deliveredPdus);
});

test('Part 9 §2.4.5 rule 1, A.2 end to end: under traffic, an XOFF for 0C stops exactly 0A, 0B and 0C to its destination until the orphan timer restarts them', () => {
  const b = bench(3);
  const traffic = (prio: 0 | 1 | 2, crf: 0 | 1, ids: number[]): EndpointTraffic => ({
    load: 0.12, prio, crf, arrival: { kind: 'poisson' }, destinations: { kind: 'uniform', ids }, size: { kind: 'fixed', bytes: 64 },
  });
  const { ep, peer } = withScriptedPeer(b, {
    name: 'ep1', id: 1, buffers: { packets: 8 }, ccp: { orphanPeriod: 1_000_000_000 },
    traffic: [traffic(0, 0, [2, 3]), traffic(0, 1, [2]), traffic(1, 0, [2]), traffic(2, 0, [2])],
  });
  ep.start(0);
  const sent = 2_000_000_000;
  const arrives = sent + 128_000;
  peer.sendAt(sent, ccpPacket(0, 1, 2, 'XOFF', '0C'));
  b.sched.run({ until: 5_000_000_000 });
  b.collector.finish(b.sched.now);
  const restart = arrives + 1_000_000_000;
  // A packet already on the wire when the XOFF came may still arrive one packet time later.
  const stoppedWindow = (t: number): boolean => t > arrives + PACKET_TIME && t <= restart;
  const label = (dst: number, prio: number, crf: number): string => `${dst}/${prio}/${crf}`;
  const during = new Map<string, number>();
  const after = new Map<string, number>();
  for (const g of peer.got) {
    const k = label(g.packet.dst, g.packet.prio, g.packet.crf);
    if (stoppedWindow(g.at)) during.set(k, (during.get(k) ?? 0) + 1);
    if (g.at > restart + PACKET_TIME) after.set(k, (after.get(k) ?? 0) + 1);
  }
  for (const k of ['2/0/0', '2/0/1', '2/1/0']) {
    assert.equal(during.get(k), undefined, `${k} sent while stopped`);
    assert.ok((after.get(k) ?? 0) > 50, `${k} restarted`);
  }
  for (const k of ['2/2/0', '3/0/0']) assert.ok((during.get(k) ?? 0) > 50, `${k} kept sending`);
  const r = b.collector.results();
  const xoff = new Map(r.flows.map((f) => [`${f.dst}/${f.flowID}`, f.xoffTime]));
  assert.deepEqual(Object.fromEntries(xoff), { '2/0A': 1_000_000_000, '3/0A': 0, '2/0B': 1_000_000_000, '2/0C': 1_000_000_000, '2/0E': 0 });
  assert.equal(r.counts['ccp.orphan-restart'], 1);
});
