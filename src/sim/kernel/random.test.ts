import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RandomStreams } from './random.ts';
import type { Rng } from './random.ts';

const N = 1_000_000;

/** Sample mean and (unbiased) variance of `n` draws. */
function moments(n: number, draw: () => number): { mean: number; variance: number } {
  let sum = 0;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const x = draw();
    sum += x;
    sq += x * x;
  }
  const mean = sum / n;
  return { mean, variance: (sq - n * mean * mean) / (n - 1) };
}

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
}

// Upper 0.1 % points of the chi-square distribution (df 4, 5, 9, 15): a fixed-seed test that
// fails only when the sampler is broken, not by bad luck.
const CHI2_999 = { 4: 18.467, 5: 20.515, 9: 27.877, 15: 37.697 } as const;

const rng = (name: string, seed = 0x5eed): Rng => new RandomStreams(seed).stream(name);

test('issue 7 §1: a stream replays exactly from (seed, name): pinned first values', () => {
  const r = rng('source/0', 42);
  assert.deepEqual([r.next(), r.next(), r.int(1000), r.int(2 ** 40)], [0.016683439237415554, 0.294007988302463, 449, 707095549618]);
  const a = rng('x', 1);
  const b = rng('x', 1);
  for (let i = 0; i < 1000; i++) assert.equal(a.next(), b.next());
});

test('issue 7 §1: a stream does not depend on which other streams exist or their creation order', () => {
  const one = new RandomStreams(9);
  const a1 = one.stream('a');
  const b1 = one.stream('b');
  const two = new RandomStreams(9);
  for (let i = 0; i < 50; i++) two.stream(`noise/${i}`).next();
  const b2 = two.stream('b');
  const a2 = two.stream('a');
  for (let i = 0; i < 1000; i++) {
    assert.equal(a1.next(), a2.next());
    assert.equal(b1.int(97), b2.int(97));
  }
  assert.deepEqual(two.names().slice(-2), ['b', 'a']);
});

test('issue 7 §1: stream(name) asked twice returns the same stream, continuing', () => {
  const s = new RandomStreams(3);
  const r = s.stream('port/1');
  const first = r.next();
  assert.equal(s.stream('port/1'), r);
  assert.notEqual(s.stream('port/1').next(), first);
  assert.equal(s.names().length, 1);
});

test('issue 7 §1: different names and different seeds give different, uncorrelated streams', () => {
  const a = rng('a');
  const b = rng('b');
  const c = rng('a', 0x5eee);
  let sab = 0;
  let sac = 0;
  const n = 200_000;
  for (let i = 0; i < n; i++) {
    const x = a.next() - 0.5;
    sab += x * (b.next() - 0.5);
    sac += x * (c.next() - 0.5);
  }
  // Correlation coefficient = sum / (n / 12); its standard deviation is 1 / sqrt(n).
  const bound = 5 / Math.sqrt(n);
  assert.ok(Math.abs(sab / (n / 12)) < bound, `corr(a, b) = ${sab / (n / 12)}`);
  assert.ok(Math.abs(sac / (n / 12)) < bound, `corr(a, a') = ${sac / (n / 12)}`);
});

test('issue 7 §1: next() is uniform on [0, 1): mean 1/2, variance 1/12, lag-1 correlation 0', () => {
  const r = rng('uniform');
  let lo = 1;
  let hi = 0;
  let prev = r.next();
  let lag = 0;
  const m = moments(N, () => {
    const x = r.next();
    lo = Math.min(lo, x);
    hi = Math.max(hi, x);
    lag += (x - 0.5) * (prev - 0.5);
    prev = x;
    return x;
  });
  // 5 standard errors: sqrt(1/12/N) for the mean, sqrt((1/80 − 1/144)/N) for the variance.
  assert.ok(Math.abs(m.mean - 0.5) < 5 * Math.sqrt(1 / 12 / N), `mean ${m.mean}`);
  assert.ok(Math.abs(m.variance - 1 / 12) < 5 * Math.sqrt((1 / 80 - 1 / 144) / N), `variance ${m.variance}`);
  assert.ok(Math.abs(lag / (N / 12)) < 5 / Math.sqrt(N), `lag-1 correlation ${lag / (N / 12)}`);
  assert.ok(lo >= 0 && lo < 1e-4 && hi < 1 && hi > 1 - 1e-4);
});

test('issue 7 §1: int(n) passes chi-square for small n (Lemire path, with rejection)', () => {
  for (const n of [10, 6]) {
    const r = rng(`int/${n}`);
    const counts = new Array<number>(n).fill(0);
    for (let i = 0; i < N; i++) counts[r.int(n)]!++;
    const df = (n - 1) as 9 | 5;
    assert.ok(chiSquare(counts) < CHI2_999[df], `n=${n}: chi2 ${chiSquare(counts)}`);
  }
  const one = rng('int/1');
  for (let i = 0; i < 100; i++) assert.equal(one.int(1), 0);
});

test('issue 7 §1: int(n) passes chi-square for large n (53-bit path) and stays below n', () => {
  const n = 3 * 2 ** 40;
  const r = rng('int/large');
  const counts = new Array<number>(16).fill(0);
  for (let i = 0; i < 400_000; i++) {
    const v = r.int(n);
    assert.ok(Number.isInteger(v) && v >= 0 && v < n);
    counts[Math.floor(v / (n / 16))]!++;
  }
  assert.ok(chiSquare(counts) < CHI2_999[15], `chi2 ${chiSquare(counts)}`);
  const edge = rng('int/edge');
  for (const m of [2 ** 21, 2 ** 21 + 1, Number.MAX_SAFE_INTEGER]) {
    for (let i = 0; i < 1000; i++) {
      const v = edge.int(m);
      assert.ok(Number.isInteger(v) && v >= 0 && v < m);
    }
  }
});

