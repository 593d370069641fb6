import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucket, ceilDiv, doubledRate, increasedRate, reducedRate, roundIncrease, roundLevel, roundReduce } from './tm-rate.ts';

test('Part 10 §4.3.3 notes: "for n/16 precision - 0b0000 0011 would be rounded to 0b0001 xxxx" (REDUCE rounds up)', () => {
  assert.equal(roundReduce(0b0000_0011, 4), 0b0001_0000);
  assert.equal(roundReduce(0b0001_0000, 4), 0b0001_0000, 'a value already at the precision is kept');
  assert.equal(roundReduce(0xf3, 4), 0x100, 'up past 0xF0: the whole rate, which the never-zero rule stops');
  assert.equal(roundReduce(0x03, 8), 0x03, 'full precision keeps the value');
});

test('Part 10 §4.3.3 notes: "for n/32 precision 0b1100 1110 would be rounded to 0b1100 1xxx" (INCREASE rounds down)', () => {
  assert.equal(roundIncrease(0b1100_1110, 5), 0b1100_1000);
  assert.equal(roundIncrease(0x05, 4), 0, 'below the precision: no increase');
  assert.equal(roundIncrease(0xce, 8), 0xce);
});

test('Part 10 §4.3.3 notes: "Q_STATUS values should be rounded UP to the nearest precision", at most 0xFF', () => {
  assert.equal(roundLevel(0x03, 4), 0x10);
  assert.equal(roundLevel(0xf1, 4), 0xff, '0x100 is not a level: full');
  assert.equal(roundLevel(0, 1), 0, 'empty stays empty');
  assert.equal(roundLevel(1, 1), 0x80);
});

test('Part 10 Table 4-5: REDUCE to CurrentRate x (1-n/256), INCREASE to CurrentRate x (1+n/256), DOUBLE, rounded down to integers', () => {
  assert.deepEqual(reducedRate(1000, 1, 1), { rate: 996, clamped: false }, '1000 x 255/256 = 996.09');
  assert.deepEqual(reducedRate(1000, 2, 1), { rate: 992, clamped: false }, '1000 x 254/256 = 992.19');
  assert.deepEqual(reducedRate(1024, 128, 1), { rate: 512, clamped: false });
  assert.deepEqual(increasedRate(1000, 0xfe, 10_000), { rate: 1992, clamped: false }, '1000 x 510/256 = 1992.19');
  assert.deepEqual(increasedRate(1000, 1, 10_000), { rate: 1003, clamped: false }, '1000 x 257/256 = 1003.9');
  assert.deepEqual(doubledRate(1000, 10_000), { rate: 2000, clamped: false });
  assert.deepEqual(increasedRate(2 ** 40, 0xfe, 2 ** 40), { rate: 2 ** 40, clamped: true }, 'exact at the largest rate');
  assert.deepEqual(doubledRate(6000, 10_000), { rate: 10_000, clamped: true });
});

test('Part 10 §4.3.3 notes: "a decrease must never reduce the rate completely to zero": it stops at the minimum rate', () => {
  assert.deepEqual(reducedRate(1000, 0xff, 1), { rate: 3, clamped: false }, '1000 x 1/256 = 3.9');
  assert.deepEqual(reducedRate(3, 0xff, 1), { rate: 1, clamped: true });
  assert.deepEqual(reducedRate(1, 0xff, 1), { rate: 1, clamped: true });
  assert.deepEqual(reducedRate(1000, 0x100, 50), { rate: 50, clamped: true }, 'a REDUCE rounded up to 256/256');
});

test('Part 10 §3.4.3: the ingress scheduler\'s token bucket lets a PDU go when the bucket allows and says when it will', () => {
  // 1000 bytes per 1000 time units = 1 byte per unit; a 100-byte bucket starts full.
  const b = new TokenBucket(1000, 100, 1000, 0);
  assert.equal(b.readyAt(100, 0), 0);
  b.take(100, 0);
  assert.equal(b.bytes(0), 0);
  assert.equal(b.readyAt(60, 0), 60);
  assert.equal(b.readyAt(60, 30), 60, 'asked again later: the same instant');
  assert.equal(b.bytes(60), 60);
  assert.equal(b.readyAt(500, 60), 100, 'a PDU larger than the bucket waits for a full bucket');
  b.take(500, 100);
  assert.equal(b.readyAt(1, 100), 501, 'the debt of a large PDU is repaid first');
  assert.equal(b.bytes(10_000_000), 100, 'never above the depth');
});

test('Part 10 §3.4.3: a rate change applies from its time on', () => {
  const b = new TokenBucket(1000, 100, 1000, 0);
  b.take(100, 0);
  b.setRate(500, 40);
  assert.equal(b.bytes(40), 40);
  assert.equal(b.readyAt(50, 40), 60, '10 more bytes at half a byte per unit');
  assert.equal(ceilDiv(7, 2), 4);
  assert.equal(ceilDiv(2 ** 52 + 2, 2), 2 ** 51 + 1);
  assert.equal(ceilDiv(0, 3), 0);
});
