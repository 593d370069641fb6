import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { decimate } from './decimate.ts';
import type { Point } from './decimate.ts';

const value = fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -5, max: 5 }));

test('issue 7 §5 charts (decision): decimation keeps at most max finite points, a subsequence of the input, with its extremes', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(value, value), { maxLength: 300 }), fc.integer({ min: 2, max: 64 }), (raw, max) => {
      const points = raw as Point[];
      const out = decimate(points, max);
      const finite = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
      assert.ok(out.length <= Math.max(max, 0));
      let j = 0;
      for (const p of out) {
        while (j < finite.length && finite[j] !== p) j++;
        assert.ok(j < finite.length, 'every kept point is an input point, in input order');
        j++;
      }
      if (finite.length > 0) {
        const ys = finite.map(([, y]) => y);
        const outYs = out.map(([, y]) => y);
        assert.equal(Math.max(...outYs), Math.max(...ys));
        assert.equal(Math.min(...outYs), Math.min(...ys));
      }
    }),
    fcParams(5000),
  );
});
