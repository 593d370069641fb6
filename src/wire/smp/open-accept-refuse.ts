import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import { ATTRIBUTE_BYTES, checkAttributes, decodeAttributes, scopeAttributes, writeAttributes } from './attributes.ts';
import type { AttributeLike, SmpAttribute } from './attributes.ts';
import { enforceAttributeOrder } from './attribute-order.ts';
import { attrOpenMessageNumber } from './attribute-build.ts';
import {
  CLAUSE,
  SMP_COMMAND,
  checkCmdVer,
  checkProtoID,
  checkStreamID,
  padLength,
  protocolName,
  put16,
  put24,
  readPad,
  readVer,
  versionName,
  u16,
  u24,
  versionFields,
  withPad,
  writePad,
} from './header.ts';
import type { ProtocolName, SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';

/** OPEN (Annex 2 §4.2.3 Table 4-4), ACCEPT (§4.2.4 Table 4-5), REFUSE (§4.2.5 Table 4-6). */

export interface SmpOpen extends SmpVersioned, SmpPadded {
  readonly command: 'OPEN';
  /** "the packet format specifies the SourceID, but no DestID" (§4.2.3). */
  readonly sourceID: number;
  readonly protoID: number;
  readonly protocol: ProtocolName;
  /** OPEN_MESSAGE_NUMBER first (§4.2.3); <numAttributes> is their count. */
  readonly attributes: readonly SmpAttribute[];
}

/** "ack type" / "nack type" values: "0: normal ACK", "1-255: reserved". */
export type AckTypeName = 'NORMAL' | 'RESERVED';
/**
 * The name of an ACCEPT <AckType> (§4.2.4): NORMAL, or RESERVED.
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // A received ACCEPT's ack type is octet 4.
 * const b = parseHex('040100020000001001020001f00000030000000700000000');
 * console.log(smp.ackTypeName(b[4] ?? 0), smp.ackTypeName(3)); // NORMAL RESERVED
 * const m = decodeSmp(b, 0, b.length);
 * if (m.command === 'ACCEPT') console.log(m.ackTypeName, m.streamID); // NORMAL 16
 * ```
 */
export const ackTypeName = (v: number): AckTypeName => (v === 0 ? 'NORMAL' : 'RESERVED');

export interface SmpAccept extends SmpVersioned, SmpPadded {
  readonly command: 'ACCEPT';
  /** "the DestID is the nodeID of the receiver, which is the system sending the ACCEPT" (§4.2.4). */
  readonly destID: number;
  readonly ackType: number;
  readonly ackTypeName: AckTypeName;
  readonly cos: number;
  readonly streamID: number;
  readonly protoID: number;
  readonly protocol: ProtocolName;
  readonly attributes: readonly SmpAttribute[];
}

/**
 * Octets 5–7 of a REFUSE are printed as 0xFF 0xFF 0xFF in Table 4-6.
 *
 * @example
 * ```ts
 * import { WireError, decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // A REFUSE from a peer that leaves octets 5–7 zero instead of 0xFF 0xFF 0xFF.
 * const b = parseHex('050100020000000012340001f00000030000000700000000');
 * const m = decodeSmp(b, 0, b.length); // lenient: keeps the value
 * if (m.command === 'REFUSE') console.log(m.fill === smp.REFUSE_FILL, m.fill); // false 0
 * try {
 *   decodeSmp(b, 0, b.length, { strict: true });
 * } catch (e) {
 *   if (e instanceof WireError) console.log(e.field, e.offset); // fill 5
 * }
 * ```
 */
export const REFUSE_FILL = 0xffffff;

export interface SmpRefuse extends SmpVersioned, SmpPadded {
  readonly command: 'REFUSE';
  readonly destID: number;
  readonly nackType: number;
  readonly nackTypeName: AckTypeName;
  /** Octets 5–7; Table 4-6 fixes them at 0xFFFFFF. */
  readonly fill: number;
  readonly protoID: number;
  readonly protocol: ProtocolName;
  readonly attributes: readonly SmpAttribute[];
}

const OPEN_HEADER = 8;
const ACCEPT_HEADER = 12;

function attributesAt(
  bytes: Uint8Array,
  offset: number,
  end: number,
  listAt: number,
  strict: boolean,
  command: 'OPEN' | 'ACCEPT' | 'REFUSE',
  clause: string,
): { protoID: number; protocol: ProtocolName; attributes: SmpAttribute[]; pad: Uint8Array | undefined } {
  const protoID = u16(bytes, listAt - 4);
  checkProtoID(protoID, strict, listAt - 4, clause);
  const n = u16(bytes, listAt - 2);
  const attributes = decodeAttributes(bytes, listAt, end, n, protoID, strict, clause);
  if (strict) enforceAttributeOrder(attributes, protoID, command, listAt);
  const pad = readPad(bytes, offset, listAt + n * ATTRIBUTE_BYTES, end, strict, clause);
  return { protoID, protocol: protocolName(protoID), attributes, pad };
}

export function decodeOpen(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpOpen {
  need(end, offset, OPEN_HEADER, 'OPEN', CLAUSE.open);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const { protoID, protocol, attributes, pad } = attributesAt(bytes, offset, end, offset + OPEN_HEADER, strict, 'OPEN', CLAUSE.open);
  return withPad({
    command: 'OPEN',
    cmd: SMP_COMMAND.OPEN,
    ver,
    version,
    sourceID: u16(bytes, offset + 2),
    protoID,
    protocol,
    attributes,
  }, pad);
}

export function decodeAccept(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpAccept {
  need(end, offset, ACCEPT_HEADER, 'ACCEPT', CLAUSE.accept);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const ackType = bytes[offset + 4] as number;
  if (strict && ackType !== 0) {
    throw new WireError(WireErrorCode.reserved, 'ackType', offset + 4, 'Annex 2 §4.2.4', `ack type ${ackType} is reserved`);
  }
  const streamID = u16(bytes, offset + 6);
  checkStreamID(streamID, strict, offset + 6);
  const { protoID, protocol, attributes, pad } = attributesAt(bytes, offset, end, offset + ACCEPT_HEADER, strict, 'ACCEPT', CLAUSE.accept);
  return withPad({
    command: 'ACCEPT',
    cmd: SMP_COMMAND.ACCEPT,
    ver,
    version,
    destID: u16(bytes, offset + 2),
    ackType,
    ackTypeName: ackTypeName(ackType),
    cos: bytes[offset + 5] as number,
    streamID,
    protoID,
    protocol,
    attributes,
  }, pad);
}

export function decodeRefuse(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpRefuse {
  need(end, offset, ACCEPT_HEADER, 'REFUSE', CLAUSE.refuse);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const nackType = bytes[offset + 4] as number;
  if (strict && nackType !== 0) {
    throw new WireError(WireErrorCode.reserved, 'nackType', offset + 4, 'Annex 2 §4.2.5', `nack type ${nackType} is reserved`);
  }
  const fill = u24(bytes, offset + 5);
  if (strict && fill !== REFUSE_FILL) {
    throw new WireError(WireErrorCode.invalid, 'fill', offset + 5, CLAUSE.refuse, 'octets 5-7 are 0xFF 0xFF 0xFF');
  }
  const { protoID, protocol, attributes, pad } = attributesAt(bytes, offset, end, offset + ACCEPT_HEADER, strict, 'REFUSE', CLAUSE.refuse);
  return withPad({
    command: 'REFUSE',
    cmd: SMP_COMMAND.REFUSE,
    ver,
    version,
    destID: u16(bytes, offset + 2),
    nackType,
    nackTypeName: ackTypeName(nackType),
    fill,
    protoID,
    protocol,
    attributes,
  }, pad);
}

type OpenFamily = SmpOpen | SmpAccept | SmpRefuse;

export function openFamilyLength(m: OpenFamily): number {
  const n = (m.command === 'OPEN' ? OPEN_HEADER : ACCEPT_HEADER) + m.attributes.length * ATTRIBUTE_BYTES;
  return n + padLength(n, m.pad);
}

/** Encodes OPEN, ACCEPT or REFUSE. */
export function encodeOpenFamily(m: OpenFamily, bytes: Uint8Array, offset: number): number {
  const clause = m.command === 'OPEN' ? CLAUSE.open : m.command === 'ACCEPT' ? CLAUSE.accept : CLAUSE.refuse;
  checkCmdVer(m.command, m.cmd, m.ver, clause);
  checkRange(m.protoID, 16, 'protoID', clause);
  checkAttributes(m.attributes, clause);
  let listAt: number;
  if (m.command === 'OPEN') {
    checkRange(m.sourceID, 16, 'sourceID', clause);
    put16(bytes, offset + 2, m.sourceID);
    listAt = offset + OPEN_HEADER;
  } else {
    checkRange(m.destID, 16, 'destID', clause);
    if (m.command === 'ACCEPT') {
      checkRange(m.ackType, 8, 'ackType', clause);
      checkRange(m.cos, 8, 'cos', clause);
      checkRange(m.streamID, 16, 'streamID', clause);
      bytes[offset + 4] = m.ackType;
      bytes[offset + 5] = m.cos;
      put16(bytes, offset + 6, m.streamID);
    } else {
      checkRange(m.nackType, 8, 'nackType', clause);
      checkRange(m.fill, 24, 'fill', clause);
      bytes[offset + 4] = m.nackType;
      put24(bytes, offset + 5, m.fill);
    }
    put16(bytes, offset + 2, m.destID);
    listAt = offset + ACCEPT_HEADER;
  }
  bytes[offset] = m.cmd;
  bytes[offset + 1] = m.ver;
  put16(bytes, listAt - 4, m.protoID);
  put16(bytes, listAt - 2, m.attributes.length);
  const at = writeAttributes(m.attributes, bytes, listAt);
  return writePad(bytes, at, at - offset, m.pad);
}

/**
 * An OPEN message (§4.2.3).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 1 opens an Ethernet stream: OPEN_MESSAGE_NUMBER 7 first, then the attributes §7.2 requires.
 * const open = smp.smpOpen({
 *   sourceID: 1, protoID: smp.PROTO_ID.ETHERNET, openMessageNumber: 7,
 *   attributes: [smp.attrMtu(1500), smp.attrConveyanceMailbox(1), smp.attrMacAddress(Uint8Array.of(0, 0, 0x5e, 0, 0x53, 1))],
 * });
 * console.log(toHex(smpBytes(open)).slice(0, 32)); // 0301000101020004f000000300000007
 * console.log(smp.checkAttributeOrder(open.attributes, open.protoID, 'OPEN').length); // 0
 * ```
 */
export function smpOpen(f: SmpCommonInput & {
  readonly sourceID: number;
  readonly protoID: number;
  /** The list after OPEN_MESSAGE_NUMBER, or the whole list when `openMessageNumber` is omitted. */
  readonly attributes?: readonly AttributeLike[];
  /** When given, an OPEN_MESSAGE_NUMBER attribute with this value is put first (§4.2.3). */
  readonly openMessageNumber?: number;
}): SmpOpen {
  const omn: AttributeLike[] = f.openMessageNumber === undefined ? [] : [attrOpenMessageNumber(f.openMessageNumber)];
  return {
    command: 'OPEN',
    cmd: SMP_COMMAND.OPEN,
    ...versionFields(f.ver),
    sourceID: f.sourceID,
    protoID: f.protoID,
    protocol: protocolName(f.protoID),
    attributes: scopeAttributes([...omn, ...(f.attributes ?? [])], f.protoID),
    ...(f.pad && { pad: f.pad }),
  };
}

/**
 * An ACCEPT. With `open`, the ProtoID and OPEN_MESSAGE_NUMBER come from that OPEN ("The only
 * attribute required in the ACCEPT message is the OPEN_MESSAGE_NUMBER attribute from the OPEN",
 * §4.2.4) and `attributes` are appended after it.
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 2 accepts node 1's OPEN: the data is to flow on StreamID 0x0010.
 * const open = smp.smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 7 });
 * const accept = smp.smpAccept({ destID: 2, streamID: 0x0010, open });
 * console.log(accept.protoID.toString(16), accept.attributes[0]?.name); // 1234 OPEN_MESSAGE_NUMBER
 * console.log(toHex(smpBytes(accept))); // 040100020000001012340001f00000030000000700000000
 * ```
 */
export function smpAccept(f: SmpCommonInput & {
  readonly destID: number;
  readonly streamID: number;
  readonly cos?: number;
  readonly ackType?: number;
  readonly open?: SmpOpen;
  readonly protoID?: number;
  readonly attributes?: readonly AttributeLike[];
}): SmpAccept {
  const protoID = f.protoID ?? f.open?.protoID ?? 0;
  const omn = f.open?.attributes.filter((a) => a.name === 'OPEN_MESSAGE_NUMBER').slice(0, 1) ?? [];
  const ackType = f.ackType ?? 0;
  return {
    command: 'ACCEPT',
    cmd: SMP_COMMAND.ACCEPT,
    ...versionFields(f.ver),
    destID: f.destID,
    ackType,
    ackTypeName: ackTypeName(ackType),
    cos: f.cos ?? 0,
    streamID: f.streamID,
    protoID,
    protocol: protocolName(protoID),
    attributes: scopeAttributes([...omn, ...(f.attributes ?? [])], protoID),
    ...(f.pad && { pad: f.pad }),
  };
}

/**
 * A REFUSE. With `open` and no `attributes`, it carries all the OPEN's attributes: "The REFUSE
 * message contains all the attributes in the OPEN request, in order to allow the OPEN sender to
 * differentiate which OPEN request was refused" (§3.5.1.5).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 2 cannot serve the OPEN: the REFUSE quotes its attributes so node 1 knows which one.
 * const open = smp.smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 7 });
 * const refuse = smp.smpRefuse({ destID: 2, open });
 * console.log(toHex(smpBytes(refuse))); // 0501000200ffffff12340001f00000030000000700000000
 * ```
 */
export function smpRefuse(f: SmpCommonInput & {
  readonly destID: number;
  readonly nackType?: number;
  readonly fill?: number;
  readonly open?: SmpOpen;
  readonly protoID?: number;
  readonly attributes?: readonly AttributeLike[];
}): SmpRefuse {
  const protoID = f.protoID ?? f.open?.protoID ?? 0;
  const nackType = f.nackType ?? 0;
  return {
    command: 'REFUSE',
    cmd: SMP_COMMAND.REFUSE,
    ...versionFields(f.ver),
    destID: f.destID,
    nackType,
    nackTypeName: ackTypeName(nackType),
    fill: f.fill ?? REFUSE_FILL,
    protoID,
    protocol: protocolName(protoID),
    attributes: scopeAttributes(f.attributes ?? f.open?.attributes ?? [], protoID),
    ...(f.pad && { pad: f.pad }),
  };
}
