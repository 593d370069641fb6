import { WireError, WireErrorCode, checkRange, checkRoom, fail, need } from './errors.ts';
import { afterIds, decodeHeader, encodeTransport, idBytes, isDev8Prefix, keepRsrvAckID, readId, withRsrvAckID } from './header.ts';
import type { PacketArgs, PacketDecodeOptions, PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';

/**
 * Type 11 MESSAGE (Part 2 §4.2.5 Figure 4-2). After the IDs:
 *   msglen(4) | ssize(4) | letter(2) | mbox(2) | msgseg/xmbox(4) | double-words
 * The last four bits are msgseg in a multiple-packet message (msglen > 0) and xmbox, the upper
 * four bits of a six-bit mailbox, in a single-packet message (msglen = 0; Table 4-4).
 * Decoded payloads are views (`subarray`) of the input, not copies.
 *
 * @example
 * ```ts
 * import { FTYPE_MESSAGE, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A single-packet message of 8 bytes (ssize 0b1001) to letter 2, mailbox 1.
 * const bytes = parseHex('000b 0501 0990 0102 0304 0506 0708');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === FTYPE_MESSAGE) console.log(p.letter, p.mailbox, p.segmentSize, p.payload.length); // 2 1 8 8
 * ```
 */
export const FTYPE_MESSAGE = 11;
export const CLAUSE_T11_FIGURE = 'Part 2 §4.2.5 Figure 4-2';
export const CLAUSE_T11_TABLE = 'Part 2 §4.2.5 Table 4-4';
const CLAUSE_OPERATION = 'Part 2 §3.3.2';
const FIXED = 2;
/**
 * ssize 0b1110: the largest segment.
 *
 * @example
 * ```ts
 * import { MESSAGE_MAX_SEGMENT } from 'riodp/wire';
 *
 * // A 4 KiB message in 256-byte segments: 16 packets, msglen 15 (packets minus one).
 * const packets = Math.ceil(4096 / MESSAGE_MAX_SEGMENT);
 * console.log(packets, packets - 1); // 16 15
 * ```
 */
export const MESSAGE_MAX_SEGMENT = 256;

/**
 * Table 4-4: ssize 0b1001 = 8 bytes … 0b1110 = 256 bytes; 0b0000–1000 and 0b1111 reserved.
 *
 * @example
 * ```ts
 * import { ssizeBytes } from 'riodp/wire';
 *
 * console.log(ssizeBytes(0b1011), ssizeBytes(0b1111)); // 32 RESERVED
 * ```
 */
export function ssizeBytes(ssize: number): number | 'RESERVED' {
  return ssize >= 9 && ssize <= 14 && Number.isInteger(ssize) ? 8 << (ssize - 9) : 'RESERVED';
}

/**
 * The ssize encoding of a standard segment size in bytes, or undefined if there is none.
 *
 * @example
 * ```ts
 * import { ssizeFor } from 'riodp/wire';
 *
 * console.log(ssizeFor(64)?.toString(2), ssizeFor(100)); // 1100 undefined
 * ```
 */
export function ssizeFor(bytes: number): number | undefined {
  for (let s = 9; s <= 14; s++) if (8 << (s - 9) === bytes) return s;
  return undefined;
}

export interface Type11Packet extends PacketHeader {
  readonly ftype: 11;
  readonly destinationID: number;
  readonly sourceID: number;
  /** Packets in the message minus one: 0 is a single-packet message, 15 a 16-packet one. */
  readonly msglen: number;
  readonly ssize: number;
  readonly letter: number;
  readonly mbox: number;
  /** Present when msglen > 0: which packet of the message this is (0 = first). */
  readonly msgseg?: number;
  /** Present when msglen = 0: the upper four bits of the mailbox. */
  readonly xmbox?: number;
  /** ssize in bytes, or 'RESERVED'. */
  readonly segmentSize: number | 'RESERVED';
  /** The target mailbox: xmbox‖mbox (0–63) in single-packet messages, mbox (0–3) otherwise. */
  readonly mailbox: number;
  readonly payload: Uint8Array;
}

/** The raw bit fields of a Type 11 packet. */
export interface Type11Fields extends PacketHeader {
  readonly destinationID: number;
  readonly sourceID: number;
  readonly msglen: number;
  readonly ssize: number;
  readonly letter: number;
  readonly mbox: number;
  /** msgseg or xmbox, by msglen. */
  readonly msgsegXmbox: number;
  readonly payload: Uint8Array;
}

export function type11FromFields(f: Type11Fields): Type11Packet {
  // Plain literals, not spreads: `{ ...a, b }` is two orders of magnitude slower in V8.
  const { ackID, vc, crf, prio, tt, destinationID, sourceID, msglen, ssize, letter, mbox, msgsegXmbox, payload } = f;
  const ftype = FTYPE_MESSAGE;
  const segmentSize = ssizeBytes(ssize);
  if (msglen === 0) {
    const mailbox = (msgsegXmbox << 2) | mbox;
    return { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, msglen, ssize, letter, mbox, xmbox: msgsegXmbox, segmentSize, mailbox, payload };
  }
  return { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, msglen, ssize, letter, mbox, msgseg: msgsegXmbox, segmentSize, mailbox: mbox, payload };
}

/** The raw fields of a packet, every field range-checked; the inverse of `type11FromFields`. */
export function type11ToFields(p: Type11Packet): Type11Fields {
  const size = idBytes(p.tt);
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE_T11_FIGURE);
  checkRange(p.sourceID, size * 8, 'sourceID', CLAUSE_T11_FIGURE);
  checkRange(p.msglen, 4, 'msglen', CLAUSE_T11_FIGURE);
  checkRange(p.ssize, 4, 'ssize', CLAUSE_T11_FIGURE);
  checkRange(p.letter, 2, 'letter', CLAUSE_T11_FIGURE);
  checkRange(p.mbox, 2, 'mbox', CLAUSE_T11_FIGURE);
  const single = p.msglen === 0;
  const low = single ? p.xmbox : p.msgseg;
  const other = single ? p.msgseg : p.xmbox;
  const field = single ? 'xmbox' : 'msgseg';
  if (low === undefined || other !== undefined) {
    throw new WireError(WireErrorCode.invalid, field, 0, CLAUSE_T11_TABLE, `a message with msglen ${p.msglen} carries ${field} (and not the other)`);
  }
  checkRange(low, 4, field, CLAUSE_T11_FIGURE);
  return {
    ackID: p.ackID,
    vc: p.vc,
    crf: p.crf,
    prio: p.prio,
    tt: p.tt,
    ftype: FTYPE_MESSAGE,
    destinationID: p.destinationID,
    sourceID: p.sourceID,
    msglen: p.msglen,
    ssize: p.ssize,
    letter: p.letter,
    mbox: p.mbox,
    msgsegXmbox: low,
    payload: p.payload,
  };
}

