import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRC24_ALIGNMENT_MASK, CRC24_INIT, CRC24_POLY, crc24, crc24Bitwise } from './crc24.ts';
import { applyCrcEquations, crcEquations, dataBit, nextLcg, tableRow } from '../../test/support/crc-equations.ts';

/**
 * Part 6 §3.6.6 Table 3-27, transcribed column by column: for data bit Dj (control symbol bit j,
 * D0 = stype0[0], D37 = stype1[7]) the CRC bits C0..C23 whose Exclusive-OR takes it ('1' for the
 * table's x), or takes it inverted ('!' for "!x", "using rules as for the CRC-5 parallel
 * generation": the inversions fold in the all-ones preset). The table spreads its "!x" marks over
 * D37, D36 and D35; each column has at most one.
 */
const TABLE_3_27: Readonly<Record<number, string>> = {
  37: '.1.!!!.1.!1.1!.!1!..!.!1',
  36: '1.111.!.!1.11.111..!.!1.',
  35: '..1.1...11.11.1.11!..111',
  34: '.1.1...11.11.1.111..111.',
  33: '1.1...11.11.1.111..111..',
  32: '...11.111.111.1.1111..11',
  31: '..11.111.111.1.1111..11.',
  30: '.11.111.111.1.1111..11..',
  29: '11.111.111.1.1111..11...',
  28: '111..11.11....1.11111.11',
  27: '1..1....111.1.....1111.1',
  26: '.11111..1.1111.11.11...1',
  25: '11111..1.1111.11.11...1.',
  24: '1.1.11111..11.11....1111',
  23: '......1..1.11.1111.1.1.1',
  22: '.....1..1.11.1111.1.1.1.',
  21: '....1..1.11.1111.1.1.1..',
  20: '...1..1.11.1111.1.1.1...',
  19: '..1..1.11.1111.1.1.1....',
  18: '.1..1.11.1111.1.1.1.....',
  17: '1..1.11.1111.1.1.1......',
  16: '.111....1....111.1..1.11',
  15: '111....1....111.1..1.11.',
  14: '1..11111.111....111..111',
  13: '.11...111...11.......1.1',
  12: '11...111...11.......1.1.',
  11: '11.1..11.1.111.111.11111',
  10: '11111.1111.1.11..111.1.1',
  9: '1.1.1.1.11.....1..1....1',
  8: '....1...111.11111...1..1',
  7: '...1...111.11111...1..1.',
  6: '..1...111.11111...1..1..',
  5: '.1...111.11111...1..1...',
  4: '1...111.11111...1..1....',
  3: '.1......1..111..111.1.11',
  2: '1......1..111..111.1.11.',
  1: '.1.11111...1111..11..111',
  0: '1.11111...1111..11..111.',
};

/** Per CRC bit: masks over symbol bits 0–23 and 24–37, and the inversion constant. */
const EQUATIONS = crcEquations(TABLE_3_27, 24, 37);

test('Part 6 §3.6.5: polynomial x^24+x^22+x^20+x^19+x^18+x^16+x^14+x^13+x^11+x^10+x^8+x^7+x^6+x^3+x+1 is 0x5D6DCB, preset all 1s', () => {
  const terms = [22, 20, 19, 18, 16, 14, 13, 11, 10, 8, 7, 6, 3, 1, 0];
  assert.equal(CRC24_POLY, terms.reduce((a, t) => a | (1 << t), 0));
  assert.equal(CRC24_INIT, 0xffffff);
});

test('Part 6 §3.6.5: the polynomial factors as (x^11+x^9+x^8+x^7+x^6+x^3+1)(x^11+x^9+x^8+x^7+x^5+x^3+x^2+x+1)(x+1)(x+1)', () => {
  // Carry-less products over GF(2); bit k is the coefficient of x^k.
  const mul = (a: number, b: number): number => {
    let r = 0;
    for (let k = 0; k < 31; k++) if ((b >>> k) & 1) r ^= a << k;
    return r;
  };
  const f1 = 0b1011_1100_1001; // x^11+x^9+x^8+x^7+x^6+x^3+1
  const f2 = 0b1011_1010_1111; // x^11+x^9+x^8+x^7+x^5+x^3+x^2+x+1
  const product = mul(mul(mul(f1, f2), 0b11), 0b11);
  assert.equal(product, (1 << 24) | CRC24_POLY);
});

