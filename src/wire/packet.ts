import { WireError, WireErrorCode, need } from './errors.ts';
import type { LogicalCodec } from './codec.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';
import { decodeSerial, encodeSerial, serialLength } from './serial.ts';
import type { SerialFields } from './serial.ts';
import { type7Codec } from './type7.ts';
import type { Type7Packet } from './type7.ts';
import { type8Codec } from './type8.ts';
import type { Type8Packet } from './type8.ts';
import { type9Codec } from './type9.ts';
import type { Type9Packet } from './type9.ts';
import { type10Codec } from './type10.ts';
import type { Type10Packet } from './type10.ts';
import { type11Codec } from './type11.ts';
import type { Type11Packet } from './type11.ts';
import { type13Codec } from './type13.ts';
import type { Type13Packet } from './type13.ts';

/** Every packet format riodp decodes, by ftype. */
export type Packet = Type7Packet | Type8Packet | Type9Packet | Type10Packet | Type11Packet | Type13Packet;
/** A packet with its serial framing fields (`decodeSerialPacket`). */
export type SerialPacket = Packet & SerialFields;

// Indexed by ftype (4 bits): an array look-up keeps dispatch off the CCP decode budget.
const CODECS: (LogicalCodec<Packet> | undefined)[] = new Array<LogicalCodec<Packet> | undefined>(16).fill(undefined);
for (const c of [type7Codec, type8Codec, type9Codec, type10Codec, type11Codec, type13Codec] as LogicalCodec<Packet>[]) {
  CODECS[c.ftype] = c;
}

/**
 * The ftypes `decodePacket` and `encodePacket` handle: 7, 8, 9, 10, 11 and 13.
 *
 * @example
 * ```ts
 * import { SUPPORTED_FTYPES, parseHex } from 'riodp/wire';
 *
 * // Screen a captured packet before decoding it: ftype is the low nibble of byte 1.
 * const bytes = parseHex('0002 0501 4800 0000 0000'); // ftype 2 (NREAD), not a format riodp models
 * const ftype = (bytes[1] ?? 0) & 0xf;
 * console.log(ftype, SUPPORTED_FTYPES.includes(ftype)); // 2 false
 * ```
 */
export const SUPPORTED_FTYPES: readonly number[] = CODECS.flatMap((c) => (c ? [c.ftype] : []));

export function codecFor(ftype: number, offset = 1): LogicalCodec<Packet> {
  const codec = CODECS[ftype];
  if (!codec) {
    throw new WireError(
      WireErrorCode.unsupported,
      'ftype',
      offset,
      'Part 6 §2.3',
      `ftype ${ftype} is not a format riodp decodes (supported: ${SUPPORTED_FTYPES.join(', ')})`,
    );
  }
  return codec;
}

function ftypeAt(bytes: Uint8Array, offset: number, end: number): number {
  // The codecs trust `end`; a span reaching past the array would read missing bytes as zeros.
  if (!Number.isInteger(offset) || !Number.isInteger(end) || offset < 0 || end > bytes.length || offset > end) {
    throw new WireError(WireErrorCode.range, 'span', offset, 'riodp API', `[${offset}, ${end}) is not inside ${bytes.length} bytes`);
  }
  need(end, offset, 2, 'prefix', 'Part 6 §2.3 Figure 2-2');
  return (bytes[offset + 1] as number) & 0xf;
}

/**
 * Decodes a transport-level packet in [offset, end) of `bytes`: from the prefix to the last
 * logical field, no CRC, no pad. The result is a union over the ftypes of `SUPPORTED_FTYPES`;
 * `ftype` narrows it. Throws a `WireError` (its code, field, offset and clause) on anything the
 * layouts do not allow; `opts.strict` also refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodePacket } from 'riodp/wire';
 *
 * const bytes = Uint8Array.from([0x00, 0x0a, 0x05, 0x01, 0x00, 0x07, 0xbe, 0xef]);
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 10) console.log(p.destinationID, p.sourceID, p.info.toString(16)); // 5 1 beef
 * ```
 */
