import { WireError, WireErrorCode, checkRange, checkRoom, fail, need } from './errors.ts';
import { afterIds, decodeHeader, encodeTransport, idBytes, isDev8Prefix, keepRsrvAckID, readId, withRsrvAckID } from './header.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';
import {
  CLAUSE_T8_HOP, CLAUSE_T8_REQUEST, CLAUSE_T8_RESPONSE, CLAUSE_T8_SIZES, CLAUSE_T8_TABLE, CLAUSE_WRSIZE, FTYPE_MAINTENANCE, isMaintenanceSize,
  isType8Response, MAINTENANCE_MAX_BYTES, type8DataSize, type8StatusName, type8TransactionName,
} from './type8-types.ts';
import type { Type8Packet } from './type8-types.ts';

// The Type 8 MAINTENANCE codec (Part 1 §4.1.10 Figures 4-4/4-5, Part 3 §2.5 Figure 2-4): raw
// fields to and from bytes, and the strict-mode rules. The packet shapes and field tables are in
// type8-types.ts, re-exported here for the modules that import them from this file.
export {
  FTYPE_MAINTENANCE, CLAUSE_T8_REQUEST, CLAUSE_T8_RESPONSE, CLAUSE_T8_TABLE, CLAUSE_T8_HOP, CLAUSE_T8_SIZES, CLAUSE_WRSIZE, MAINTENANCE_MAX_BYTES,
  TYPE8_TRANSACTION, TYPE8_TRANSACTION_NAMES, type8TransactionName, MAINTENANCE_STATUS, type8StatusName, type8DataSize, isMaintenanceSize,
  isType8Response,
} from './type8-types.ts';
export type {
  Type8TransactionName, Type8StatusName, DataSize, Type8ReadRequest, Type8WriteRequest, Type8PortWriteRequest, Type8Response, Type8Reserved,
  Type8Request, Type8Packet,
} from './type8-types.ts';

const CLAUSE_DW = 'Part 1 §3.5';
/** Bytes after the transport IDs before the data: 16 bits, hop_count, 24 bits. */
const FIXED = 6;

/** The raw bit fields of a Type 8 packet, whatever its transaction. */
export interface Type8Fields extends PacketHeader {
  readonly destinationID: number;
  readonly sourceID: number;
  readonly transaction: number;
  /** rdsize, wrsize or status. */
  readonly sizeOrStatus: number;
  /** srcTID or targetTID. */
  readonly tid: number;
  readonly hopCount: number;
  /** config_offset(21) | wdptr(1) | rsrv(2) in requests; reserved(24) in responses. */
  readonly word: number;
  readonly payload: Uint8Array;
}

/** Labels the raw fields: the decoded form of a Type 8 packet. */
export function type8FromFields(f: Type8Fields): Type8Packet {
  // Plain literals, not spreads: `{ ...a, b }` is two orders of magnitude slower in V8.
  const { ackID, vc, crf, prio, tt, destinationID, sourceID, transaction, sizeOrStatus: size, tid, hopCount, word, payload } = f;
  const ftype = FTYPE_MAINTENANCE;
  const transactionName = type8TransactionName(transaction);
  if (transactionName === 'MAINTENANCE_READ_RESPONSE' || transactionName === 'MAINTENANCE_WRITE_RESPONSE') {
    const statusName = type8StatusName(size);
    return { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, status: size, statusName, targetTID: tid, hopCount, rsrv: word, payload };
  }
  if (transactionName === 'RESERVED') {
    return { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, sizeOrStatus: size, tid, hopCount, rsrv: word, payload };
  }
  const configOffset = word >>> 3;
  const wdptr = (word >> 2) & 1;
  const rsrv = word & 3;
  const srcTID = tid;
  const read = transactionName === 'MAINTENANCE_READ_REQUEST';
  const { byteCount, byteLanes, laneOffset } = type8DataSize(read ? 'rdsize' : 'wrsize', wdptr, size);
  const byteOffset = configOffset * 8 + laneOffset;
  if (read) {
    return byteLanes === undefined
      ? { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, rdsize: size, srcTID, hopCount, configOffset, wdptr, rsrv, byteCount, byteOffset, payload }
      : { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, rdsize: size, srcTID, hopCount, configOffset, wdptr, rsrv, byteCount, byteLanes, byteOffset, payload };
  }
  if (transactionName === 'MAINTENANCE_WRITE_REQUEST') {
    return byteLanes === undefined
      ? { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, wrsize: size, srcTID, hopCount, configOffset, wdptr, rsrv, byteCount, byteOffset, payload }
      : { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, wrsize: size, srcTID, hopCount, configOffset, wdptr, rsrv, byteCount, byteLanes, byteOffset, payload };
  }
  return byteLanes === undefined
    ? { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, wrsize: size, srcTID, hopCount, configOffset, wdptr, rsrv, byteCount, payload }
    : { ackID, vc, crf, prio, tt, ftype, destinationID, sourceID, transaction, transactionName, wrsize: size, srcTID, hopCount, configOffset, wdptr, rsrv, byteCount, byteLanes, payload };
}

