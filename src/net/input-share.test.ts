import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputShare } from './input-share.ts';

/** Frames `port` delivers until it is told to stop, at most `max`. */
function deliver(s: InputShare, port: number, max: number): number {
  for (let n = 1; n <= max; n++) if (s.took(port)) return n;
  return max;
}

test('issue 16 item 3 (decision SP16): deficit round robin in frames: a port stops at the frame that ends its quantum and waits for the next round', () => {
  const s = new InputShare(3, 4);
  assert.equal(deliver(s, 0, 100), 4);
  assert.equal(s.isStopped(0), true);
  // Another port is not affected by the first one's use.
  assert.equal(deliver(s, 1, 3), 3);
  assert.equal(s.isStopped(1), false);
  assert.deepEqual(s.round(), [0]);
  assert.equal(s.isStopped(0), false);
  assert.equal(deliver(s, 0, 100), 4);
  assert.deepEqual([s.stops(0), s.stops(1), s.stops()], [2, 0, 2]);
});

test('issue 16 item 3 (decision SP16): a port that delivered less than its quantum keeps no credit: no port saves up a burst', () => {
  const s = new InputShare(2, 4);
  deliver(s, 1, 1);
  s.round();
  s.round();
  assert.equal(deliver(s, 1, 100), 4);
});

test('issue 16 item 3 (decision SP16): the stopped ports resume in round-robin order, starting one port further each round', () => {
  const s = new InputShare(3, 1);
  const order: number[][] = [];
  for (let r = 0; r < 4; r++) {
    for (const p of [0, 1, 2]) s.took(p);
    order.push(s.round());
  }
  assert.deepEqual(order, [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]);
});

test('issue 16 item 3 (decision SP16): a port whose link goes away starts its next link with a whole quantum; the quantum is a positive integer', () => {
  const s = new InputShare(2, 3);
  deliver(s, 0, 100);
  s.reset(0);
  assert.equal(s.isStopped(0), false);
  assert.equal(deliver(s, 0, 100), 3);
  assert.throws(() => new InputShare(2, 0), /^RangeError: quantum must be a positive integer$/);
});
