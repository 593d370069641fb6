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
export type SerialPacket = Packet & SerialFields;

// Indexed by ftype (4 bits): an array look-up keeps dispatch off the CCP decode budget.
const CODECS: (LogicalCodec<Packet> | undefined)[] = new Array<LogicalCodec<Packet> | undefined>(16).fill(undefined);
for (const c of [type7Codec, type8Codec, type9Codec, type10Codec, type11Codec, type13Codec] as LogicalCodec<Packet>[]) {
  CODECS[c.ftype] = c;
}

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

/** A transport-level packet: from the prefix to the last logical field, no CRC, no pad. */
export function decodePacket(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Packet {
  return codecFor(ftypeAt(bytes, offset, end), offset + 1).decode(bytes, offset, end, opts);
}

/** A whole LP-Serial packet: CRC(s) verified, pad removed. */
export function decodeSerialPacket(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): SerialPacket {
  return decodeSerial(codecFor(ftypeAt(bytes, offset, end), offset + 1), bytes, offset, end, opts);
}

export function packetLength(p: Packet): number {
  return codecFor(p.ftype, 0).encodedLength(p);
}

export function serialPacketLength(p: Packet): number {
  return serialLength(packetLength(p));
}

export function encodePacket(p: Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  return codecFor(p.ftype, 0).encode(p, bytes, offset, ackIdBits);
}

export function encodeSerialPacket(p: Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  return encodeSerial(codecFor(p.ftype, 0), p, bytes, offset, ackIdBits);
}

export type { PacketHeader };
