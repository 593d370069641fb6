import { WireError, WireErrorCode, checkRange, checkRoom, fail, need } from './errors.ts';
import { afterIds, decodeHeader, encodeTransport, idBytes, isDev8Prefix, keepRsrvAckID, readId, withRsrvAckID } from './header.ts';
import type { PacketArgs, PacketDecodeOptions, PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';
import type { Type11Packet } from './type11.ts';

/**
 * Type 13 RESPONSE (Part 1 §4.2.3 Figure 4-6, Part 2 §4.3.3 Figure 4-4). After the IDs:
 *   transaction(4) | status(4) | targetTID or target_info(8) | double-words
 * target_info = letter(2) | mbox(2) | msgseg(4) in MESSAGE RESPONSEs (Part 2 Figure 4-3).
 * Part 1 (Table 4-9) and Part 2 (Table 4-6) each define part of the transaction and status
 * encodings and call the rest reserved; riodp takes their union (see the conformance table).
 * Decoded payloads are views (`subarray`) of the input, not copies.
 *
 * @example
 * ```ts
 * import { FTYPE_RESPONSE, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A MESSAGE RESPONSE (DONE) for segment 2 of letter 2, mailbox 1.
 * const bytes = parseHex('004d 0105 1092');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === FTYPE_RESPONSE && p.transactionName === 'MESSAGE_RESPONSE') console.log(p.statusName, p.letter, p.mbox, p.msgseg); // DONE 2 1 2
 * ```
 */
export const FTYPE_RESPONSE = 13;
export const CLAUSE_T13_FIGURE = 'Part 1 §4.2.3 Figure 4-6';
export const CLAUSE_T13_TABLE = 'Part 1 §4.2.1 Table 4-9, Part 2 §4.3.1 Table 4-6';
export const CLAUSE_TARGET_INFO = 'Part 2 §4.3.3 Figure 4-3';
const FIXED = 2;
/**
 * The largest data payload of any request (Part 1 Table 4-3: 256 bytes).
 *
 * @example
 * ```ts
 * import { RESPONSE_MAX_DATA, packetLength, response, serialPacketLength } from 'riodp/wire';
 *
 * // The largest RESPONSE_WITH_DATA with 8-bit IDs, and its size on the link with both CRCs and the pad.
 * const p = response({ tt: 0, destinationID: 1, sourceID: 5, targetTID: 7, payload: new Uint8Array(RESPONSE_MAX_DATA) });
 * console.log(packetLength(p), serialPacketLength(p)); // 262 268
 * ```
 */
export const RESPONSE_MAX_DATA = 256;

/**
 * The RESPONSE transaction types riodp builds (Part 1 Table 4-9, Part 2 Table 4-6).
 *
 * @example
 * ```ts
 * import { TYPE13_TRANSACTION, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A response with one double-word of data for transaction 7.
 * const bytes = parseHex('004d 0105 8007 0102 0304 0506 0708');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 13 && p.transaction === TYPE13_TRANSACTION.responseWithData) console.log(p.payload.length); // 8
 * ```
 */
export const TYPE13_TRANSACTION = { response: 0, messageResponse: 1, responseWithData: 8 } as const;
/** The name of a RESPONSE transaction type; RESERVED for another. */
export type Type13TransactionName = 'RESPONSE_NO_DATA' | 'MESSAGE_RESPONSE' | 'RESPONSE_WITH_DATA' | 'RESERVED';

/**
 * 0b0000 no data (Part 1, Part 2), 0b0001 MESSAGE RESPONSE (Part 2), 0b1000 with data (Part 1).
 *
 * @example
 * ```ts
 * import { type13TransactionName } from 'riodp/wire';
 *
 * console.log(type13TransactionName(0b1000), type13TransactionName(0b0100)); // RESPONSE_WITH_DATA RESERVED
 * ```
 */
export function type13TransactionName(transaction: number): Type13TransactionName {
  if (transaction === TYPE13_TRANSACTION.response) return 'RESPONSE_NO_DATA';
  if (transaction === TYPE13_TRANSACTION.messageResponse) return 'MESSAGE_RESPONSE';
  return transaction === TYPE13_TRANSACTION.responseWithData ? 'RESPONSE_WITH_DATA' : 'RESERVED';
}

/**
 * RESPONSE status values: DONE, RETRY (Part 2 only), ERROR.
 *
 * @example
 * ```ts
 * import { RESPONSE_STATUS, messageResponseTo, messageSegment } from 'riodp/wire';
 *
 * // A mailbox with no free buffer asks the sender to retry the segment.
 * const seg = messageSegment({ tt: 0, destinationID: 5, sourceID: 1, letter: 0, mailbox: 1, payload: new Uint8Array(8) });
 * const r = messageResponseTo(seg, RESPONSE_STATUS.retry);
 * console.log(r.status, r.statusName); // 3 RETRY
 * ```
 */
export const RESPONSE_STATUS = { done: 0, retry: 3, error: 7 } as const;
/** The name of a RESPONSE status. */
export type Type13StatusName = 'DONE' | 'RETRY' | 'ERROR' | 'IMPLEMENTATION_DEFINED' | 'RESERVED';

/**
 * DONE 0b0000, RETRY 0b0011 (Part 2 only), ERROR 0b0111, 0b1100–1111 implementation-defined.
 *
 * @example
 * ```ts
 * import { type13StatusName } from 'riodp/wire';
 *
 * console.log(type13StatusName(3), type13StatusName(0b1110), type13StatusName(5)); // RETRY IMPLEMENTATION_DEFINED RESERVED
 * ```
 */
export function type13StatusName(status: number): Type13StatusName {
  if (status === RESPONSE_STATUS.done) return 'DONE';
  if (status === RESPONSE_STATUS.retry) return 'RETRY';
  if (status === RESPONSE_STATUS.error) return 'ERROR';
  return status >= 12 && status <= 15 ? 'IMPLEMENTATION_DEFINED' : 'RESERVED';
}

interface Type13Common extends PacketHeader {
  readonly ftype: 13;
  readonly destinationID: number;
  readonly sourceID: number;
  readonly transaction: number;
  readonly status: number;
  readonly statusName: Type13StatusName;
}

/** A RESPONSE to a Part 1 request, with or without data. */
export interface Type13Response extends Type13Common {
  readonly transactionName: 'RESPONSE_NO_DATA' | 'RESPONSE_WITH_DATA' | 'RESERVED';
  readonly targetTID: number;
  readonly payload: Uint8Array;
}

/** A MESSAGE RESPONSE (Part 2 §4.3.3): the answer to one message segment. */
export interface Type13MessageResponse extends Type13Common {
  readonly transactionName: 'MESSAGE_RESPONSE';
  /** The raw 8 bits: letter(2) | mbox(2) | msgseg(4). */
  readonly targetInfo: number;
  readonly letter: number;
  readonly mbox: number;
  /** The message packet's msgseg, or its xmbox for a single-packet message (the same four bits). */
  readonly msgseg: number;
  readonly payload: Uint8Array;
}

/** A Type 13 RESPONSE packet. */
export type Type13Packet = Type13Response | Type13MessageResponse;

/** The raw bit fields of a Type 13 packet. */
export interface Type13Fields extends PacketHeader {
  readonly destinationID: number;
  readonly sourceID: number;
  readonly transaction: number;
  readonly status: number;
  /** targetTID or target_info. */
  readonly target: number;
  readonly payload: Uint8Array;
}

export function type13FromFields(f: Type13Fields): Type13Packet {
  // Plain literals, not spreads: `{ ...a, b }` is two orders of magnitude slower in V8.
  const { ackID, vc, crf, prio, tt, destinationID, sourceID, transaction, status, target, payload } = f;
  const ftype = FTYPE_RESPONSE;
  const transactionName = type13TransactionName(transaction);
  const statusName = type13StatusName(status);
  if (transactionName === 'MESSAGE_RESPONSE') {
    const letter = target >> 6;
    const mbox = (target >> 4) & 3;
    return { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, status, statusName, targetInfo: target, letter, mbox, msgseg: target & 0xf, payload };
  }
  return { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, status, statusName, targetTID: target, payload };
}

/** The raw fields of a packet, every field range-checked; the inverse of `type13FromFields`. */
export function type13ToFields(p: Type13Packet): Type13Fields {
  const size = idBytes(p.tt);
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE_T13_FIGURE);
  checkRange(p.sourceID, size * 8, 'sourceID', CLAUSE_T13_FIGURE);
  checkRange(p.transaction, 4, 'transaction', CLAUSE_T13_FIGURE);
  checkRange(p.status, 4, 'status', CLAUSE_T13_FIGURE);
  const name = type13TransactionName(p.transaction);
  if (p.transactionName !== name) {
    throw new WireError(WireErrorCode.invalid, 'transactionName', 0, CLAUSE_T13_TABLE, `transaction ${p.transaction} is ${name}, not ${p.transactionName}`);
  }
  let target: number;
  if (p.transactionName === 'MESSAGE_RESPONSE') {
    checkRange(p.targetInfo, 8, 'targetInfo', CLAUSE_TARGET_INFO);
    target = p.targetInfo;
  } else {
    checkRange(p.targetTID, 8, 'targetTID', CLAUSE_T13_FIGURE);
    target = p.targetTID;
  }
  const { ackID, vc, crf, prio, tt, destinationID, sourceID, transaction, status, payload } = p;
  return { ackID, vc, crf, prio, tt, ftype: FTYPE_RESPONSE, destinationID, sourceID, transaction, status, target, payload };
}

