import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import type { Type9DataPacket } from '../../wire/type9-types.ts';
import { Endpoint } from './endpoint.ts';
import { plainPacketBytes } from '../../node/endpoint/packets.ts';
import type { SimPacket } from './types.ts';

function dsts(ps: (SimPacket | null)[]): string[] {
  return ps.map((p) => (p === null ? 'none' : `${p.dst}/p${p.prio}`));
}

test('Part 9 §2.4.3 Table 2-1, Part 6 Table 6-7: each flow gets the flowID of its prio and CRF', () => {
  const b = bench();
  new Endpoint(b.sched, {
    name: 'ep1', id: 1, buffers: { packets: 8 },
    flows: [{ dst: 2 }, { dst: 2, crf: 1 }, { dst: 2, prio: 1 }, { dst: 2, prio: 1, crf: 1 }, { dst: 2, prio: 2 }, { dst: 3, prio: 2, crf: 1 }],
  }, b.ctx);
  assert.deepEqual(b.ctx.flows.list().map((f) => `${f.src}>${f.dst} ${f.flowID}`), ['1>2 0A', '1>2 0B', '1>2 0C', '1>2 0D', '1>2 0E', '1>3 0F']);
  const noCrf = bench();
  new Endpoint(noCrf.sched, { name: 'ep1', id: 1, buffers: { packets: 8 }, crfSupported: false, flows: [{ dst: 2, prio: 2 }] }, noCrf.ctx);
  // Table 6-6: without CRF, prio 2 is "C or higher".
  assert.equal(noCrf.ctx.flows.list()[0]?.flowID, '0C');
});

test('issue 7 §2 flow arbitration: strict priority, then round robin packet by packet among flows of one priority', () => {
  const b = bench();
  const ep = new Endpoint(b.sched, { name: 'ep1', id: 1, buffers: { packets: 8 } }, b.ctx);
  for (let i = 0; i < 2; i++) {
    ep.source.offer(2, 0, 0, 64, 0);
    ep.source.offer(3, 0, 0, 64, 0);
  }
  ep.source.offer(2, 2, 0, 64, 0);
  ep.source.offer(3, 1, 0, 64, 0);
  const got = Array.from({ length: 7 }, () => ep.pull(0, 8, 1));
  assert.deepEqual(dsts(got), ['2/p2', '3/p1', '2/p0', '3/p0', '2/p0', '3/p0', 'none']);
});

test('Part 6 §5 deadlock avoidance: pull sends priority p only while more than (3 − p) × reserve buffers are free', () => {
  const b = bench();
  const ep = new Endpoint(b.sched, { name: 'ep1', id: 1, buffers: { packets: 8 } }, b.ctx);
  ep.source.offer(2, 0, 0, 64, 0);
  ep.source.offer(2, 1, 0, 64, 0);
  // 3 free, reserve 1: prio 1 needs more than 2, prio 0 more than 3.
  assert.deepEqual(dsts([ep.pull(0, 3, 1), ep.pull(0, 3, 1), ep.pull(0, 4, 1)]), ['2/p1', 'none', '2/p0']);
  ep.source.offer(2, 2, 0, 64, 0);
  assert.deepEqual(dsts([ep.pull(0, 1, 1), ep.pull(0, 2, 1)]), ['none', '2/p2']);
});

test('issue 7 §2 per-flow queues: a full queue drops the offered PDU at the source, and the offered load still counts it', () => {
  const b = bench();
  const ep = new Endpoint(b.sched, { name: 'ep1', id: 1, buffers: { packets: 8 }, queuePdus: 2 }, b.ctx);
  assert.equal(ep.source.offer(2, 0, 0, 100, 0), true);
  assert.equal(ep.source.offer(2, 0, 0, 100, 0), true);
  assert.equal(ep.source.offer(2, 0, 0, 100, 0), false);
  // Another flow has its own queue.
  assert.equal(ep.source.offer(3, 0, 0, 100, 0), true);
  assert.equal(ep.counters().pdusOffered, 4);
  assert.equal(ep.counters().pdusDropped, 1);
  b.collector.finish(10);
  const r = b.collector.results();
  assert.deepEqual(r.flows.map((f) => [f.offeredPdus, f.droppedPdus, f.droppedBytes]), [[3, 1, 100], [1, 0, 0]]);
  assert.deepEqual(r.occupancy, [{ component: 'ep1:src', meanPackets: 3, maxPackets: 3, meanBytes: 300, maxBytes: 300 }]);
});