/** The raw fields of a packet, every field range-checked; the inverse of `type8FromFields`. */
export function type8ToFields(p: Type8Packet): Type8Fields {
  const size = idBytes(p.tt);
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE_T8_HOP);
  checkRange(p.sourceID, size * 8, 'sourceID', CLAUSE_T8_HOP);
  checkRange(p.transaction, 4, 'transaction', CLAUSE_T8_TABLE);
  checkRange(p.hopCount, 8, 'hopCount', CLAUSE_T8_HOP);
  const name = type8TransactionName(p.transaction);
  if (p.transactionName !== name) {
    throw new WireError(WireErrorCode.invalid, 'transactionName', 0, CLAUSE_T8_TABLE, `transaction ${p.transaction} is ${name}, not ${p.transactionName}`);
  }
  let sizeOrStatus: number;
  let tid: number;
  let word: number;
  if (isType8Response(p)) {
    checkRange((sizeOrStatus = p.status), 4, 'status', CLAUSE_T8_TABLE);
    checkRange((tid = p.targetTID), 8, 'targetTID', CLAUSE_T8_RESPONSE);
    checkRange((word = p.rsrv), 24, 'rsrv', CLAUSE_T8_RESPONSE);
  } else if (p.transactionName === 'RESERVED') {
    checkRange((sizeOrStatus = p.sizeOrStatus), 4, 'sizeOrStatus', CLAUSE_T8_HOP);
    checkRange((tid = p.tid), 8, 'tid', CLAUSE_T8_HOP);
    checkRange((word = p.rsrv), 24, 'rsrv', CLAUSE_T8_HOP);
  } else {
    const read = p.transactionName === 'MAINTENANCE_READ_REQUEST';
    checkRange((sizeOrStatus = read ? p.rdsize : p.wrsize), 4, read ? 'rdsize' : 'wrsize', CLAUSE_T8_REQUEST);
    checkRange((tid = p.srcTID), 8, 'srcTID', CLAUSE_T8_REQUEST);
    checkRange(p.configOffset, 21, 'configOffset', CLAUSE_T8_REQUEST);
    checkRange(p.wdptr, 1, 'wdptr', CLAUSE_T8_REQUEST);
    checkRange(p.rsrv, 2, 'rsrv', CLAUSE_T8_REQUEST);
    word = (p.configOffset << 3) | (p.wdptr << 2) | p.rsrv;
  }
  const { ackID, vc, crf, prio, tt, destinationID, sourceID, transaction, hopCount, payload } = p;
  return { ackID, vc, crf, prio, tt, ftype: FTYPE_MAINTENANCE, destinationID, sourceID, transaction, sizeOrStatus, tid, hopCount, word, payload };
}

export function type8Length(p: Pick<Type8Packet, 'tt' | 'payload'>): number {
  return 2 + 2 * idBytes(p.tt) + FIXED + p.payload.length;
}

export function decodeType8(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Type8Packet {
  need(bytes.length, offset, end - offset, 'packet', CLAUSE_T8_HOP);
  const h = decodeHeader(bytes, offset, end, opts);
  if (h.ftype !== FTYPE_MAINTENANCE) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE_T8_TABLE, `ftype ${h.ftype} is not a maintenance packet`);
  }
  const size = idBytes(h.tt, offset + 1);
  const at = afterIds(offset, h.tt);
  need(end, offset + 2, 2 * size + FIXED, 'maintenance header', CLAUSE_T8_HOP);
  const b0 = bytes[at] as number;
  const p = type8FromFields({
    ackID: h.ackID,
    vc: h.vc,
    crf: h.crf,
    prio: h.prio,
    tt: h.tt,
    ftype: FTYPE_MAINTENANCE,
    destinationID: readId(bytes, offset + 2, size),
    sourceID: readId(bytes, offset + 2 + size, size),
    transaction: b0 >> 4,
    sizeOrStatus: b0 & 0xf,
    tid: bytes[at + 1] as number,
    hopCount: bytes[at + 2] as number,
    word: ((bytes[at + 3] as number) << 16) | ((bytes[at + 4] as number) << 8) | (bytes[at + 5] as number),
    payload: bytes.subarray(at + FIXED, end),
  });
  if (opts.strict) checkType8(p, at);
  return keepRsrvAckID(p, bytes[offset] as number, opts);
}

/**
 * Strict-mode rules; `at` is the offset of the transaction field, so errors point at the byte.
 * Also used by the constructors (type8-build.ts, with `at` relative to the packet) so they
 * never build a packet that strict decoding would reject.
 */
