import { WireError, WireErrorCode, checkRange } from './errors.ts';
import { idBytes } from './header.ts';
import type { PacketArgs } from './header.ts';
import {
  CLAUSE_T8_REQUEST,
  CLAUSE_T8_SIZES,
  FTYPE_MAINTENANCE,
  MAINTENANCE_MAX_BYTES,
  MAINTENANCE_STATUS,
  TYPE8_TRANSACTION,
  checkType8,
  isMaintenanceSize,
  isType8Response,
  type8FromFields,
  type8ToFields,
} from './type8.ts';
import type { Type8Packet, Type8ReadRequest, Type8Response, Type8WriteRequest } from './type8.ts';

/**
 * Constructors of Type 8 MAINTENANCE packets for engines (Part 1 §4.1.10, Part 3 §2.5): each
 * returns what decoding its encoding gives and refuses anything strict decoding would reject.
 */

/** Prefix fields the constructors default: ackID 0, VC 0, CRF 0; prio 0 (requests) or 1 (responses). */
export interface HeaderArgs extends PacketArgs {
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

/**
 * A MAINTENANCE read request (Part 1 §4.1.10) of `byteCount` bytes at `byteOffset` (an aligned word, or 8 to
 * 64 bytes, aligned), with rdsize and wdptr set from them.
 *
 * @example
 * ```ts
 * import { encodePacket, maintenanceReadRequest, packetLength, toHex } from 'riodp/wire';
 *
 * // Read the Base Device ID CSR (the word at 0x60) of end point 0x05.
 * const req = maintenanceReadRequest({ tt: 0, destinationID: 0x05, sourceID: 0x01, srcTID: 3, byteOffset: 0x60, byteCount: 4 });
 * console.log(req.rdsize, req.configOffset, req.wdptr); // 8 12 0
 * const bytes = new Uint8Array(packetLength(req));
 * encodePacket(req, bytes, 0);
 * console.log(toHex(bytes)); // 000805010803ff000060
 * ```
 */
export function maintenanceReadRequest(a: MaintenanceRequestArgs & { readonly byteCount: 4 | 8 | 16 | 32 | 64 }): Type8ReadRequest {
  const { size, word } = access(a.byteCount, a.byteOffset);
  const p = build(a, 0, TYPE8_TRANSACTION.readRequest, size, a.srcTID, word, new Uint8Array(0));
  if (p.transactionName !== 'MAINTENANCE_READ_REQUEST') throw new Error('unreachable');
  return p;
}

/**
 * `data` is 4 bytes (placed in its word of the double-word, the other word zero) or 8–64 bytes
 * in double-words, not copied; wrsize is the smallest maximum that holds it.
 *
 * @example
 * ```ts
 * import { encodePacket, maintenanceWriteRequest, packetLength, toHex } from 'riodp/wire';
 *
 * // Write 0x00070000 to the Base Device ID CSR (0x60) of end point 0x05: its new 8-bit ID is 0x07.
 * const req = maintenanceWriteRequest({ tt: 0, destinationID: 0x05, sourceID: 0x01, srcTID: 4, byteOffset: 0x60, data: Uint8Array.from([0, 7, 0, 0]) });
 * const bytes = new Uint8Array(packetLength(req));
 * encodePacket(req, bytes, 0);
 * console.log(toHex(bytes)); // 000805011804ff0000600007000000000000
 * ```
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

/**
 * A MAINTENANCE read or write response (Part 1 §4.1.10).
 *
 * @example
 * ```ts
 * import { maintenanceResponse } from 'riodp/wire';
 *
 * // The double-word 0x60–0x67 read for transaction 3 (prio defaults to 1 for responses).
 * const p = maintenanceResponse({
 *   tt: 0, destinationID: 0x01, sourceID: 0x05, transactionName: 'MAINTENANCE_READ_RESPONSE', targetTID: 3,
 *   payload: Uint8Array.from([0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
 * });
 * console.log(p.prio, p.statusName, p.payload.length); // 1 DONE 8
 * ```
 */
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
 *
 * @example
 * ```ts
 * import { maintenanceReadRequest, maintenanceResponseTo, toHex } from 'riodp/wire';
 *
 * const req = maintenanceReadRequest({ tt: 0, destinationID: 0x05, sourceID: 0x01, srcTID: 3, byteOffset: 0x60, byteCount: 4 });
 * // End point 0x05 answers with its Base Device ID CSR: 8-bit ID 0x05.
 * const resp = maintenanceResponseTo(req, { data: Uint8Array.from([0x00, 0x05, 0x00, 0x00]) });
 * console.log(resp.destinationID, resp.targetTID, resp.prio, toHex(resp.payload)); // 1 3 1 0005000000000000
 * ```
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
