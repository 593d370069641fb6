import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRC13_INIT, CRC13_POLY, crc13, crc13Bitwise } from './crc13.ts';
import { applyCrcEquations, crcEquations, dataBit, nextLcg, tableRow } from '../../test/support/crc-equations.ts';

/**
 * Part 6 §3.6.4 Table 3-26, transcribed column by column: for data bit Dj (control symbol bit
 * j, D0 = stype0[0], D34 = stype2[13]) the CRC bits C0..C12 whose Exclusive-OR takes it ('1' for
 * the table's x).
 */
const TABLE_3_26: Readonly<Record<number, string>> = {
  34: '..1.1..1..1.1',
  33: '.1.1..1..1.1.',
  32: '1.1..1..1.1..',
  31: '.11......11.1',
  30: '11......11.1.',
  29: '1.1.1...1...1',
  28: '.1111.....111',
  27: '1111.....111.',
  26: '11..1..111..1',
  25: '1.111.1.1.111',
  24: '.1.111...1.11',
  23: '1.111...1.11.',
  22: '.1.11....1..1',
  21: '1.11....1..1.',
  20: '.1..1.......1',
  19: '1..1.......1.',
  18: '....1..1....1',
  17: '...1..1....1.',
  16: '..1..1....1..',
  15: '.1..1....1...',
  14: '1..1....1....',
  13: '....1.....1.1',
  12: '...1.....1.1.',
  11: '..1.....1.1..',
  10: '.1.....1.1...',
  9: '1.....1.1....',
  8: '..1.11....1.1',
  7: '.1.11....1.1.',
  6: '1.11....1.1..',
  5: '.1..1....11.1',
  4: '1..1....11.1.',
  3: '....1...1...1',
  2: '...1...1...1.',
  1: '..1...1...1..',
  0: '.1...1...1...',
};

/** Per CRC bit: masks over symbol bits 0–23 and 24–34. */
const EQUATIONS = crcEquations(TABLE_3_26, 13, 34);

test('Part 6 §3.6.3: polynomial x^13+x^10+x^8+x^5+x^2+1 is 0x0525 and the preset is 0 (DECISIONS §2)', () => {
  assert.equal(CRC13_POLY, (1 << 10) | (1 << 8) | (1 << 5) | (1 << 2) | 1);
  assert.equal(CRC13_INIT, 0);
  assert.equal(crc13(0, 0), 0);
  assert.equal(crc13Bitwise(0, 0), 0);
});

test('Part 6 §3.6.4 Table 3-26: every data bit D0–D34 feeds exactly the CRC bits its row marks', () => {
  // With a zero preset the CRC is linear: one data bit at a time gives the table's rows, and
  // matching all 35 rows proves the serial CRC equals the parallel equations for every input.
  for (let j = 0; j <= 34; j++) {
    const { high, low } = dataBit(j, 34);
    const row = tableRow(crc13Bitwise(high, low), 13);
    assert.equal(row, TABLE_3_26[j], `D${j}`);
    assert.equal(crc13(high, low), crc13Bitwise(high, low), `D${j} fast path`);
  }
});

test('Part 6 §3.6.3: the table-driven CRC-13 equals the bit-serial reference and Table 3-26 on a sweep of CS48 data patterns', () => {
  // A fixed linear-congruential sweep of 2^16 patterns; random patterns are in crc13.prop.test.ts.
  let x = 0x1234567;
  for (let i = 0; i < 1 << 16; i++) {
    x = nextLcg(x);
    const high = x >>> 8;
    const low = (x ^ (x >>> 13)) & 0x7ff;
    const c = crc13(high, low);
    assert.equal(c, crc13Bitwise(high, low));
    assert.equal(c, applyCrcEquations(EQUATIONS, high, low));
  }
});

test('Part 6 §3.6: CRC-13 detects every error burst of 13 bits or less in the 48 bits of a CS48', () => {
  // A degree-13 CRC with an x^0 term detects all bursts no longer than 13 bits; every burst
  // pattern (first and last bit flipped, any inner bits) at every position is tried.
  const high = 0b000_000011_000101_111_000_000;
  const low = 0b00000000;
  const lo24 = (low << 13) | crc13(high, low);
  let tried = 0;
  for (let len = 1; len <= 13; len++) {
    const inner = len >= 2 ? 1 << (len - 2) : 1;
    for (let start = 0; start + len <= 48; start++) {
      for (let k = 0; k < inner; k++) {
        const pattern = len === 1 ? 1 : 1 | (k << 1) | (1 << (len - 1));
        const err = pattern * 2 ** (48 - start - len);
        const h = high ^ Math.floor(err / 2 ** 24);
        const l = lo24 ^ (err % 2 ** 24);
        assert.notEqual(crc13(h, l >>> 13), l & 0x1fff, `burst at ${start}, ${len} bits`);
        tried++;
      }
    }
  }
  assert.ok(tried > 100_000);
});