export function type13Length(p: Pick<Type13Packet, 'tt' | 'payload'>): number {
  return 2 + 2 * idBytes(p.tt) + FIXED + p.payload.length;
}

export function decodeType13(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Type13Packet {
  need(bytes.length, offset, end - offset, 'packet', CLAUSE_T13_FIGURE);
  const h = decodeHeader(bytes, offset, end, opts);
  if (h.ftype !== FTYPE_RESPONSE) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE_T13_FIGURE, `ftype ${h.ftype} is not a response packet`);
  }
  const size = idBytes(h.tt, offset + 1);
  const at = afterIds(offset, h.tt);
  need(end, offset + 2, 2 * size + FIXED, 'response header', CLAUSE_T13_FIGURE);
  const b0 = bytes[at] as number;
  const p = type13FromFields({
    ackID: h.ackID,
    vc: h.vc,
    crf: h.crf,
    prio: h.prio,
    tt: h.tt,
    ftype: FTYPE_RESPONSE,
    destinationID: readId(bytes, offset + 2, size),
    sourceID: readId(bytes, offset + 2 + size, size),
    transaction: b0 >> 4,
    status: b0 & 0xf,
    target: bytes[at + 1] as number,
    payload: bytes.subarray(at + FIXED, end),
  });
  if (opts.strict) checkType13(p, at);
  return keepRsrvAckID(p, bytes[offset] as number, opts);
}

