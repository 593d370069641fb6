import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  latencyChartData,
  latencySpec,
  MAX_POINTS_PER_SERIES,
  percentileLabel,
  sortPercentileKeys,
  sweepChartData,
  timeChartData,
  timeSeriesSpec,
  uniqueLabels,
} from './chart-specs.ts';
import type { Series } from './types.ts';

test('issue 7 §5 charts (decision): repeated variant or series names get " (2)", " (3)" so panels and legends never merge', () => {
  assert.deepEqual(uniqueLabels(['a', 'b', 'a', 'a']), ['a', 'b', 'a (2)', 'a (3)']);
  assert.deepEqual(uniqueLabels(['a', 'a (2)', 'a']), ['a', 'a (2)', 'a (3)'], 'a generated label never repeats an existing one');
});

test('issue 7 §5 latency percentiles: numeric percentile keys ascending, others after; "50" is labelled p50', () => {
  assert.deepEqual(sortPercentileKeys(['99.9', 'max', '50', '99', '9']), ['9', '50', '99', '99.9', 'max']);
  assert.equal(percentileLabel('99.9'), 'p99.9');
  assert.equal(percentileLabel('max'), 'max');
  assert.equal(percentileLabel(''), '');
});

test('issue 7 §5 throughput over time: rows per (variant, series, point); a variant without points is named as missing', () => {
  const s = (name: string, n: number): Series => ({ name, points: Array.from({ length: n }, (_, i) => [i, i] as const) });
  const data = timeChartData([
    { name: 'A', series: [s('x', 2), s('y', 1)] },
    { name: 'B', series: [s('y', 0)] },
    { name: 'C', series: [s('z', 1), s('x', 1)] },
  ]);
  assert.deepEqual(data.variants, ['A', 'C']);
  assert.deepEqual(data.missing, ['B']);
  assert.deepEqual(data.series, ['x', 'y', 'z'], 'one colour domain across the panels, first-seen order');
  assert.equal(data.rows.length, 5);
  assert.equal(data.decimated, false);
  const long = timeChartData([{ name: 'A', series: [s('x', MAX_POINTS_PER_SERIES + 1)] }]);
  assert.equal(long.decimated, true);
  assert.ok(long.rows.length <= MAX_POINTS_PER_SERIES);
});

test('issue 7 §5 charts: user text is data under fixed field names, never a field name or an expression', () => {
  const data = timeChartData([{ name: 'v.a[0]', series: [{ name: "s['x']", points: [[0, 1]] }] }]);
  const spec = JSON.stringify(timeSeriesSpec(data, 'y', false, 'd'));
  const fields = [...spec.matchAll(/"field":"([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual([...new Set(fields)].sort(), ['series', 'variant', 'x', 'y']);
  const lat = latencyChartData([{ name: 'v.a', latency: [{ name: 'g[1]', count: 1, mean: 1, percentiles: { '50': 1 } }] }]);
  const lfields = [...JSON.stringify(latencySpec(lat, 'd')).matchAll(/"field":"([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual([...new Set(lfields)].sort(), ['group', 'latency', 'percentile', 'variant']);
});

test('issue 7 §5 latency percentiles: non-finite latencies are left out and a variant with none is named as missing', () => {
  const data = latencyChartData([
    { name: 'A', latency: [{ name: 'g', count: 1, mean: 1, percentiles: { '99': 5, '50': 2 } }] },
    { name: 'B', latency: [{ name: 'g', count: 0, mean: NaN, percentiles: { '50': NaN } }] },
  ]);
  assert.deepEqual(data.variants, ['A']);
  assert.deepEqual(data.missing, ['B']);
  assert.deepEqual(data.percentiles, ['p50', 'p99']);
  assert.equal(data.rows.length, 2);
});

test('issue 7 §5 sweep: one curve per series, curves without a finite point left out', () => {
  const data = sweepChartData([
    { name: 'on', points: [[0.1, 1], [0.2, 2]] },
    { name: 'off', points: [[0.1, NaN]] },
    { name: 'on', points: [[0.1, 3]] },
  ]);
  assert.deepEqual(data.series, ['on', 'on (2)']);
  assert.equal(data.rows.length, 3);
});
