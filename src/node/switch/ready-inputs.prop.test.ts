import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS_MODEL, fcParams } from '../../../test/support/fc.ts';
import { ReadyInputs } from './ready-inputs.ts';

test('issue 20 ReadyInputs: after any adds and deletes it lists exactly the members, ascending, with their count (ports up to 256)', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 256 }).chain((n) => fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.boolean(), fc.nat(n - 1)), { maxLength: 400 }))), ([n, ops]) => {
    const set = new ReadyInputs(n);
    const model = new Set<number>();
    for (const [add, i] of ops) {
      if (add) { set.add(i); model.add(i); } else { set.delete(i); model.delete(i); }
    }
    const out = new Int32Array(n);
    const k = set.list(out);
    assert.deepEqual([...out.subarray(0, k)], [...model].sort((a, b) => a - b));
    assert.equal(set.size, model.size);
    for (let i = 0; i < n; i++) assert.equal(set.has(i), model.has(i));
  }), fcParams(Math.max(1, Math.floor(FC_RUNS_MODEL / 50))));
});
