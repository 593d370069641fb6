import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';

/**
 * Fields and rules shared by every Annex 2 (Session Management Protocol) message: the
 * <CMD><VER> command header (§3.5.2.1), ProtoID (§3.5.2.3), StreamID (§3.5.2.5 Table 3-1) and
 * the padding of a message to a multiple of 8 octets (§4.2.2, Part 2 §4.2.5).
 *
 * Octet order: "All message formats are given in big endian format - the most significant octet
 * is on the left of each field" (§4.2). Table 4-1 labels its columns Octet 0..3 left to right;
 * the later tables print "3 2 1 0" over the same layout, so <CMD> is always the first octet.
 */
export const CLAUSE = {
  cmdVer: 'Annex 2 §3.5.2.1',
  protoID: 'Annex 2 §3.5.2.3',
  streamID: 'Annex 2 §3.5.2.5 Table 3-1',
  attributes: 'Annex 2 §3.5.3',
  request: 'Annex 2 §4.2.1 Table 4-1',
  advertise: 'Annex 2 §4.2.2',
  advertiseAttributes: 'Annex 2 §4.2.2 Table 4-2',
  advertiseList: 'Annex 2 §4.2.2 Table 4-3',
  open: 'Annex 2 §4.2.3 Table 4-4',
  accept: 'Annex 2 §4.2.4 Table 4-5',
  refuse: 'Annex 2 §4.2.5 Table 4-6',
  flowControl: 'Annex 2 §4.2.6 Table 4-7',
  close: 'Annex 2 §4.2.7 Table 4-8',
  status: 'Annex 2 §4.2.8 Table 4-9',
  statusBits: 'Annex 2 §4.2.8 Table 4-10',
  userDefined: 'Annex 2 §4.2.9 Table 4-11',
  data: 'Annex 2 §4.3.1 Table 4-12',
  data1: 'Annex 2 §4.3.2 Table 4-13',
  data2: 'Annex 2 §4.3.3 Table 4-14',
  data3: 'Annex 2 §4.3.4',
} as const;

/**
 * Command values (§3.5.1, Chapter 4 tables). USERDEFINED is the range 0xF0–0xFF (Table 4-11).
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // A mailbox handler reacting to a received CLOSE by its <CMD> octet.
 * const payload = parseHex('08010001000200000010000000000000');
 * if (payload[0] === smp.SMP_COMMAND.CLOSE) {
 *   const m = decodeSmp(payload, 0, payload.length);
 *   if (m.command === 'CLOSE') console.log(m.sourceID, m.destID, m.streamID); // 1 2 16
 * }
 * ```
 */
export const SMP_COMMAND = {
  REQUEST: 0x01,
  ADVERTISE: 0x02,
  OPEN: 0x03,
  ACCEPT: 0x04,
  REFUSE: 0x05,
  DATA: 0x06,
  FLOW_CONTROL: 0x07,
  CLOSE: 0x08,
  DATA1: 0x09,
  DATA2: 0x0a,
  /** "this can be considered as CMD=0x0B, though the actual command value of 0x0B must never be transmitted" (§4.3.4) */
  DATA3: 0x0b,
  STATUS: 0x10,
} as const;
/** A <CMD> this annex names (§3.5.1). */
export type SmpNamedCommand = keyof typeof SMP_COMMAND;
/** What a message's <CMD> is: a named command, USERDEFINED (0xF0–0xFF), or UNKNOWN. */
export type SmpCommandName = Exclude<SmpNamedCommand, 'DATA3'> | 'USERDEFINED' | 'UNKNOWN';
/**
 * The first user-defined <CMD> (§4.2.9, Table 4-11: 0xF0–0xFF).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // An application numbers its own commands from the first user-defined <CMD>.
 * const PING = smp.USERDEFINED_FIRST, PONG = smp.USERDEFINED_FIRST + 1;
 * const m = smp.smpUserDefined({ cmd: PONG, sourceID: 1, streamID: 0x10 });
 * console.log(PING.toString(16), m.cmd.toString(16), smp.commandName(m.cmd)); // f0 f1 USERDEFINED
 * ```
 */
