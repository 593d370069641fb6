import { WireError, WireErrorCode, checkRange, need } from './errors.ts';
import { afterIds, decodeHeader, encodeHeader, idBytes, readId, writeId } from './header.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';

/**
 * Type 8 MAINTENANCE (Part 1 §4.1.10 Figures 4-4/4-5, Part 3 §2.5 Figure 2-4). After the IDs:
 *   request:  transaction(4) | rdsize/wrsize(4) | srcTID(8)    | hop_count(8) | config_offset(21) | wdptr(1) | rsrv(2)
 *   response: transaction(4) | status(4)        | targetTID(8) | hop_count(8) | reserved(24)
 * then double-words of data. Part 1 draws both without hop_count; Part 3 Figure 2-4 adds it
 * after the 16 bits of "Logical transaction, dsize/status, TID fields".
 * Decoded payloads are views (`subarray`) of the input, not copies.
 */
export const FTYPE_MAINTENANCE = 8;
export const CLAUSE_T8_REQUEST = 'Part 1 §4.1.10 Figure 4-4';
export const CLAUSE_T8_RESPONSE = 'Part 1 §4.1.10 Figure 4-5';
export const CLAUSE_T8_TABLE = 'Part 1 §4.1.10 Table 4-7';
export const CLAUSE_T8_HOP = 'Part 3 §2.5 Figure 2-4';
export const CLAUSE_T8_SIZES = 'Part 1 §4.1.10';
export const CLAUSE_WRSIZE = 'Part 1 §4.1.2 Table 4-4';
const CLAUSE_DW = 'Part 1 §3.5';
/** Bytes after the transport IDs before the data: 16 bits, hop_count, 24 bits. */
const FIXED = 6;
/** "multiple double-word quantities up to a limit of 64 bytes" (Part 1 §4.1.10) */
export const MAINTENANCE_MAX_BYTES = 64;

export const TYPE8_TRANSACTION = { readRequest: 0, writeRequest: 1, readResponse: 2, writeResponse: 3, portWriteRequest: 4 } as const;
/** Indexed by transaction (Table 4-7). */
export const TYPE8_TRANSACTION_NAMES = ['MAINTENANCE_READ_REQUEST', 'MAINTENANCE_WRITE_REQUEST', 'MAINTENANCE_READ_RESPONSE',
  'MAINTENANCE_WRITE_RESPONSE', 'MAINTENANCE_PORT_WRITE_REQUEST'] as const;
export type Type8TransactionName = (typeof TYPE8_TRANSACTION_NAMES)[number] | 'RESERVED';

/** Table 4-7: 0b0101–1111 reserved. */
export function type8TransactionName(transaction: number): Type8TransactionName {
  return TYPE8_TRANSACTION_NAMES[transaction] ?? 'RESERVED';
}

export const MAINTENANCE_STATUS = { done: 0, error: 7 } as const;
export type Type8StatusName = 'DONE' | 'ERROR' | 'IMPLEMENTATION_DEFINED' | 'RESERVED';

/** Table 4-7: 0b0000 DONE, 0b0111 ERROR, 0b1100–1111 implementation-defined, others reserved. */
export function type8StatusName(status: number): Type8StatusName {
  if (status === MAINTENANCE_STATUS.done) return 'DONE';
  if (status === MAINTENANCE_STATUS.error) return 'ERROR';
  return status >= 12 && status <= 15 ? 'IMPLEMENTATION_DEFINED' : 'RESERVED';
}

/** One row of Table 4-3 (rdsize) or Table 4-4 (wrsize). */
export interface DataSize {
  /** Number of bytes; for multiple double-word writes the maximum payload. */
  readonly byteCount: number | 'RESERVED';
  /** Byte lanes of sub-double-word sizes and of 8 bytes (bit 7 = byte 0); absent for larger sizes. */
  readonly byteLanes?: number;
  /** Byte of the double-word where the data starts: the first byte lane, 0 for double-words. */
  readonly laneOffset: number;
}

