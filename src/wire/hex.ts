import { WireError, WireErrorCode } from './errors.ts';

/**
 * Parses hex with whitespace, `0x` prefixes, `_` and `:` separators tolerated.
 *
 * @example
 * ```ts
 * import { decodePacket, parseHex } from 'riodp/wire';
 *
 * // A doorbell pasted from a capture tool that separates the bytes with colons.
 * const bytes = parseHex('00:0a:05:01:00:07:be:ef');
 * const p = decodePacket(bytes, 0, bytes.length);
 * console.log(bytes.length, p.ftype); // 8 10
 * ```
 */
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

/**
 * The bytes as lower-case hex, two digits each, no separators.
 *
 * @example
 * ```ts
 * import { encodePacket, packetLength, toHex } from 'riodp/wire';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const doorbell: Type10Packet = {
 *   ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 5, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef,
 * };
 * const bytes = new Uint8Array(packetLength(doorbell));
 * encodePacket(doorbell, bytes, 0);
 * console.log(toHex(bytes)); // 000a05010007beef
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
