import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncQueue } from './api-queue.ts';

test('riodp API: an async queue yields what was pushed in order, waits when empty, and finishes once ended and empty', async () => {
  const q = new AsyncQueue<number>();
  q.push(1);
  const later = q.next();
  const got: number[] = [];
  got.push((await later).value ?? -1);
  const waiting = q.next();
  q.push(2);
  got.push((await waiting).value ?? -1);
  q.push(3);
  q.end();
  assert.equal(q.push(4), false);
  for await (const v of q) got.push(v);
  assert.deepEqual(got, [1, 2, 3]);
});

test('riodp API: with a limit the oldest value is dropped (push answers false); fail() rejects the reader', async () => {
  const q = new AsyncQueue<number>(2);
  q.push(1);
  q.push(2);
  assert.equal(q.push(3), false);
  assert.deepEqual([(await q.next()).value, (await q.next()).value], [2, 3]);
  const w = q.next();
  q.fail(new Error('gone'));
  await assert.rejects(w, /gone/);
  await assert.rejects(q.next(), /gone/);
});

test('riodp API: one reader at a time; release() lets the waiting reader go without ending the queue', async () => {
  const q = new AsyncQueue<number>();
  const a = q.next();
  await assert.rejects(q.next(), /has a reader already/);
  q.release();
  assert.deepEqual(await a, { done: true, value: undefined });
  q.push(5);
  assert.deepEqual(await q.next(), { done: false, value: 5 });
});
