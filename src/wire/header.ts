import { WireError, WireErrorCode, checkRange, need } from './errors.ts';
import type { DecodeOptions } from './errors.ts';

/**
 * The first 16 bits of every LP-Serial packet (Part 6 §2.3 Figure 2-1/2-2, DECISIONS §1):
 * ackID(6) | VC(1) | CRF(1) | prio(2) | tt(2) | ftype(4), then the transport header
 * (Part 3 §2: destinationID then sourceID, 1, 2 or 4 bytes each per tt).
 */
export interface PacketHeader {
  /** The ackID value: 5 bits on CS24 links (carried left-justified), 6 bits on CS48 links. */
  readonly ackID: number;
  readonly vc: number;
  readonly crf: number;
  readonly prio: number;
  readonly tt: number;
  readonly ftype: number;
  /**
   * With 5-bit ackIDs only: ackID[5], the right-most bit of the ackID field, which Part 6 §2.2
   * Table 2-1 sets to 0b0 on CS24 links. Lenient decoding keeps a 1 here (absent when 0), so that
   * the packet re-encodes bit for bit; strict decoding refuses it.
   */
  readonly rsrvAckID?: number;
}

/** The prefix and transport fields a packet constructor takes; ackID, VC and CRF default to 0. */
export interface PacketArgs {
  readonly ackID?: number;
  readonly vc?: number;
  readonly crf?: number;
  /** The default depends on the packet: see the constructor. */
  readonly prio?: number;
  readonly tt: number;
  readonly destinationID: number;
  readonly sourceID: number;
}

export interface PacketDecodeOptions extends DecodeOptions {
  /** ackID width of the link mode: 5 with 24-bit control symbols, 6 with 48-bit (default). */
  readonly ackIdBits?: 5 | 6;
}

/**
 * The tt field (Part 3 §2.4): the size of the device IDs.
 *
 * @example
 * ```ts
 * import { TT, messageSegment, packetLength } from 'riodp/wire';
 *
 * // The same 8-byte message with 8-bit and with 16-bit device IDs.
 * const payload = new Uint8Array(8);
 * const small = messageSegment({ tt: TT.dev8, destinationID: 0x05, sourceID: 0x01, letter: 0, mailbox: 0, payload });
 * const large = messageSegment({ tt: TT.dev16, destinationID: 0x1234, sourceID: 0x0001, letter: 0, mailbox: 0, payload });
 * console.log(packetLength(small), packetLength(large)); // 14 16
 * ```
 */
export const TT = { dev8: 0, dev16: 1, dev32: 2 } as const;
/** A tt value. */
export type Tt = (typeof TT)[keyof typeof TT];
/**
 * The name of each tt value, indexed by it.
 *
 * @example
 * ```ts
 * import { TT_NAMES, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A doorbell with 16-bit device IDs (tt 0b01): 0x1234 → 0x0001.
 * const bytes = parseHex('001a 1234 0001 0007 beef');
 * const p = decodePacket(bytes, 0, bytes.length);
 * console.log(TT_NAMES[p.tt], p.destinationID.toString(16)); // Dev16 1234
 * ```
 */
export const TT_NAMES = ['Dev8', 'Dev16', 'Dev32'] as const;

const CLAUSE_PREFIX = 'Part 6 §2.2 Table 2-1';
const CLAUSE_TT = 'Part 3 §2.4 tt';

export const PREFIX_BYTES = 2;

/** Bytes per device ID for a tt value; tt 0b11 is reserved (Part 3). */
export function idBytes(tt: number, offset = 0): 1 | 2 | 4 {
  if (tt === TT.dev8) return 1;
  if (tt === TT.dev16) return 2;
  if (tt === TT.dev32) return 4;
  throw new WireError(WireErrorCode.reserved, 'tt', offset, CLAUSE_TT, `tt 0b${tt.toString(2).padStart(2, '0')} is reserved`);
}

export function readId(bytes: Uint8Array, offset: number, size: 1 | 2 | 4): number {
  const b0 = bytes[offset] as number;
  if (size === 1) return b0;
  const b1 = bytes[offset + 1] as number;
  if (size === 2) return (b0 << 8) | b1;
  return ((b0 << 24) | (b1 << 16) | ((bytes[offset + 2] as number) << 8) | (bytes[offset + 3] as number)) >>> 0;
}

export function writeId(value: number, bytes: Uint8Array, offset: number, size: 1 | 2 | 4): void {
  if (size === 4) {
    bytes[offset] = value >>> 24;
    bytes[offset + 1] = (value >>> 16) & 0xff;
    bytes[offset + 2] = (value >>> 8) & 0xff;
    bytes[offset + 3] = value & 0xff;
  } else if (size === 2) {
    bytes[offset] = (value >>> 8) & 0xff;
    bytes[offset + 1] = value & 0xff;
  } else {
    bytes[offset] = value & 0xff;
  }
}

