import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PT, SYMBOL, packet, singleSwitch } from '../../../test/support/sim-switch.ts';
import type { Fabric, TestEnd } from '../../../test/support/sim-switch.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { Probe } from './types.ts';

function ccps(end: TestEnd | undefined): { at: number; id: number; bytes: number; prio: number; crf: number; wire: Type7Packet }[] {
  return (end?.got('ccp') ?? []).map((r) => ({ at: r.at, id: r.p.id, bytes: r.p.bytes, prio: r.p.prio, crf: r.p.crf, wire: r.p.wire as Type7Packet }));
}

/** Occupancy series of one buffer. */
function series(f: Fabric, component: string): [number, number][] {
  const s: [number, number][] = [];
  const probe = f.probe as Probe;
  const inner = probe.occupancy.bind(probe);
  probe.occupancy = (c, now, packets, bytes) => {
    if (c === component) s.push([now, packets]);
    inner(c, now, packets, bytes);
  };
  return s;
}

test('Part 9 §2.4.6 rule 1, Annex A.1: an output queue that passes its high watermark sends an XOFF to the source of the flow with most packets, and an XON when it falls to the low watermark', () => {
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', speedup: 2, inputBuffer: { packets: 8 }, congestion: { highWatermark: 3, lowWatermark: 1 } });
  const occ = series(f, 's/out2');
  // End 2 takes 3 PT per packet: once its 8 buffers are full, output 2's queue builds up.
  (f.ends[2] as TestEnd).serviceTime = 3 * PT;
  f.ends[0]?.send(Array.from({ length: 14 }, () => packet(f.ids, 0, 2)));
  f.ends[1]?.send(Array.from({ length: 3 }, () => packet(f.ids, 1, 2)));
  f.sched.run();
  const got = ccps(f.ends[0]);
  assert.deepEqual(got.map((c) => c.wire.command), ['XOFF', 'XON']);
  const [xoff] = got;
  assert.ok(xoff !== undefined);
  // §3.2 Table 3-1: destinationID = the offending packets' sourceID, tgtdestinationID = their
  // destinationID; SOC 0 from a switch; §2.4.2 prio 3, CRF 1; Dev16 (the switch's default tt): 8
  // octets, 12 on the link with the CRC-16 and the pad to 32 bits (decision SW8).
  assert.equal(xoff.wire.destinationID, 0);
  assert.equal(xoff.wire.tgtdestinationID, 2);
  assert.equal(xoff.wire.soc, 0);
  assert.equal(xoff.wire.flowID, '0A');
  // The SimPacket carries the CCP's second ID (tgtdestinationID) as its source.
  assert.deepEqual([got[0]?.wire.tgtdestinationID, (f.ends[0] as TestEnd).got('ccp')[0]?.p.src], [2, 2]);
  assert.deepEqual([xoff.prio, xoff.crf, xoff.bytes], [3, 1, 12]);
  // A.1 "on a packet by packet basis": it leaves when the fourth packet enters the queue, then
  // takes its wire time (12 octets + an 8-character delimiter), after at most one credit symbol
  // already on the link.
  const t4 = occ.find(([, n]) => n === 4)?.[0] as number;
  assert.ok(xoff.at >= t4 + 20 * 8000 && xoff.at <= t4 + 20 * 8000 + SYMBOL, `XOFF at ${xoff.at}, queue at 4 at ${t4}`);
  // End 1's flow was never the largest: no CCP for it.
  assert.deepEqual(ccps(f.ends[1]), []);
  assert.equal(f.probe.counts.get('ccp.sent'), 2);
  assert.equal(f.sw.counters().ccpSent, 2);
});

test('Part 9 §2.4.2: a CCP goes out ahead of the data queued at its output (prio 3, CRF 1)', () => {
  const f = singleSwitch({ ports: 4, queueing: 'output-queued', speedup: 4, inputBuffer: { packets: 8 }, congestion: { highWatermark: 3, lowWatermark: 1 } });
  (f.ends[2] as TestEnd).serviceTime = 4 * PT;
  // Ends 1 and 3 overload output 0 (the way to end 0) while end 0 congests output 2.
  f.ends[1]?.send(Array.from({ length: 12 }, () => packet(f.ids, 1, 0)));
  f.ends[3]?.send(Array.from({ length: 12 }, () => packet(f.ids, 3, 0)));
  f.ends[0]?.send(Array.from({ length: 16 }, () => packet(f.ids, 0, 2)));
  f.sched.run();
  const end0 = (f.ends[0] as TestEnd).received;
  const k = end0.findIndex((r) => r.p.kind === 'ccp');
  assert.ok(k >= 0, 'end 0 got a CCP');
  const ccp = end0[k]?.p.id as number;
  // Data created before the CCP was still queued when the CCP left.
  assert.ok(end0.slice(k + 1).some((r) => r.p.kind === 'data' && r.p.id < ccp), 'older data after the CCP');
});

