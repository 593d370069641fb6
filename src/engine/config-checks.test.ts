import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  booleanFlag, deviceIdBits, deviceIdForTt, fitsDeviceId, integerInRange, messageFlow, nonNegativeInteger, nonNegativeIntegerOrNull, oneOf,
  orDefault, positiveInteger, positiveIntegerOrNull, transportType,
} from './config-checks.ts';

/** Asserts that `f` throws a RangeError with exactly `message`. */
function rejects(f: () => unknown, message: string): void {
  assert.throws(f, (e: unknown) => e instanceof RangeError && e.message === message, message);
}

const NOT_INTEGERS: readonly unknown[] = [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1', null, undefined, true, {}];

test('engine contract: positiveInteger accepts safe integers > 0 and names the field otherwise', () => {
  assert.equal(positiveInteger(1, 'orphanPeriod'), 1);
  assert.equal(positiveInteger(Number.MAX_SAFE_INTEGER, 'orphanPeriod'), Number.MAX_SAFE_INTEGER);
  for (const v of [0, -1, ...NOT_INTEGERS]) rejects(() => positiveInteger(v, 'orphanPeriod'), 'orphanPeriod must be a positive integer');
});

test('engine contract: nonNegativeInteger accepts 0 and names the field otherwise', () => {
  assert.equal(nonNegativeInteger(0, 'resources'), 0);
  assert.equal(nonNegativeInteger(7, 'resources'), 7);
  for (const v of [-1, ...NOT_INTEGERS]) rejects(() => nonNegativeInteger(v, 'participants[1]'), 'participants[1] must be a non-negative integer');
});

test('engine contract: integerInRange includes both bounds and states them', () => {
  assert.equal(integerInRange(1, 1, 31, 'counterBits'), 1);
  assert.equal(integerInRange(31, 1, 31, 'counterBits'), 31);
  for (const v of [0, 32, 1.5, '8', null]) rejects(() => integerInRange(v, 1, 31, 'counterBits'), 'counterBits must be an integer from 1 to 31');
});

test('engine contract: nullable durations keep null ("off") and say "or null"', () => {
  assert.equal(positiveIntegerOrNull(null, 'idleTimeout'), null);
  assert.equal(positiveIntegerOrNull(5, 'idleTimeout'), 5);
  for (const v of [0, -1, 1.5, undefined, '5']) rejects(() => positiveIntegerOrNull(v, 'idleTimeout'), 'idleTimeout must be a positive integer or null');
  assert.equal(nonNegativeIntegerOrNull(null, 'retryDelay'), null);
  assert.equal(nonNegativeIntegerOrNull(0, 'retryDelay'), 0);
  for (const v of [-1, 1.5, undefined, '0']) rejects(() => nonNegativeIntegerOrNull(v, 'retryDelay'), 'retryDelay must be a non-negative integer or null');
});

test('engine contract: orDefault replaces only an absent value; null stays for the check to judge', () => {
  assert.equal(orDefault(undefined, 100), 100);
  assert.equal(orDefault<number | null>(null, 100), null);
  assert.equal(orDefault(0, 100), 0);
  assert.equal(orDefault(false, true), false);
});

test('engine contract: booleanFlag accepts only JSON booleans', () => {
  assert.equal(booleanFlag(false, 'enabled'), false);
  assert.equal(booleanFlag(true, 'enabled'), true);
  for (const v of ['yes', 1, 0, null, undefined]) rejects(() => booleanFlag(v, 'crfSupported'), 'crfSupported must be a boolean');
});

test('engine contract: oneOf lists the allowed values in the wording the engine chose', () => {
  assert.equal(oneOf('bytes', ['packets', 'bytes'], 'unit'), 'bytes');
  assert.equal(oneOf(4, [0, 1, 2, 4, 8], 'vcCount'), 4);
  rejects(() => oneOf('cells', ['packets', 'bytes'], 'unit'), 'unit must be one of packets, bytes');
  rejects(() => oneOf(3, [0, 1, 2, 4, 8], 'vcCount'), 'vcCount must be one of 0, 1, 2, 4, 8');
  rejects(() => oneOf('drop', ['queue', 'reject'], 'whenBusy', 'or'), "whenBusy must be 'queue' or 'reject'");
  rejects(() => oneOf('x', ['a', 'b', 'c'], 'f', 'or'), "f must be 'a', 'b' or 'c'");
  rejects(() => oneOf(2, [0, 1], 'ccpFlow.crf', 'or'), 'ccpFlow.crf must be 0 or 1');
  rejects(() => oneOf('1', [0, 1], 'ccpFlow.crf', 'or'), 'ccpFlow.crf must be 0 or 1');
});

test('Part 9 §2.4.2: an absent message flow is prio 0b11 with CRF 0b1 "if supported", else CRF 0', () => {
  assert.deepEqual(messageFlow(undefined, 'responseFlow'), { prio: 3, crf: 1 });
  assert.deepEqual(messageFlow(undefined, 'ccpFlow', true), { prio: 3, crf: 1 });
  assert.deepEqual(messageFlow(undefined, 'ccpFlow', false), { prio: 3, crf: 0 });
});

test('Part 9 §2.4.7 rule 12: a configured message flow ("any flow") is kept as given, prio 0..3 and CRF 0..1 checked', () => {
  assert.deepEqual(messageFlow({ prio: 0, crf: 0 }, 'requestFlow'), { prio: 0, crf: 0 });
  assert.deepEqual(messageFlow({ prio: 2, crf: 1 }, 'requestFlow', false), { prio: 2, crf: 1 }, 'masking CRF is the caller\'s choice');
  rejects(() => messageFlow({ prio: 4, crf: 0 }, 'requestFlow'), 'requestFlow.prio must be an integer from 0 to 3');
  rejects(() => messageFlow({ prio: -1, crf: 0 }, 'requestFlow'), 'requestFlow.prio must be an integer from 0 to 3');
  rejects(() => messageFlow({ prio: 3, crf: 2 }, 'ccpFlow'), 'ccpFlow.crf must be 0 or 1');
  rejects(() => messageFlow({ prio: 4, crf: 2 }, 'ccpFlow'), 'ccpFlow.prio must be an integer from 0 to 3');
});

test('Part 3 §2.4 tt: 0 (Dev8), 1 (Dev16) and 2 (Dev32) are transport types; 0b11 is reserved', () => {
  assert.deepEqual([0, 1, 2].map((t) => transportType(t, 'tt')), [0, 1, 2]);
  for (const v of [3, -1, 0.5, '0', null]) rejects(() => transportType(v, 'tt'), 'tt must be 0, 1 or 2');
});

test('Part 3 §2.4 tt: device IDs are 8, 16 or 32 bits wide and must fit the transport type', () => {
  assert.deepEqual([0, 1, 2].map(deviceIdBits), [8, 16, 32]);
  assert.equal(fitsDeviceId(0xff, 0), true);
  assert.equal(fitsDeviceId(0x100, 0), false);
  assert.equal(fitsDeviceId(0xffff, 1), true);
  assert.equal(fitsDeviceId(0x10000, 1), false);
  assert.equal(fitsDeviceId(0xffffffff, 2), true);
  assert.equal(fitsDeviceId(2 ** 32, 2), false);
  for (const v of [-1, 1.5, '1', null, undefined]) assert.equal(fitsDeviceId(v, 2), false, String(v));
});

test('Part 3 §2.4 tt: deviceIdForTt states the range, or names the tt, as the engine words it', () => {
  assert.equal(deviceIdForTt(0xffff, 1, 'localID'), 0xffff);
  rejects(() => deviceIdForTt(0x100, 0, 'localID'), 'localID must be an integer from 0 to 255');
  rejects(() => deviceIdForTt(-1, 1, 'localID'), 'localID must be an integer from 0 to 65535');
  rejects(() => deviceIdForTt(2 ** 32, 2, 'localID'), 'localID must be an integer from 0 to 4294967295');
  rejects(() => deviceIdForTt(1.5, 1, 'unsupportedPeers[0]', 'tt'), 'unsupportedPeers[0] must be a device ID for tt 1');
});
