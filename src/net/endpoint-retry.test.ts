import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextRetryDelay } from './endpoint-retry.ts';

test('riodp link §4.1 (decision): connection retries wait retryMs, then twice as long each time, at most maxRetryMs', () => {
  const r = { firstMs: 100, maxMs: 700 };
  const seq: number[] = [];
  let d: number | null = null;
  for (let i = 0; i < 5; i++) {
    d = nextRetryDelay(d, r);
    seq.push(d);
  }
  assert.deepEqual(seq, [100, 200, 400, 700, 700]);
});
