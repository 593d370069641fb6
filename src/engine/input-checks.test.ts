import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeInput, pullCount, pullUpTo } from './input-checks.ts';

test('engine contract: describeInput names numbers and strings as JSON and anything else by its type', () => {
  assert.equal(describeInput(3), '3');
  assert.equal(describeInput('x'), '"x"');
  assert.equal(describeInput(null), 'object');
  assert.equal(describeInput(undefined), 'undefined');
  assert.equal(describeInput([1]), 'object');
});

test('engine contract: a pull hands out max packets, 1 when max is absent, none (invalid) when max is not a positive integer', () => {
  assert.equal(pullCount(undefined), 1);
  assert.equal(pullCount(4), 4);
  for (const bad of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, '2', null]) assert.equal(pullCount(bad), 0, String(bad));
});

test('engine contract: pullUpTo stops at max or at the first step with nothing to send, and refuses an invalid max without sending', () => {
  const from = (n: number): { send: () => boolean; calls: () => number } => {
    let left = n;
    let calls = 0;
    const send = (): boolean => {
      calls++;
      return left-- > 0;
    };
    return { send, calls: () => calls };
  };
  const full = from(10);
  assert.equal(pullUpTo(3, full.send), 3);
  assert.equal(full.calls(), 3);
  const short = from(2);
  assert.equal(pullUpTo(5, short.send), 2);
  assert.equal(short.calls(), 3);
  assert.equal(pullUpTo(undefined, from(0).send), 0);
  const never = from(1);
  assert.equal(pullUpTo(0, never.send), undefined);
  assert.equal(never.calls(), 0);
});