export function decodeHeader(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): PacketHeader {
  need(end, offset, PREFIX_BYTES, 'prefix', CLAUSE_PREFIX);
  const b0 = bytes[offset] as number;
  const b1 = bytes[offset + 1] as number;
  const rawAck = b0 >> 2;
  let ackID = rawAck;
  if (opts.ackIdBits === 5) {
    // "the ackID value shall be 5 bits long and shall be left justified ... with ackID[5] set to 0b0"
    if (rawAck & 1 && opts.strict) {
      throw new WireError(WireErrorCode.reserved, 'ackID', offset, CLAUSE_PREFIX, 'ackID[5] must be 0 on a CS24 link');
    }
    ackID = rawAck >> 1;
  }
  const tt = (b1 >> 4) & 0x3;
  if (tt === 3) idBytes(tt, offset + 1);
  return keepRsrvAckID({ ackID, vc: (b0 >> 1) & 1, crf: b0 & 1, prio: b1 >> 6, tt, ftype: b1 & 0xf }, b0, opts);
}

/**
 * A freshly decoded packet `p` whose first byte is `b0`, with `rsrvAckID` set when a lenient
 * decode of 5-bit ackIDs found ackID[5] at 1 (strict decoding has refused it already, in
 * decodeHeader). Every codec's decode passes its result through here, once.
 */
export function keepRsrvAckID<P extends PacketHeader>(p: P, b0: number, opts: PacketDecodeOptions): P {
  if (opts.ackIdBits === 5 && (b0 & 0x04) !== 0) (p as { rsrvAckID?: number }).rsrvAckID = 1;
  return p;
}

/**
 * `fields` (a packet's raw fields, rebuilt by its format's `…ToFields`) with the `rsrvAckID` of
 * the packet `p` they came from, which raw fields do not carry: what an encoder writes the prefix from.
 */
export function withRsrvAckID<H extends PacketHeader>(fields: H, p: PacketHeader): H {
  return p.rsrvAckID === undefined ? fields : { ...fields, rsrvAckID: p.rsrvAckID };
}

export function encodeHeader(h: PacketHeader, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): void {
  checkRange(h.ackID, ackIdBits, 'ackID', CLAUSE_PREFIX);
  const rsrvAckID = h.rsrvAckID ?? 0;
  if (rsrvAckID !== 0) {
    checkRange(rsrvAckID, 1, 'rsrvAckID', CLAUSE_PREFIX);
    // With 6-bit ackIDs the bit is ackID's own: there is no reserved bit to carry.
    if (ackIdBits === 6) throw new WireError(WireErrorCode.invalid, 'rsrvAckID', offset, CLAUSE_PREFIX, 'ackID[5] is reserved only with 5-bit ackIDs (CS24 links)');
  }
  checkRange(h.vc, 1, 'vc', CLAUSE_PREFIX);
  checkRange(h.crf, 1, 'crf', CLAUSE_PREFIX);
  checkRange(h.prio, 2, 'prio', CLAUSE_PREFIX);
  checkRange(h.ftype, 4, 'ftype', CLAUSE_PREFIX);
  idBytes(h.tt);
  const ack = ackIdBits === 5 ? (h.ackID << 1) | rsrvAckID : h.ackID;
  bytes[offset] = (ack << 2) | (h.vc << 1) | h.crf;
  bytes[offset + 1] = (h.prio << 6) | (h.tt << 4) | h.ftype;
}

/**
 * Writes the prefix and the two ID fields (sourceID, or Type 7's tgtdestinationID) at `offset`;
 * returns the offset of the first field after them.
 */
export function encodeTransport(h: PacketHeader, destinationID: number, secondID: number, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6): number {
  encodeHeader(h, bytes, offset, ackIdBits);
  const size = idBytes(h.tt);
  writeId(destinationID, bytes, offset + PREFIX_BYTES, size);
  writeId(secondID, bytes, offset + PREFIX_BYTES + size, size);
  return offset + PREFIX_BYTES + 2 * size;
}

/**
 * Whether the packet at `offset` has Dev8 (one-byte) IDs, after checking that its prefix is
 * readable and tt not reserved: the half-word parity (`LogicalCodec.oddHalfwords`) of the formats
 * whose length is an odd number of half-words exactly when the IDs are Dev8.
 */
export function isDev8Prefix(bytes: Uint8Array, offset: number, available: number, clause: string): boolean {
  need(offset + available, offset, PREFIX_BYTES, 'prefix', clause);
  const tt = ((bytes[offset + 1] as number) >> 4) & 3;
  idBytes(tt, offset + 1);
  return tt === TT.dev8;
}

/** Byte offset of the first field after destinationID and sourceID (or its slot). */
export function afterIds(offset: number, tt: number): number {
  return offset + PREFIX_BYTES + 2 * idBytes(tt, offset + 1);
}