test('Part 6 §3.6.6 Table 3-27: every data bit D0–D37 feeds exactly the CRC bits its row marks, and all-zero data gives the "!x" constant', () => {
  // The CRC is affine: CRC(d) = L(d) ^ CRC(0). One data bit at a time gives L's rows; matching
  // all 38 rows and the constant proves the serial CRC equals the equations for every input.
  const k = crc24Bitwise(0, 0);
  assert.equal(k, applyCrcEquations(EQUATIONS, 0, 0));
  assert.equal(crc24(0, 0), k);
  for (let j = 0; j <= 37; j++) {
    const { high, low } = dataBit(j, 37);
    const row = tableRow(crc24Bitwise(high, low) ^ k, 24);
    assert.equal(row, (TABLE_3_27[j] as string).replace(/!/g, '1'), `D${j}`);
    assert.equal(crc24(high, low), crc24Bitwise(high, low), `D${j} fast path`);
  }
});

test('Part 6 §3.6.6 Table 3-27: the table-driven CRC-24 equals the bit-serial reference and the parallel equations on a sweep of CS64 data patterns', () => {
  // A fixed linear-congruential sweep of 2^16 patterns; random patterns are in crc24.prop.test.ts.
  let x = 0x2545f491;
  for (let i = 0; i < 1 << 16; i++) {
    x = nextLcg(x);
    const high = x >>> 8;
    const low = (x ^ (x >>> 11)) & 0x3fff;
    const c = crc24(high, low);
    assert.equal(c, crc24Bitwise(high, low));
    assert.equal(c, applyCrcEquations(EQUATIONS, high, low));
  }
});

test('Part 6 §3.6: CRC-24 detects every error burst of up to 24 bits in control symbol bits 0–61', () => {
  // A degree-24 CRC with an x^0 term detects all bursts of length <= 24. Bursts confined to the
  // data and CRC bits (0–61, alignment bits 28–29 excluded as they are not covered), every
  // position, lengths 1–24 with a sample of inner patterns.
  const high = 0b0100_000000000011_0000;
  const low = 0b0000_00_00111000 & ~CRC24_ALIGNMENT_MASK;
  const word = BigInt(high) * 2n ** 38n + BigInt(low) * 2n ** 24n + BigInt(crc24(high, low));
  let tried = 0;
  for (let len = 1; len <= 24; len++) {
    const inners = len <= 2 ? [0] : [0, (1 << (len - 2)) - 1, 0x555555 & ((1 << (len - 2)) - 1)];
    for (let start = 0; start + len <= 62; start++) {
      for (const inner of inners) {
        const pattern = len === 1 ? 1n : 1n | (BigInt(inner) << 1n) | (1n << BigInt(len - 1));
        const err = pattern << BigInt(62 - start - len);
        const bad = word ^ err;
        const h = Number(bad >> 38n);
        const l = Number((bad >> 24n) & 0x3fffn);
        const c = Number(bad & 0xffffffn);
        // A burst that only touches the alignment bits changes nothing the CRC covers.
        if ((err >> 24n) === ((err >> 24n) & BigInt(CRC24_ALIGNMENT_MASK)) && (err & 0xffffffn) === 0n) continue;
        assert.notEqual(crc24(h, l & ~CRC24_ALIGNMENT_MASK), c, `burst at ${start}, ${len} bits`);
        tried++;
      }
    }
  }
  assert.ok(tried > 1000);
});

test('Part 6 §3.6: CRC-24 detects "any odd number of bit errors" and "up to 7 single bit errors across the control symbol" (a sample of 1–7 flips)', () => {
  let x = 0x1234567;
  for (let i = 0; i < 7000; i++) {
    x = nextLcg(x);
    const high = x >>> 8;
    const low = (x >>> 3) & 0x3fff & ~CRC24_ALIGNMENT_MASK;
    const good = crc24(high, low);
    // Flip 1–7 distinct bits among the 60 covered positions (bits 0–61 but the alignment bits).
    const flips = 1 + (i % 7);
    const positions = new Set<number>();
    let y = x;
    while (positions.size < flips) {
      y = (Math.imul(y, 69069) + 1) >>> 0;
      const p = y % 62;
      if (p !== 28 && p !== 29) positions.add(p);
    }
    let h = high;
    let l = low;
    let c = good;
    for (const p of positions) {
      if (p < 24) h ^= 1 << (23 - p);
      else if (p < 38) l ^= 1 << (37 - p);
      else c ^= 1 << (61 - p);
    }
    assert.notEqual(crc24(h, l), c >>> 0, `flips ${[...positions].join(',')}`);
  }
});
