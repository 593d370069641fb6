/**
 * CRC-5 of the Control Symbol 24 (Part 6 §3.6.1, DECISIONS §2): "The ITU polynomial
 * x5+x4+x2+1 shall be used", "computed over 20 bits comprised of control symbol bits 0 through
 * 18 plus a 20th bit that is appended after bit 18 ... set to logic 0", "beginning with control
 * symbol bit 0", "Before the CRC is computed, the CRC shall be set to all 1s (0b11111)".
 * "The CRC check bits c[0:4] occupy Control Symbol 24 bits [19:23] respectively": c0 is the most
 * significant bit of the returned 5-bit value.
 *
 * `data` is the 19-bit integer of symbol bits 0–18, bit 0 the most significant (stype0[0] is
 * worth 2^18).
 *
 * The fast path uses linearity: with the register preset to ones the CRC is L(data) ^ K, where
 * L is linear over GF(2) and K = CRC(0) (0b01110: Table 3-25 marks D18 "!x" in C1–C3 for this
 * constant). L splits into two table look-ups on the upper 11 and lower 8 data bits.
 *
 * @example
 * ```ts
 * import { CRC5_INIT, CRC5_POLY, crc5 } from 'riodp/wire';
 *
 * // A hardware-style LFSR (x5+x4+x2+1, the x5 term being the shift) over bits 0–18 of a
 * // CS24 packet-accepted 0x032f14, then the appended 0 bit, agrees with crc5.
 * const data = 0x032f14 >>> 5;
 * let c = CRC5_INIT;
 * for (let i = 18; i >= -1; i--) {
 *   const fb = ((c >> 4) ^ (i < 0 ? 0 : (data >>> i) & 1)) & 1;
 *   c = ((c << 1) & 0x1f) ^ (fb ? CRC5_POLY : 0);
 * }
 * console.log(c === crc5(data), c.toString(2)); // true 10100
 * ```
 */
export const CRC5_POLY = 0x15;
/**
 * The register's preset: all 1s (§3.6.1).
 *
 * @example
 * ```ts
 * import { CRC5_INIT, crc5 } from 'riodp/wire';
 *
 * // Because of the all-ones preset, symbol bits 0–18 all zero still give a non-zero CRC:
 * // the constant Table 3-25 marks "!x" (c1–c3).
 * console.log(CRC5_INIT.toString(2), crc5(0).toString(2).padStart(5, '0')); // 11111 01110
 * ```
 */
export const CRC5_INIT = 0x1f;
export const CRC5_DATA_BITS = 19;

/** Bit-serial reference: one shift per data bit, then the appended 0 bit. */
export function crc5Bitwise(data: number): number {
  let c = CRC5_INIT;
  for (let i = CRC5_DATA_BITS - 1; i >= -1; i--) {
    const bit = i < 0 ? 0 : (data >>> i) & 1;
    const fb = ((c >> 4) ^ bit) & 1;
    c = (c << 1) & 0x1f;
    if (fb) c ^= CRC5_POLY;
  }
  return c;
}

const K = crc5Bitwise(0);
const HIGH = new Uint8Array(1 << 11);
const LOW = new Uint8Array(1 << 8);
for (let x = 0; x < HIGH.length; x++) HIGH[x] = crc5Bitwise(x << 8) ^ K;
for (let x = 0; x < LOW.length; x++) LOW[x] = crc5Bitwise(x) ^ K;

/**
 * CRC-5 of symbol bits 0–18 (table-driven, no allocation).
 *
 * @example
 * ```ts
 * import { crc5 } from 'riodp/wire';
 *
 * // A captured CS24 (packet-accepted, ackID 3, 5 buffers, NOP): 0x03 0x2f 0x14.
 * const word = 0x032f14;
 * const ok = crc5(word >>> 5) === (word & 0x1f); // bits 0–18 against c0–c4 (bits 19–23)
 * console.log(ok); // true
 * ```
 */
export function crc5(data: number): number {
  // Indices are masked to the table sizes, so both look-ups are in range.
  return (HIGH[(data >>> 8) & 0x7ff] as number) ^ (LOW[data & 0xff] as number) ^ K;
}