/**
 * Strict-mode rules; `at` is the offset of the transaction field. Also used by the
 * constructors (with `at` relative to the packet).
 */
export function checkType13(p: Type13Packet, at: number): void {
  const n = p.payload.length;
  const data = at + FIXED;
  if (p.transactionName === 'RESERVED') {
    fail(WireErrorCode.reserved, 'transaction', at, CLAUSE_T13_TABLE, `transaction 0b${bin4(p.transaction)} is reserved`);
  }
  if (p.statusName === 'RESERVED') fail(WireErrorCode.reserved, 'status', at, CLAUSE_T13_TABLE, `status 0b${bin4(p.status)} is reserved`);
  // Part 1 Table 4-9 leaves 0b0011 reserved; RETRY exists only for message passing (Part 2 Table 4-6),
  // whose responses (DOORBELL, MESSAGE) carry no data.
  if (p.statusName === 'RETRY' && p.transactionName === 'RESPONSE_WITH_DATA') {
    fail(WireErrorCode.reserved, 'status', at, 'Part 1 §4.2.1 Table 4-9', 'RETRY is reserved in responses with data');
  }
  if (n % 8 !== 0) fail(WireErrorCode.invalid, 'payload', data, 'Part 1 §3.5', `${n} bytes is not a whole number of double-words`);
  if (n > RESPONSE_MAX_DATA) fail(WireErrorCode.invalid, 'payload', data, 'Part 1 §4.1.2 Table 4-3', `${n} bytes exceed 256`);
  if (p.transactionName === 'MESSAGE_RESPONSE' && n !== 0) {
    fail(WireErrorCode.invalid, 'payload', data, 'Part 2 §4.3.3', 'responses to message and doorbell packets never contain data');
  }
  if (p.transactionName === 'RESPONSE_NO_DATA' && n !== 0) {
    fail(WireErrorCode.invalid, 'payload', data, CLAUSE_T13_TABLE, 'RESPONSE transaction with no data payload');
  }
  if (p.transactionName === 'RESPONSE_WITH_DATA') {
    if (p.statusName === 'ERROR' && n !== 0) {
      fail(WireErrorCode.invalid, 'payload', data, 'Part 1 §4.2.3', 'a RESPONSE packet with an ERROR status never has a data payload');
    }
    if (p.statusName === 'DONE' && n === 0) fail(WireErrorCode.invalid, 'payload', data, CLAUSE_T13_TABLE, 'RESPONSE transaction with data payload has none');
  }
}