test('issue 7 §2 plain traffic: a PDU is cut into packets of at most the MTU, each priced by the codec lengths', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 } });
  ep.start(0);
  ep.source.offer(2, 0, 0, 600, 0);
  b.sched.run();
  // 256 + 256 + 88. A 256-byte packet: prefix 2 + IDs 2 + cos/flags 2 + streamID 2 + 256 = 264,
  // CRC after 80 and at the end (+4) = 268, a multiple of 4; the 88-byte one: 96 + 2 = 98 → pad 100.
  assert.deepEqual(peer.got.map((g) => g.packet.bytes), [268, 268, 100]);
  assert.equal(plainPacketBytes(88, 0), 100);
  assert.deepEqual(peer.got.map((g) => g.packet.pdu), [0, 1, 2].map((index) => ({ id: 0, index, count: 3, bytes: 600 })));
  assert.ok(peer.got.every((g) => g.packet.wire === undefined && g.packet.createdAt === 0));
  // Back to back: (268 + 8) × 8000 ps, then (100 + 8) × 8000.
  assert.deepEqual(peer.got.map((g) => g.at), [2_208_000, 4_416_000, 5_280_000]);
  assert.equal(ep.source.queuedPdus, 0);
});

test('Part 10 §3.2.5 segmentation rules 4–8: with sar the Segmenter engine cuts a PDU into start, continuation and end segments', () => {
  const b = bench();
  const { ep, peer } = withScriptedPeer(b, { name: 'ep1', id: 1, buffers: { packets: 8 }, sar: true, sarMtu: 256 });
  ep.start(0);
  ep.source.offer(2, 1, 1, 600, 0);
  ep.source.offer(2, 1, 1, 40, 0);
  b.sched.run();
  const wires = peer.got.map((g) => g.packet.wire as Type9DataPacket);
  assert.deepEqual(wires.map((w) => w.segment), ['start', 'continuation', 'end', 'single']);
  assert.deepEqual(wires.map((w) => w.payload.length), [256, 256, 88, 40]);
  // Figure 4-2 start: 8 + 256 = 264 → 268; Figure 4-3 continuation: 6 + 256 = 262 → 266 → 268;
  // Figure 4-4 end: 8 + 88 = 96 → 100; Figure 4-1 single: 8 + 40 = 48 → 50 → 52.
  assert.deepEqual(peer.got.map((g) => g.packet.bytes), [268, 268, 100, 52]);
  // Flow 0D (prio 1, CRF 1): every segment carries the flow's prio and CRF (§3.2.4).
  assert.ok(peer.got.every((g) => g.packet.prio === 1 && g.packet.crf === 1));
  assert.ok(wires.every((w) => w.prio === 1 && w.crf === 1 && w.sourceID === 1 && w.destinationID === 2));
  assert.deepEqual(peer.got.map((g) => [g.packet.pdu?.index, g.packet.pdu?.count]), [[0, 3], [1, 3], [2, 3], [0, 1]]);
  // One Part 10 stream per flow (streamID = flow index, cos 0): flows never wait for each other's streams (§3.2.5 rule 1).
  ep.source.offer(3, 1, 1, 40, b.sched.now);
  b.sched.run();
  const streams = peer.got.map((g) => g.packet.wire as Type9DataPacket).flatMap((w) => (w.segment === 'start' || w.segment === 'single' ? [[w.destinationID, w.streamID, w.cos]] : []));
  assert.deepEqual(streams, [[2, 0, 0], [2, 0, 0], [3, 1, 0]]);
  assert.throws(() => new Endpoint(b.sched, { name: 'x', id: 3, buffers: { packets: 8 }, sar: true, traffic: [{ load: 0.1, arrival: { kind: 'poisson' }, destinations: { kind: 'fixed', dst: 1 }, size: { kind: 'fixed', bytes: 70_000 } }] }, b.ctx), /traffic\[0\].size must not exceed 65536/);
});

test('issue 7 §2 endpoints: a traffic source generates PDUs on its named random stream and queues them on the flow of their destination', () => {
  const run = (seed: number): number[][] => {
    const b = bench(seed);
    const { ep, peer } = withScriptedPeer(b, {
      name: 'ep1', id: 1, buffers: { packets: 8 },
      traffic: [{ load: 0.3, arrival: { kind: 'poisson' }, destinations: { kind: 'uniform', ids: [1, 2, 3] }, size: { kind: 'fixed', bytes: 64 } }],
    });
    ep.start(0);
    b.sched.run({ until: 50_000_000 });
    assert.deepEqual(b.ctx.flows.list().map((f) => f.dst), [2, 3]);
    assert.ok(b.ctx.streams.names().includes('source:1:time'));
    return peer.got.map((g) => [g.packet.dst, g.packet.createdAt]);
  };
  const a = run(5);
  assert.ok(a.length > 10);
  assert.deepEqual(run(5), a, 'replays exactly from the seed');
  assert.notDeepEqual(run(6), a);
});