// Tables 4-3/4-4 rows 0b0000–0b1010, identical for rdsize and wrsize, indexed [wdptr][size].
const LANES = [
  [0x80, 0x40, 0x20, 0x10, 0xc0, 0xe0, 0x30, 0xf8, 0xf0, 0xfc, 0xfe],
  [0x08, 0x04, 0x02, 0x01, 0x0c, 0x07, 0x03, 0x1f, 0x0f, 0x3f, 0x7f],
] as const;
const R = 'RESERVED';
// Rows 0b1011–0b1111 as [wdptr 0, wdptr 1]. Table 4-4 leaves 0b1101/0, 0b1110/x, 0b1111/0 reserved.
const RD_MULTI = [[8, 16], [32, 64], [96, 128], [160, 192], [224, 256]] as const;
const WR_MULTI = [[8, 16], [32, 64], [R, 128], [R, R], [R, 256]] as const;

function dataSize(field: 'rdsize' | 'wrsize', w: 0 | 1, size: number): DataSize {
  const lanes = size < 11 ? LANES[w][size] : undefined;
  if (lanes !== undefined) return { byteCount: popcount8(lanes), byteLanes: lanes, laneOffset: Math.clz32(lanes) - 24 };
  const row = (field === 'rdsize' ? RD_MULTI : WR_MULTI)[size - 11];
  const byteCount: number | 'RESERVED' = row === undefined ? R : row[w];
  return byteCount === 8 ? { byteCount, byteLanes: 0xff, laneOffset: 0 } : { byteCount, laneOffset: 0 };
}

// Built once so decoding allocates nothing for it; index wdptr·16 + size.
const SIZES = {
  rdsize: Array.from({ length: 32 }, (_, i) => dataSize('rdsize', i < 16 ? 0 : 1, i & 15)),
  wrsize: Array.from({ length: 32 }, (_, i) => dataSize('wrsize', i < 16 ? 0 : 1, i & 15)),
} as const;

/** The row of Table 4-3 (rdsize) or 4-4 (wrsize) for wdptr and a 4-bit size. */
export function type8DataSize(field: 'rdsize' | 'wrsize', wdptr: number, size: number): DataSize {
  return SIZES[field][((wdptr & 1) << 4) | (size & 15)] as DataSize;
}

function popcount8(v: number): number {
  let n = 0;
  for (let x = v; x !== 0; x &= x - 1) n++;
  return n;
}

/** Sizes a maintenance access may have: a word, a double-word or double-words up to 64 bytes. */
export function isMaintenanceSize(byteCount: number | 'RESERVED'): boolean {
  return byteCount === 4 || byteCount === 8 || byteCount === 16 || byteCount === 32 || byteCount === 64;
}

interface Type8Common extends PacketHeader {
  readonly ftype: 8;
  readonly destinationID: number;
  readonly sourceID: number;
  readonly transaction: number;
  readonly hopCount: number;
  /** Double-words of data: a view of the decoded bytes. */
  readonly payload: Uint8Array;
}

interface Type8RequestCommon extends Type8Common {
  readonly srcTID: number;
  /** Double-word offset into the CAR/CSR space (21 bits). */
  readonly configOffset: number;
  readonly wdptr: number;
  readonly rsrv: number;
  readonly byteCount: number | 'RESERVED';
  readonly byteLanes?: number;
}

export interface Type8ReadRequest extends Type8RequestCommon {
  readonly transactionName: 'MAINTENANCE_READ_REQUEST';
  readonly rdsize: number;
  /** configOffset·8 plus the first byte lane: the byte address of the first register read. */
  readonly byteOffset: number;
}

export interface Type8WriteRequest extends Type8RequestCommon {
  readonly transactionName: 'MAINTENANCE_WRITE_REQUEST';
  readonly wrsize: number;
  readonly byteOffset: number;
}

/** Port-write: srcTID and config_offset are reserved (Part 1 §4.1.10), kept for the round trip. */
export interface Type8PortWriteRequest extends Type8RequestCommon {
  readonly transactionName: 'MAINTENANCE_PORT_WRITE_REQUEST';
  readonly wrsize: number;
}

export interface Type8Response extends Type8Common {
  readonly transactionName: 'MAINTENANCE_READ_RESPONSE' | 'MAINTENANCE_WRITE_RESPONSE';
  readonly status: number;
  readonly statusName: Type8StatusName;
  readonly targetTID: number;
  /** The 24 reserved bits after hop_count. */
  readonly rsrv: number;
}