export const USERDEFINED_FIRST = 0xf0;

const COMMAND_BY_VALUE = new Map<number, SmpCommandName>(
  (Object.entries(SMP_COMMAND) as [SmpNamedCommand, number][])
    .filter(([name]) => name !== 'DATA3')
    .map(([name, value]) => [value, name as SmpCommandName]),
);

/**
 * The command a <CMD> octet names; 0x0B (DATA3, never transmitted) and unassigned values are UNKNOWN.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.commandName(0x03), smp.commandName(0x10), smp.commandName(0xf7)); // OPEN STATUS USERDEFINED
 * console.log(smp.commandName(0x0b)); // UNKNOWN
 * ```
 */
export function commandName(cmd: number): SmpCommandName {
  if (cmd >= USERDEFINED_FIRST && cmd <= 0xff) return 'USERDEFINED';
  return COMMAND_BY_VALUE.get(cmd) ?? 'UNKNOWN';
}

/**
 * "<VER> for all commands described in this version of the specification, except the DATA1 command, must be set to a numeric value of 0x01" (§3.5.2.1).
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // A FLOW_CONTROL XOFF from a sender speaking a later <VER>: lenient decoding labels it.
 * const m = decodeSmp(parseHex('07020000000100100102000000000000'), 0, 16);
 * if (m.command === 'FLOW_CONTROL' && m.ver !== smp.SMP_VER) console.log(m.ver, m.version); // 2 UNKNOWN
 * ```
 */
export const SMP_VER = 0x01;
/** A message's version: V1 (<VER> 0x01, §3.5.2.1), or UNKNOWN. */
export type SmpVersion = 'V1' | 'UNKNOWN';
/**
 * The version a <VER> value stands for.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.versionName(0x01), smp.versionName(0x02)); // V1 UNKNOWN
 * ```
 */
export function versionName(ver: number): SmpVersion {
  return ver === SMP_VER ? 'V1' : 'UNKNOWN';
}

/**
 * ProtoID values this annex assigns (§3.5.2.3, §6.1, §7.1).
 *
 * @example
 * ```ts
 * import { smpBytes, smp, toHex } from 'riodp/wire';
 *
 * // "A value containing all ones, 0xffff, indicates a request for a list of protocols" (§4.2.1).
 * const ask = smp.smpRequest({ sourceID: 1, destID: 2, protoID: smp.PROTO_ID.PROTOCOL_LIST });
 * console.log(toHex(smpBytes(ask))); // 0101000100020000ffff000000000000
 * ```
 */
export const PROTO_ID = {
  VENDOR_DEFINED: 0x0101,
  ETHERNET: 0x0102,
  /** "Protocol ID 0xFFFF is reserved for special usage within messages"; REQUEST uses it to ask for the protocol list (§4.2.1). */
  PROTOCOL_LIST: 0xffff,
} as const;
/** OTHER: a protocol this annex does not define (its chapter, not this one, gives its attributes). */
export type ProtocolName = keyof typeof PROTO_ID | 'OTHER';
/**
 * The name of a ProtoID: ETHERNET (§7), VENDOR_DEFINED (§6), or OTHER.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.protocolName(0x0102), smp.protocolName(0x0101), smp.protocolName(0x1234)); // ETHERNET VENDOR_DEFINED OTHER
 * ```
 */
export function protocolName(protoID: number): ProtocolName {
  if (protoID === PROTO_ID.VENDOR_DEFINED) return 'VENDOR_DEFINED';
  if (protoID === PROTO_ID.ETHERNET) return 'ETHERNET';
  if (protoID === PROTO_ID.PROTOCOL_LIST) return 'PROTOCOL_LIST';
  return 'OTHER';
}