export function type11Length(p: Pick<Type11Packet, 'tt' | 'payload'>): number {
  return 2 + 2 * idBytes(p.tt) + FIXED + p.payload.length;
}

export function decodeType11(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Type11Packet {
  need(bytes.length, offset, end - offset, 'packet', CLAUSE_T11_FIGURE);
  const h = decodeHeader(bytes, offset, end, opts);
  if (h.ftype !== FTYPE_MESSAGE) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE_T11_FIGURE, `ftype ${h.ftype} is not a message packet`);
  }
  const size = idBytes(h.tt, offset + 1);
  const at = afterIds(offset, h.tt);
  need(end, offset + 2, 2 * size + FIXED, 'message header', CLAUSE_T11_FIGURE);
  const b0 = bytes[at] as number;
  const b1 = bytes[at + 1] as number;
  const p = type11FromFields({
    ackID: h.ackID,
    vc: h.vc,
    crf: h.crf,
    prio: h.prio,
    tt: h.tt,
    ftype: FTYPE_MESSAGE,
    destinationID: readId(bytes, offset + 2, size),
    sourceID: readId(bytes, offset + 2 + size, size),
    msglen: b0 >> 4,
    ssize: b0 & 0xf,
    letter: b1 >> 6,
    mbox: (b1 >> 4) & 3,
    msgsegXmbox: b1 & 0xf,
    payload: bytes.subarray(at + FIXED, end),
  });
  if (opts.strict) checkType11(p, at);
  return keepRsrvAckID(p, bytes[offset] as number, opts);
}

/**
 * Strict-mode rules; `at` is the offset of the msglen field. Also used by `messageSegment`
 * (with `at` relative to the packet) so it never builds what strict decoding rejects.
 */
export function checkType11(p: Type11Packet, at: number): void {
  const n = p.payload.length;
  const data = at + FIXED;
  if (p.segmentSize === 'RESERVED') {
    return fail(WireErrorCode.reserved, 'ssize', at, CLAUSE_T11_TABLE, `ssize 0b${p.ssize.toString(2).padStart(4, '0')} is reserved`);
  }
  if (p.msgseg !== undefined && p.msgseg > p.msglen) {
    fail(WireErrorCode.invalid, 'msgseg', at + 1, CLAUSE_T11_TABLE, `segment ${p.msgseg} of a ${p.msglen + 1}-packet message`);
  }
  // "Type 11 packets always have a data payload. Sub-double-word messages are not specifiable"
  if (n === 0) fail(WireErrorCode.invalid, 'payload', data, 'Part 2 §4.2.5', 'type 11 packets always have a data payload');
  // "MESSAGE transaction data payloads are always multiples of doubleword quantities."
  if (n % 8 !== 0) fail(WireErrorCode.invalid, 'payload', data, CLAUSE_OPERATION, `${n} bytes is not a whole number of double-words`);
  if (n > p.segmentSize) fail(WireErrorCode.invalid, 'payload', data, CLAUSE_T11_TABLE, `${n} bytes exceed ssize (${p.segmentSize} bytes)`);
  // ssize is "the data size of all of the transactions except (possibly) the last transaction"
  if (p.msgseg !== undefined && p.msgseg < p.msglen && n !== p.segmentSize) {
    fail(WireErrorCode.invalid, 'payload', data, CLAUSE_OPERATION, `segment ${p.msgseg} is not the last: it carries ssize (${p.segmentSize}) bytes, not ${n}`);
  }
}