/** A reserved transaction: the layout is unknown, so the bits are kept in Figure 2-4's slots. */
export interface Type8Reserved extends Type8Common {
  readonly transactionName: 'RESERVED';
  readonly sizeOrStatus: number;
  readonly tid: number;
  readonly rsrv: number;
}

export type Type8Request = Type8ReadRequest | Type8WriteRequest | Type8PortWriteRequest;
export type Type8Packet = Type8Request | Type8Response | Type8Reserved;

export function isType8Response(p: Type8Packet): p is Type8Response {
  return p.transactionName === 'MAINTENANCE_READ_RESPONSE' || p.transactionName === 'MAINTENANCE_WRITE_RESPONSE';
}

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
  return p;
}

/**
 * Strict-mode rules; `at` is the offset of the transaction field, so errors point at the byte.
 * Also used by the constructors (with `at` relative to the packet) so they never build a
 * packet that strict decoding would reject.
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

function fail(code: WireErrorCode, field: string, offset: number, clause: string, detail: string): never {
  throw new WireError(code, field, offset, clause, detail);
}

function bin4(v: number): string {
  return v.toString(2).padStart(4, '0');
}

export function encodeType8(p: Type8Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  const f = type8ToFields(p);
  const len = type8Length(p);
  if (offset + len > bytes.length) throw new WireError(WireErrorCode.range, 'buffer', offset, CLAUSE_T8_HOP, `needs ${len} bytes`);
  const size = idBytes(p.tt);
  encodeHeader(f, bytes, offset, ackIdBits);
  writeId(f.destinationID, bytes, offset + 2, size);
  writeId(f.sourceID, bytes, offset + 2 + size, size);
  const at = afterIds(offset, p.tt);
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
  oddHalfwords(bytes, offset, available) {
    need(offset + available, offset, 2, 'prefix', CLAUSE_T8_HOP);
    const tt = ((bytes[offset + 1] as number) >> 4) & 3;
    idBytes(tt, offset + 1);
    return tt === 0;
  },
};

/** Prefix fields the constructors default: ackID 0, VC 0, CRF 0; prio 0 (requests) or 1 (responses). */
export interface HeaderArgs {
  readonly ackID?: number;
  readonly vc?: number;
  readonly crf?: number;
  readonly prio?: number;
  readonly tt: number;
  readonly destinationID: number;
  readonly sourceID: number;
  /** Default 0xFF: requests go to the end point named by destinationID; responses "shall" use 0xFF (Part 3 §2.5). */
  readonly hopCount?: number;
}

export interface MaintenanceRequestArgs extends HeaderArgs {
  readonly srcTID: number;
  /** Byte address in the configuration space: word-aligned for 4 bytes, double-word aligned otherwise. */
  readonly byteOffset: number;
}

/** Builds from raw fields and refuses anything strict decoding would reject. */
function build(a: HeaderArgs, prio: number, transaction: number, sizeOrStatus: number, tid: number, word: number, payload: Uint8Array): Type8Packet {
  const { tt, destinationID, sourceID } = a;
  const [ackID, vc, crf, hopCount] = [a.ackID ?? 0, a.vc ?? 0, a.crf ?? 0, a.hopCount ?? 0xff];
  const ftype = FTYPE_MAINTENANCE;
  const p = type8FromFields({ ackID, vc, crf, prio: a.prio ?? prio, tt, ftype, destinationID, sourceID, transaction, sizeOrStatus, tid, hopCount, word, payload });
  type8ToFields(p);
  checkType8(p, 2 + 2 * idBytes(tt));
  return p;
}

/** rdsize/wrsize, wdptr and the request word for an access of `count` bytes (Tables 4-3/4-4). */
function access(count: number, byteOffset: number): { size: number; wdptr: number; word: number } {
  checkRange(byteOffset, 24, 'byteOffset', CLAUSE_T8_REQUEST);
  if (byteOffset % (count === 4 ? 4 : 8) !== 0 || !isMaintenanceSize(count)) {
    throw new WireError(WireErrorCode.invalid, 'byteOffset', 0, CLAUSE_T8_SIZES, `${count} bytes at 0x${byteOffset.toString(16)}: accesses are an aligned word or 1–8 double-words`);
  }
  const wdptr = count === 4 ? (byteOffset >> 2) & 1 : count === 16 || count === 64 ? 1 : 0;
  const size = count === 4 ? 0b1000 : count <= 16 ? 0b1011 : 0b1100;
  return { size, wdptr, word: ((byteOffset >>> 3) << 3) | (wdptr << 2) };
}

