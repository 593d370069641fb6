import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import { ATTRIBUTE_BYTES, checkAttributes, decodeAttributes, scopeAttributes, writeAttributes } from './attributes.ts';
import type { AttributeLike, SmpAttribute } from './attributes.ts';
import {
  CLAUSE,
  SMP_COMMAND,
  SMP_VER,
  checkCmdVer,
  commandName,
  padLength,
  protocolName,
  put16,
  put32,
  readPad,
  readVer,
  versionName,
  reservedZero,
  u16,
  u32,
  versionFields,
  withPad,
  writePad,
} from './header.ts';
import type { ProtocolName, SmpCommandName, SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';
import type { SmpMessage } from './index.ts';

/** STATUS (Annex 2 §4.2.8 Tables 4-9, 4-10); CLOSE (§4.2.7) is close.ts. */

/**
 * Status bit values (Table 4-10); 0x0FFFFFF0 is reserved.
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // The STATUS that answers a CLOSE: Closed set for StreamID 0x0010.
 * const b = parseHex('10010000000200100000080120000000');
 * const m = decodeSmp(b, 0, b.length);
 * if (m.command === 'STATUS') console.log(m.cmdIDName, (m.status & smp.STATUS_BIT.CLOSED) !== 0); // CLOSE true
 * ```
 */
export const STATUS_BIT = {
  STREAM_UNKNOWN: 0x00000001,
  STREAM_FUNCTIONAL: 0x00000002,
  READY_TO_RECEIVE: 0x00000004,
  DATA_READY_TO_SEND: 0x00000008,
  ERROR: 0x10000000,
  CLOSED: 0x20000000,
  COMMAND_UNKNOWN: 0x40000000,
  REQUEST_STATUS_OF_REMOTE: 0x80000000,
} as const;
/**
 * The reserved bits of STATUS <Status> (Table 4-10).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // The validation-mode check a receiver makes on <Status> (§4.2.8).
 * const status = 0x20000010;
 * console.log((status & smp.STATUS_RESERVED) !== 0, smp.statusFlags(status).join()); // true CLOSED,RESERVED
 * ```
 */
export const STATUS_RESERVED = 0x0ffffff0;
/** RESERVED appears when any Table 4-10 reserved bit is set. */
export type StatusFlag = keyof typeof STATUS_BIT | 'RESERVED';

// Built once: every STATUS decode names its flags.
const STATUS_BIT_ENTRIES = Object.entries(STATUS_BIT) as [keyof typeof STATUS_BIT, number][];

/**
 * The names of the bits set in a STATUS <Status> (Table 4-10); RESERVED when a reserved bit is set.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.statusFlags(0x00000006)); // [ 'STREAM_FUNCTIONAL', 'READY_TO_RECEIVE' ]
 * console.log(smp.statusFlags(0x21000000)); // [ 'CLOSED', 'RESERVED' ]
 * ```
 */
export function statusFlags(status: number): StatusFlag[] {
  const out: StatusFlag[] = [];
  for (const [name, bit] of STATUS_BIT_ENTRIES) {
    if ((status & bit) !== 0) out.push(name);
  }
  if ((status & STATUS_RESERVED) !== 0) out.push('RESERVED');
  return out;
}

/**
 * A STATUS <Status> value with the named bits set.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * const status = smp.statusFromFlags(['STREAM_FUNCTIONAL', 'READY_TO_RECEIVE', 'DATA_READY_TO_SEND']);
 * console.log(status.toString(16).padStart(8, '0')); // 0000000e
 * ```
 */
export function statusFromFlags(flags: readonly (keyof typeof STATUS_BIT)[]): number {
  return flags.reduce((s, f) => (s | STATUS_BIT[f]) >>> 0, 0);
}

/**
 * "a copy of the ProtoID and attributes used to create the StreamID" (§4.2.8), laid out as the
 * OPEN's <ProtoID><numAttributes> word and attributes, padded to 8 octets (a decision).
 */
export interface SmpStreamProtocol extends SmpPadded {
  readonly protoID: number;
  readonly protocol: ProtocolName;
  readonly attributes: readonly SmpAttribute[];
}

export interface SmpStatus extends SmpVersioned, SmpPadded {
  readonly command: 'STATUS';
  readonly cos: number;
  readonly sourceID: number;
  readonly streamID: number;
  readonly mailbox: number;
  /** Octet 9 (<Reserved>). */
  readonly rsrv: number;
  readonly cmdID: number;
  readonly cmdIDName: SmpCommandName;
  readonly cmdVersion: number;
  readonly status: number;
  readonly statusFlags: readonly StatusFlag[];
  /** <DataSize> × 8 octets; a view of the input. Authoritative on encode. */
  readonly contextSpecificData: Uint8Array;
  /** With Command_Unknown: the quoted command, when it decodes (leniently) as a message. */
  readonly quotedCommand?: SmpMessage;
  /** Without Command_Unknown: the stream's ProtoID and attributes, when the data holds them. */
  readonly streamProtocol?: SmpStreamProtocol;
}

const STATUS_HEADER = 16;

/** Reads a stream-protocol copy from [at, end); strict decoding requires it to be well formed. */
function decodeStreamProtocol(bytes: Uint8Array, at: number, end: number, strict: boolean): SmpStreamProtocol {
  need(end, at, 4, 'contextSpecificData', CLAUSE.status);
  const protoID = u16(bytes, at);
  const n = u16(bytes, at + 2);
  const attributes = decodeAttributes(bytes, at + 4, end, n, protoID, strict, CLAUSE.status);
  const pad = readPad(bytes, at, at + 4 + n * ATTRIBUTE_BYTES, end, strict, CLAUSE.status);
  return withPad({ protoID, protocol: protocolName(protoID), attributes }, pad);
}

/** Context-specific data holding a stream's ProtoID and attributes, padded to 8 octets. */
export function streamProtocolBytes(protoID: number, attributes: readonly AttributeLike[]): Uint8Array {
  checkRange(protoID, 16, 'protoID', CLAUSE.status);
  checkAttributes(attributes, CLAUSE.status);
  const n = 4 + attributes.length * ATTRIBUTE_BYTES;
  const out = new Uint8Array(n + padLength(n, undefined));
  put16(out, 0, protoID);
  put16(out, 2, attributes.length);
  writeAttributes(attributes, out, 4);
  return out;
}

function streamProtocolOf(status: number, data: Uint8Array): SmpStreamProtocol | undefined {
  if ((status & STATUS_BIT.COMMAND_UNKNOWN) !== 0 || data.length === 0) return undefined;
  try {
    return decodeStreamProtocol(data, 0, data.length, false);
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

/**
 * Decodes the command a Command_Unknown STATUS quotes (index.ts passes `decodeSmp` leniently, so
 * this module need not import the dispatcher); undefined when the octets are no message.
 */
export type QuoteDecoder = (data: Uint8Array) => SmpMessage | undefined;

/** With `quote`, a Command_Unknown STATUS also carries the quoted command it decodes. */
export function decodeStatus(bytes: Uint8Array, offset: number, end: number, strict: boolean, quote?: QuoteDecoder): SmpStatus {
  need(end, offset, STATUS_HEADER, 'STATUS', CLAUSE.status);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const dataSize = bytes[offset + 3] as number;
  const rsrv = bytes[offset + 9] as number;
  reservedZero(rsrv, strict, 'rsrv', offset + 9, CLAUSE.status);
  const status = u32(bytes, offset + 12);
  if (strict) checkStatusStrict(status, dataSize, offset);
  const dataAt = offset + STATUS_HEADER;
  need(end, dataAt, dataSize * 8, 'contextSpecificData', CLAUSE.status);
  const dataEnd = dataAt + dataSize * 8;
  const contextSpecificData = bytes.subarray(dataAt, dataEnd);
  // Strict decoding requires the stream-protocol copy to be well formed (and reports errors at
  // absolute offsets); lenient decoding keeps the raw data when it is not.
  const streamProtocol = strict && (status & STATUS_BIT.COMMAND_UNKNOWN) === 0 && dataSize > 0
    ? decodeStreamProtocol(bytes, dataAt, dataEnd, true)
    : streamProtocolOf(status, contextSpecificData);
  const pad = readPad(bytes, offset, dataEnd, end, strict, CLAUSE.status);
  const cmdID = bytes[offset + 10] as number;
  const m: SmpStatus = {
    command: 'STATUS',
    cmd: SMP_COMMAND.STATUS,
    ver,
    version,
    cos: bytes[offset + 2] as number,
    sourceID: u16(bytes, offset + 4),
    streamID: u16(bytes, offset + 6),
    mailbox: bytes[offset + 8] as number,
    rsrv,
    cmdID,
    cmdIDName: commandName(cmdID),
    cmdVersion: bytes[offset + 11] as number,
    status,
    statusFlags: statusFlags(status),
    contextSpecificData,
  };
  addContext(m, streamProtocol, quote);
  return withPad(m, pad);
}

/**
 * Adds `streamProtocol` or `quotedCommand` (never both: one needs Command_Unknown clear, the other
 * set) to a STATUS literal before its pad, without copying it.
 */
function addContext(m: SmpStatus, streamProtocol: SmpStreamProtocol | undefined, quote: QuoteDecoder | undefined): void {
  if (streamProtocol !== undefined) {
    (m as { streamProtocol?: SmpStreamProtocol }).streamProtocol = streamProtocol;
    return;
  }
  if (quote === undefined || (m.status & STATUS_BIT.COMMAND_UNKNOWN) === 0 || m.contextSpecificData.length === 0) return;
  const quotedCommand = quote(m.contextSpecificData);
  if (quotedCommand !== undefined) (m as { quotedCommand?: SmpMessage }).quotedCommand = quotedCommand;
}

function checkStatusStrict(status: number, dataSize: number, offset: number): void {
  const at = offset + 12;
  if ((status & STATUS_RESERVED) !== 0) {
    throw new WireError(WireErrorCode.reserved, 'status', at, CLAUSE.statusBits, 'status bits 0x0FFFFFF0 are reserved');
  }
  // "In the case that the Stream_Unknown bit is set ..., the only two valid flag bits are Stream_Unknown and Closed."
  if ((status & STATUS_BIT.STREAM_UNKNOWN) !== 0 && (status & ~(STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED)) !== 0) {
    throw new WireError(WireErrorCode.reserved, 'status', at, 'Annex 2 §4.2.8', 'with Stream_Unknown only Stream_Unknown and Closed may be set');
  }
  // "If the STATUS message is sent in order to request the status of a StreamID, ... <DataSize> must be set to zero."
  if ((status & STATUS_BIT.REQUEST_STATUS_OF_REMOTE) !== 0 && dataSize !== 0) {
    throw new WireError(WireErrorCode.invalid, 'dataSize', offset + 3, 'Annex 2 §4.2.8', 'a status request carries no context-specific data');
  }
}

export function statusLength(m: SmpStatus): number {
  const n = STATUS_HEADER + m.contextSpecificData.length;
  return n + padLength(n, m.pad);
}

export function encodeStatus(m: SmpStatus, bytes: Uint8Array, offset: number): number {
  const clause = CLAUSE.status;
  checkCmdVer('STATUS', m.cmd, m.ver, clause);
  checkRange(m.cos, 8, 'cos', clause);
  checkRange(m.sourceID, 16, 'sourceID', clause);
  checkRange(m.streamID, 16, 'streamID', clause);
  checkRange(m.mailbox, 8, 'mailbox', clause);
  checkRange(m.rsrv, 8, 'rsrv', clause);
  checkRange(m.cmdID, 8, 'cmdID', clause);
  checkRange(m.cmdVersion, 8, 'cmdVersion', clause);
  checkRange(m.status, 32, 'status', clause);
  const size = m.contextSpecificData.length;
  if (size % 8 !== 0 || size > 255 * 8) {
    throw new WireError(WireErrorCode.range, 'contextSpecificData', 0, clause, '<DataSize> counts 8-octet words, at most 255');
  }
  bytes[offset] = m.cmd;
  bytes[offset + 1] = m.ver;
  bytes[offset + 2] = m.cos;
  bytes[offset + 3] = size / 8;
  put16(bytes, offset + 4, m.sourceID);
  put16(bytes, offset + 6, m.streamID);
  bytes[offset + 8] = m.mailbox;
  bytes[offset + 9] = m.rsrv;
  bytes[offset + 10] = m.cmdID;
  bytes[offset + 11] = m.cmdVersion;
  put32(bytes, offset + 12, m.status);
  bytes.set(m.contextSpecificData, offset + STATUS_HEADER);
  const at = offset + STATUS_HEADER + size;
  return writePad(bytes, at, at - offset, m.pad);
}

export interface SmpStatusInput extends SmpCommonInput {
  readonly cos?: number;
  readonly sourceID: number;
  readonly streamID: number;
  readonly mailbox?: number;
  readonly rsrv?: number;
  /** The command answered; default STATUS (0x10). */
  readonly cmdID?: number;
  /** Its <VER>; default 0x01. */
  readonly cmdVersion?: number;
  /** Raw status bits or the Table 4-10 flag names. */
  readonly status: number | readonly (keyof typeof STATUS_BIT)[];
  /** Raw context-specific data (a multiple of 8 octets). */
  readonly contextSpecificData?: Uint8Array;
  /** Builds the context from a stream's ProtoID and attributes instead (a reply to Request_Status_of_Remote). */
  readonly streamProtocol?: { readonly protoID: number; readonly attributes: readonly AttributeLike[] };
}

/** A STATUS from its fields; index.ts's `smpStatus` adds quoting a command for Command_Unknown. */
export function buildStatus(f: SmpStatusInput, quote?: QuoteDecoder): SmpStatus {
  const status = typeof f.status === 'number' ? f.status : statusFromFlags(f.status);
  const sp = f.streamProtocol;
  const contextSpecificData = f.contextSpecificData ?? (sp ? streamProtocolBytes(sp.protoID, scopeAttributes(sp.attributes, sp.protoID)) : new Uint8Array(0));
  const cmdID = f.cmdID ?? SMP_COMMAND.STATUS;
  const m: SmpStatus = {
    command: 'STATUS',
    cmd: SMP_COMMAND.STATUS,
    ...versionFields(f.ver),
    cos: f.cos ?? 0,
    sourceID: f.sourceID,
    streamID: f.streamID,
    mailbox: f.mailbox ?? 0,
    rsrv: f.rsrv ?? 0,
    cmdID,
    cmdIDName: commandName(cmdID),
    cmdVersion: f.cmdVersion ?? SMP_VER,
    status,
    statusFlags: statusFlags(status),
    contextSpecificData,
  };
  addContext(m, streamProtocolOf(status, contextSpecificData), quote);
  return withPad(m, f.pad);
}