export function checkType8(p: Type8Packet, at: number): void {
  const n = p.payload.length;
  if (p.transactionName === 'RESERVED') {
    return fail(WireErrorCode.reserved, 'transaction', at, CLAUSE_T8_TABLE, `transaction 0b${bin4(p.transaction)} is reserved`);
  }
  if (n % 8 !== 0) fail(WireErrorCode.invalid, 'payload', at + FIXED, CLAUSE_DW, `${n} bytes is not a whole number of double-words`);
  if (isType8Response(p)) {
    if (p.statusName === 'RESERVED') fail(WireErrorCode.reserved, 'status', at, CLAUSE_T8_TABLE, `status 0b${bin4(p.status)} is reserved`);
    if (p.rsrv !== 0) fail(WireErrorCode.reserved, 'rsrv', at + 3, CLAUSE_T8_RESPONSE, 'reserved bits shall be 0');
    if (p.transactionName === 'MAINTENANCE_WRITE_RESPONSE') {
      if (n !== 0) fail(WireErrorCode.invalid, 'payload', at + FIXED, CLAUSE_T8_SIZES, 'only write requests and read responses contain data');
    } else if (n > MAINTENANCE_MAX_BYTES || (p.statusName === 'DONE' && n === 0)) {
      // "Maintenance read responses with a status of ERROR may optionally include data"
      fail(WireErrorCode.invalid, 'payload', at + FIXED, CLAUSE_T8_SIZES, `a ${p.statusName} read response cannot carry ${n} bytes (DONE: 8–64)`);
    }
    return;
  }
  if (p.rsrv !== 0) fail(WireErrorCode.reserved, 'rsrv', at + 5, CLAUSE_T8_REQUEST, 'reserved bits shall be 0');
  const read = p.transactionName === 'MAINTENANCE_READ_REQUEST';
  const sizeField = read ? 'rdsize' : 'wrsize';
  if (p.transactionName === 'MAINTENANCE_PORT_WRITE_REQUEST') {
    // "The srcTID and config_offset fields are reserved for port-write requests."
    if (p.srcTID !== 0) fail(WireErrorCode.reserved, 'srcTID', at + 1, CLAUSE_T8_SIZES, 'srcTID is reserved in port-writes');
    if (p.configOffset !== 0) fail(WireErrorCode.reserved, 'configOffset', at + 3, CLAUSE_T8_SIZES, 'config_offset is reserved in port-writes');
  }
  if (p.byteCount === 'RESERVED') {
    return fail(WireErrorCode.reserved, sizeField, at, CLAUSE_WRSIZE, `wdptr ${p.wdptr} with this wrsize is reserved`);
  }
  if (!isMaintenanceSize(p.byteCount)) {
    fail(WireErrorCode.invalid, sizeField, at, CLAUSE_T8_SIZES, `${p.byteCount} bytes: maintenance accesses are a word, a double-word or double-words up to 64 bytes`);
  }
  if (read) {
    if (n !== 0) fail(WireErrorCode.invalid, 'payload', at + FIXED, CLAUSE_T8_SIZES, 'only write requests and read responses contain data');
  } else if (n === 0 || (p.byteCount <= 8 ? n !== 8 : n > p.byteCount)) {
    // "The data payload may not exceed that size but may be smaller"; sub-double-word data is padded to one.
    fail(WireErrorCode.invalid, 'payload', at + FIXED, CLAUSE_WRSIZE, `${n} bytes of data do not fit a size of ${p.byteCount} bytes`);
  }
}

function bin4(v: number): string {
  return v.toString(2).padStart(4, '0');
}

export function encodeType8(p: Type8Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  const f = type8ToFields(p);
  checkRoom(bytes, offset, type8Length(p), CLAUSE_T8_HOP);
  const at = encodeTransport(withRsrvAckID(f, p), f.destinationID, f.sourceID, bytes, offset, ackIdBits);
  bytes[at] = (f.transaction << 4) | f.sizeOrStatus;
  bytes[at + 1] = f.tid;
  bytes[at + 2] = f.hopCount;
  bytes[at + 3] = f.word >>> 16;
  bytes[at + 4] = (f.word >>> 8) & 0xff;
  bytes[at + 5] = f.word & 0xff;
  bytes.set(f.payload, at + FIXED);
  return at + FIXED + f.payload.length;
}

export const type8Codec: LogicalCodec<Type8Packet> = {
  ftype: FTYPE_MAINTENANCE,
  name: 'MAINTENANCE',
  decode: decodeType8,
  encode: encodeType8,
  encodedLength: type8Length,
  // 2 + 2·ids + 6 bytes + double-words: Dev8 → 10 (odd half-words), Dev16 → 12, Dev32 → 16 (even).
  oddHalfwords: (bytes, offset, available) => isDev8Prefix(bytes, offset, available, CLAUSE_T8_HOP),
};
