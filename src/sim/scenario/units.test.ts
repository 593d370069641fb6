import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime, parseSize, parseTime } from './units.ts';

test('issue 7 §3 units: durations accept ps, ns, us (µs), ms and s and become integer picoseconds', () => {
  assert.equal(parseTime('10us'), 10_000_000);
  assert.equal(parseTime('10µs'), 10_000_000);
  assert.equal(parseTime('2ms'), 2_000_000_000);
  assert.equal(parseTime('1s'), 1e12);
  assert.equal(parseTime('20ns'), 20_000);
  assert.equal(parseTime('0.1us'), 100_000);
  assert.equal(parseTime('2.5 ns'), 2500);
  assert.equal(parseTime(123), 123);
  assert.equal(parseTime('0ps'), 0);
});

test('issue 7 §3 units (decision): a time that is not a whole number of ps, a negative or unknown unit is refused, not rounded', () => {
  for (const bad of ['0.5ps', '1.0001ns', '-3us', '10 parsecs', '10', 'us', '', 1.5, -1, null, true, {}]) assert.equal(parseTime(bad), undefined, JSON.stringify(bad));
});

test('issue 7 §3 units: sizes accept B, KB (1000), KiB (1024), MB and MiB and become integer bytes', () => {
  assert.equal(parseSize('64B'), 64);
  assert.equal(parseSize('4KiB'), 4096);
  assert.equal(parseSize('4KB'), 4000);
  assert.equal(parseSize('1MiB'), 1_048_576);
  assert.equal(parseSize('1.5KiB'), 1536);
  assert.equal(parseSize(256), 256);
  assert.equal(parseSize('1.5B'), undefined);
  assert.equal(parseSize('64b'), undefined);
});

test('issue 7 §3 units: a time is written back in the largest unit that keeps it whole', () => {
  assert.equal(formatTime(2_000_000), '2us');
  assert.equal(formatTime(2_500), '2500ps');
  assert.equal(formatTime(3e12), '3s');
});
