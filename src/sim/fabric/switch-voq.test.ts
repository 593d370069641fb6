import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ids, PT, RecordingProbe, endOn, linkSwitches, packet, singleSwitch } from '../../../test/support/sim-switch.ts';
import type { TestEnd } from '../../../test/support/sim-switch.ts';
import { voqSymbol } from '../../wire/voq-stype2.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { Switch } from './switch.ts';
import type { Queueing } from '../../node/switch/config-types.ts';

const A = 10;
const B = 11;
const X = 20;
const Y = 21;

/**
 * Two switches. s1: end A on port 0, end B on port 1, port 2 to s2's port 0. s2: end X on port
 * 1 (slow), end Y on port 2. A sends to X, B to Y: both cross the s1–s2 link, and X cannot keep
 * up. s1 stages by s2's egress port (routes' `next`).
 */
function twoStage(queueing: Queueing, packets = 40): { sched: Scheduler; s1: Switch; s2: Switch; ends: { A: TestEnd; B: TestEnd; X: TestEnd; Y: TestEnd }; probe: RecordingProbe } {
  const sched = new Scheduler();
  const ids = new Ids();
  const probe = new RecordingProbe();
  const voq = queueing === 'cioq-voq-backpressure';
  const common = { ports: 3, queueing, speedup: 2, outputBuffer: { packets: 8 }, inputBuffer: { packets: 8 } } as const;
  const s1 = new Switch(sched, {
    ...common, name: 's1',
    routes: { [A]: 0, [B]: 1, [X]: { port: 2, next: 1 }, [Y]: { port: 2, next: 2 } },
    ...(voq ? { voq: { high: 6, low: 2, generate: [] } } : {}),
  }, { ids, probe });
  const s2 = new Switch(sched, {
    ...common, name: 's2',
    routes: { [A]: 0, [B]: 0, [X]: 1, [Y]: 2 },
    ...(voq ? { voq: { high: 4, low: 1, generate: [0] } } : {}),
  }, { ids, probe });
  linkSwitches(sched, s1, 2, s2, 0);
  const ends = { A: endOn(sched, s1, 0, A), B: endOn(sched, s1, 1, B), X: endOn(sched, s2, 1, X), Y: endOn(sched, s2, 2, Y) };
  ends.X.serviceTime = 4 * PT;
  ends.A.send(Array.from({ length: packets }, () => packet(ids, A, X)));
  ends.B.send(Array.from({ length: packets }, () => packet(ids, B, Y)));
  return { sched, s1, s2, ends, probe };
}

test('VoQ Backpressure §2.3, §4.3 b: the upstream staging queue for a congested downstream port stops while other traffic passes', () => {
  const t = twoStage('cioq-voq-backpressure');
  const horizon = 40 * PT;
  let sawBlocked = false;
  let yWhileBlocked = 0;
  // Sample s1's staging for its output 2 every PT: queue 1 holds traffic for s2's port 1 (X), queue 2 for port 2 (Y).
  for (let at = PT; at <= horizon; at += PT) {
    const before = t.ends.Y.received.length;
    t.sched.run({ until: at });
    if (t.s1.stagingBlocked(2, 1)) {
      sawBlocked = true;
      assert.equal(t.s1.stagingBlocked(2, 2), false);
      yWhileBlocked += t.ends.Y.received.length - before;
    }
  }
  assert.ok(sawBlocked, 's1 blocked the staging queue for X');
  assert.ok(yWhileBlocked > 5, `Y kept receiving while X's queue was blocked (${yWhileBlocked})`);
  assert.ok((t.probe.counts.get('voq.blocked') ?? 0) >= 1);
  t.sched.run();
  // Nothing lost: every packet arrives, in order.
  assert.equal(t.ends.X.got().length, 40);
  assert.equal(t.ends.Y.got().length, 40);
  assert.deepEqual(t.ends.X.got().map((r) => r.p.id), [...t.ends.X.got().map((r) => r.p.id)].sort((a, b) => a - b));
  assert.equal(t.s1.stagingBlocked(2, 1), false);
});

test('VoQ Backpressure §1: without backpressure the slow destination holds the fast one back (head-of-line blocking across two stages)', () => {
  const horizon = 160 * PT;
  const delivered = (q: Queueing): number => {
    const t = twoStage(q, 160);
    t.sched.run({ until: horizon });
    return t.ends.Y.got().length;
  };
  const plain = delivered('output-queued');
  const backpressure = delivered('cioq-voq-backpressure');
  // Without it, s2's output queue for X fills and X's packets wait in s2's input buffer ahead of
  // Y's, so Y gets about X's rate (1 per 4 PT, 51 of 160 PT here). With it, the X traffic waits
  // in s1's staging queue for X and Y has the rest of the link (109 here).
  assert.ok(plain < 60, `Y got ${plain} without backpressure`);
  assert.ok(backpressure >= 1.8 * plain, `Y got ${backpressure} with VoQ backpressure, ${plain} without`);
});

