import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRC5_INIT, CRC5_POLY, crc5, crc5Bitwise } from './crc5.ts';
import { applyCrcEquations, crcEquations } from '../../test/support/crc-equations.ts';

/**
 * Part 6 §3.6.2 Table 3-25, transcribed column by column: for data bit Dj, the CRC bits C0..C4
 * whose Exclusive-OR takes it ('1' for the table's x), or takes it inverted ('!', written "!x" in the table: "bit
 * 18 being applied to the CRC circuit must be inverted", which folds in the 0b11111 preset and
 * the appended 0 bit). Dj is control symbol bit j (D0 = stype0[0], D18 = cmd[2]).
 */
const TABLE_3_25: Readonly<Record<number, string>> = {
  18: '1!!!1',
  17: '.1.11',
  16: '1.11.',
  15: '11..1',
  14: '..111',
  13: '.111.',
  12: '111..',
  11: '.11.1',
  10: '11.1.',
  9: '....1',
  8: '...1.',
  7: '..1..',
  6: '.1...',
  5: '1....',
  4: '1.1.1',
  3: '11111',
  2: '.1.11',
  1: '1.11.',
  0: '11..1',
};

/** Per CRC bit: the mask of data bits (as bits of the 19-bit integer) and the inversion constant. */
const EQUATIONS = crcEquations(TABLE_3_25, 5, 18, 19);

function crc5Equations(data: number): number {
  return applyCrcEquations(EQUATIONS, data);
}

test('Part 6 §3.6.1: polynomial x^5+x^4+x^2+1 is 0x15 and the preset is 0b11111 (DECISIONS §2)', () => {
  assert.equal(CRC5_POLY, 0b10101);
  assert.equal(CRC5_INIT, 0b11111);
});

test('Part 6 §3.6.2 Table 3-25: all-zero data gives the "!x" constant 0b01110 (C1, C2, C3 inverted)', () => {
  assert.equal(crc5Bitwise(0), 0b01110);
  assert.equal(crc5(0), 0b01110);
  assert.equal(crc5Equations(0), 0b01110);
});

test('Part 6 §3.6.1: the table-driven CRC-5 equals the bit-serial reference over all 2^19 CS24 data patterns', () => {
  let mismatches = 0;
  for (let d = 0; d < 1 << 19; d++) if (crc5(d) !== crc5Bitwise(d)) mismatches++;
  assert.equal(mismatches, 0);
});

test('Part 6 §3.6.2 Table 3-25: the parallel equations equal the serial CRC-5 (preset 0b11111, appended 0 bit) over all 2^19 patterns', () => {
  let mismatches = 0;
  for (let d = 0; d < 1 << 19; d++) if (crc5Equations(d) !== crc5(d)) mismatches++;
  assert.equal(mismatches, 0);
});

test('Part 6 §3.6.1: the appended 20th bit is 0 — leaving it out or making it 1 gives other CRCs', () => {
  // Without the appended bit, the register after bit 18 is what the appended 0 bit then shifts.
  const data = 0b000_00011_00101_111_000;
  let without = CRC5_INIT;
  for (let i = 18; i >= 0; i--) {
    const fb = ((without >> 4) ^ (data >>> i)) & 1;
    without = ((without << 1) & 0x1f) ^ (fb ? CRC5_POLY : 0);
  }
  const shifted = ((without << 1) & 0x1f) ^ ((without >> 4) & 1 ? CRC5_POLY : 0);
  const withOne = ((without << 1) & 0x1f) ^ (((without >> 4) ^ 1) & 1 ? CRC5_POLY : 0);
  assert.equal(crc5(data), shifted);
  assert.notEqual(crc5(data), without);
  assert.notEqual(crc5(data), withOne);
});

test('Part 6 §3.6: CRC-5 detects every single-bit error in the 24 bits of a CS24', () => {
  for (const data of [0, 0x7ffff, 0b000_00011_00101_111_000, 0x2aaaa]) {
    const word = (data << 5) | crc5(data);
    for (let bit = 0; bit < 24; bit++) {
      const bad = word ^ (1 << bit);
      assert.notEqual(crc5(bad >>> 5), bad & 0x1f, `bit ${23 - bit} flipped`);
    }
  }
});
