import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../../test/support/fc.ts';
import { Histogram } from './histogram.ts';

test('issue 7 §3 latency percentiles (HDR-style): every quantile is within 2^−p of the exact nearest-rank quantile', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 12 }),
      fc.array(fc.oneof(fc.nat(5000), fc.nat(2 ** 40), fc.maxSafeNat()), { minLength: 1, maxLength: 60 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (bits, values, q) => {
        const h = new Histogram(bits);
        for (const v of values) h.record(v);
        const sorted = [...values].sort((a, b) => a - b);
        const exact = sorted[Math.max(1, Math.ceil(q * values.length)) - 1] as number;
        const got = h.quantile(q);
        assert.ok(Math.abs(got - exact) <= exact * h.relativeError, `bits ${bits} q ${q}: ${got} vs ${exact}`);
        assert.equal(h.count, values.length);
        assert.equal(h.max, sorted[sorted.length - 1]);
      },
    ),
    fcParams(20_000),
  );
});