export function maintenanceReadRequest(a: MaintenanceRequestArgs & { readonly byteCount: 4 | 8 | 16 | 32 | 64 }): Type8ReadRequest {
  const { size, word } = access(a.byteCount, a.byteOffset);
  const p = build(a, 0, TYPE8_TRANSACTION.readRequest, size, a.srcTID, word, new Uint8Array(0));
  if (p.transactionName !== 'MAINTENANCE_READ_REQUEST') throw new Error('unreachable');
  return p;
}

/**
 * `data` is 4 bytes (placed in its word of the double-word, the other word zero) or 8–64 bytes
 * in double-words, not copied; wrsize is the smallest maximum that holds it.
 */
export function maintenanceWriteRequest(a: MaintenanceRequestArgs & { readonly data: Uint8Array }): Type8WriteRequest {
  const n = a.data.length;
  if (n !== 4 && (n === 0 || n % 8 !== 0 || n > MAINTENANCE_MAX_BYTES)) {
    throw new WireError(WireErrorCode.invalid, 'data', 0, CLAUSE_T8_SIZES, `${n} bytes: maintenance writes are a word or 1–8 double-words`);
  }
  const { size, wdptr, word } = access(n === 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : n <= 32 ? 32 : 64, a.byteOffset);
  const payload = n === 4 ? new Uint8Array(8) : a.data;
  if (n === 4) payload.set(a.data, wdptr * 4);
  const p = build(a, 0, TYPE8_TRANSACTION.writeRequest, size, a.srcTID, word, payload);
  if (p.transactionName !== 'MAINTENANCE_WRITE_REQUEST') throw new Error('unreachable');
  return p;
}

export interface MaintenanceResponseArgs extends HeaderArgs {
  readonly transactionName: 'MAINTENANCE_READ_RESPONSE' | 'MAINTENANCE_WRITE_RESPONSE';
  readonly targetTID: number;
  /** Default DONE. */
  readonly status?: number;
  /** Double-words; read responses only. */
  readonly payload?: Uint8Array;
}

export function maintenanceResponse(a: MaintenanceResponseArgs): Type8Response {
  const read = a.transactionName === 'MAINTENANCE_READ_RESPONSE';
  const transaction = read ? TYPE8_TRANSACTION.readResponse : TYPE8_TRANSACTION.writeResponse;
  const p = build(a, 1, transaction, a.status ?? MAINTENANCE_STATUS.done, a.targetTID, 0, a.payload ?? new Uint8Array(0));
  if (!isType8Response(p)) throw new Error('unreachable');
  return p;
}

/**
 * The response to a read or write request: IDs swapped, targetTID = srcTID, prio one above the
 * request's ("a response packet ... is always assigned an initial priority one priority level
 * greater than the priority of the associated request packet", Part 6 §6.12). For a read with
 * status DONE, `data` holds exactly the bytes read; a word is placed at its byte lanes.
 */
export function maintenanceResponseTo(
  req: Type8ReadRequest | Type8WriteRequest,
  r: { readonly status?: number; readonly data?: Uint8Array } = {},
): Type8Response {
  const read = req.transactionName === 'MAINTENANCE_READ_REQUEST';
  const status = r.status ?? MAINTENANCE_STATUS.done;
  let payload = r.data ?? new Uint8Array(0);
  if (read && req.byteCount === 4 && payload.length === 4) {
    payload = new Uint8Array(8);
    payload.set(r.data ?? [], req.wdptr * 4);
  } else if (read && status === MAINTENANCE_STATUS.done && payload.length !== req.byteCount) {
    throw new WireError(WireErrorCode.invalid, 'data', 0, CLAUSE_T8_SIZES, `the request read ${String(req.byteCount)} bytes, data has ${payload.length}`);
  }
  const { vc, crf, tt } = req;
  const transactionName = read ? 'MAINTENANCE_READ_RESPONSE' : 'MAINTENANCE_WRITE_RESPONSE';
  const prio = Math.min(req.prio + 1, 3);
  return maintenanceResponse({ vc, crf, prio, tt, destinationID: req.sourceID, sourceID: req.destinationID, transactionName, targetTID: req.srcTID, status, payload });
}
