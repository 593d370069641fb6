import { checkRoom, fail, need, WireErrorCode } from '../errors.ts';
import type { DecodeOptions } from '../errors.ts';
import { decodeFrame, encodeFrame, FRAME_HEADER_BYTES, FRAME_LENGTH_BYTES, frameLength } from '../frame.ts';
import type { DecodedFrame, Frame, FrameDecodeOptions } from '../frame.ts';
import { decodeSerialPacket, encodeSerialPacket, serialPacketLength } from '../packet.ts';
import type { Packet, SerialPacket } from '../packet.ts';
import { decodeSymbol, encodeSymbol } from '../symbol.ts';
import type { ControlSymbol, SymbolFields } from '../symbol.ts';

/**
 * riodp's capture record (docs/pcapng.md §2): the data of each Enhanced Packet Block on a
 * LINKTYPE_USER0 interface is one riodp link frame, `length(16) | kind(8) | body`, exactly as a
 * TCP link carries it (docs/net-framing.md §2), so that one dissector reads both a capture file
 * and a live capture of a link. Captures of serial links that use 24-bit control symbols need two
 * kinds a TCP link never carries (on a link they stay reserved, §3.6): CS24 and a packet whose
 * ackID is 5 bits.
 */

/** Sections of docs/pcapng.md. */
export const CLAUSE_RECORD = { record: 'riodp capture §2', cs24: 'riodp capture §2.1', packetCs24: 'riodp capture §2.2' } as const;

/** The kinds only captures use (docs/pcapng.md §2). *
 * @example
 * ```ts
 * import { CAPTURE_KIND, buildSymbol, captureRecordLength, encodeCaptureRecord } from 'riodp/wire';
 *
 * // A status symbol of a serial link running 24-bit control symbols.
 * const cs24 = buildSymbol({ link: 'cs24', stype0: 4, parameter0: 5, parameter1: 8, stype1: 7, cmd: 0 });
 * const rec = { kind: CAPTURE_KIND.cs24, kindName: 'cs24', symbol: cs24 } as const;
 * const bytes = new Uint8Array(captureRecordLength(rec)); // → 6: length(2), kind 0x04, 3 symbol bytes
 * encodeCaptureRecord(rec, bytes, 0);
 * ```
 */
export const CAPTURE_KIND = { cs24: 0x04, packetCs24: 0x05 } as const;

/** A record holding one 24-bit control symbol (Part 6 §3: CS24, on links with 5-bit ackIDs). */
export interface Cs24Record<S extends SymbolFields = SymbolFields> {
  readonly kind: typeof CAPTURE_KIND.cs24;
  readonly kindName: 'cs24';
  readonly symbol: S;
}

/** A record holding one LP-Serial packet of a CS24 link: its ackID is 5 bits (Part 6 §2.4). */
export interface PacketCs24Record<P extends Packet = Packet> {
  readonly kind: typeof CAPTURE_KIND.packetCs24;
  readonly kindName: 'packetCs24';
  readonly packet: P;
}

/** A record to encode: a link frame or one of the capture-only kinds. */
export type CaptureRecord = Frame | Cs24Record | PacketCs24Record;
/** A record as `decodeCaptureRecord` returns it, packets and symbols checked with their CRCs. */
export type DecodedCaptureRecord = DecodedFrame | Cs24Record<ControlSymbol> | PacketCs24Record<SerialPacket>;

/** Bytes of a record. *
 * @example
 * ```ts
 * import { captureRecordLength, closeFrame } from 'riodp/wire';
 *
 * captureRecordLength(closeFrame(0, 'done')); // → 8: length(2), kind, reason, 'done'
 * ```
 */
export function captureRecordLength(r: CaptureRecord): number {
  if (r.kindName === 'cs24') return FRAME_HEADER_BYTES + 3;
  if (r.kindName === 'packetCs24') return FRAME_HEADER_BYTES + serialPacketLength(r.packet);
  return frameLength(r);
}

