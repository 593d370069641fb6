/**
 * CRC-13 of the Control Symbol 48 (Part 6 §3.6.3, DECISIONS §2): "The polynomial
 * x13+x10+x8+x5+x2+1 shall be used" (0x0525), "computed over control symbol bits 0 through 34
 * beginning with control symbol bit 0", "Before the 13-bit CRC is computed, the CRC shall be set
 * to all 0s", and "The CRC check bits c[0:12] shall occupy Control Symbol 48 bits [35:47]
 * respectively": c0 is the most significant bit of the returned 13-bit value.
 *
 * The 35 data bits are passed as two integers because JavaScript bit operators are 32 bits
 * wide: `high` = symbol bits 0–23 (24 bits, bit 0 worth 2^23) and `low` = bits 24–34 (11 bits,
 * bit 24 worth 2^10). Bits 21–34 are stype2 (reserved in Part 6, named by the VoQ document),
 * and they are covered.
 *
 * With a zero preset the CRC is linear over GF(2), so it is the XOR of four table look-ups,
 * one per input chunk (three bytes of `high`, then `low`).
 *
 * @example
 * ```ts
 * import { CRC13_INIT, CRC13_POLY, crc13 } from 'riodp/wire';
 *
 * // A bit-serial LFSR over the 35 data bits of the CS48 0x80040000098d agrees with crc13.
 * const high = 0x800400, low = 0x00098d >>> 13; // bits 0–23, bits 24–34
 * let c = CRC13_INIT;
 * for (let i = 34; i >= 0; i--) {
 *   const bit = i >= 11 ? (high >>> (i - 11)) & 1 : (low >>> i) & 1;
 *   c = ((c << 1) & 0x1fff) ^ (((c >> 12) ^ bit) & 1 ? CRC13_POLY : 0);
 * }
 * console.log(c === crc13(high, low), c.toString(16)); // true 98d
 * ```
 */
export const CRC13_POLY = 0x0525;
/**
 * The register's preset: all 0s (§3.6.3).
 *
 * @example
 * ```ts
 * import { CRC13_INIT, crc13 } from 'riodp/wire';
 *
 * // With a zero preset the CRC-13 is linear: the CRC of two XORed inputs is the XOR of their CRCs.
 * const a = crc13(0x800400, 0), b = crc13(0x000040, 0x123);
 * console.log(CRC13_INIT, crc13(0x800440, 0x123) === (a ^ b)); // 0 true
 * ```
 */
export const CRC13_INIT = 0;

/** Bit-serial reference, one shift per data bit. */
export function crc13Bitwise(high: number, low: number): number {
  let c = CRC13_INIT;
  for (let i = 34; i >= 0; i--) {
    const bit = i >= 11 ? (high >>> (i - 11)) & 1 : (low >>> i) & 1;
    const fb = ((c >> 12) ^ bit) & 1;
    c = (c << 1) & 0x1fff;
    if (fb) c ^= CRC13_POLY;
  }
  return c;
}

const T0 = new Uint16Array(256);
const T1 = new Uint16Array(256);
const T2 = new Uint16Array(256);
const T3 = new Uint16Array(1 << 11);
for (let x = 0; x < 256; x++) {
  T0[x] = crc13Bitwise(x << 16, 0);
  T1[x] = crc13Bitwise(x << 8, 0);
  T2[x] = crc13Bitwise(x, 0);
}
for (let x = 0; x < T3.length; x++) T3[x] = crc13Bitwise(0, x);

/**
 * CRC-13 of symbol bits 0–34 (table-driven, no allocation).
 *
 * @example
 * ```ts
 * import { crc13 } from 'riodp/wire';
 *
 * // A captured CS48 (status, start-of-packet): 0x800400 is bits 0–23, 0x00098d bits 24–47.
 * const high = 0x800400, rest = 0x00098d;
 * console.log(crc13(high, rest >>> 13) === (rest & 0x1fff)); // true
 * ```
 */
export function crc13(high: number, low: number): number {
  // Every index is masked to its table's size.
  return (
    (T0[(high >>> 16) & 0xff] as number) ^
    (T1[(high >>> 8) & 0xff] as number) ^
    (T2[high & 0xff] as number) ^
    (T3[low & 0x7ff] as number)
  );
}
