import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LAST_APPLICATION_STREAM, StreamIdAllocator, streamIdStart } from './stream-ids.ts';

test('Annex 2 §3.5.2.5 Table 3-1: receive streamIDs are assigned from 0x0000-0xDFFF, next-fit, and run out', () => {
  const a = new StreamIdAllocator(0xdffe);
  assert.equal(a.alloc(), 0xdffe);
  assert.equal(a.alloc(), 0xdfff);
  assert.equal(a.alloc(), 0x0000);
  a.free(0xdffe);
  // A freed ID comes back only after every other free one.
  assert.equal(a.alloc(), 0x0001);
  const small = new StreamIdAllocator(0, 0, 2);
  assert.deepEqual([small.alloc(), small.alloc(), small.alloc(), small.alloc()], [0, 1, 2, undefined]);
  small.free(1);
  assert.equal(small.alloc(), 1);
});

test('Annex 2 §3.5.2.5: an ID the caller must avoid is skipped; with every free one avoided none is given', () => {
  const a = new StreamIdAllocator(0, 0, 3);
  assert.equal(a.alloc((id) => id < 2), 2);
  assert.equal(a.alloc(() => true), undefined);
  assert.equal(a.size, 1);
  assert.ok(a.has(2));
});

test('Annex 2 §4.2.8: nodes start assigning at spread-out points of the range (a decision), always inside it', () => {
  const starts = [1, 2, 3, 0x10, 0xfe, 0xffff].map(streamIdStart);
  assert.ok(starts.every((s) => s >= 0 && s <= LAST_APPLICATION_STREAM));
  assert.equal(new Set(starts).size, starts.length);
  assert.equal(new StreamIdAllocator(streamIdStart(1)).alloc(), streamIdStart(1));
  assert.equal(new StreamIdAllocator(0xf000).alloc(), 0, 'a start outside the range falls back to its first ID');
});
