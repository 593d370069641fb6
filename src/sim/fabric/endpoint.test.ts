import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, ccpPacket, dataPacket, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import { Endpoint } from './endpoint.ts';
import type { EndpointConfig } from './endpoint-types.ts';
import type { SimPacket } from './types.ts';

/** Flows 0A, 0B, 0C, 0E to end point 2 and 0A to end point 3. */
const FLOWS: EndpointConfig['flows'] = [{ dst: 2 }, { dst: 2, crf: 1 }, { dst: 2, prio: 1 }, { dst: 2, prio: 2 }, { dst: 3 }];

function enabled(ep: Endpoint): string[] {
  return ep.source.flows.filter((f) => f.enabled).map((f) => `${f.dst}/${f.flowID}`);
}

/** A CCP of Dev8 is 6 octets, 8 with its CRC; with an 8-character delimiter 16 × 8000 ps. */
const CCP_TIME = 128_000;

test('Part 9 §2.4.5 rule 1, A.2: an XOFF for 0C stops 0A, 0B and 0C to that destination only, and the orphan timer restarts them', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: FLOWS, ccp: { orphanPeriod: 1_000_000 } });
  ep.start(0);
  peer.sendAt(0, ccpPacket(100, 1, 2, 'XOFF', '0C'));
  b.sched.run({ until: CCP_TIME + 1 });
  assert.deepEqual(enabled(ep), ['2/0E', '3/0A']);
  // Stopped flows are skipped by the arbitration.
  for (const [dst, prio] of [[2, 0], [2, 1], [2, 2], [3, 0]] as const) ep.source.offer(dst, prio, 0, 64, b.sched.now);
  // Until the orphan period has run out only 0E to 2 and 0A to 3 go, one after the other,
  // (76 + 8) × 8000 ps each, behind the credit symbol (8 × 8000 ps) that returns the CCP's buffer.
  b.sched.run({ until: CCP_TIME + 1_000_000 });
  assert.deepEqual(enabled(ep), ['2/0E', '3/0A']);
  assert.deepEqual(peer.got.map((g) => [`${g.packet.dst}/${g.packet.prio}`, g.at]), [['2/2', CCP_TIME + 64_000 + 672_000]]);
  b.sched.run({ until: CCP_TIME + 1_000_001 });
  assert.deepEqual(enabled(ep), ['2/0A', '2/0B', '2/0C', '2/0E', '3/0A']);
  b.sched.run();
  assert.deepEqual(peer.got.map((g) => `${g.packet.dst}/${g.packet.prio}`), ['2/2', '3/0', '2/1', '2/0'], 'the restarted flows send, by priority');
  b.collector.finish(b.sched.now);
  const r = b.collector.results();
  assert.deepEqual(r.flows.map((f) => f.xoffTime), [1_000_000, 1_000_000, 1_000_000, 0, 0]);
  assert.deepEqual(r.flows.map((f) => f.xoffCount), [1, 1, 1, 0, 0]);
  assert.equal(r.counts['ccp.received'], 1);
  assert.equal(r.counts['ccp.orphan-restart'], 1);
  assert.deepEqual(ep.ccp?.counters().orphanRestarts, 1);
});

test('Part 9 §2.4.5 rule 2: an XON bringing the counter to zero restarts the flows at once and the orphan timer is cancelled', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: FLOWS, ccp: { orphanPeriod: 5_000_000 } });
  ep.start(0);
  peer.sendAt(0, ccpPacket(100, 1, 2, 'XOFF', '0C'));
  b.sched.run({ until: CCP_TIME + 1 });
  assert.deepEqual(ep.snapshot()['timers'], ['orphan']);
  peer.sendAt(300_000, ccpPacket(101, 1, 2, 'XON', '0C'));
  b.sched.run();
  assert.deepEqual(enabled(ep), ['2/0A', '2/0B', '2/0C', '2/0E', '3/0A']);
  assert.deepEqual(ep.snapshot()['timers'], []);
  // The run ended with the XON's credit back at the scheduled port, long before the orphan expiry.
  assert.equal(b.sched.now, 300_000 + CCP_TIME + 64_000);
  b.collector.finish(b.sched.now);
  assert.deepEqual(b.collector.results().flows.map((f) => f.xoffTime), [300_000, 300_000, 300_000, 0, 0]);
  assert.equal(ep.ccp?.counters().orphanRestarts, 0);
});

test('issue 7 §2 endpoints: without the CCP reaction engine a CCP is counted and ignored, as is a CCP with no Type 7 packet', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: FLOWS, ccp: false });
  peer.sendAt(0, ccpPacket(100, 1, 2, 'XOFF', '0E'));
  b.sched.run();
  assert.equal(ep.ccp, null);
  assert.equal(enabled(ep).length, 5);
  assert.deepEqual([ep.counters().ccpsReceived, ep.counters().ccpsIgnored], [1, 1]);
  const b2 = bench();
  const other = withScriptedPeer(b2, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: FLOWS });
  const ccp = ccpPacket(100, 1, 2, 'XOFF', '0E');
  other.peer.sendAt(0, { id: ccp.id, kind: ccp.kind, ftype: 7, src: ccp.src, dst: ccp.dst, prio: ccp.prio, crf: ccp.crf, vc: ccp.vc, bytes: ccp.bytes, flow: -1, createdAt: 0 });
  b2.sched.run();
  assert.equal(enabled(other.ep).length, 5);
  assert.deepEqual([other.ep.counters().ccpsReceived, other.ep.counters().ccpsIgnored], [1, 1]);
});