function bin4(v: number): string {
  return v.toString(2).padStart(4, '0');
}

export function encodeType13(p: Type13Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  const f = type13ToFields(p);
  checkRoom(bytes, offset, type13Length(p), CLAUSE_T13_FIGURE);
  const at = encodeTransport(withRsrvAckID(f, p), f.destinationID, f.sourceID, bytes, offset, ackIdBits);
  bytes[at] = (f.transaction << 4) | f.status;
  bytes[at + 1] = f.target;
  bytes.set(f.payload, at + FIXED);
  return at + FIXED + f.payload.length;
}

export const type13Codec: LogicalCodec<Type13Packet> = {
  ftype: FTYPE_RESPONSE,
  name: 'RESPONSE',
  decode: decodeType13,
  encode: encodeType13,
  encodedLength: type13Length,
  // 2 + 2·ids + 2 bytes + double-words: Dev8 → 6 (odd half-words), Dev16 → 8, Dev32 → 12 (even).
  oddHalfwords: (bytes, offset, available) => isDev8Prefix(bytes, offset, available, CLAUSE_T13_FIGURE),
};

export interface ResponseArgs extends PacketArgs {
  /** Default 1: one above a request at the lowest priority (Part 6 §6.12). */
  readonly prio?: number;
  /** Default DONE. */
  readonly status?: number;
}

function build(a: ResponseArgs, transaction: number, target: number, payload: Uint8Array): Type13Packet {
  const p = type13FromFields({
    ackID: a.ackID ?? 0,
    vc: a.vc ?? 0,
    crf: a.crf ?? 0,
    prio: a.prio ?? 1,
    tt: a.tt,
    ftype: FTYPE_RESPONSE,
    destinationID: a.destinationID,
    sourceID: a.sourceID,
    transaction,
    status: a.status ?? RESPONSE_STATUS.done,
    target,
    payload,
  });
  type13ToFields(p);
  checkType13(p, 2 + 2 * idBytes(p.tt));
  return p;
}

