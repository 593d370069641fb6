import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fifoPolicy, reserveForSingle, singleBeforeMulti } from './grant-policy.ts';
import type { ArbMode, QueuedRequest } from './arbitration-types.ts';

function q(order: number, mode: ArbMode): QueuedRequest {
  return { sourceID: order, flowID: '0A', mode, seq: 0, at: order * 10, order };
}

test('Part 9 §2.4.7 rule 9: fifoPolicy grants the earliest arrival, whatever the array order', () => {
  assert.equal(fifoPolicy([q(1, 'multi'), q(2, 'single')], 1), 0);
  assert.equal(fifoPolicy([q(5, 'single'), q(3, 'multi'), q(4, 'single')], 2), 1);
});

test('Part 9 §2.4.7 rule 9: fifoPolicy waits with nothing queued or nothing free', () => {
  assert.equal(fifoPolicy([], 3), undefined);
  assert.equal(fifoPolicy([q(1, 'single')], 0), undefined);
});

test('Part 9 §2.4.7 rule 9 "no ordering requirement ... from different flows": singleBeforeMulti serves single-PDU requests first, oldest first', () => {
  assert.equal(singleBeforeMulti([q(1, 'multi'), q(3, 'single'), q(2, 'single')], 1), 2);
  assert.equal(singleBeforeMulti([q(2, 'multi'), q(1, 'multi')], 1), 1);
  assert.equal(singleBeforeMulti([q(1, 'single')], 0), undefined);
  assert.equal(singleBeforeMulti([], 1), undefined);
});

test('Part 9 §2.2.2 "make better allocation decisions should there be limited resources": reserveForSingle keeps the last resources for single-PDU requests', () => {
  const keep1 = reserveForSingle(1);
  assert.equal(keep1([q(1, 'multi'), q(2, 'single')], 2), 0);
  assert.equal(keep1([q(1, 'multi'), q(2, 'single')], 1), 1, 'the waiting multi-PDU request is passed over');
  assert.equal(keep1([q(1, 'multi')], 1), undefined);
  assert.equal(keep1([q(1, 'multi')], 0), undefined);
  assert.equal(reserveForSingle(0)([q(1, 'multi')], 1), 0);
});

test('Engine contract: reserveForSingle validates its argument', () => {
  assert.throws(() => reserveForSingle(-1), /^RangeError: reserve must be a non-negative integer$/);
  assert.throws(() => reserveForSingle(0.5), RangeError);
});