export function encodeType11(p: Type11Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  const f = type11ToFields(p);
  checkRoom(bytes, offset, type11Length(p), CLAUSE_T11_FIGURE);
  const at = encodeTransport(withRsrvAckID(f, p), f.destinationID, f.sourceID, bytes, offset, ackIdBits);
  bytes[at] = (f.msglen << 4) | f.ssize;
  bytes[at + 1] = (f.letter << 6) | (f.mbox << 4) | f.msgsegXmbox;
  bytes.set(f.payload, at + FIXED);
  return at + FIXED + f.payload.length;
}

export const type11Codec: LogicalCodec<Type11Packet> = {
  ftype: FTYPE_MESSAGE,
  name: 'MESSAGE',
  decode: decodeType11,
  encode: encodeType11,
  encodedLength: type11Length,
  // 2 + 2·ids + 2 bytes + double-words: Dev8 → 6 (odd half-words), Dev16 → 8, Dev32 → 12 (even).
  oddHalfwords: (bytes, offset, available) => isDev8Prefix(bytes, offset, available, CLAUSE_T11_FIGURE),
};

export interface MessageSegmentArgs extends PacketArgs {
  /** Default 0. */
  readonly prio?: number;
  readonly letter: number;
  /** 0–63 for a single-packet message (xmbox‖mbox), 0–3 otherwise. */
  readonly mailbox: number;
  /** Packets in the message minus one; default 0 (single packet). */
  readonly msglen?: number;
  /** Required when msglen > 0. */
  readonly msgseg?: number;
  /** Standard segment size in bytes (8–256, a power of two); default the smallest that holds the payload. */
  readonly segmentSize?: number;
  /** Double-words; not copied. */
  readonly payload: Uint8Array;
}

/**
 * One MESSAGE packet, checked against every strict-mode rule.
 *
 * @example
 * ```ts
 * import { encodePacket, messageSegment, packetLength, toHex } from 'riodp/wire';
 *
 * // Segment 2 of a 4-packet message (msglen 3) to letter 2, mailbox 1: 64 bytes, ssize 0b1100.
 * const p = messageSegment({ tt: 0, destinationID: 5, sourceID: 1, letter: 2, mailbox: 1, msglen: 3, msgseg: 2, payload: new Uint8Array(64) });
 * console.log(p.ssize.toString(2), p.segmentSize); // 1100 64
 * const bytes = new Uint8Array(packetLength(p));
 * encodePacket(p, bytes, 0);
 * console.log(toHex(bytes.subarray(0, 6))); // 000b05013c92
 * ```
 */
export function messageSegment(a: MessageSegmentArgs): Type11Packet {
  const msglen = a.msglen ?? 0;
  const single = msglen === 0;
  checkRange(a.mailbox, single ? 6 : 2, 'mailbox', CLAUSE_T11_TABLE);
  if (!single && a.msgseg === undefined) {
    throw new WireError(WireErrorCode.invalid, 'msgseg', 0, CLAUSE_T11_TABLE, 'a multiple-packet message needs msgseg');
  }
  const segmentSize = a.segmentSize ?? Math.max(8, 2 ** Math.ceil(Math.log2(Math.max(1, a.payload.length))));
  const ssize = ssizeFor(segmentSize);
  if (ssize === undefined) {
    throw new WireError(WireErrorCode.invalid, 'segmentSize', 0, CLAUSE_T11_TABLE, `${segmentSize} bytes is not a standard size (8–256)`);
  }
  const p = type11FromFields({
    ackID: a.ackID ?? 0,
    vc: a.vc ?? 0,
    crf: a.crf ?? 0,
    prio: a.prio ?? 0,
    tt: a.tt,
    ftype: FTYPE_MESSAGE,
    destinationID: a.destinationID,
    sourceID: a.sourceID,
    msglen,
    ssize,
    letter: a.letter,
    mbox: single ? a.mailbox & 3 : a.mailbox,
    msgsegXmbox: single ? a.mailbox >> 2 : (a.msgseg ?? 0),
    payload: a.payload,
  });
  type11ToFields(p);
  checkType11(p, 2 + 2 * idBytes(p.tt));
  return p;
}
