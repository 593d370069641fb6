import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataCapacity, receiveQueueLevel, sentKind } from './tm-levels.ts';
import { queueStep, reportStep, stepLevel } from '../../streaming/tm-queue-steps.ts';

test('Part 10 Table 4-4 "Source queue is n/255 full … 0 = empty, 0xFF = full": a flow queue is reported in steps of 1/2^bits rounded down', () => {
  assert.deepEqual([0, 1, 15, 16, 31, 32, 48, 63, 64].map((n) => queueStep(n, 64, 2)), [0, 0, 0, 1, 1, 2, 3, 3, 4]);
  assert.deepEqual([0, 1, 2, 3, 4].map((k) => stepLevel(k, 2)), [0, 64, 128, 191, 255]);
  assert.equal(stepLevel(queueStep(64, 64, 8), 8), 0xff);
  assert.equal(stepLevel(queueStep(1, 256, 8), 8), 1);
  // bits 0: nothing is ever reported.
  assert.deepEqual([queueStep(64, 64, 0), stepLevel(0, 0)], [0, 0]);
});

test('Part 10 §3.4.5 rule 5 (Q_STATUS without timers): a rise is reported at once, a fall two steps down or at empty, so a queue at a step boundary does not report every PDU', () => {
  assert.equal(reportStep(0, 1), true);
  assert.equal(reportStep(3, 4), true);
  assert.equal(reportStep(4, 3), false);
  assert.equal(reportStep(4, 2), true);
  assert.equal(reportStep(1, 0), true);
  assert.equal(reportStep(2, 1), false);
  assert.equal(reportStep(0, 0), false);
});

test('Part 6 §5, Part 10 Table 4-5 notes "Q_STATUS values should be rounded UP": the receive queue level is the fill of the room the data may take, rounded up', () => {
  // 8 buffers, 1 reserved per priority: priority 0 takes 5, priority 2 takes 7.
  assert.deepEqual([0, 1, 2].map((p) => dataCapacity(8, 1, p)), [5, 6, 7]);
  assert.equal(dataCapacity(2, 1, 0), 1);
  assert.deepEqual([0, 1, 2, 4, 5, 6].map((n) => receiveQueueLevel(n, 5)), [0, 51, 102, 204, 255, 255]);
  assert.equal(receiveQueueLevel(1, 300), 1);
});

test('issue 7 §3 "counts of … TM messages": every sent message counts as one kind', () => {
  const p = (tmOp: number, parameter1: number, parameter2: number): string => sentKind({ tmOp, parameter1, parameter2 });
  assert.deepEqual(
    [p(0, 0, 0), p(0, 0, 0xff), p(1, 0x01, 8), p(1, 0x06, 0xff), p(2, 0x13, 16), p(2, 0x13, 0), p(0, 0x03, 9), p(2, 0x30, 9), p(2, 0x25, 3), p(0, 0, 5), p(3, 1, 1)],
    ['xoff', 'xon', 'rate', 'rate', 'allocate', 'retire', 'qStatus', 'qStatus', 'creditStatus', 'other', 'other'],
  );
});
