import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ring } from './ring.ts';

test('issue 7 performance: the ring buffer is a FIFO that grows past its initial capacity without losing order', () => {
  const r = new Ring<number>(2);
  const model: number[] = [];
  let next = 0;
  // Interleave pushes and shifts so that the head wraps around before and after each growth.
  for (let round = 0; round < 200; round++) {
    for (let k = 0; k < (round % 7) + 1; k++) {
      r.push(next);
      model.push(next++);
    }
    for (let k = 0; k < round % 5; k++) assert.equal(r.shift(), model.shift());
    assert.equal(r.length, model.length);
    assert.equal(r.peek(), model[0]);
    assert.equal(r.at(model.length - 1), model[model.length - 1]);
  }
  assert.deepEqual(r.toArray(), model);
  while (model.length > 0) assert.equal(r.shift(), model.shift());
  assert.equal(r.shift(), undefined);
  assert.equal(r.peek(), undefined);
  assert.equal(r.at(0), undefined);
});