/** StreamID ranges (§3.5.2.5 Table 3-1). */
export type StreamIdUse = 'APPLICATION' | 'VENDOR_SPECIFIC' | 'RESERVED' | 'INVALID';
/**
 * What a StreamID is for (§3.5.2.5 Table 3-1): application, vendor specific, reserved or invalid.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.streamIdUse(0x0010), smp.streamIdUse(0xe123)); // APPLICATION VENDOR_SPECIFIC
 * console.log(smp.streamIdUse(0xf000), smp.streamIdUse(0xffff)); // RESERVED INVALID
 * ```
 */
export function streamIdUse(streamID: number): StreamIdUse {
  if (streamID <= 0xdfff) return 'APPLICATION';
  if (streamID <= 0xefff) return 'VENDOR_SPECIFIC';
  if (streamID <= 0xfffe) return 'RESERVED';
  return 'INVALID';
}

/** The <CMD><VER> pair and the pad every message family shares. */
export interface SmpVersioned {
  readonly cmd: number;
  readonly ver: number;
  readonly version: SmpVersion;
}

/**
 * Trailing octets after a message's last field. Absent when they are the canonical pad: zero
 * octets up to the next multiple of 8 (§4.2.2: "zero to seven such Reserved octets ... must
 * contain zero (0) values"). Present (a view of the input) when lenient decoding met anything
 * else, so that encoding reproduces the input.
 */
export interface SmpPadded {
  readonly pad?: Uint8Array;
}

/** What every message constructor accepts besides its own fields: <VER> (default 0x01) and a non-canonical pad. */
export interface SmpCommonInput {
  readonly ver?: number;
  readonly pad?: Uint8Array;
}

export function versionFields(ver: number = SMP_VER): { ver: number; version: SmpVersion } {
  return { ver, version: versionName(ver) };
}

export const u16 = (b: Uint8Array, at: number): number => ((b[at] as number) << 8) | (b[at + 1] as number);
export const u24 = (b: Uint8Array, at: number): number => ((b[at] as number) << 16) | u16(b, at + 1);
export const u32 = (b: Uint8Array, at: number): number => (((b[at] as number) << 24) | u24(b, at + 1)) >>> 0;

export function put16(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 8) & 0xff;
  b[at + 1] = v & 0xff;
}
export function put24(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 16) & 0xff;
  put16(b, at + 1, v);
}
export function put32(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 24) & 0xff;
  put24(b, at + 1, v);
}

/** Reads <VER> at `at`; an unknown version is labelled leniently (`versionName`) and rejected strictly (§3.5.2.1). */
export function readVer(bytes: Uint8Array, at: number, strict: boolean): number {
  const ver = bytes[at] as number;
  if (strict && ver !== SMP_VER) {
    throw new WireError(WireErrorCode.undefined, 'ver', at, CLAUSE.cmdVer, `VER 0x${hex2(ver)} is not 0x01`);
  }
  return ver;
}

/** Strict check of a reserved field: "On transmission, these fields must be filled with zeros" (§3.8.5). */
export function reservedZero(value: number, strict: boolean, field: string, at: number, clause: string): void {
  if (strict && value !== 0) {
    throw new WireError(WireErrorCode.reserved, field, at, clause, `reserved field is 0x${value.toString(16)}, must be 0 (§3.8.5)`);
  }
}

/** ProtoID 0xFFFF is only meaningful in REQUEST (§3.5.2.3, §4.2.1); elsewhere strict decoding rejects it. */
export function checkProtoID(protoID: number, strict: boolean, at: number, clause: string): void {
  if (strict && protoID === PROTO_ID.PROTOCOL_LIST) {
    throw new WireError(WireErrorCode.reserved, 'protoID', at, `${CLAUSE.protoID}; ${clause}`, 'ProtoID 0xFFFF is reserved in this message');
  }
}

/** A StreamID field that names a stream must not be 0xFFFF, "Invalid" in Table 3-1. */
export function checkStreamID(streamID: number, strict: boolean, at: number): void {
  if (strict && streamID === 0xffff) {
    throw new WireError(WireErrorCode.invalid, 'streamID', at, CLAUSE.streamID, 'StreamID 0xFFFF is invalid');
  }
}

export function canonicalPadLength(fieldsLength: number): number {
  return (8 - (fieldsLength % 8)) % 8;
}

