import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, dataPacket, pair, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import { cont, single } from '../../../test/support/type9-segments.ts';

test('issue 7 §2 sink: per-packet latency from PDU creation to arrival, per-PDU latency to the last segment, after Part 10 reassembly', () => {
  const b = bench();
  const { a, b: sink } = pair(b, { name: 'A', id: 1, buffers: { packets: 8 }, sar: true }, { name: 'B', id: 2, buffers: { packets: 8 } });
  a.start(0);
  a.source.offer(2, 0, 0, 600, 0);
  b.sched.run();
  b.collector.finish(b.sched.now);
  const f = b.collector.results().flows[0];
  assert.ok(f !== undefined);
  // Segments of 268, 268 and 100 octets, each with an 8-character delimiter, at 8000 ps per octet.
  assert.equal(f.deliveredPackets, 3);
  assert.equal(f.packetLatency.min, 276 * 8000);
  assert.equal(f.packetLatency.max, (276 + 276 + 108) * 8000);
  assert.equal(f.deliveredPdus, 1);
  assert.equal(f.deliveredPduBytes, 600);
  assert.equal(f.pduLatency.max, (276 + 276 + 108) * 8000);
  assert.equal(f.pduDefects, 0);
  assert.equal(sink.counters().pdusReceived, 1);
  assert.equal((sink.snapshot()['reassembler'] as { stats: { pdus: number } }).stats.pdus, 1);
});

test('Part 10 §3.2.5 reassembly rule 3: a continuation segment with no open context is a PDU defect, counted and reported', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'B', id: 2, buffers: { packets: 8 } });
  peer.sendAt(0, dataPacket(1, 5, 2, 0, { id: 0, index: 1, count: 3, bytes: 600 }, cont(new Uint8Array(256), { sourceID: 5, destinationID: 2 })));
  peer.sendAt(0, dataPacket(2, 5, 2, 0, { id: 1, index: 0, count: 1, bytes: 10 }, single(new Uint8Array(10), 0, { sourceID: 5, destinationID: 2 })));
  b.sched.run();
  b.collector.finish(b.sched.now);
  const r = b.collector.results();
  assert.equal(ep.counters().pduDefects, 1);
  assert.equal(r.counts['reassembler.defective-pdu'], 1);
  assert.equal(r.headline.pduDefects, 1);
  assert.equal(r.flows[0]?.pduDefects, 1);
  assert.equal(r.flows[0].deliveredPdus, 1, 'the next PDU is delivered');
});

test('issue 7 §2 plain PDUs: delivered when packets 0 … count − 1 come in sequence; a gap discards the PDU as a defect', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'B', id: 2, buffers: { packets: 8 } });
  const pdu = (id: number, index: number, count: number): { id: number; index: number; count: number; bytes: number } => ({ id, index, count, bytes: 100 * count });
  // PDU 0 loses packet 1; PDU 1 arrives whole; PDU 2 starts mid-way (its start lost) and is dropped quietly after one report.
  const seq = [pdu(0, 0, 3), pdu(0, 2, 3), pdu(1, 0, 2), pdu(1, 1, 2), pdu(2, 1, 3), pdu(2, 2, 3), pdu(3, 0, 1)];
  seq.forEach((p, i) => { peer.sendAt(0, dataPacket(i, 5, 2, 0, p)); });
  b.sched.run();
  assert.equal(ep.counters().pduDefects, 2);
  assert.equal(ep.counters().pdusReceived, 2);
  b.collector.finish(b.sched.now);
  assert.equal(b.collector.results().flows[0]?.deliveredPduBytes, 300);
});

test('issue 7 §2 sink consumption rate: with a per-packet service time the sink frees a buffer per service time, so a slow end point congests its link', () => {
  const b = bench(1, { warmup: 1_000_000_000 });
  const { a, b: slow } = pair(b, {
    name: 'A', id: 1, buffers: { packets: 8 },
    traffic: [{ load: 0.9, arrival: { kind: 'poisson' }, destinations: { kind: 'fixed', dst: 2 }, size: { kind: 'fixed', bytes: 64 } }],
  }, { name: 'B', id: 2, buffers: { packets: 8, reservePerPriority: 1 }, sink: { serviceTime: 1_000_000 } });
  a.start(0);
  b.sched.run({ until: 11_000_000_000 });
  b.collector.finish(b.sched.now);
  const r = b.collector.results();
  const f = r.flows[0];
  assert.ok(f !== undefined);
  // One 76-octet packet per µs over 10 ms: 10 000 packets, though the link could carry 1.49 per µs.
  assert.ok(Math.abs(f.deliveredPackets - 10_000) <= 2, `${f.deliveredPackets} packets`);
  assert.ok(f.droppedPdus > 0, 'the source queue overflows');
  // Prio 0 may use buffers only while more than 3 are free: at most 5 of the 8 fill.
  const rx = r.occupancy.find((o) => o.component === 'B:rx');
  assert.equal(rx?.maxPackets, 5);
  assert.ok(rx.meanPackets > 3);
  assert.ok(slow.sink.waiting <= 5);
});

test('issue 7 §2 sink (decision): latency is taken on arrival, before the sink\'s service time', () => {
  const b = bench();
  const { a, b: slow } = pair(b, { name: 'A', id: 1, buffers: { packets: 8 } }, { name: 'B', id: 2, buffers: { packets: 8 }, sink: { serviceTime: 5_000_000 } });
  a.start(0);
  a.source.offer(2, 0, 0, 64, 0);
  a.source.offer(2, 0, 0, 64, 0);
  b.sched.run();
  b.collector.finish(b.sched.now);
  const f = b.collector.results().flows[0];
  // Two 76-octet packets back to back, (76 + 8) × 8000 ps each; their time in B's buffer waiting
  // for the 5 µs services is not latency.
  assert.equal(f?.packetLatency.min, 672_000);
  assert.equal(f.packetLatency.max, 1_344_000);
  assert.equal(f.pduLatency.max, 1_344_000);
  assert.equal(slow.sink.waiting, 0);
  assert.ok(b.sched.now >= 672_000 + 10_000_000, 'the sink served both');
});
