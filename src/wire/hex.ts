import { WireError, WireErrorCode } from './errors.ts';

/** Parses hex with whitespace, `0x` prefixes, `_` and `:` separators tolerated. */
export function parseHex(text: string): Uint8Array {
  const clean = text.replace(/0x/gi, '').replace(/[\s_:,]/g, '');
  const bad = /[^0-9a-fA-F]/.exec(clean);
  if (bad) {
    throw new WireError(WireErrorCode.invalid, 'hex', Math.floor(bad.index / 2), 'input', `'${bad[0]}' is not a hex digit`);
  }
  if (clean.length % 2 !== 0) {
    throw new WireError(WireErrorCode.invalid, 'hex', clean.length >> 1, 'input', 'odd number of hex digits');
  }
  return Uint8Array.from(Buffer.from(clean, 'hex'));
}

/** The bytes as lower-case hex, two digits each, no separators. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