export function decodePacket(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Packet {
  return codecFor(ftypeAt(bytes, offset, end), offset + 1).decode(bytes, offset, end, opts);
}

/**
 * Decodes a whole LP-Serial packet (Part 6 §2.3–§2.5) in [offset, end): its CRC-16, and the early
 * CRC of a packet longer than 80 bytes, are checked, the pad removed; `crc` and `earlyCrc` say what
 * they were. Throws a `WireError` with code `crc` when a CRC does not match.
 *
 * @example
 * ```ts
 * import { decodeSerialPacket } from 'riodp/wire';
 *
 * // A doorbell as a link carries it: the packet, its CRC-16 (0x9f73) and the 2-byte pad.
 * const bytes = Uint8Array.from([0x00, 0x0a, 0x05, 0x01, 0x00, 0x07, 0xbe, 0xef, 0x9f, 0x73, 0x00, 0x00]);
 * const p = decodeSerialPacket(bytes, 0, bytes.length);
 * console.log(p.ftype, p.crc.toString(16)); // 10 9f73
 * ```
 */
export function decodeSerialPacket(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): SerialPacket {
  return decodeSerial(codecFor(ftypeAt(bytes, offset, end), offset + 1), bytes, offset, end, opts);
}

/**
 * Bytes `encodePacket` writes for `p`.
 *
 * @example
 * ```ts
 * import { encodePacket, maintenanceReadRequest, packetLength } from 'riodp/wire';
 *
 * // A maintenance read of the Base Device ID CSR (4 bytes at 0x60) of end point 0x05.
 * const p = maintenanceReadRequest({ tt: 0, destinationID: 0x05, sourceID: 0x01, srcTID: 3, byteOffset: 0x60, byteCount: 4 });
 * const bytes = new Uint8Array(packetLength(p));
 * console.log(bytes.length, encodePacket(p, bytes, 0)); // 10 10
 * ```
 */
export function packetLength(p: Packet): number {
  return codecFor(p.ftype, 0).encodedLength(p);
}

/**
 * Bytes `encodeSerialPacket` writes for `p`: with the CRC(s), and the pad that makes it a multiple of 4
 * bytes.
 *
 * @example
 * ```ts
 * import { messageSegment, packetLength, serialPacketLength } from 'riodp/wire';
 *
 * // 14 bytes of packet + 2 of CRC-16 = 16, already a multiple of 4: no pad.
 * const p = messageSegment({ tt: 0, destinationID: 5, sourceID: 1, letter: 0, mailbox: 0, payload: new Uint8Array(8) });
 * console.log(packetLength(p), serialPacketLength(p)); // 14 16
 * ```
 */
export function serialPacketLength(p: Packet): number {
  return serialLength(packetLength(p));
}

/**
 * Writes `p` from its prefix to its last logical field (no CRC, no pad) at `offset` of `bytes`
 * and returns the bytes written; throws a `WireError` when a field does not fit its width or the
 * buffer is too short. `ackIdBits`: the ackID's width, 5 or 6 bits.
 *
 * @example
 * ```ts
 * import { encodePacket, packetLength } from 'riodp/wire';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const doorbell: Type10Packet = {
 *   ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 5, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef,
 * };
 * const bytes = new Uint8Array(packetLength(doorbell));
 * encodePacket(doorbell, bytes, 0); // 00 0a 05 01 00 07 be ef
 * ```
 */
export function encodePacket(p: Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  return codecFor(p.ftype, 0).encode(p, bytes, offset, ackIdBits);
}

/**
 * Writes `p` as a whole LP-Serial packet (Part 6 §2.3–§2.5): the packet, the early CRC after byte 80 of a
 * long packet, the final CRC-16 and the pad; returns the bytes written.
 *
 * @example
 * ```ts
 * import { encodeSerialPacket, serialPacketLength, toHex } from 'riodp/wire';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const doorbell: Type10Packet = {
 *   ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 5, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef,
 * };
 * const bytes = new Uint8Array(serialPacketLength(doorbell));
 * encodeSerialPacket(doorbell, bytes, 0);
 * console.log(toHex(bytes)); // 000a05010007beef9f730000
 * ```
 */
export function encodeSerialPacket(p: Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  return encodeSerial(codecFor(p.ftype, 0), p, bytes, offset, ackIdBits);
}

export type { PacketHeader };
