import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from './scheduler.ts';
import type { Target } from './scheduler.ts';
import { SteadyState } from './steady-state.ts';

/** Records (now, kind, data) of every event it receives. */
class Recorder implements Target {
  readonly log: [number, number, unknown][] = [];
  onEvent(kind: number, data: unknown, now: number): void {
    this.log.push([now, kind, data]);
  }
}

test('issue 7 §1: events run in time order, whatever the order they were scheduled in', () => {
  const s = new Scheduler();
  const r = new Recorder();
  for (const at of [50, 10, 40, 20, 30]) s.schedule(at, r, at);
  const res = s.run();
  assert.deepEqual(r.log.map((e) => e[0]), [10, 20, 30, 40, 50]);
  assert.deepEqual(res, { reason: 'empty', now: 50, events: 5 });
});

test('issue 7 §1: ties at equal time run in scheduling order', () => {
  const s = new Scheduler({ capacity: 2 });
  const r = new Recorder();
  // Enough ties, interleaved with other times, to move entries through several heap levels.
  for (let i = 0; i < 200; i++) s.schedule(i % 3 === 0 ? 7 : 7 + (i % 5), r, i);
  s.run();
  const at7 = r.log.filter((e) => e[0] === 7).map((e) => e[1]);
  assert.deepEqual(at7, [...at7].sort((a, b) => a - b));
  assert.equal(at7.length, 200 - [...Array(200).keys()].filter((i) => i % 3 !== 0 && i % 5 !== 0).length);
  for (let i = 1; i < r.log.length; i++) {
    const [t0, k0] = r.log[i - 1]!;
    const [t1, k1] = r.log[i]!;
    assert.ok(t0 < t1 || (t0 === t1 && k0 < k1), `event ${i} out of (time, seq) order`);
  }
});

test('issue 7 §1: an event scheduled by a handler for the current time runs after those already due', () => {
  const s = new Scheduler();
  const order: string[] = [];
  const t: Target = {
    onEvent(kind) {
      order.push(`k${kind}`);
      if (kind === 1) s.after(0, t, 3);
    },
  };
  s.schedule(5, t, 1);
  s.schedule(5, t, 2);
  s.run();
  assert.deepEqual(order, ['k1', 'k2', 'k3']);
});

test('issue 7 §1: the handler gets kind, data and now; data is undefined when omitted', () => {
  const s = new Scheduler();
  const r = new Recorder();
  const payload = { x: 1 };
  s.schedule(3, r, 9, payload);
  s.after(4, r, -2);
  s.run();
  assert.deepEqual(r.log, [[3, 9, payload], [4, -2, undefined]]);
  assert.equal(r.log[0]![2], payload);
});

test('issue 7 §1: a cancelled event does not run; cancel returns true once', () => {
  const s = new Scheduler();
  const r = new Recorder();
  const a = s.schedule(10, r, 1);
  s.schedule(20, r, 2);
  assert.equal(s.pending, 2);
  assert.equal(s.cancel(a), true);
  assert.equal(s.cancel(a), false);
  assert.equal(s.pending, 1);
  s.run();
  assert.deepEqual(r.log.map((e) => e[1]), [2]);
});

test('issue 7 §1: cancelling an event that already ran, or an id never issued, is false and harmless', () => {
  const s = new Scheduler();
  const r = new Recorder();
  const a = s.schedule(1, r, 1);
  s.run();
  assert.equal(s.cancel(a), false);
  for (const bogus of [-1, 0.5, NaN, Infinity, 2 ** 60, 123456]) assert.equal(s.cancel(bogus), false);
  // The slot of `a` is reused by `b`: the stale id must not cancel it.
  const b = s.schedule(2, r, 2);
  assert.notEqual(a, b);
  assert.equal(s.cancel(a), false);
  s.run();
  assert.deepEqual(r.log.map((e) => e[1]), [1, 2]);
});

test('issue 7 §1: a handler can cancel a timer that is pending at the same time', () => {
  const s = new Scheduler();
  const r = new Recorder();
  let timer = -1;
  const canceller: Target = {
    onEvent() {
      assert.equal(s.cancel(timer), true);
    },
  };
  s.schedule(5, canceller, 0);
  timer = s.schedule(5, r, 1);
  s.run();
  assert.deepEqual(r.log, []);
});

test('issue 7 §1: ids of a slot that reached the generation limit are never reissued', () => {
  const s = new Scheduler({ capacity: 1, generationLimit: 3 });
  const r = new Recorder();
  const ids = new Set<number>();
  for (let i = 0; i < 10; i++) {
    const id = s.after(1, r, i);
    assert.ok(!ids.has(id), `id ${id} reissued`);
    ids.add(id);
    s.run();
  }
  assert.equal(r.log.length, 10);
  for (const id of ids) assert.equal(s.cancel(id), false);
});

