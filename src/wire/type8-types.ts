import type { PacketHeader } from './header.ts';

// The Type 8 MAINTENANCE packet's shapes and field tables (Part 1 §4.1.10): transaction types,
// status values, rdsize/wrsize (Tables 4-3/4-4). The codec is type8.ts, which re-exports all of these.

/**
 * Type 8 MAINTENANCE (Part 1 §4.1.10 Figures 4-4/4-5, Part 3 §2.5 Figure 2-4). After the IDs:
 *   request:  transaction(4) | rdsize/wrsize(4) | srcTID(8)    | hop_count(8) | config_offset(21) | wdptr(1) | rsrv(2)
 *   response: transaction(4) | status(4)        | targetTID(8) | hop_count(8) | reserved(24)
 * then double-words of data. Part 1 draws both without hop_count; Part 3 Figure 2-4 adds it
 * after the 16 bits of "Logical transaction, dsize/status, TID fields".
 * Decoded payloads are views (`subarray`) of the input, not copies.
 *
 * @example
 * ```ts
 * import { FTYPE_MAINTENANCE, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A maintenance read request for the word at 0x60 (the Base Device ID CSR).
 * const bytes = parseHex('0008 0501 0803 ff00 0060');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === FTYPE_MAINTENANCE) console.log(p.transactionName, p.hopCount); // MAINTENANCE_READ_REQUEST 255
 * ```
 */
export const FTYPE_MAINTENANCE = 8;
export const CLAUSE_T8_REQUEST = 'Part 1 §4.1.10 Figure 4-4';
export const CLAUSE_T8_RESPONSE = 'Part 1 §4.1.10 Figure 4-5';
export const CLAUSE_T8_TABLE = 'Part 1 §4.1.10 Table 4-7';
export const CLAUSE_T8_HOP = 'Part 3 §2.5 Figure 2-4';
export const CLAUSE_T8_SIZES = 'Part 1 §4.1.10';
export const CLAUSE_WRSIZE = 'Part 1 §4.1.2 Table 4-4';
/**
 * "multiple double-word quantities up to a limit of 64 bytes" (Part 1 §4.1.10)
 *
 * @example
 * ```ts
 * import { MAINTENANCE_MAX_BYTES } from 'riodp/wire';
 *
 * // A 256-byte register block is read in maintenance requests of at most 64 bytes.
 * const block = 256;
 * const requests = Math.ceil(block / MAINTENANCE_MAX_BYTES);
 * console.log(requests); // 4
 * ```
 */
export const MAINTENANCE_MAX_BYTES = 64;

/**
 * The MAINTENANCE transaction types (Part 1 Table 4-7).
 *
 * @example
 * ```ts
 * import { TYPE8_TRANSACTION, decodePacket, parseHex } from 'riodp/wire';
 *
 * const bytes = parseHex('0008 0501 0803 ff00 0060');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 8 && p.transaction === TYPE8_TRANSACTION.readRequest) console.log('read request from', p.sourceID); // read request from 1
 * ```
 */
export const TYPE8_TRANSACTION = { readRequest: 0, writeRequest: 1, readResponse: 2, writeResponse: 3, portWriteRequest: 4 } as const;
/**
 * Indexed by transaction (Table 4-7).
 *
 * @example
 * ```ts
 * import { TYPE8_TRANSACTION_NAMES } from 'riodp/wire';
 *
 * // The transaction field is the upper nibble of the byte after the device IDs.
 * const transaction = 0x48 >> 4;
 * console.log(TYPE8_TRANSACTION_NAMES[transaction]); // MAINTENANCE_PORT_WRITE_REQUEST
 * ```
 */
export const TYPE8_TRANSACTION_NAMES = ['MAINTENANCE_READ_REQUEST', 'MAINTENANCE_WRITE_REQUEST', 'MAINTENANCE_READ_RESPONSE',
  'MAINTENANCE_WRITE_RESPONSE', 'MAINTENANCE_PORT_WRITE_REQUEST'] as const;
/** The name of a MAINTENANCE transaction type. */
export type Type8TransactionName = (typeof TYPE8_TRANSACTION_NAMES)[number] | 'RESERVED';

/**
 * Table 4-7: 0b0101–1111 reserved.
 *
 * @example
 * ```ts
 * import { type8TransactionName } from 'riodp/wire';
 *
 * console.log(type8TransactionName(2), type8TransactionName(0b1001)); // MAINTENANCE_READ_RESPONSE RESERVED
 * ```
 */