/**
 * Reads the octets from the end of the last field (`at`) to `end`. Strict decoding requires the
 * canonical pad; lenient decoding keeps anything else in `pad`.
 */
export function readPad(bytes: Uint8Array, start: number, at: number, end: number, strict: boolean, clause: string): Uint8Array | undefined {
  const want = canonicalPadLength(at - start);
  const have = end - at;
  let zero = true;
  for (let i = at; i < end; i++) if (bytes[i] !== 0) zero = false;
  if (have === want && zero) return undefined;
  if (strict) {
    if (have < want) need(end, at, want, 'pad', `${clause}; messages are padded to a multiple of 8 octets`);
    if (have > want) {
      throw new WireError(WireErrorCode.trailing, 'pad', at + want, clause, `${have - want} octets after the pad`);
    }
    let i = at;
    while (bytes[i] === 0) i++;
    throw new WireError(WireErrorCode.reserved, 'pad', i, clause, 'pad octets must contain zero (0) values');
  }
  return bytes.subarray(at, end);
}

/**
 * `m`, a message literal just built, with `pad` as its last field when there is one. Decoders use
 * this rather than `{ ...fields, ...(pad && { pad }) }`: V8 copies object spreads slowly.
 */
export function withPad<T extends object>(m: T, pad: Uint8Array | undefined): T {
  if (pad !== undefined) (m as { pad?: Uint8Array }).pad = pad;
  return m;
}

export function padLength(fieldsLength: number, pad: Uint8Array | undefined): number {
  return pad === undefined ? canonicalPadLength(fieldsLength) : pad.length;
}

/** Writes `pad` or the canonical zero pad after a message's fields; returns the offset after it. */
export function writePad(bytes: Uint8Array, at: number, fieldsLength: number, pad: Uint8Array | undefined): number {
  if (pad !== undefined) {
    bytes.set(pad, at);
    return at + pad.length;
  }
  const n = canonicalPadLength(fieldsLength);
  bytes.fill(0, at, at + n);
  return at + n;
}

/** Checks <CMD> against the command the value claims to be and range-checks <VER>. */
export function checkCmdVer(name: SmpCommandName, cmd: number, ver: number | undefined, clause: string): void {
  checkRange(cmd, 8, 'cmd', clause);
  if (commandName(cmd) !== name) {
    throw new WireError(WireErrorCode.invalid, 'cmd', 0, clause, `CMD 0x${hex2(cmd)} is not ${name}`);
  }
  if (ver !== undefined) checkRange(ver, 8, 'ver', clause);
}

/**
 * Words 0 and 1 as REQUEST (Table 4-1) and CLOSE (Table 4-8) both lay them out:
 * <CMD><VER><SourceID> | <DestID><COS><Reserved>.
 */
export interface SmpAddressedWords {
  readonly cmd: number;
  readonly ver: number;
  readonly sourceID: number;
  readonly destID: number;
  readonly cos: number;
  readonly rsrv: number;
}

/** Checks <CMD> against `name` and range-checks the rest of words 0 and 1, before the message's own fields. */
export function checkAddressedWords(name: SmpCommandName, m: SmpAddressedWords, clause: string): void {
  checkCmdVer(name, m.cmd, m.ver, clause);
  checkRange(m.sourceID, 16, 'sourceID', clause);
  checkRange(m.destID, 16, 'destID', clause);
  checkRange(m.cos, 8, 'cos', clause);
  checkRange(m.rsrv, 8, 'rsrv', clause);
}

/** Writes words 0 and 1 at `offset` (checked first with checkAddressedWords). */
export function writeAddressedWords(m: SmpAddressedWords, bytes: Uint8Array, offset: number): void {
  bytes[offset] = m.cmd;
  bytes[offset + 1] = m.ver;
  put16(bytes, offset + 2, m.sourceID);
  put16(bytes, offset + 4, m.destID);
  bytes[offset + 6] = m.cos;
  bytes[offset + 7] = m.rsrv;
}

export function hex2(v: number): string {
  return v.toString(16).padStart(2, '0');
}
