import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ids, PT, SYMBOL, endOn, packet, singleSwitch } from '../../../test/support/sim-switch.ts';
import type { Fabric } from '../../../test/support/sim-switch.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { Switch } from './switch.ts';
import type { VoqMatcher } from '../../node/switch/voq-matching.ts';
import type { Arbitration } from '../../node/switch/arbiters.ts';
import type { SwitchConfig } from './switch.ts';

const ids = { nextPacketId: () => 0 };

function arrivals(f: Fabric, end: number): [number, number, number][] {
  return (f.ends[end] as Fabric['ends'][number]).got().map((r) => [r.p.src, r.p.id, r.at]);
}

test('issue 7 §2 output-queued: an output link never idles while its queue holds a packet, and each input keeps its order', () => {
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', speedup: 2, inputBuffer: { packets: 8 } });
  const a = [0, 1, 2].map(() => packet(f.ids, 0, 2));
  const b = [0, 1, 2].map(() => packet(f.ids, 1, 2));
  f.ends[0]?.send(a);
  f.ends[1]?.send(b);
  f.sched.run();
  // Both first packets arrive at PT; round-robin takes input 0, its transfer (PT / 2) ends at
  // 1.5 PT and the output link starts; from then on it sends back to back: 2.5 PT + k·PT.
  const got = arrivals(f, 2);
  assert.deepEqual(got.map(([src]) => src), [0, 1, 0, 1, 0, 1]);
  assert.deepEqual(got.map(([, , at]) => at), [0, 1, 2, 3, 4, 5].map((k) => 2.5 * PT + k * PT));
  assert.deepEqual(got.filter(([s]) => s === 0).map(([, id]) => id), a.map((p) => p.id));
  assert.equal(f.sw.counters().forwarded, 6);
});

test('issue 7 §2 crossbar speedup: a transfer takes packetTime / S of the output link; an output receives one packet at a time', () => {
  for (const [speedup, first, second] of [[1, 3 * PT, 4 * PT], [2, 2.5 * PT, 3.5 * PT], [4, 2.25 * PT, 3.25 * PT]] as const) {
    const f = singleSwitch({ ports: 3, queueing: 'output-queued', speedup, inputBuffer: { packets: 8 } });
    f.ends[0]?.send([packet(f.ids, 0, 2)]);
    f.ends[1]?.send([packet(f.ids, 1, 2)]);
    f.sched.run();
    // Arrivals at PT; the first transfer ends at PT + PT/S, the second PT/S later, before the
    // first has left the output link, so the link stays busy.
    assert.deepEqual(arrivals(f, 2).map(([, , at]) => at), [first, second], `speedup ${speedup}`);
  }
});

test('issue 7 §2 input FIFO: head-of-line blocking in a 2x2 example computed by hand', () => {
  // Inputs on ports 0, 1, outputs on ports 2, 3 (so that credits for the inputs do not share the
  // output links). Input 0 sends a → output 2; input 1 sends c → output 2 then d → output 3.
  const f = singleSwitch({ ports: 4, queueing: 'input-fifo', arbitration: 'fixed', inputBuffer: { packets: 8 } });
  const a = packet(f.ids, 0, 2);
  const c = packet(f.ids, 1, 2);
  const d = packet(f.ids, 1, 3);
  f.ends[0]?.send([a]);
  f.ends[1]?.send([c, d]);
  f.sched.run();
  // PT: a and c contend for output 2, fixed priority gives it to input 0; a crosses as it is
  // sent (outputQueue 0), until 2 PT. d arrives at 2 PT behind c: c goes at 2 PT, d only at
  // 3 PT, though output 3 was idle all along.
  assert.deepEqual(arrivals(f, 2), [[0, a.id, 2 * PT], [1, c.id, 3 * PT]]);
  assert.deepEqual(arrivals(f, 3), [[1, d.id, 4 * PT]]);
  // The same traffic through an output-queued switch with speedup 2 sends d at once.
  const g = singleSwitch({ ports: 4, queueing: 'output-queued', speedup: 2, inputBuffer: { packets: 8 } });
  g.ends[0]?.send([packet(g.ids, 0, 2)]);
  g.ends[1]?.send([packet(g.ids, 1, 2), packet(g.ids, 1, 3)]);
  g.sched.run();
  assert.deepEqual(arrivals(g, 3).map(([, , at]) => at), [3.5 * PT]);
  // With no output queue the packet crosses as it is sent: speedup changes nothing.
  const h = singleSwitch({ ports: 4, queueing: 'input-fifo', arbitration: 'fixed', speedup: 4, inputBuffer: { packets: 8 } });
  h.ends[0]?.send([packet(h.ids, 0, 2)]);
  h.ends[1]?.send([packet(h.ids, 1, 2), packet(h.ids, 1, 3)]);
  h.sched.run();
  assert.deepEqual(arrivals(h, 3).map(([, , at]) => at), [4 * PT]);
});