export function type8TransactionName(transaction: number): Type8TransactionName {
  return TYPE8_TRANSACTION_NAMES[transaction] ?? 'RESERVED';
}

/**
 * MAINTENANCE response status values: DONE and ERROR (Table 4-7).
 *
 * @example
 * ```ts
 * import { MAINTENANCE_STATUS, maintenanceResponse } from 'riodp/wire';
 *
 * // An end point refusing a write it cannot perform.
 * const p = maintenanceResponse({
 *   tt: 0, destinationID: 0x01, sourceID: 0x05, transactionName: 'MAINTENANCE_WRITE_RESPONSE', targetTID: 4, status: MAINTENANCE_STATUS.error,
 * });
 * console.log(p.status, p.statusName); // 7 ERROR
 * ```
 */
export const MAINTENANCE_STATUS = { done: 0, error: 7 } as const;
/** The name of a MAINTENANCE response status. */
export type Type8StatusName = 'DONE' | 'ERROR' | 'IMPLEMENTATION_DEFINED' | 'RESERVED';

/**
 * Table 4-7: 0b0000 DONE, 0b0111 ERROR, 0b1100–1111 implementation-defined, others reserved.
 *
 * @example
 * ```ts
 * import { type8StatusName } from 'riodp/wire';
 *
 * console.log(type8StatusName(0), type8StatusName(7), type8StatusName(0b1100), type8StatusName(3)); // DONE ERROR IMPLEMENTATION_DEFINED RESERVED
 * ```
 */
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

/**
 * The row of Table 4-3 (rdsize) or 4-4 (wrsize) for wdptr and a 4-bit size.
 *
 * @example
 * ```ts
 * import { type8DataSize } from 'riodp/wire';
 *
 * // rdsize 0b1000 with wdptr 1: the lower word of the double-word (byte lanes 4–7).
 * console.log(type8DataSize('rdsize', 1, 0b1000)); // { byteCount: 4, byteLanes: 15, laneOffset: 4 }
 * // wrsize 0b1110 with wdptr 0 is reserved in Table 4-4.
 * console.log(type8DataSize('wrsize', 0, 0b1110).byteCount); // RESERVED
 * ```
 */
export function type8DataSize(field: 'rdsize' | 'wrsize', wdptr: number, size: number): DataSize {
  return SIZES[field][((wdptr & 1) << 4) | (size & 15)] as DataSize;
}

function popcount8(v: number): number {
  let n = 0;
  for (let x = v; x !== 0; x &= x - 1) n++;
  return n;
}

/**
 * Sizes a maintenance access may have: a word, a double-word or double-words up to 64 bytes.
 *
 * @example
 * ```ts
 * import { isMaintenanceSize, type8DataSize } from 'riodp/wire';
 *
 * // rdsize 0b0100 (2 bytes) is a legal NREAD size but not a maintenance one.
 * const { byteCount } = type8DataSize('rdsize', 0, 0b0100);
 * console.log(byteCount, isMaintenanceSize(byteCount)); // 2 false
 * ```
 */
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

/** A MAINTENANCE read request (Part 1 §4.1.10). */
export interface Type8ReadRequest extends Type8RequestCommon {
  readonly transactionName: 'MAINTENANCE_READ_REQUEST';
  readonly rdsize: number;
  /** configOffset·8 plus the first byte lane: the byte address of the first register read. */
  readonly byteOffset: number;
}

/** A MAINTENANCE write request (Part 1 §4.1.10). */
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

/** A MAINTENANCE read or write response (Part 1 §4.1.10). */
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

/** A MAINTENANCE request: read, write or port-write. */
export type Type8Request = Type8ReadRequest | Type8WriteRequest | Type8PortWriteRequest;
/** A Type 8 MAINTENANCE packet. */
export type Type8Packet = Type8Request | Type8Response | Type8Reserved;

/**
 * Whether the packet is a read or write response.
 *
 * @example
 * ```ts
 * import { decodePacket, isType8Response, parseHex } from 'riodp/wire';
 *
 * // A read response (prio 1) carrying 0x00050000 in the upper word.
 * const bytes = parseHex('0048 0105 2003 ff00 0000 0005 0000 0000 0000');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 8 && isType8Response(p)) console.log(p.statusName, p.targetTID); // DONE 3
 * ```
 */
export function isType8Response(p: Type8Packet): p is Type8Response {
  return p.transactionName === 'MAINTENANCE_READ_RESPONSE' || p.transactionName === 'MAINTENANCE_WRITE_RESPONSE';
}