test('VoQ Backpressure §4.2 e: the downstream switch sends a message when its output queue crosses the watermarks, on the links with generation enabled only', () => {
  const t = twoStage('cioq-voq-backpressure');
  t.sched.run();
  const s2 = t.s2.counters();
  // Congested then clear (at least): each a symbol on port 0 (to s1); none to the end points.
  assert.ok(s2.voqSymbolsSent >= 2 && s2.voqSymbolsSent % 2 === 0, `${s2.voqSymbolsSent} symbols`);
  assert.equal(t.s1.counters().voqSymbolsReceived, s2.voqSymbolsSent);
  assert.deepEqual(t.ends.X.symbols, []);
  assert.deepEqual(t.ends.Y.symbols, []);
  assert.equal(t.s1.counters().voqBlocked, t.s1.counters().voqUnblocked);
  assert.equal(t.probe.counts.get('voq.symbolsSent'), s2.voqSymbolsSent);
});

test('VoQ Backpressure §2.2, §2.3: a message from downstream blocks the staging queue its forward lookup used; the all-clear restarts it', () => {
  // End 0 plays the downstream device: port 0 of its own (the end point's only port) congested,
  // then clear (seed format, group 0, status bit 0).
  const f = singleSwitch({ ports: 3, queueing: 'cioq-voq-backpressure', inputBuffer: { packets: 8 }, voq: { high: 8, low: 1, generate: [] } });
  const end0 = f.ends[0] as TestEnd;
  const clearAt = 20 * PT;
  f.sched.schedule(0, { onEvent: (_k, _d, now) => { end0.out?.sendSymbol({ kind: 'voq', stype2: voqSymbol({ group: 0, congestedOffsets: [0] }) }, now); } }, 0);
  f.sched.schedule(clearAt, { onEvent: (_k, _d, now) => { end0.out?.sendSymbol({ kind: 'voq', stype2: voqSymbol({ group: 0, congestedOffsets: [] }) }, now); } }, 0);
  f.ends[1]?.send([packet(f.ids, 1, 0), packet(f.ids, 1, 0), packet(f.ids, 1, 2)], PT);
  f.sched.run({ until: clearAt });
  assert.equal(f.sw.stagingBlocked(0, 0), true);
  assert.deepEqual(end0.got(), []);
  // Traffic for another output is not held.
  assert.equal(f.ends[2]?.got().length, 1);
  f.sched.run();
  assert.equal(f.sw.stagingBlocked(0, 0), false);
  assert.equal(end0.got().length, 2);
  assert.ok((end0.got()[0]?.at ?? 0) > clearAt);
  assert.deepEqual([f.sw.counters().voqBlocked, f.sw.counters().voqUnblocked], [1, 1]);
});

test('Part 9 §2.4.2 with VoQ staging: the switch\'s own CCPs are control traffic, not staged, and pass a blocked staging queue', () => {
  const f = singleSwitch({ ports: 3, queueing: 'cioq-voq-backpressure', inputBuffer: { packets: 8 }, voq: { high: 8, low: 1, generate: [] }, congestion: { highWatermark: 2, lowWatermark: 0 } });
  const end0 = f.ends[0] as TestEnd;
  (f.ends[2] as TestEnd).serviceTime = 4 * PT;
  // End 0 stops everything for itself, then congests output 2.
  f.sched.schedule(0, { onEvent: (_k, _d, now) => { end0.out?.sendSymbol({ kind: 'voq', stype2: voqSymbol({ group: 0, congestedOffsets: [0] }) }, now); } }, 0);
  f.ends[1]?.send([packet(f.ids, 1, 0)], PT);
  end0.send(Array.from({ length: 14 }, () => packet(f.ids, 0, 2)), PT);
  f.sched.run({ until: 100 * PT });
  const ccps = end0.got('ccp').map((r) => (r.p.wire as Type7Packet).command);
  assert.deepEqual(ccps, ['XOFF', 'XON']);
  // End 1's data packet for end 0 is still staged.
  assert.deepEqual(end0.got(), []);
  assert.equal(f.sw.outputOccupancy(0), 1);
});

test('VoQ Backpressure §4.1 c: a switch that does not stage (not cioq-voq-backpressure) ignores VoQ symbols, counted', () => {
  const f = singleSwitch({ ports: 2, queueing: 'output-queued', inputBuffer: { packets: 8 } });
  const end0 = f.ends[0] as TestEnd;
  f.sched.schedule(0, { onEvent: (_k, _d, now) => { end0.out?.sendSymbol({ kind: 'voq', stype2: voqSymbol({ group: 0, congestedOffsets: [1] }) }, now); } }, 0);
  f.ends[1]?.send([packet(f.ids, 1, 0)], PT);
  f.sched.run();
  assert.deepEqual([f.sw.counters().voqSymbolsReceived, f.sw.counters().voqIgnored], [1, 1]);
  assert.equal(end0.got().length, 1);
});

test('VoQ Backpressure §4.2 f: with a refresh period the generator resends every group of its links on a timer, run on the scheduler', () => {
  const f = singleSwitch({ ports: 2, queueing: 'cioq-voq-backpressure', inputBuffer: { packets: 8 }, voq: { high: 4, low: 1, generate: [0], refreshPeriod: 10 * PT } });
  // The first depth change starts the timer (an engine cannot output from its constructor).
  f.ends[0]?.send([packet(f.ids, 0, 1)]);
  f.sched.run({ until: 56 * PT });
  // Armed at 2 PT (the packet entered output 1's queue), due at 12, 22, 32, 42, 52 PT: one group (ports 0–5) each time.
  assert.equal(f.ends[0]?.symbols.length, 5);
  assert.equal(f.ends[1]?.symbols.length, 0);
  assert.equal(f.sw.counters().voqSymbolsSent, 5);
});
