import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRC13_INIT, CRC13_POLY, crc13, crc13Bitwise } from './crc13.ts';

/**
 * Part 6 §3.6.4 Table 3-26, transcribed column by column: for data bit Dj (control symbol bit
 * j, D0 = stype0[0], D34 = stype2[13]) the CRC bits C0..C12 whose Exclusive-OR takes it.
 */
const TABLE_3_26: Readonly<Record<number, string>> = {
  34: '..x.x..x..x.x',
  33: '.x.x..x..x.x.',
  32: 'x.x..x..x.x..',
  31: '.xx......xx.x',
  30: 'xx......xx.x.',
  29: 'x.x.x...x...x',
  28: '.xxxx.....xxx',
  27: 'xxxx.....xxx.',
  26: 'xx..x..xxx..x',
  25: 'x.xxx.x.x.xxx',
  24: '.x.xxx...x.xx',
  23: 'x.xxx...x.xx.',
  22: '.x.xx....x..x',
  21: 'x.xx....x..x.',
  20: '.x..x.......x',
  19: 'x..x.......x.',
  18: '....x..x....x',
  17: '...x..x....x.',
  16: '..x..x....x..',
  15: '.x..x....x...',
  14: 'x..x....x....',
  13: '....x.....x.x',
  12: '...x.....x.x.',
  11: '..x.....x.x..',
  10: '.x.....x.x...',
  9: 'x.....x.x....',
  8: '..x.xx....x.x',
  7: '.x.xx....x.x.',
  6: 'x.xx....x.x..',
  5: '.x..x....xx.x',
  4: 'x..x....xx.x.',
  3: '....x...x...x',
  2: '...x...x...x.',
  1: '..x...x...x..',
  0: '.x...x...x...',
};

function parity(v: number): number {
  let x = v;
  x ^= x >>> 16;
  x ^= x >>> 8;
  x ^= x >>> 4;
  x ^= x >>> 2;
  x ^= x >>> 1;
  return x & 1;
}

/** Per CRC bit: masks over symbol bits 0–23 and 24–34. */
const EQUATIONS = Array.from({ length: 13 }, (_, i) => {
  let high = 0;
  let low = 0;
  for (let j = 0; j <= 34; j++) {
    if (TABLE_3_26[j]?.[i] !== 'x') continue;
    if (j <= 23) high |= 1 << (23 - j);
    else low |= 1 << (34 - j);
  }
  return { high, low };
});

function crc13Equations(high: number, low: number): number {
  let c = 0;
  for (const m of EQUATIONS) c = (c << 1) | parity((high & m.high) ^ (low & m.low));
  return c;
}

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
    const high = j <= 23 ? 1 << (23 - j) : 0;
    const low = j >= 24 ? 1 << (34 - j) : 0;
    const row = crc13Bitwise(high, low).toString(2).padStart(13, '0').replace(/1/g, 'x').replace(/0/g, '.');
    assert.equal(row, TABLE_3_26[j], `D${j}`);
    assert.equal(crc13(high, low), crc13Bitwise(high, low), `D${j} fast path`);
  }
});

test('Part 6 §3.6.3: the table-driven CRC-13 equals the bit-serial reference and Table 3-26 on a sweep of CS48 data patterns', () => {
  // A fixed linear-congruential sweep of 2^16 patterns; random patterns are in crc13.prop.test.ts.
  let x = 0x1234567;
  for (let i = 0; i < 1 << 16; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const high = x >>> 8;
    const low = (x ^ (x >>> 13)) & 0x7ff;
    const c = crc13(high, low);
    assert.equal(c, crc13Bitwise(high, low));
    assert.equal(c, crc13Equations(high, low));
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
