import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualTime } from './manual-time.ts';

test('issue 8 §1 (tests without sleeping): manual time runs callbacks in due order, ties in the order set, each at its own time', () => {
  const time = new ManualTime(100);
  const seen: string[] = [];
  time.set(() => seen.push(`b@${time.now()}`), 20);
  time.set(() => seen.push(`a@${time.now()}`), 10);
  time.set(() => seen.push(`c@${time.now()}`), 20);
  time.set(() => seen.push(`now@${time.now()}`), -5);
  time.advance(15);
  assert.deepEqual(seen, ['now@100', 'a@110']);
  assert.equal(time.now(), 115);
  time.advanceTo(200);
  assert.deepEqual(seen, ['now@100', 'a@110', 'b@120', 'c@120']);
  assert.equal(time.now(), 200);
});

test('issue 8 §1: manual time clears callbacks, runs ones set while advancing when due, and skip() moves the clock alone', () => {
  const time = new ManualTime();
  const seen: number[] = [];
  const t = time.set(() => seen.push(-1), 5);
  time.clear(t);
  time.set(() => {
    seen.push(time.now());
    time.set(() => seen.push(time.now()), 3);
  }, 5);
  time.advance(10);
  assert.deepEqual(seen, [5, 8]);
  time.set(() => seen.push(time.now()), 1);
  time.skip(50);
  assert.deepEqual(seen, [5, 8]);
  assert.equal(time.pending, 1);
  time.advance(0);
  assert.deepEqual(seen, [5, 8, 60]);
  assert.equal(new ManualTime(0, { unref: true }).set(() => undefined, 1).hasRef(), false);
});