test('issue 7 §1: mass cancellation compacts the heap and keeps (time, seq) order', () => {
  const s = new Scheduler();
  const r = new Recorder();
  const ids: number[] = [];
  for (let i = 0; i < 5000; i++) ids.push(s.schedule(1000 + ((i * 7919) % 4999), r, i));
  let kept = 0;
  for (let i = 0; i < ids.length; i++) {
    if (i % 10 === 0) kept++;
    else assert.equal(s.cancel(ids[i]!), true);
  }
  assert.equal(s.pending, kept);
  s.run();
  assert.equal(r.log.length, kept);
  assert.ok(r.log.every((e) => e[1] % 10 === 0));
  for (let i = 1; i < r.log.length; i++) assert.ok(r.log[i - 1]![0] < r.log[i]![0] || (r.log[i - 1]![0] === r.log[i]![0] && r.log[i - 1]![1] < r.log[i]![1]));
});

test('issue 7 §1: the heap grows past its initial capacity without losing events', () => {
  const s = new Scheduler({ capacity: 1 });
  const r = new Recorder();
  for (let i = 0; i < 3000; i++) s.schedule(3000 - i, r, i);
  assert.equal(s.pending, 3000);
  assert.equal(s.nextTime(), 1);
  s.run();
  assert.deepEqual(r.log.map((e) => e[0]), Array.from({ length: 3000 }, (_, i) => i + 1));
});

test('issue 7 §1: stop condition until T runs every event before T, leaves those at T, ends at now = T', () => {
  const s = new Scheduler();
  const r = new Recorder();
  for (const at of [5, 9, 10, 11]) s.schedule(at, r, at);
  assert.deepEqual(s.run({ until: 10 }), { reason: 'time', now: 10, events: 2 });
  assert.equal(s.pending, 2);
  assert.deepEqual(s.run({ until: 10 }), { reason: 'time', now: 10, events: 0 });
  assert.deepEqual(s.run({ until: 100 }), { reason: 'time', now: 100, events: 2 });
  assert.deepEqual(r.log.map((e) => e[0]), [5, 9, 10, 11]);
});

test('issue 7 §1: with until, an empty queue still advances the clock to T (nothing can happen before T)', () => {
  const s = new Scheduler();
  assert.deepEqual(s.run({ until: 1_000 }), { reason: 'time', now: 1_000, events: 0 });
  const r = new Recorder();
  const id = s.schedule(1_500, r, 1);
  s.cancel(id);
  assert.deepEqual(s.run({ until: 2_000 }), { reason: 'time', now: 2_000, events: 0 });
});

test('issue 7 §1: stop condition after E events', () => {
  const s = new Scheduler();
  const r = new Recorder();
  for (let i = 1; i <= 10; i++) s.schedule(i, r, i);
  assert.deepEqual(s.run({ events: 3 }), { reason: 'events', now: 3, events: 3 });
  assert.deepEqual(s.run({ events: 0 }), { reason: 'events', now: 3, events: 0 });
  assert.deepEqual(s.run({ events: 100 }), { reason: 'empty', now: 10, events: 7 });
  assert.equal(s.dispatched, 10);
});

test('issue 7 §1: the predicate is checked every K events and ends the run when true', () => {
  const s = new Scheduler();
  const r = new Recorder();
  for (let i = 1; i <= 100; i++) s.schedule(i, r, i);
  const seen: number[] = [];
  const res = s.run({
    when: (now, events) => {
      seen.push(events);
      assert.equal(now, events);
      return now >= 35;
    },
    every: 10,
  });
  assert.deepEqual(seen, [10, 20, 30, 40]);
  assert.deepEqual(res, { reason: 'predicate', now: 40, events: 40 });
  const every1: number[] = [];
  s.run({ when: (_n, e) => (every1.push(e), e === 2) });
  assert.deepEqual(every1, [1, 2]);
});

test('issue 7 §1: a handler calling stop() ends the run after that event', () => {
  const s = new Scheduler();
  const r = new Recorder();
  const stopper: Target = {
    onEvent() {
      s.stop();
    },
  };
  s.schedule(1, r, 1);
  s.schedule(2, stopper, 2);
  s.schedule(2, r, 3);
  assert.deepEqual(s.run(), { reason: 'stopped', now: 2, events: 2 });
  s.stop();
  assert.deepEqual(s.run(), { reason: 'empty', now: 2, events: 1 });
  assert.equal(r.log.length, 2);
});

test('issue 7 §1: stop condition steady state samples at interval boundaries after the events before them', () => {
  const s = new Scheduler();
  let served = 0;
  const server: Target = {
    onEvent() {
      served++;
      s.after(10, server, 0);
    },
  };
  s.schedule(0, server, 0);
  const samples: [number, number][] = [];
  const ss = new SteadyState({
    interval: 100,
    epsilon: 0.02,
    windows: 3,
    metric: (now) => {
      samples.push([now, served]);
      return served / now;
    },
  });
  const res = s.run({ steady: ss, until: 1_000_000 });
  assert.equal(res.reason, 'steady');
  // Events at 0, 10, ..., 90 precede the sample at 100; the one at 100 has not run yet.
  assert.deepEqual(samples[0], [100, 10]);
  assert.equal(res.now % 100, 0);
  assert.equal(res.now, samples.at(-1)![0]);
  assert.ok(ss.steady);
  assert.ok(samples.length >= 4);
});

