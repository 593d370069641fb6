import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram } from './histogram.ts';

test('issue 7 §3 latency percentiles: values below 2^p are exact; count, mean, min and max are exact', () => {
  const h = new Histogram(8);
  for (let v = 1; v <= 100; v++) h.record(v);
  assert.equal(h.count, 100);
  assert.equal(h.mean, 50.5);
  assert.equal(h.min, 1);
  assert.equal(h.max, 100);
  // Nearest rank: ⌈0.5 × 100⌉ = 50th value, ⌈0.99 × 100⌉ = 99th.
  assert.equal(h.quantile(0.5), 50);
  assert.equal(h.quantile(0.99), 99);
  assert.equal(h.quantile(0), 1);
  assert.equal(h.quantile(1), 100);
  assert.deepEqual(new Histogram().summary(), { count: 0, min: 0, max: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, p9999: 0 });
});

test('issue 7 §3 latency percentiles (HDR-style): above 2^p a quantile is the middle of a 2^(k−p+1)-wide bucket, within 2^−p', () => {
  const h = new Histogram(4);
  // 1000 is in [512, 1024), cut into 8 buckets of 64: [960, 1023]; reported 960 + 31 = 991.
  h.record(1000);
  h.record(5);
  assert.equal(h.quantile(1), 1000, 'clamped to the exact maximum');
  h.record(2000);
  assert.equal(h.quantile(2 / 3), 991);
  assert.ok(Math.abs(991 - 1000) / 1000 <= h.relativeError);
  assert.deepEqual(h.buckets(), [[5, 5, 1], [960, 1023, 1], [1920, 2047, 1]]);
  // Picoseconds of an hour still index: 3.6e15 > 2^32.
  const big = new Histogram(8);
  big.record(3_600_000_000_000_000);
  big.record(3_600_000_000_000_001);
  assert.ok(Math.abs(big.quantile(0.5) - 3.6e15) / 3.6e15 <= big.relativeError);
});

test('issue 7 §3 aggregate latency: adding histograms gives the histogram of all samples', () => {
  const a = new Histogram(6);
  const b = new Histogram(6);
  const all = new Histogram(6);
  for (let i = 0; i < 500; i++) {
    const v = (i * 7919) % 100_000;
    (i % 2 === 0 ? a : b).record(v);
    all.record(v);
  }
  a.add(b);
  assert.deepEqual(a.summary(), all.summary());
  assert.deepEqual(a.buckets(), all.buckets());
  assert.throws(() => { a.add(new Histogram(7)); }, /different precision/);
  assert.throws(() => { a.record(-1); }, /non-negative safe integer/);
  assert.throws(() => { a.record(1.5); }, /non-negative safe integer/);
});

test('issue 20 memory: the counts kept span the buckets seen, in any order of values, with the same buckets and quantiles', () => {
  const values = [2_000_000, 1_500_000, 3, 9_000_000_000, 250, 1_000_000, 70_000_000, 0, 2_000_001];
  const up = new Histogram(8);
  for (const v of [...values].sort((a, b) => a - b)) up.record(v);
  const down = new Histogram(8);
  for (const v of [...values].sort((a, b) => b - a)) down.record(v);
  const mixed = new Histogram(8);
  for (const v of values) mixed.record(v);
  assert.deepEqual(down.buckets(), up.buckets());
  assert.deepEqual(mixed.buckets(), up.buckets());
  assert.deepEqual(mixed.summary(), up.summary());
  assert.equal(up.buckets().length, 8, 'two values share a bucket');
  const sum = new Histogram(8);
  sum.add(down);
  sum.add(mixed);
  assert.deepEqual(sum.buckets(), up.buckets().map(([lo, hi, n]) => [lo, hi, 2 * n]));
});