test('issue 7 §1: bernoulli(p) has frequency p; p = 0 and p = 1 are certain', () => {
  const r = rng('bernoulli');
  let k = 0;
  for (let i = 0; i < N; i++) if (r.bernoulli(0.3)) k++;
  assert.ok(Math.abs(k / N - 0.3) < 5 * Math.sqrt((0.3 * 0.7) / N), `frequency ${k / N}`);
  for (let i = 0; i < 1000; i++) {
    assert.equal(r.bernoulli(0), false);
    assert.equal(r.bernoulli(1), true);
  }
});

test('issue 7 §1: exponential(mean) has that mean and variance mean², never negative', () => {
  const r = rng('exponential');
  const mean = 3;
  let min = Infinity;
  const m = moments(N, () => {
    const x = r.exponential(mean);
    min = Math.min(min, x);
    return x;
  });
  // Standard errors: mean/sqrt(N) for the mean, mean²·sqrt(8/N) for the variance (μ4 = 9 mean⁴).
  assert.ok(Math.abs(m.mean - mean) < (5 * mean) / Math.sqrt(N), `mean ${m.mean}`);
  assert.ok(Math.abs(m.variance - mean * mean) < 5 * mean * mean * Math.sqrt(8 / N), `variance ${m.variance}`);
  assert.ok(min >= 0 && !Object.is(min, -0));
});

test('issue 7 §1: geometric(p) counts trials to the first success: mean 1/p, variance (1−p)/p², P(X=1) = p', () => {
  const r = rng('geometric');
  const p = 0.2;
  let ones = 0;
  let min = Infinity;
  const m = moments(N, () => {
    const x = r.geometric(p);
    if (x === 1) ones++;
    min = Math.min(min, x);
    return x;
  });
  const v = (1 - p) / (p * p);
  assert.ok(Math.abs(m.mean - 1 / p) < 5 * Math.sqrt(v / N), `mean ${m.mean}`);
  // The sample variance's standard error is σ²·sqrt((κ + 2)/N), κ = 6 + p²/(1−p) the excess kurtosis.
  assert.ok(Math.abs(m.variance - v) < 5 * v * Math.sqrt((8 + (p * p) / (1 - p)) / N), `variance ${m.variance}`);
  assert.ok(Math.abs(ones / N - p) < 5 * Math.sqrt((p * (1 - p)) / N), `P(X=1) ${ones / N}`);
  assert.equal(min, 1);
  for (let i = 0; i < 100; i++) assert.equal(r.geometric(1), 1);
  // Alternating p values must not reuse a cached log for the wrong p.
  const alt = moments(200_000, () => r.geometric(0.5) + r.geometric(0.25));
  assert.ok(Math.abs(alt.mean - 6) < 0.05, `mean ${alt.mean}`);
});

test('issue 7 §1: choice picks every element equally often', () => {
  const r = rng('choice');
  const items = ['a', 'b', 'c', 'd', 'e'] as const;
  const counts = new Map<string, number>(items.map((x) => [x, 0]));
  for (let i = 0; i < 500_000; i++) {
    const x = r.choice(items);
    counts.set(x, counts.get(x)! + 1);
  }
  assert.ok(chiSquare([...counts.values()]) < CHI2_999[4]);
});

test('issue 7 §1: shuffle is an in-place permutation, each of the 3! orders equally likely', () => {
  const r = rng('shuffle');
  const counts = new Map<string, number>();
  for (let i = 0; i < 120_000; i++) {
    const a = [0, 1, 2];
    assert.equal(r.shuffle(a), a);
    const key = a.join('');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  assert.equal(counts.size, 6);
  assert.ok(chiSquare([...counts.values()]) < CHI2_999[5], `chi2 ${chiSquare([...counts.values()])}`);
  const big = Array.from({ length: 1000 }, (_, i) => i);
  r.shuffle(big);
  assert.deepEqual([...big].sort((x, y) => x - y), Array.from({ length: 1000 }, (_, i) => i));
  assert.deepEqual(r.shuffle([]), []);
  assert.deepEqual(r.shuffle(['only']), ['only']);
});

test('issue 7 §1: bad arguments throw RangeError naming the argument', () => {
  assert.throws(() => new RandomStreams(1.5), /seed/);
  assert.throws(() => new RandomStreams(2 ** 53), /seed/);
  assert.throws(() => new RandomStreams(NaN), RangeError);
  const r = rng('errors');
  for (const n of [0, -1, 1.5, NaN, Infinity, 2 ** 53]) assert.throws(() => r.int(n), /n must be/);
  for (const p of [-0.1, 1.1, NaN]) assert.throws(() => r.bernoulli(p), /p must be/);
  for (const p of [0, -1, 1.5, NaN]) assert.throws(() => r.geometric(p), /p must be/);
  for (const mean of [0, -2, Infinity, NaN]) assert.throws(() => r.exponential(mean), /mean must be/);
  assert.throws(() => r.choice([]), /items/);
  assert.equal(typeof r.next(), 'number');
});