test('issue 7 §1: steady sampling stops at until when the metric never settles', () => {
  const s = new Scheduler();
  let k = 0;
  const ss = new SteadyState({ interval: 10, epsilon: 0.01, windows: 2, metric: () => (k++ % 2 === 0 ? 1 : 2) });
  const res = s.run({ steady: ss, until: 95 });
  assert.deepEqual(res, { reason: 'time', now: 95, events: 0 });
  assert.equal(ss.samples, 9);
  assert.equal(ss.steady, false);
});

test('issue 7 §1: an empty queue with no until ends the run with reason empty', () => {
  const s = new Scheduler();
  assert.deepEqual(s.run(), { reason: 'empty', now: 0, events: 0 });
  const r = new Recorder();
  const id = s.schedule(7, r, 0);
  s.cancel(id);
  assert.deepEqual(s.run({ steady: new SteadyState({ interval: 1, epsilon: 0.1, windows: 1, metric: () => 1 }) }), { reason: 'empty', now: 0, events: 0 });
  assert.equal(s.nextTime(), undefined);
});

test('issue 7 §1: time must be an integer not in the past (RangeError)', () => {
  const s = new Scheduler();
  const r = new Recorder();
  s.schedule(100, r, 0);
  s.run({ until: 50 });
  assert.throws(() => s.schedule(49, r, 0), RangeError);
  assert.throws(() => s.schedule(50.5, r, 0), RangeError);
  assert.throws(() => s.schedule(NaN, r, 0), RangeError);
  assert.throws(() => s.schedule(2 ** 53, r, 0), RangeError);
  assert.throws(() => s.after(-1, r, 0), RangeError);
  assert.throws(() => s.after(0.25, r, 0), RangeError);
  assert.throws(() => s.after(Number.MAX_SAFE_INTEGER, r, 0), RangeError);
  assert.throws(() => s.schedule(60, r, 1.5), RangeError);
  assert.throws(() => s.schedule(60, r, 2 ** 31), RangeError);
  assert.throws(() => s.run({ until: 49 }), RangeError);
  assert.throws(() => s.run({ until: 60.5 }), RangeError);
  assert.throws(() => s.run({ events: -1 }), RangeError);
  assert.throws(() => s.run({ when: () => false, every: 0 }), RangeError);
  assert.throws(() => s.run({ every: 3 }), RangeError);
  assert.throws(() => s.run({ steady: { interval: 0, sample: () => true } }), RangeError);
  assert.throws(() => new Scheduler({ capacity: 0 }), RangeError);
  assert.throws(() => new Scheduler({ capacity: 2 ** 25 }), RangeError);
  assert.throws(() => new Scheduler({ generationLimit: 2 ** 30 }), RangeError);
  assert.equal(s.schedule(50, r, 0) >= 0, true);
  assert.equal(s.pending, 2);
});

test('issue 7 §1: run cannot be called from a handler; the scheduler stays usable', () => {
  const s = new Scheduler();
  let caught: unknown;
  const t: Target = {
    onEvent() {
      try {
        s.run();
      } catch (e) {
        caught = e;
      }
    },
  };
  s.schedule(1, t, 0);
  s.run();
  assert.ok(caught instanceof Error);
  const r = new Recorder();
  s.after(1, r, 5);
  assert.deepEqual(s.run(), { reason: 'empty', now: 2, events: 1 });
});

test('issue 7 §1: a handler that throws leaves the scheduler consistent', () => {
  const s = new Scheduler();
  const r = new Recorder();
  const bad: Target = {
    onEvent() {
      throw new Error('boom');
    },
  };
  s.schedule(1, bad, 0);
  s.schedule(2, r, 1);
  assert.throws(() => s.run(), /boom/);
  assert.equal(s.now, 1);
  assert.equal(s.pending, 1);
  assert.deepEqual(s.run(), { reason: 'empty', now: 2, events: 1 });
});

test('issue 7 §1: determinism: the same model run twice gives the same trace', () => {
  const trace = (): string => {
    const s = new Scheduler({ capacity: 4 });
    const out: string[] = [];
    let x = 12345;
    const t: Target = {
      onEvent(kind, _d, now) {
        out.push(`${now}:${kind}`);
        // A fixed arithmetic sequence, not Math.random: the trace is part of the assertion.
        x = (x * 1103515245 + 12345) % 2147483648;
        if (out.length < 2000) {
          const id = s.after(x % 50, t, kind);
          if (x % 7 === 0) s.cancel(id);
          s.after(x % 13, t, kind + 1);
        }
      },
    };
    for (let i = 0; i < 5; i++) s.schedule(i % 2, t, i * 100);
    s.run({ events: 5000 });
    return out.join(',');
  };
  assert.equal(trace(), trace());
});