/** Writes a record at `offset`; returns the offset after it. *
 * @example
 * ```ts
 * import { captureRecordLength, encodeCaptureRecord, packetFrame } from 'riodp/wire';
 *
 * const frame = packetFrame({ ackID: 5, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 0, info: 7 });
 * const data = new Uint8Array(captureRecordLength(frame));
 * encodeCaptureRecord(frame, data, 0); // data is what a TCP link carries for this packet, and an EPB's data
 * ```
 */
export function encodeCaptureRecord(r: CaptureRecord, bytes: Uint8Array, offset: number): number {
  if (r.kindName !== 'cs24' && r.kindName !== 'packetCs24') return encodeFrame(r, bytes, offset);
  const length = captureRecordLength(r);
  checkRoom(bytes, offset, length, CLAUSE_RECORD.record);
  const bodyAt = offset + FRAME_HEADER_BYTES;
  if (r.kindName === 'cs24') {
    if (r.symbol.link !== 'cs24') fail(WireErrorCode.invalid, 'link', bodyAt, CLAUSE_RECORD.cs24, `a CS24 record carries a cs24 symbol, not ${r.symbol.link}`);
    encodeSymbol(r.symbol, bytes, bodyAt);
  } else {
    encodeSerialPacket(r.packet, bytes, bodyAt, 5);
  }
  bytes[offset] = (length - FRAME_LENGTH_BYTES) >> 8;
  bytes[offset + 1] = (length - FRAME_LENGTH_BYTES) & 0xff;
  bytes[offset + 2] = r.kind;
  return offset + length;
}

/**
 * Where the body of the record at bytes[offset, end) starts, and its kind, once the length field is
 * checked against the captured length (§2): for readers that hand the body to a codec of their
 * own choosing (`riodp decode --pcap`, `riodp reassemble --pcap`).
 */
export function captureRecordBody(bytes: Uint8Array, offset: number, end: number): { readonly kind: number; readonly bodyAt: number } {
  need(end, offset, FRAME_HEADER_BYTES, 'record', CLAUSE_RECORD.record);
  const length = ((bytes[offset] as number) << 8) | (bytes[offset + 1] as number);
  if (offset + FRAME_LENGTH_BYTES + length !== end) {
    fail(WireErrorCode.invalid, 'length', offset, CLAUSE_RECORD.record, `the length field says ${length} bytes follow it, ${end - offset - FRAME_LENGTH_BYTES} given`);
  }
  return { kind: bytes[offset + 2] as number, bodyAt: offset + FRAME_HEADER_BYTES };
}

/**
 * Decodes the record at bytes[offset, end) (the EPB's captured data): `end` must be where the
 * length field says the record ends. Throws the WireError of the part that is wrong.
 *
 * @example
 * ```ts
 * import { WireError, decodeCaptureRecord } from 'riodp/wire';
 *
 * const data = Uint8Array.of(0x00, 0x0d, 0x01, 0x14, 0x4a, 0x02, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00);
 * try {
 *   const r = decodeCaptureRecord(data, 0, data.length);
 *   if (r.kindName === 'packet') console.log(r.packet.ftype);
 * } catch (e) {
 *   if (e instanceof WireError) console.log(`${e.field} at ${e.offset}: ${e.detail}`); // here: the CRC-16 does not match
 * }
 * ```
 */
export function decodeCaptureRecord(bytes: Uint8Array, offset: number, end: number, opts: FrameDecodeOptions = {}): DecodedCaptureRecord {
  need(end, offset, FRAME_HEADER_BYTES, 'record', CLAUSE_RECORD.record);
  const kind = bytes[offset + 2] as number;
  if (kind !== CAPTURE_KIND.cs24 && kind !== CAPTURE_KIND.packetCs24) return decodeFrame(bytes, offset, end, opts);
  const { bodyAt } = captureRecordBody(bytes, offset, end);
  if (kind === CAPTURE_KIND.cs24) {
    return { kind, kindName: 'cs24', symbol: decodeSymbol(bytes, bodyAt, end, { ...opts, link: 'cs24' }) };
  }
  const packetOpts: DecodeOptions & { ackIdBits: 5 } = { ...(opts.strict === undefined ? {} : { strict: opts.strict }), ackIdBits: 5 };
  return { kind, kindName: 'packetCs24', packet: decodeSerialPacket(bytes, bodyAt, end, packetOpts) };
}