/**
 * A RESPONSE: with data (transaction 0b1000) when `payload` is non-empty, else without.
 *
 * @example
 * ```ts
 * import { RESPONSE_STATUS, encodePacket, packetLength, response, toHex } from 'riodp/wire';
 *
 * // End point 0x05 refuses transaction 7 of 0x01: ERROR, no data.
 * const p = response({ tt: 0, destinationID: 0x01, sourceID: 0x05, targetTID: 7, status: RESPONSE_STATUS.error });
 * const bytes = new Uint8Array(packetLength(p));
 * encodePacket(p, bytes, 0);
 * console.log(p.transactionName, toHex(bytes)); // RESPONSE_NO_DATA 004d01050707
 * ```
 */
export function response(a: ResponseArgs & { readonly targetTID: number; readonly payload?: Uint8Array }): Type13Response {
  const payload = a.payload ?? new Uint8Array(0);
  checkRange(a.targetTID, 8, 'targetTID', CLAUSE_T13_FIGURE);
  const p = build(a, payload.length > 0 ? TYPE13_TRANSACTION.responseWithData : TYPE13_TRANSACTION.response, a.targetTID, payload);
  if (p.transactionName === 'MESSAGE_RESPONSE') throw new Error('unreachable');
  return p;
}

/**
 * A MESSAGE RESPONSE; `msgseg` is the message packet's msgseg, or its xmbox if msglen was 0.
 *
 * @example
 * ```ts
 * import { encodePacket, messageResponse, packetLength, toHex } from 'riodp/wire';
 *
 * // DONE for segment 2 of letter 2, mailbox 1 (target_info 10 01 0010).
 * const p = messageResponse({ tt: 0, destinationID: 0x01, sourceID: 0x05, letter: 2, mbox: 1, msgseg: 2 });
 * const bytes = new Uint8Array(packetLength(p));
 * encodePacket(p, bytes, 0);
 * console.log(p.targetInfo.toString(2), toHex(bytes)); // 10010010 004d01051092
 * ```
 */
export function messageResponse(a: ResponseArgs & { readonly letter: number; readonly mbox: number; readonly msgseg: number }): Type13MessageResponse {
  checkRange(a.letter, 2, 'letter', CLAUSE_TARGET_INFO);
  checkRange(a.mbox, 2, 'mbox', CLAUSE_TARGET_INFO);
  checkRange(a.msgseg, 4, 'msgseg', CLAUSE_TARGET_INFO);
  const p = build(a, TYPE13_TRANSACTION.messageResponse, (a.letter << 6) | (a.mbox << 4) | a.msgseg, new Uint8Array(0));
  if (p.transactionName !== 'MESSAGE_RESPONSE') throw new Error('unreachable');
  return p;
}

/**
 * The response to a MESSAGE packet: IDs swapped, letter/mbox/msgseg (or xmbox) echoed, which
 * "uniquely identifies the message packet ... in the same way as the transaction ID"
 * (Part 2 §4.2.5), prio one above the request's (Part 6 §6.12).
 *
 * @example
 * ```ts
 * import { decodePacket, messageResponseTo, parseHex } from 'riodp/wire';
 *
 * // A received single-packet message to letter 2, mailbox 1, answered DONE.
 * const bytes = parseHex('000b 0501 0990 0102 0304 0506 0708');
 * const seg = decodePacket(bytes, 0, bytes.length);
 * if (seg.ftype === 11) {
 *   const r = messageResponseTo(seg);
 *   console.log(r.destinationID, r.prio, r.letter, r.mbox, r.statusName); // 1 1 2 1 DONE
 * }
 * ```
 */
export function messageResponseTo(segment: Type11Packet, status: number = RESPONSE_STATUS.done): Type13MessageResponse {
  return messageResponse({
    vc: segment.vc,
    crf: segment.crf,
    prio: Math.min(segment.prio + 1, 3),
    tt: segment.tt,
    destinationID: segment.sourceID,
    sourceID: segment.destinationID,
    status,
    letter: segment.letter,
    mbox: segment.mbox,
    msgseg: segment.msgseg ?? segment.xmbox ?? 0,
  });
}
