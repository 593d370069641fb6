import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FC_RUNS, fcParams } from '../../test/support/fc.ts';
import { TimerHeap } from './timer-heap.ts';
import type { HeapEntry } from './timer-heap.ts';

/** Each run pushes and removes up to 80 entries: a tenth of the full count keeps the file fast. */
const RUNS = Math.ceil(FC_RUNS / 10);

test('issue 8 §1: the timer heap pops in (at, seq) order after any pushes and removals', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(50), fc.boolean()), { maxLength: 80 }), (items) => {
      const heap = new TimerHeap<HeapEntry>();
      const kept: HeapEntry[] = [];
      const all = items.map(([at], seq): HeapEntry => ({ at, seq, index: -1 }));
      for (const e of all) heap.push(e);
      items.forEach(([, drop], i) => {
        const e = all[i]!;
        if (drop) heap.remove(e);
        else kept.push(e);
      });
      for (const e of all) if (!kept.includes(e)) heap.remove(e);
      assert.equal(heap.size, kept.length);
      kept.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const popped: HeapEntry[] = [];
      for (let e = heap.pop(); e !== undefined; e = heap.pop()) popped.push(e);
      assert.deepEqual(popped, kept);
      assert.ok(all.every((e) => e.index === -1));
    }),
    fcParams(RUNS),
  );
});