test('Part 9 A.2 (decision): the orphan period defaults to 1 ms, 10^9 of the simulator\'s picoseconds', () => {
  const b = bench();
  const ep = new Endpoint(b.sched, { name: 'ep1', id: 1, buffers: { packets: 8 } }, b.ctx);
  assert.equal(ep.ccp?.orphanPeriod, 1_000_000_000);
});

test('issue 7 §2 endpoints (decision): a VoQ backpressure symbol reaching an end point is counted and ignored', () => {
  const b = bench();
  const ep = new Endpoint(b.sched, { name: 'ep1', id: 1, buffers: { packets: 8 } }, b.ctx);
  ep.onSymbol({ kind: 'voq', stype2: 1 });
  ep.onSymbol({ kind: 'credit', count: 1 });
  assert.equal(ep.counters().symbolsIgnored, 1);
});

test('Part 9 §2.4.5: a CCP acts on arrival and frees its buffer at once, even while a slow sink holds data packets', () => {
  const b = bench();
  const { ep, peer, link } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: FLOWS, sink: { serviceTime: 1_000_000_000 } });
  peer.sendAt(0, dataPacket(1, 5, 1, 9, { id: 0, index: 0, count: 1, bytes: 64 }));
  peer.sendAt(0, ccpPacket(100, 1, 2, 'XOFF', '0A'));
  b.sched.run({ until: 10_000_000 });
  assert.deepEqual(enabled(ep), ['2/0B', '2/0C', '2/0E', '3/0A']);
  // The data packet still holds its buffer; the CCP's came back.
  assert.equal(link.ba.free, 7);
  assert.equal(ep.sink.waiting, 1);
});

test('issue 7 §2 endpoints: a packet for another device ID and a packet kind the end point does not handle are counted, and their buffers freed', () => {
  const b = bench();
  const { ep, peer, link } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 } });
  peer.sendAt(0, dataPacket(1, 5, 7, 0, { id: 0, index: 0, count: 1, bytes: 64 }));
  const tm: SimPacket = { id: 2, kind: 'tm', ftype: 9, src: 5, dst: 1, prio: 3, crf: 0, vc: 0, bytes: 16, flow: -1, createdAt: 0 };
  peer.sendAt(0, tm);
  b.sched.run();
  assert.equal(ep.counters().misrouted, 1);
  assert.equal(ep.counters().otherPackets, 1);
  assert.equal(ep.counters().packetsReceived, 0);
  assert.equal(link.ba.free, 8);
  b.collector.finish(b.sched.now);
  assert.deepEqual(b.collector.results().counts, { 'endpoint.misrouted': 1, 'endpoint.rx.tm': 1 });
});

test('issue 7 §2 endpoints: configuration errors name the field', () => {
  const b = bench();
  const make = (c: Partial<EndpointConfig>): Endpoint => new Endpoint(b.sched, { name: 'e', id: 1, buffers: { packets: 8 }, ...c }, b.ctx);
  assert.throws(() => make({ flows: [{ dst: 2, prio: 3 as 2 }] }), /flows\[0\].prio must be 0, 1 or 2 \(prio 3 is illegal for requests, Part 9 Table 2-1\)/);
  assert.throws(() => make({ crfSupported: false, flows: [{ dst: 2, crf: 1 }] }), /flows\[0\].crf must be 0 when CRF is not supported/);
  assert.throws(() => make({ flows: [{ dst: 1 }] }), /flows\[0\].dst must not be the end point itself/);
  assert.throws(() => make({ sarMtu: 30 }), /sarMtu must be a multiple of 4 from 32 to 256/);
  assert.throws(() => make({ mtu: 257 }), /mtu must be an integer from 1 to 256/);
  assert.throws(() => make({ queuePdus: 0 }), /queuePdus must be a positive integer/);
  assert.throws(() => make({ id: 256 }), /id must be an integer from 0 to 255/);
  assert.throws(() => make({ sink: { serviceTime: -1 } }), /sink.serviceTime must be a non-negative integer/);
  assert.throws(() => { make({}).start(); }, /attach the end point to a link before start/);
});

test('issue 7 §2 endpoints: counters are a copy and the snapshot is plain JSON', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, flows: FLOWS, sar: true });
  ep.start(0);
  ep.source.offer(2, 0, 0, 300, 0);
  peer.sendAt(0, ccpPacket(100, 1, 3, 'XOFF', '0A'));
  b.sched.run({ until: 100_000 });
  const c = ep.counters();
  c.packetsSent = 99;
  assert.notEqual(ep.counters().packetsSent, 99);
  const snap = ep.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  assert.equal((snap['flows'] as unknown[]).length, 5);
  assert.ok(snap['segmenter'] !== null && snap['ccp'] !== null);
});
