/**
 * CRC-24 of the Control Symbol 64 (Part 6 §3.6.5): "The following polynomial shall be used to
 * generate the 24-bit CRC for Control Symbol 64: x24+x22+x20+x19+x18+x16+x14+x13+x11+x10+x8+
 * x7+x6+x3+x+1" (0x5D6DCB without the x24 term), "computed over control symbol bits 0 through
 * 37 beginning with control symbol bit 0. Before the CRC is computed, the CRC shall be set to
 * all1s", and "The CRC check bits, c[0:23], occupy Control Symbol 64 bits, [38:61]": c0 is the
 * most significant bit of the returned 24-bit value.
 *
 * The 38 data bits are passed as two integers because JavaScript bit operators are 32 bits
 * wide: `high` = symbol bits 0–23 (bit 0 worth 2^23) and `low` = bits 24–37 (14 bits, bit 24
 * worth 2^13). Bits 28–29 are the first alignment field, which "shall be treated as 0 by the
 * encode and decode functions": the caller passes them as 0 (`CRC24_ALIGNMENT_MASK`).
 *
 * With the register preset to ones the CRC is affine: CRC(d) = L(d) ^ K with L linear over
 * GF(2) and K = CRC(0). Table 3-27 folds K into its "!x" marks; here L is the XOR of five table
 * look-ups (three bytes of `high`, the upper 6 and lower 8 bits of `low`).
 *
 * @example
 * ```ts
 * import { CRC24_INIT, CRC24_POLY, crc24 } from 'riodp/wire';
 *
 * // A bit-serial LFSR over the 38 data bits of the CS64 0x00030050e38133c4 agrees with crc24.
 * const high = 0x000300, low = (0x50 << 6) | (0xe38133c4 >>> 26); // bits 0–23, bits 24–37
 * let c = CRC24_INIT;
 * for (let i = 37; i >= 0; i--) {
 *   const bit = i >= 14 ? (high >>> (i - 14)) & 1 : (low >>> i) & 1;
 *   c = ((c << 1) & 0xffffff) ^ (((c >>> 23) ^ bit) & 1 ? CRC24_POLY : 0);
 * }
 * console.log(c === crc24(high, low), c.toString(16)); // true e04cf1
 * ```
 */
export const CRC24_POLY = 0x5d6dcb;
/**
 * The register's preset: all 1s (§3.6.5).
 *
 * @example
 * ```ts
 * import { CRC24_INIT, crc24 } from 'riodp/wire';
 *
 * // The all-ones preset makes the CRC of all-zero data non-zero: the constant Table 3-27
 * // folds into its "!x" marks.
 * console.log(CRC24_INIT.toString(16), crc24(0, 0) !== 0); // ffffff true
 * ```
 */
export const CRC24_INIT = 0xffffff;
export const CRC24_DATA_BITS = 38;
/** The alignment bits 28–29 inside `low` (bit 28 worth 2^9, bit 29 worth 2^8). */
export const CRC24_ALIGNMENT_MASK = 0x300;

/** Bit-serial reference, one shift per data bit. */
export function crc24Bitwise(high: number, low: number): number {
  let c = CRC24_INIT;
  for (let i = CRC24_DATA_BITS - 1; i >= 0; i--) {
    const bit = i >= 14 ? (high >>> (i - 14)) & 1 : (low >>> i) & 1;
    const fb = ((c >>> 23) ^ bit) & 1;
    c = (c << 1) & 0xffffff;
    if (fb) c ^= CRC24_POLY;
  }
  return c;
}

const K = crc24Bitwise(0, 0);
const T0 = new Uint32Array(256);
const T1 = new Uint32Array(256);
const T2 = new Uint32Array(256);
const T3 = new Uint32Array(64);
const T4 = new Uint32Array(256);
for (let x = 0; x < 256; x++) {
  T0[x] = crc24Bitwise(x << 16, 0) ^ K;
  T1[x] = crc24Bitwise(x << 8, 0) ^ K;
  T2[x] = crc24Bitwise(x, 0) ^ K;
  T4[x] = crc24Bitwise(0, x) ^ K;
}
for (let x = 0; x < T3.length; x++) T3[x] = crc24Bitwise(0, x << 8) ^ K;

/**
 * CRC-24 of symbol bits 0–37 (table-driven, no allocation).
 *
 * @example
 * ```ts
 * import { crc24 } from 'riodp/wire';
 *
 * // A captured CS64 (packet-accepted, ackID 3, 5 buffers, NOP) as two 32-bit words.
 * const w0 = 0x00030050, w1 = 0xe38133c4;
 * const low = ((w0 & 0xf3) << 6) | (w1 >>> 26); // bits 24–37, alignment bits 28–29 as 0
 * console.log(crc24(w0 >>> 8, low).toString(16), ((w1 >>> 2) & 0xffffff).toString(16)); // e04cf1 e04cf1
 * ```
 */
export function crc24(high: number, low: number): number {
  // Every index is masked to its table's size.
  return (
    ((T0[(high >>> 16) & 0xff] as number) ^
      (T1[(high >>> 8) & 0xff] as number) ^
      (T2[high & 0xff] as number) ^
      (T3[(low >>> 8) & 0x3f] as number) ^
      (T4[low & 0xff] as number) ^
      K) >>>
    0
  );
}
