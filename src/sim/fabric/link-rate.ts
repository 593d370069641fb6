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

/** Octets of one control symbol on the wire (CS48 = 48 bits, CS64 = 64 bits). */
export function symbolBytes(spec: LinkSpec): number {
  return symbolForm(spec) === 'cs64' ? 8 : 6;
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