function contention(arbitration: Arbitration, seed = 1): number[] {
  const f = singleSwitch({ ports: 4, queueing: 'input-fifo', arbitration, inputBuffer: { packets: 8 } }, { seed });
  for (let i = 0; i < 3; i++) f.ends[i]?.send([0, 1, 2, 3].map(() => packet(f.ids, i, 3)));
  f.sched.run();
  return arrivals(f, 3).map(([src]) => src);
}

test('issue 7 §2 arbitration fixed: the lowest input number wins every contention', () => {
  assert.deepEqual(contention('fixed'), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
});

test('issue 7 §2 arbitration round-robin: the winner moves to the back of the order', () => {
  assert.deepEqual(contention('round-robin'), [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
});

test('issue 7 §2 arbitration random: winners drawn from the switch stream, reproducible from the seed', () => {
  const one = contention('random', 7);
  assert.deepEqual(contention('random', 7), one);
  assert.deepEqual([...one].sort(), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
  const orders = new Set([1, 2, 3, 4, 5, 6].map((s) => contention('random', s).join()));
  assert.ok(orders.size > 1, 'different seeds give different orders');
  assert.throws(() => new Switch(new Scheduler(), { name: 'r', ports: 2, queueing: 'input-fifo', arbitration: 'random', routes: {}, inputBuffer: { packets: 8 } }, { ids }), /r\.arbitration random needs options\.streams or arbitration\.seed/);
});

for (const queueing of ['output-queued', 'cioq-voq-backpressure', 'input-voq'] as const) {
  test(`Part 6 §5 priorities at the output (${queueing}): priority 3 … 0, CRF 1 before CRF 0 within a priority, FIFO within a class`, () => {
    const f = singleSwitch({ ports: 3, queueing, speedup: 4, inputBuffer: { packets: 16 }, ...(queueing === 'cioq-voq-backpressure' ? { voq: { high: 8, low: 1, generate: [] } } : {}) });
    // A long packet from input 0 (258 octets with its delimiter: 2 064 000 ps) holds output 2
    // while input 1's packets, sent once it has arrived, queue behind it (at the output, or in
    // input 1's VoQs for output 2).
    const big = packet(f.ids, 0, 2, { bytes: 250 });
    f.ends[0]?.send([big]);
    const bigArrives = 258 * 8000;
    const mix = [
      packet(f.ids, 1, 2, { prio: 0, crf: 0 }), packet(f.ids, 1, 2, { prio: 2, crf: 0 }), packet(f.ids, 1, 2, { prio: 0, crf: 1 }),
      packet(f.ids, 1, 2, { prio: 3, crf: 0 }), packet(f.ids, 1, 2, { prio: 2, crf: 1 }), packet(f.ids, 1, 2, { prio: 2, crf: 0 }),
    ];
    f.ends[1]?.send(mix, bigArrives);
    f.sched.run();
    const order = (f.ends[2] as Fabric['ends'][number]).got().map((r) => r.p.id);
    const [p00, p20, p01, p30, p21, p20b] = mix.map((p) => p.id);
    assert.deepEqual(order, [big.id, p30, p21, p20, p20b, p01, p00]);
  });
}

test('Part 6 §5 priorities at the input (output-queued): a packet held at its input by a full output queue does not hold back a higher priority', () => {
  const f = singleSwitch({ ports: 4, queueing: 'output-queued', outputBuffer: { packets: 1 }, speedup: 4, inputBuffer: { packets: 16 } });
  // End 2 never frees a buffer: once it holds 5 prio-0 packets (of 8 buffers, 3 are kept for
  // higher priorities) and output 2's one-packet queue is full, input 0's next prio-0 packets
  // for end 2 wait at the input; the prio-1 packet behind them for end 3 passes them.
  (f.ends[2] as Fabric['ends'][number]).serviceTime = Infinity;
  const toEnd2 = Array.from({ length: 8 }, () => packet(f.ids, 0, 2));
  const toEnd3 = packet(f.ids, 0, 3, { prio: 1 });
  f.ends[0]?.send([...toEnd2, toEnd3]);
  f.sched.run();
  assert.deepEqual(arrivals(f, 3).map(([, id]) => id), [toEnd3.id]);
  assert.equal(f.ends[2]?.got().length, 5);
  // One in output 2's queue, two at the input.
  assert.equal(f.sw.outputOccupancy(2), 1);
  assert.equal(f.sw.inputOccupancy(0), 2);
});

test('Part 6 §5 deadlock avoidance: the output sends a priority p packet only while more than (3 − p) × reserve buffers are free downstream', () => {
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', speedup: 4, inputBuffer: { packets: 16 } }, { endBuffers: { packets: 4, reservePerPriority: 1 } });
  // End 2 never frees a buffer. The long prio-0 packet takes one of its 4 buffers.
  (f.ends[2] as Fabric['ends'][number]).serviceTime = Infinity;
  f.ends[0]?.send([packet(f.ids, 0, 2, { bytes: 250 })]);
  const queued = [packet(f.ids, 1, 2, { prio: 0 }), packet(f.ids, 1, 2, { prio: 0 }), packet(f.ids, 1, 2, { prio: 2 }), packet(f.ids, 1, 2, { prio: 3 })];
  f.ends[1]?.send(queued, 258 * 8000);
  f.sched.run();
  // 3 free: prio 3 (needs > 0) goes, then prio 2 (needs > 1); with 1 free, prio 0 (needs > 3) waits.
  assert.deepEqual((f.ends[2] as Fabric['ends'][number]).got().map((r) => r.p.prio), [0, 3, 2]);
  assert.equal(f.sw.outputOccupancy(2), 2);
});

test('issue 7 §2 routing: a destination the table does not know is dropped, counted, and its buffer credited back', () => {
  const f = singleSwitch({ ports: 2, queueing: 'output-queued', inputBuffer: { packets: 8 } });
  f.ends[0]?.send([packet(f.ids, 0, 99), packet(f.ids, 0, 1)]);
  f.sched.run();
  assert.equal(f.sw.counters().noRoute, 1);
  assert.equal(f.probe.counts.get('switch.noRoute'), 1);
  assert.equal(arrivals(f, 1).length, 1);
  // Both buffers came back to end 0's link.
  assert.equal(f.ends[0]?.out?.free, 8);
});

test('issue 7 §2 routing: a route to a port with no link is no route', () => {
  const sched = new Scheduler();
  const sw = new Switch(sched, { name: 's', ports: 3, queueing: 'output-queued', routes: { 0: 0, 2: 2 }, inputBuffer: { packets: 8 } }, { ids });
  const f = { sched, sw };
  const end = endOn(f.sched, f.sw, 0, 0);
  end.send([packet(new Ids(), 0, 2)]);
  f.sched.run();
  assert.equal(sw.counters().noRoute, 1);
  assert.equal(end.out?.free, 8);
});

test('issue 7 §2 routing: the default route takes destinations the table does not list', () => {
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', routes: { 0: 0 }, defaultPort: 2, inputBuffer: { packets: 8 } });
  f.ends[0]?.send([packet(f.ids, 0, 77), packet(f.ids, 0, 1)]);
  f.sched.run();
  assert.deepEqual(arrivals(f, 2).map(([, id]) => id), [0, 1]);
  assert.equal(f.sw.counters().noRoute, 0);
});

test('McKeown 1999 (iSLIP), unslotted: an input and output left unmatched by the iterations are matched again at once', () => {
  // Inputs on ports 0–2, outputs on ports 4–6 (so that no output link carries an input's credits).
  const f = singleSwitch({ ports: 7, queueing: 'input-voq', iterations: 1, inputBuffer: { packets: 8 } });
  // Two long packets (2 064 000 ps on the wire) arrive together at 2 064 000: input 0 → output 4,
  // input 2 → output 6; both stream until T = 4 128 000, leaving accept[0] = 5 and grant[6] = 3.
  // Meanwhile a → 5 and b → 6 queue at input 0, d → 6 at input 1.
  const big = 258 * 8000;
  const T = 2 * big;
  const a = packet(f.ids, 0, 5);
  const b = packet(f.ids, 0, 6);
  const d = packet(f.ids, 1, 6);
  f.ends[0]?.send([packet(f.ids, 0, 4, { bytes: 250 }), a, b]);
  f.ends[2]?.send([packet(f.ids, 2, 6, { bytes: 250 })]);
  f.ends[1]?.send([d], big);
  f.sched.run();
  // At T outputs 5 and 6 both grant input 0 (output 6's pointer 3 wraps to it), which accepts
  // output 5: output 6 and input 1 are left unmatched and match at once, so d crosses from T,
  // and b follows when output 6 is free again.
  assert.deepEqual(arrivals(f, 5).map(([, id, at]) => [id, at]), [[a.id, T + PT]]);
  assert.deepEqual(arrivals(f, 6).filter(([src]) => src !== 2).map(([, id, at]) => [id, at]), [[d.id, T + PT], [b.id, T + 2 * PT]]);
});

test('issue 7 §2 slotted operation: decisions and output transmissions start only at multiples of the slot', () => {
  const slot = PT + SYMBOL + 12_000;
  const f = singleSwitch({ ports: 4, queueing: 'input-fifo', slot, inputBuffer: { packets: 8 } });
  f.ends[0]?.send([packet(f.ids, 0, 2), packet(f.ids, 0, 3)]);
  f.sched.run();
  // Arrivals at PT and 2 PT; they leave at the next slot boundaries, 1 and 2 slots.
  assert.deepEqual(arrivals(f, 2).map(([, , at]) => at), [slot + PT]);
  assert.deepEqual(arrivals(f, 3).map(([, , at]) => at), [2 * slot + PT]);
  // Credits go back at slot boundaries: end 0 has all its buffers again.
  assert.equal(f.ends[0]?.out?.free, 8);
});

test('issue 7 §2 slotted operation: a transfer occupies whole crossbar slots (slot / S)', () => {
  const slot = 400_000;
  const f = singleSwitch({ ports: 3, queueing: 'output-queued', slot, speedup: 2, inputBuffer: { packets: 8 } });
  f.ends[0]?.send([packet(f.ids, 0, 2)]);
  f.ends[1]?.send([packet(f.ids, 1, 2)]);
  f.sched.run();
  // Both arrive at PT; decision at the crossbar slot 200 000 ≥ PT → 400 000; each transfer is one
  // crossbar slot (PT ≤ slot); the output starts at slot boundaries: 800 000 and 1 200 000.
  assert.deepEqual(arrivals(f, 2).map(([, , at]) => at), [2 * slot + PT, 3 * slot + PT]);
});

test('issue 7 §2 switch config: bad fields are refused with the field named', () => {
  const base: SwitchConfig = { name: 's1', ports: 4, queueing: 'output-queued', routes: { 1: 1 }, inputBuffer: { packets: 8 } };
  const make = (c: Partial<SwitchConfig>): Switch => new Switch(new Scheduler(), { ...base, ...c }, { ids });
  assert.throws(() => make({ routes: { 1: 9 } }), /s1\.routes\[1\] must be an integer from 0 to 3/);
  assert.throws(() => make({ queueing: 'input-fifo', outputBuffer: { packets: 2 } }), /s1\.outputBuffer\.packets must be an integer from 0 to 1/);
  assert.throws(() => make({ speedup: 0.5 }), /s1\.speedup must be a number >= 1/);
  assert.throws(() => make({ slot: 1001, speedup: 2 }), /s1\.slot must be a multiple of the speedup/);
  assert.throws(() => make({ queueing: 'cioq-voq-backpressure' }), /s1\.voq must be given/);
  assert.throws(() => make({ queueing: 'cioq-voq-backpressure', voq: { high: 4, low: 1 }, defaultPort: 0 }), /s1\.defaultPort must be absent/);
  assert.throws(() => make({ congestion: { highWatermark: 2, lowWatermark: 4 } }), /s1\.congestion\.lowWatermark must be below highWatermark/);
  assert.throws(() => make({ inputBuffer: [{ packets: 8 }] }), /s1\.inputBuffer must have one entry per port/);
});

function voqContention(matcher: VoqMatcher, seed = 1): number[] {
  const f = singleSwitch({ ports: 4, queueing: 'input-voq', matcher, inputBuffer: { packets: 8 }, outputBuffer: { packets: 0 } }, { seed });
  for (let i = 0; i < 3; i++) f.ends[i]?.send([0, 1, 2, 3].map(() => packet(f.ids, i, 3)));
  f.sched.run();
  return arrivals(f, 3).map(([src]) => src);
}

test('issue 20 matcher pim: grants drawn from the switch stream, reproducible from the seed; the wave front rotates without drawing', () => {
  const one = voqContention('pim', 7);
  assert.deepEqual(voqContention('pim', 7), one);
  assert.deepEqual([...one].sort(), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
  const orders = new Set([1, 2, 3, 4, 5, 6].map((s) => voqContention('pim', s).join()));
  assert.ok(orders.size > 1, 'different seeds give different orders');
  assert.deepEqual(voqContention('wavefront', 1), voqContention('wavefront', 2));
  assert.throws(() => new Switch(new Scheduler(), { name: 'r', ports: 2, queueing: 'input-voq', matcher: 'pim', routes: {}, inputBuffer: { packets: 8 }, outputBuffer: { packets: 0 } }, { ids }), /r\.matcher pim needs options\.streams or arbitration\.seed/);
});
