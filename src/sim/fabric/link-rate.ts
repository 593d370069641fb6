import type { LinkSpec } from './types.ts';

/**
 * Wire time on a link, exact in integer picoseconds.
 *
 * A lane at B Gbaud carries B × 10^9 code bits per second; 8b/10b puts 8 data bits in 10 code
 * bits and 64b/67b 64 in 67 (Part 6 §4 and §5 of rev 4.1: Baud Rate Classes 1–2 use 8b/10b, Class 3
 * 64b/67b). One octet therefore takes 8000 / (lanes × B × efficiency) ps. Every RapidIO baud rate
 * (1.25, 2.5, 3.125, 5, 6.25, 10.3125, 12.5, 25.78125) is a multiple of 1/1024 Gbaud, so the rate is
 * kept as an integer count of 1/1024 Gbaud and the division is done once, rounded up: no drift
 * from floating point, and the same time on every machine.
 */
export const BAUD_MIN = 1.25;
export const BAUD_MAX = 25.78125;

/**
 * Octets-equivalent of one control symbol on the wire, its delimiting included (decision L3).
 *
 * 8b/10b: Part 6 §6.5.2 "Control Symbol 48 are delimited by two 8b/10b special characters. The
 * first special character marks the beginning of the control symbol (the start delimiter) … The
 * second special character marks the end of the control symbol (the end delimiter)", so a CS48
 * is 6 + 2 = 8 characters. A CS64 on an 8b/10b link is outside the spec (decision L2); it is given
 * the same two delimiters (§6.5.2: control symbols "on 8b/10b encoded links are delimited for
 * transmission by 8b/10b special characters"), 8 + 2 = 10.
 *
 * 64b/67b: §6.5.2 "For 64b/67b encoded link no such delimiting exists for Control Symbol 64";
 * §5.8 "Each control symbol shall be encoded using a pair of contiguous control codewords such
 * that half of the control symbol is in each of the two control codewords", the other half of
 * each codeword carrying packet bytes or the neighbouring symbol (§5.5.3.6–§5.5.3.8: CSB, CSE,
 * CSEB), so a symbol takes 8 octets of codeword payload. A CS48 on a 64b/67b link (outside the
 * spec) occupies the same two half codewords: 8. The 0x00 bytes that fill the other halves of an
 * isolated symbol's CSB and CSE (§5.5.3.6 "loaded with bytes of 0x00") are idle fill, like the
 * 8b/10b column fill of §4.10, and are not charged.
 */
export function symbolBytes(spec: LinkSpec): number {
  if (spec.encoding === '64b67b') return 8;
  return (symbolForm(spec) === 'cs64' ? 8 : 6) + 2;
}

/**
 * Octets a packet of `bytes` octets (its serial length, Part 6 §2) occupies on the wire,
 * without its delimiter. 8b/10b carries the packet as it is. 64b/67b: Part 6 §5.6 "The packet
 * format … shall be augmented by an additional 32-bit link CRC-32" and "Packets that are not an
 * integer multiple of 8 bytes in length shall be padded with 4 bytes of 0x00", so the packet
 * takes bytes + 4 rounded up to a multiple of 8.
 */
export function packetWireBytes(spec: LinkSpec, bytes: number): number {
  if (spec.encoding === '8b10b') return bytes;
  return Math.ceil((bytes + 4) / 8) * 8;
}

/** Picoseconds a packet of `bytes` octets takes with its delimiting control symbol (decision L3). */
export function packetWireTime(spec: LinkSpec, bytes: number): number {
  return wireTime(spec, packetWireBytes(spec, bytes) + symbolBytes(spec));
}

export function symbolForm(spec: LinkSpec): 'cs48' | 'cs64' {
  return spec.symbol ?? (spec.encoding === '64b67b' ? 'cs64' : 'cs48');
}

export function checkLinkSpec(spec: LinkSpec, field = 'link'): void {
  if (![1, 2, 4, 8, 16].includes(spec.lanes)) throw new RangeError(`${field}.lanes must be 1, 2, 4, 8 or 16`);
  if (!(spec.baud >= BAUD_MIN && spec.baud <= BAUD_MAX) || !Number.isInteger(spec.baud * 1024)) {
    throw new RangeError(`${field}.baud must be a multiple of 1/1024 Gbaud between ${BAUD_MIN} and ${BAUD_MAX}`);
  }
  const encoding: string = spec.encoding;
  if (encoding !== '8b10b' && encoding !== '64b67b') throw new RangeError(`${field}.encoding must be 8b10b or 64b67b`);
  if (!Number.isSafeInteger(spec.propagation) || spec.propagation < 0) throw new RangeError(`${field}.propagation must be a non-negative integer (ps)`);
}

/** Picoseconds to put `bytes` octets on the wire, rounded up. */
export function wireTime(spec: LinkSpec, bytes: number): number {
  // ps = bytes × 8000 / (lanes × baud × eff); baud = b1024 / 1024.
  // 8b/10b: bytes × 8000 × 1024 × 10/8 = bytes × 10_240_000; 64b/67b: bytes × 8000 × 1024 × 67/64 = bytes × 8_576_000.
  const perByte = spec.encoding === '8b10b' ? 10_240_000 : 8_576_000;
  const denominator = spec.lanes * Math.round(spec.baud * 1024);
  const n = bytes * perByte;
  let q = Math.floor(n / denominator);
  while (q * denominator < n) q++;
  while (q > 0 && (q - 1) * denominator >= n) q--;
  return q;
}

/** Data rate in bits per second (for reports). */
export function dataRate(spec: LinkSpec): number {
  const eff = spec.encoding === '8b10b' ? 0.8 : 64 / 67;
  return spec.lanes * spec.baud * 1e9 * eff;
}
