import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MESSAGE_MAX_SEGMENTS, checkMailbox, fitsMessage, isMailbox, letterPoolKey, maxMessageBytes, mboxOf, messageLimit, padToDoubleWords, segmentBounds,
  segmentPlan, xmboxOf,
} from './type11-mailbox.ts';

test('Part 2 §4.2.5 Table 4-4 xmbox: an Annex 2 mailbox ID is the Part 2 mailbox 0–63, xmbox || mbox', () => {
  // "0000 00 - mailbox 0 ... 0001 00 - mailbox 4 ... 1111 11 - mailbox 63"
  assert.deepEqual([0, 3, 4, 63].map((m) => [xmboxOf(m), mboxOf(m)]), [[0, 0], [0, 3], [1, 0], [15, 3]]);
  assert.equal(isMailbox(63), true);
  assert.equal(isMailbox(64), false, 'Annex 2 Table 5-3 carries 8 bits, Part 2 defines 64 mailboxes');
  assert.equal(isMailbox(-1), false);
  assert.equal(isMailbox(1.5), false);
  assert.equal(isMailbox('1'), false);
});

test('Part 2 §2.3.1: mailboxes 0–3 take messages of up to 16 segments, mailboxes 4–63 single-segment messages only', () => {
  assert.equal(maxMessageBytes(0, 256), 4096);
  assert.equal(maxMessageBytes(3, 64), 1024);
  assert.equal(maxMessageBytes(4, 256), 256);
  assert.equal(maxMessageBytes(63, 32), 32);
});

test('Annex 2 §5.2.3 Table 5-3, Part 2 Table 4-4 (decision T2): one mailbox check for every part — 0–63, else a RangeError naming the field', () => {
  assert.equal(checkMailbox(0, 'contact.mailbox'), 0);
  assert.equal(checkMailbox(63, 'contact.mailbox'), 63);
  assert.throws(() => checkMailbox(64, 'contact.mailbox'), (e: unknown) => e instanceof RangeError && e.message === 'contact.mailbox must be an integer from 0 to 63');
  assert.throws(() => checkMailbox('1', 'dataMailboxes[0]'), /^RangeError: dataMailboxes\[0\] must be an integer from 0 to 63$/);
});

test('Part 2 §2.3.1 (decision T2): the message limit of a mailbox is 16 segments of 256 octets for 0–3, one segment for 4–63, none for an ID that names no mailbox', () => {
  assert.equal(maxMessageBytes(2), 4096, 'the segment size defaults to 256');
  assert.equal(maxMessageBytes(5), 256);
  assert.deepEqual([messageLimit(0), messageLimit(3, 64), messageLimit(4), messageLimit(63, 32)], [4096, 1024, 256, 32]);
  assert.deepEqual([messageLimit(64), messageLimit(255), messageLimit(-1), messageLimit(undefined)], [undefined, undefined, undefined, undefined]);
  // The double-word pad travels with the message: 250 octets need 256.
  assert.deepEqual([fitsMessage(256, 256), fitsMessage(250, 256), fitsMessage(257, 256), fitsMessage(4096, 4096), fitsMessage(4097, 4096)], [true, true, false, true, false]);
});

test('Part 2 §3.3.2: a message is at most 16 segments of ssize, "all packets except the last" carry ssize', () => {
  assert.deepEqual(segmentPlan(4096, 256), { segments: 16, ssizeBytes: 256, ssize: 0b1110 });
  assert.equal(segmentPlan(4104, 256), undefined, '17 segments');
  assert.deepEqual(segmentPlan(264, 256), { segments: 2, ssizeBytes: 256, ssize: 0b1110 });
  assert.deepEqual(segmentPlan(72, 32), { segments: 3, ssizeBytes: 32, ssize: 0b1011 });
  const plan = segmentPlan(72, 32);
  assert.ok(plan);
  assert.deepEqual([0, 1, 2].map((i) => segmentBounds(plan, i, 72)), [{ start: 0, end: 32 }, { start: 32, end: 64 }, { start: 64, end: 72 }]);
  assert.equal(MESSAGE_MAX_SEGMENTS, 16);
  assert.deepEqual(segmentPlan(128, 8), { segments: 16, ssizeBytes: 8, ssize: 0b1001 });
});

test('Part 2 Table 4-4 ssize: a single-segment message uses the smallest standard size that holds it', () => {
  assert.deepEqual(segmentPlan(8, 256), { segments: 1, ssizeBytes: 8, ssize: 0b1001 });
  assert.deepEqual(segmentPlan(24, 256), { segments: 1, ssizeBytes: 32, ssize: 0b1011 });
  assert.deepEqual(segmentPlan(256, 256), { segments: 1, ssizeBytes: 256, ssize: 0b1110 });
});

test('Part 2 §3.3.2: "MESSAGE transaction data payloads are always multiples of doubleword quantities"', () => {
  assert.equal(segmentPlan(0, 256), undefined);
  assert.equal(segmentPlan(12, 256), undefined);
});

test('Annex 2 §4.3.2: padding to whole double-words "must contain zeros"', () => {
  const whole = new Uint8Array(16).fill(7);
  assert.equal(padToDoubleWords(whole), whole, 'a whole message is not copied');
  const padded = padToDoubleWords(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  assert.deepEqual([...padded], [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0]);
});

test('Part 2 §4.2.5: mailboxes with the same mbox share a letter pool so responses never alias', () => {
  // Segment 1 of a multi-segment message to mailbox 0 and the single segment of a message to
  // mailbox 4 are both answered with target_info letter|mbox 00|msgseg-or-xmbox 0001.
  assert.equal(letterPoolKey(9, 0), letterPoolKey(9, 4));
  assert.equal(letterPoolKey(9, 1), letterPoolKey(9, 61));
  assert.notEqual(letterPoolKey(9, 0), letterPoolKey(9, 1));
  assert.notEqual(letterPoolKey(9, 0), letterPoolKey(10, 0));
});