test('Part 9 §2.1 input-queued switch: the congestion point watches the input buffer and XOFFs the flow waiting there', () => {
  const f = singleSwitch({ ports: 3, queueing: 'input-fifo', inputBuffer: { packets: 8 }, congestion: { highWatermark: 2, lowWatermark: 0 } });
  (f.ends[2] as TestEnd).serviceTime = 4 * PT;
  // End 2's 8 buffers fill, then packets wait in input 0's buffer.
  f.ends[0]?.send(Array.from({ length: 14 }, () => packet(f.ids, 0, 2, { prio: 1 })));
  f.sched.run();
  const got = ccps(f.ends[0]);
  assert.deepEqual(got.map((c) => c.wire.command), ['XOFF', 'XON']);
  assert.equal(got[0]?.wire.tgtdestinationID, 2);
  // Table 3-1 with Part 6 Table 6-7 (CRF supported): a prio 1 CRF 0 request is flow 0C.
  assert.equal(got[0].wire.flowID, '0C');
  assert.equal(f.sw.counters().ccpSent, 2);
});

test('Part 9 §2.4.6 rule 2: a switch out of buffer space drops CCPs, counted', () => {
  // The switch keeps none of its own CCPs: every one is dropped.
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', inputBuffer: { packets: 8 }, ccpQueue: 0, congestion: { highWatermark: 3, lowWatermark: 1 } });
  (f.ends[2] as TestEnd).serviceTime = 3 * PT;
  f.ends[0]?.send(Array.from({ length: 16 }, () => packet(f.ids, 0, 2)));
  f.sched.run();
  assert.deepEqual(ccps(f.ends[0]), []);
  assert.ok(f.sw.counters().ccpDropped >= 1, 'CCPs dropped');
  assert.equal(f.probe.counts.get('ccp.dropped'), f.sw.counters().ccpDropped);
  // Given the buffer's capacity, the congestion point itself drops its CCPs when the buffer is full.
  const g = singleSwitch({ ports: 3, queueing: 'output-queued', outputBuffer: { packets: 4 }, inputBuffer: { packets: 8 }, congestion: { highWatermark: 3, lowWatermark: 1, capacity: 4 } });
  (g.ends[2] as TestEnd).serviceTime = 6 * PT;
  g.ends[0]?.send(Array.from({ length: 10 }, () => packet(g.ids, 0, 2)));
  g.ends[1]?.send(Array.from({ length: 10 }, () => packet(g.ids, 1, 2)));
  g.sched.run();
  const snap = g.sw.snapshot();
  const dropped = snap.congestion[2]?.counters.ccpDropped ?? 0;
  assert.ok(dropped >= 1, 'the congestion point dropped CCPs');
  assert.equal(g.sw.counters().ccpDropped, dropped);
  // Every data packet still arrives.
  assert.equal(g.ends[2]?.got().length, 20);
});

test('Part 9 §2.4.3: flow control and flow arbitration packets (Type 7) fill a buffer but never cause a CCP', () => {
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', inputBuffer: { packets: 8 }, congestion: { highWatermark: 2, lowWatermark: 0 } });
  (f.ends[2] as TestEnd).serviceTime = 3 * PT;
  const arb = Array.from({ length: 14 }, () => ({ ...packet(f.ids, 0, 2), kind: 'arb' as const, ftype: 7 }));
  f.ends[0]?.send(arb);
  f.sched.run();
  assert.equal(f.ends[2]?.got('arb').length, 14);
  assert.deepEqual(ccps(f.ends[0]), []);
  const snap = f.sw.snapshot();
  assert.deepEqual([snap.congestion[2]?.counters.enqueued, snap.congestion[2]?.counters.xoffSent], [14, 0]);
  // The queue did pass the high watermark.
  assert.ok((f.probe.peaks.get('s/out2') ?? 0) > 2);
});

test('Part 9 §3.2: a CCP takes the tt of the packets that caused it (from their decoded header when the SimPacket carries one)', () => {
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', inputBuffer: { packets: 8 }, congestion: { highWatermark: 2, lowWatermark: 0 } });
  (f.ends[2] as TestEnd).serviceTime = 3 * PT;
  // A Dev8 Type 9 header: the CCP is Dev8 too, 6 octets (8 on the link with the CRC-16).
  f.ends[0]?.send(Array.from({ length: 14 }, () => ({ ...packet(f.ids, 0, 2), wire: { tt: 0, ftype: 9 } })));
  f.sched.run();
  const got = ccps(f.ends[0]);
  assert.equal(got[0]?.wire.tt, 0);
  assert.equal(got[0].bytes, 8);
});
