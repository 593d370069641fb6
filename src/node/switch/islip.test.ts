import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Islip } from './islip.ts';

function full(n: number, level = 0): Int8Array {
  return new Int8Array(n * n).fill(level);
}

function slot(islip: Islip, req: Int8Array): number[] {
  const m = new Int32Array(islip.n);
  islip.match(req, m);
  return [...m];
}

test('McKeown 1999 (iSLIP): under saturation one-iteration iSLIP desynchronises its grant pointers, then matches every input every slot', () => {
  const islip = new Islip(4, 1, 1);
  const req = full(4);
  // Slot 1: every output grants input 0 (pointers at 0); input 0 accepts output 0.
  assert.deepEqual(slot(islip, req), [0, -1, -1, -1]);
  // Only output 0's grant was accepted, so only its pointer moved (to 1): outputs 1–3 grant
  // input 0, output 0 grants input 1; input 0 accepts output 1 (its accept pointer is 1).
  assert.deepEqual(slot(islip, req), [1, 0, -1, -1]);
  assert.deepEqual(slot(islip, req), [2, 1, 0, -1]);
  // Grant pointers now 3, 2, 1, 0: all different, and each moves on by one per slot.
  assert.deepEqual(slot(islip, req), [3, 2, 1, 0]);
  for (let s = 0; s < 20; s++) assert.equal(new Set(slot(islip, req)).size, 4);
  assert.equal(islip.grantPointers().map((p) => p[0]).sort().join(), '0,1,2,3');
});

test('McKeown 1999 (iSLIP): pointers move only for grants accepted in the first iteration; later iterations fill the matching', () => {
  const islip = new Islip(4, 1, 4);
  // With 4 iterations the first slot is already a full matching: iteration k pairs input k with output k.
  assert.deepEqual(slot(islip, full(4)), [0, 1, 2, 3]);
  // Only the first iteration's pair (0, 0) moved pointers.
  assert.deepEqual(islip.grantPointers().map((p) => p[0]), [1, 0, 0, 0]);
  assert.deepEqual(islip.acceptPointers().map((p) => p[0]), [1, 0, 0, 0]);
});

test('McKeown 1999 (iSLIP): an input granted by several outputs accepts one; an unaccepted grant leaves that output unmatched in one iteration', () => {
  const islip = new Islip(3, 1, 1);
  // Input 0 requests outputs 0 and 1; input 1 requests output 1 only.
  const req = new Int8Array(9).fill(-1);
  req[0 * 3 + 0] = 0;
  req[0 * 3 + 1] = 0;
  req[1 * 3 + 1] = 0;
  // Both outputs grant input 0, which accepts output 0; output 1's grant is wasted.
  assert.deepEqual(slot(islip, req), [0, -1, -1]);
  // Output 1's pointer did not move, it grants input 0 again, which now accepts output 1; output 0 grants input 0 too but loses.
  assert.deepEqual(slot(islip, req), [1, -1, -1]);
  // With two iterations input 1 gets output 1 when input 0 takes output 0.
  const two = new Islip(3, 1, 2);
  assert.deepEqual(slot(two, req), [0, 1, -1]);
});

test('McKeown 1999 (prioritized iSLIP): an output grants the highest priority level requested, an input accepts the highest level granted', () => {
  const islip = new Islip(2, 4, 1);
  const req = new Int8Array(4).fill(-1);
  // Input 0 asks output 0 at level 0; input 1 asks output 0 at level 3 and output 1 at level 1.
  req[0 * 2 + 0] = 0;
  req[1 * 2 + 0] = 3;
  req[1 * 2 + 1] = 1;
  // Output 0 grants input 1 (level 3) although its pointer is at input 0; input 1 accepts it (3 > 1).
  assert.deepEqual(slot(islip, req), [-1, 0]);
  // Pointers of level 3 moved, those of level 0 did not.
  assert.deepEqual(islip.grantPointers()[0], [0, 0, 0, 0]);
  assert.deepEqual(islip.acceptPointers()[1], [0, 0, 0, 1]);
});

test('McKeown 1999 (iSLIP): no requests, no matches', () => {
  const islip = new Islip(3, 1, 2);
  const m = new Int32Array(3);
  assert.equal(islip.match(new Int8Array(9).fill(-1), m), 0);
  assert.deepEqual([...m], [-1, -1, -1]);
  assert.throws(() => new Islip(0, 1, 1), /ports must be a positive integer/);
  assert.throws(() => new Islip(2, 1, 0), /iterations must be a positive integer/);
});
