import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber, formatSimulatedMicroseconds, formatWallSeconds, NO_VALUE } from './format.ts';

test('issue 7 §5 headline table (decision): integers exactly, others to 4 significant digits without trailing zeros', () => {
  assert.equal(formatNumber(12000), '12000');
  assert.equal(formatNumber(-3), '-3');
  assert.equal(formatNumber(0.75), '0.75');
  assert.equal(formatNumber(0.68251), '0.6825');
  assert.equal(formatNumber(0.1 + 0.2), '0.3');
  assert.equal(formatNumber(9.87654), '9.877');
  assert.equal(formatNumber(100.0001), '100');
});

test('issue 7 §5 headline table (decision): whole units once the integer part has the digits, exponent form outside [1e-4, 1e15)', () => {
  assert.equal(formatNumber(12345.678), '12346');
  assert.equal(formatNumber(1234.5678, 5), '1234.6');
  assert.equal(formatNumber(0.00001), '1e-5');
  assert.equal(formatNumber(1.5e20), '1.5e+20');
  assert.equal(formatNumber(-0.000123456), '-0.0001235');
});

test('issue 7 §5 headline table (decision): a missing or non-finite value is shown as a dash', () => {
  assert.equal(formatNumber(undefined), NO_VALUE);
  assert.equal(formatNumber(NaN), NO_VALUE);
  assert.equal(formatNumber(Infinity), NO_VALUE);
  assert.equal(formatWallSeconds(NaN), NO_VALUE);
  assert.equal(formatSimulatedMicroseconds(-Infinity), NO_VALUE);
});

test('issue 7 §5 run facts: simulated time (given in µs) and wall time in a readable unit', () => {
  assert.equal(formatSimulatedMicroseconds(200), '200 µs');
  assert.equal(formatSimulatedMicroseconds(2500), '2.5 ms');
  assert.equal(formatSimulatedMicroseconds(3_000_000), '3 s');
  assert.equal(formatWallSeconds(0.0421), '42.1 ms');
  assert.equal(formatWallSeconds(3.25), '3.25 s');
});
