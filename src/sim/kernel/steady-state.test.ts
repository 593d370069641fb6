import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SteadyState } from './steady-state.ts';

const make = (epsilon: number, windows: number): SteadyState => new SteadyState({ interval: 1, epsilon, windows, metric: () => 0 });

test('issue 7 §1: steady state once the relative change stays below ε for W consecutive windows', () => {
  const ss = make(0.01, 3);
  // Changes: 10 %, 0.5 %, 0.5 %, 5 % (resets), then three calm windows.
  const xs = [100, 110, 110.5, 111, 116.6, 116.7, 116.8, 116.9];
  const steady = xs.map((x) => ss.add(x));
  assert.deepEqual(steady, [false, false, false, false, false, false, false, true]);
  assert.equal(ss.steady, true);
  assert.equal(ss.samples, 8);
  assert.equal(ss.value, 116.9);
});

test('issue 7 §1: a change of exactly ε is not calm (strictly below)', () => {
  const ss = make(0.5, 1);
  assert.equal(ss.add(2), false);
  assert.equal(ss.add(3), false);
  assert.equal(ss.add(3), true);
});

test('issue 7 §1: steady-state decision: 0 → 0 is calm, 0 → x is not, NaN is never calm', () => {
  const ss = make(0.1, 2);
  ss.add(0);
  assert.equal(ss.add(0), false);
  assert.equal(ss.add(0), true);
  assert.equal(ss.add(1), false);
  assert.equal(ss.add(NaN), false);
  assert.equal(ss.add(NaN), false);
  assert.equal(ss.add(1), false);
  assert.equal(ss.add(1), false);
  assert.equal(ss.add(1), true);
  // Relative to |previous|, so a negative metric is measured by its magnitude.
  const neg = make(0.1, 1);
  neg.add(-10);
  assert.equal(neg.add(-10.5), true);
});

test('issue 7 §1: sample(now) reads the metric at the boundary; reset forgets the history', () => {
  const reads: number[] = [];
  const ss = new SteadyState({ interval: 5, epsilon: 0.5, windows: 1, metric: (now) => (reads.push(now), 7) });
  assert.equal(ss.sample(5), false);
  assert.equal(ss.sample(10), true);
  assert.deepEqual(reads, [5, 10]);
  ss.reset();
  assert.equal(ss.steady, false);
  assert.equal(ss.samples, 0);
  assert.ok(Number.isNaN(ss.value));
  assert.equal(ss.sample(15), false);
});

test('issue 7 §1: steady-state options are checked (RangeError naming the field)', () => {
  const metric = (): number => 1;
  assert.throws(() => new SteadyState({ interval: 0, epsilon: 0.1, windows: 1, metric }), /interval/);
  assert.throws(() => new SteadyState({ interval: 1.5, epsilon: 0.1, windows: 1, metric }), /interval/);
  assert.throws(() => new SteadyState({ interval: 1, epsilon: 0, windows: 1, metric }), /epsilon/);
  assert.throws(() => new SteadyState({ interval: 1, epsilon: Infinity, windows: 1, metric }), /epsilon/);
  assert.throws(() => new SteadyState({ interval: 1, epsilon: 0.1, windows: 0, metric }), /windows/);
  assert.throws(() => new SteadyState({ interval: 1, epsilon: 0.1, windows: 1, metric: 3 as unknown as () => number }), /metric/);
  assert.throws(() => new SteadyState({ interval: 1, epsilon: NaN, windows: 1, metric }), RangeError);
});
