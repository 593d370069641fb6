import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimate } from './decimate.ts';
import type { Point } from './decimate.ts';

test('issue 7 §5 charts (decision): a series of at most `max` points is drawn as it is, non-finite points dropped', () => {
  const points: Point[] = [[0, 1], [1, NaN], [2, 3], [Infinity, 4], [4, 5]];
  assert.deepEqual(decimate(points, 10), [[0, 1], [2, 3], [4, 5]]);
});

test('issue 7 §5 charts (decision): a long series keeps each bucket’s lowest and highest point, so a one-sample peak survives', () => {
  const points: Point[] = [];
  for (let i = 0; i < 10_000; i++) points.push([i, i === 7_777 ? 1000 : i % 7]);
  const out = decimate(points, 100);
  assert.ok(out.length <= 100);
  assert.ok(out.some(([x, y]) => x === 7_777 && y === 1000), 'the peak is kept');
  assert.ok(out.some(([, y]) => y === 0), 'the troughs are kept');
  for (let i = 1; i < out.length; i++) assert.ok((out[i] as Point)[0] > (out[i - 1] as Point)[0], 'x order is kept');
});

test('issue 7 §5 charts (decision): max must be an integer of at least 2', () => {
  assert.throws(() => decimate([], 1), RangeError);
  assert.throws(() => decimate([], 2.5), RangeError);
});
