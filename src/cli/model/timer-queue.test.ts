import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimerQueue } from './timer-queue.ts';

function drain(q: TimerQueue, t: number): string[] {
  const out: string[] = [];
  for (let d = q.popDue(t); d !== undefined; d = q.popDue(t)) out.push(`${d.name}@${d.at}`);
  return out;
}

test('contract.ts: due timers come out by (at, arming sequence); later ones stay', () => {
  const q = new TimerQueue();
  q.set('b', 20);
  q.set('a', 10);
  q.set('c', 20);
  q.set('d', 30);
  assert.deepEqual(drain(q, 20), ['a@10', 'b@20', 'c@20']);
  assert.deepEqual(q.pending().map((p) => p.name), ['d']);
});

test('contract.ts: "a new request replaces the old"; re-arming moves a timer behind those armed before', () => {
  const q = new TimerQueue();
  q.set('a', 10);
  q.set('b', 10);
  q.set('a', 10);
  assert.deepEqual(drain(q, 10), ['b@10', 'a@10']);
});

test('contract.ts: at null cancels; cancelling an unknown name is harmless', () => {
  const q = new TimerQueue();
  q.set('a', 10);
  q.set('a', null);
  q.set('zzz', null);
  assert.equal(q.size, 0);
  assert.deepEqual(drain(q, 100), []);
});

test('timer queue: thousands of re-arms of one name keep one pending entry and stay correct', () => {
  const q = new TimerQueue();
  for (let i = 0; i < 10_000; i++) q.set('x', 1_000_000 - i);
  q.set('y', 5);
  assert.equal(q.size, 2);
  assert.deepEqual(drain(q, Number.MAX_SAFE_INTEGER), ['y@5', 'x@990001']);
});
