import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import { ATTRIBUTE_BYTES, checkAttributes, decodeAttributes, scopeAttributes, writeAttributes } from './attributes.ts';
import type { AttributeLike, SmpAttribute } from './attributes.ts';
import { enforceAttributeOrder } from './attribute-order.ts';
import {
  CLAUSE,
  PROTO_ID,
  SMP_COMMAND,
  checkAddressedWords,
  checkCmdVer,
  checkProtoID,
  padLength,
  protocolName,
  put16,
  readPad,
  readVer,
  versionName,
  reservedZero,
  u16,
  versionFields,
  withPad,
  writeAddressedWords,
  writePad,
} from './header.ts';
import type { ProtocolName, SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';

/** REQUEST (Annex 2 §4.2.1 Table 4-1) and ADVERTISE (§4.2.2 Tables 4-2, 4-3). */

export interface SmpRequest extends SmpVersioned, SmpPadded {
  readonly command: 'REQUEST';
  readonly sourceID: number;
  readonly destID: number;
  readonly cos: number;
  /** Octet 7 (Word 1 "Reserved"). */
  readonly rsrv: number;
  /** 0xFFFF: "a request for a list of protocols without attributes". */
  readonly protoID: number;
  readonly protocol: ProtocolName;
  /** The attributes the request is limited to; <NumAttrib> is their count. */
  readonly attributes: readonly SmpAttribute[];
}

/** The S+A combinations (§4.2.2): "The valid values of S+A are 0b00, 0b10, and 0b11. The value of 0b01 is reserved." */
export type AdvertiseVariant = 'NOT_SUPPORTED' | 'PROTOCOL_LIST' | 'PROTOCOL_ATTRIBUTES' | 'RESERVED';
/**
 * What an ADVERTISE's S and A bits say it holds (§4.2.2).
 *
 * @example
 * ```ts
 * import { parseHex, smp } from 'riodp/wire';
 *
 * // S and A are the top two bits of octet 6 of a received ADVERTISE.
 * const b = parseHex('02010002000180010102000000000000');
 * const octet6 = b[6] ?? 0;
 * console.log(smp.advertiseVariant(octet6 >> 7, (octet6 >> 6) & 1)); // PROTOCOL_LIST
 * console.log(smp.advertiseVariant(0, 1)); // RESERVED
 * ```
 */
export function advertiseVariant(s: number, a: number): AdvertiseVariant {
  if (s === 1) return a === 1 ? 'PROTOCOL_ATTRIBUTES' : 'PROTOCOL_LIST';
  return a === 1 ? 'RESERVED' : 'NOT_SUPPORTED';
}

/** A protocol an ADVERTISE lists (§4.2.2). */
export interface SmpProtocolEntry {
  readonly protoID: number;
  readonly protocol: ProtocolName;
}
/** A protocol an ADVERTISE lists with its attributes. */
export interface SmpProtocolBlock extends SmpProtocolEntry {
  /** <numAttributes_n> is their count. */
  readonly attributes: readonly SmpAttribute[];
}
interface SmpAdvertiseCommon extends SmpVersioned, SmpPadded {
  readonly command: 'ADVERTISE';
  readonly sourceID: number;
  readonly destID: number;
  /** 1: the requested protocol is supported. */
  readonly s: number;
  readonly variant: AdvertiseVariant;
}
/** A=0 (Table 4-3): <Count> ProtoIDs, padded to a multiple of 8 octets. */
export interface SmpAdvertiseList extends SmpAdvertiseCommon {
  readonly a: 0;
  readonly protocols: readonly SmpProtocolEntry[];
}
/** A=1 (Table 4-2): <Count> blocks of <ProtoID><numAttributes> and attributes, padded at the end. */
export interface SmpAdvertiseAttributes extends SmpAdvertiseCommon {
  readonly a: 1;
  readonly protocols: readonly SmpProtocolBlock[];
}
/** An ADVERTISE (§4.2.2): a protocol list, or a protocol's attributes. */
export type SmpAdvertise = SmpAdvertiseList | SmpAdvertiseAttributes;

const REQUEST_HEADER = 12;
const ADVERTISE_HEADER = 8;

export function decodeRequest(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpRequest {
  need(end, offset, REQUEST_HEADER, 'REQUEST', CLAUSE.request);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const rsrv = bytes[offset + 7] as number;
  reservedZero(rsrv, strict, 'rsrv', offset + 7, CLAUSE.request);
  const protoID = u16(bytes, offset + 8);
  const n = u16(bytes, offset + 10);
  if (strict && protoID === PROTO_ID.PROTOCOL_LIST && n !== 0) {
    throw new WireError(WireErrorCode.invalid, 'numAttrib', offset + 10, 'Annex 2 §4.2.1', 'a protocol-list request (ProtoID 0xFFFF) is "without attributes"');
  }
  const listAt = offset + REQUEST_HEADER;
  const attributes = decodeAttributes(bytes, listAt, end, n, protoID, strict, CLAUSE.request);
  if (strict) enforceAttributeOrder(attributes, protoID, 'REQUEST', listAt);
  const at = listAt + n * ATTRIBUTE_BYTES;
  const pad = readPad(bytes, offset, at, end, strict, CLAUSE.request);
  return withPad({
    command: 'REQUEST',
    cmd: SMP_COMMAND.REQUEST,
    ver,
    version,
    sourceID: u16(bytes, offset + 2),
    destID: u16(bytes, offset + 4),
    cos: bytes[offset + 6] as number,
    rsrv,
    protoID,
    protocol: protocolName(protoID),
    attributes,
  }, pad);
}

export function requestLength(m: SmpRequest): number {
  const n = REQUEST_HEADER + m.attributes.length * ATTRIBUTE_BYTES;
  return n + padLength(n, m.pad);
}

export function encodeRequest(m: SmpRequest, bytes: Uint8Array, offset: number): number {
  checkAddressedWords('REQUEST', m, CLAUSE.request);
  checkRange(m.protoID, 16, 'protoID', CLAUSE.request);
  checkAttributes(m.attributes, CLAUSE.request);
  writeAddressedWords(m, bytes, offset);
  put16(bytes, offset + 8, m.protoID);
  put16(bytes, offset + 10, m.attributes.length);
  const at = writeAttributes(m.attributes, bytes, offset + REQUEST_HEADER);
  return writePad(bytes, at, at - offset, m.pad);
}

export function decodeAdvertise(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpAdvertise {
  need(end, offset, ADVERTISE_HEADER, 'ADVERTISE', CLAUSE.advertise);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const b6 = bytes[offset + 6] as number;
  const s = b6 >> 7;
  const a = (b6 >> 6) & 1;
  const count = u16(bytes, offset + 6) & 0x3fff;
  const variant = advertiseVariant(s, a);
  if (strict && variant === 'RESERVED') {
    throw new WireError(WireErrorCode.reserved, 'a', offset + 6, CLAUSE.advertise, 'S+A = 0b01 is reserved');
  }
  if (strict && s === 0 && count !== 0) {
    throw new WireError(WireErrorCode.invalid, 'count', offset + 6, CLAUSE.advertise, 'if <S>=0, then <Count> is invalid and must be set to zero');
  }
  const sourceID = u16(bytes, offset + 2);
  const destID = u16(bytes, offset + 4);
  let at = offset + ADVERTISE_HEADER;
  if (a === 0) {
    need(end, at, count * 2, 'protocols', CLAUSE.advertiseList);
    const protocols: SmpProtocolEntry[] = [];
    for (let i = 0; i < count; i++, at += 2) {
      const protoID = u16(bytes, at);
      checkProtoID(protoID, strict, at, CLAUSE.advertiseList);
      protocols.push({ protoID, protocol: protocolName(protoID) });
    }
    const pad = readPad(bytes, offset, at, end, strict, CLAUSE.advertiseList);
    return withPad({ command: 'ADVERTISE', cmd: SMP_COMMAND.ADVERTISE, ver, version, sourceID, destID, s, a: 0, variant, protocols }, pad);
  }
  const protocols: SmpProtocolBlock[] = [];
  for (let i = 0; i < count; i++) {
    need(end, at, 4, `protocols[${i}]`, CLAUSE.advertiseAttributes);
    const protoID = u16(bytes, at);
    checkProtoID(protoID, strict, at, CLAUSE.advertiseAttributes);
    const n = u16(bytes, at + 2);
    const attributes = decodeAttributes(bytes, at + 4, end, n, protoID, strict, CLAUSE.advertiseAttributes);
    if (strict) enforceAttributeOrder(attributes, protoID, 'ADVERTISE', at + 4);
    protocols.push({ protoID, protocol: protocolName(protoID), attributes });
    at += 4 + n * ATTRIBUTE_BYTES;
  }
  const pad = readPad(bytes, offset, at, end, strict, CLAUSE.advertiseAttributes);
  return withPad({ command: 'ADVERTISE', cmd: SMP_COMMAND.ADVERTISE, ver, version, sourceID, destID, s, a: 1, variant, protocols }, pad);
}

function advertiseFields(m: SmpAdvertise): number {
  if (m.a === 0) return ADVERTISE_HEADER + 2 * m.protocols.length;
  return m.protocols.reduce((n, p) => n + 4 + p.attributes.length * ATTRIBUTE_BYTES, ADVERTISE_HEADER);
}

export function advertiseLength(m: SmpAdvertise): number {
  const n = advertiseFields(m);
  return n + padLength(n, m.pad);
}

export function encodeAdvertise(m: SmpAdvertise, bytes: Uint8Array, offset: number): number {
  const clause = CLAUSE.advertise;
  checkCmdVer('ADVERTISE', m.cmd, m.ver, clause);
  checkRange(m.sourceID, 16, 'sourceID', clause);
  checkRange(m.destID, 16, 'destID', clause);
  checkRange(m.s, 1, 's', clause);
  checkRange(m.a, 1, 'a', clause);
  checkRange(m.protocols.length, 14, 'count', clause);
  m.protocols.forEach((p: SmpProtocolEntry, i) => {
    checkRange(p.protoID, 16, `protocols[${i}].protoID`, clause);
  });
  if (m.a === 1) {
    m.protocols.forEach((p, i) => {
      // Callers from plain JavaScript or JSON may leave the list out.
      const list: unknown = p.attributes;
      if (!Array.isArray(list)) {
        throw new WireError(WireErrorCode.invalid, `protocols[${i}].attributes`, 0, CLAUSE.advertiseAttributes, 'A=1 lists attributes');
      }
      checkAttributes(p.attributes, CLAUSE.advertiseAttributes);
    });
  }
  bytes[offset] = m.cmd;
  bytes[offset + 1] = m.ver;
  put16(bytes, offset + 2, m.sourceID);
  put16(bytes, offset + 4, m.destID);
  put16(bytes, offset + 6, (m.s << 15) | (m.a << 14) | m.protocols.length);
  let at = offset + ADVERTISE_HEADER;
  if (m.a === 0) {
    for (const p of m.protocols) {
      put16(bytes, at, p.protoID);
      at += 2;
    }
  } else {
    for (const p of m.protocols) {
      put16(bytes, at, p.protoID);
      put16(bytes, at + 2, p.attributes.length);
      at = writeAttributes(p.attributes, bytes, at + 4);
    }
  }
  return writePad(bytes, at, at - offset, m.pad);
}

/**
 * A REQUEST message (§4.2.1).
 *
 * @example
 * ```ts
 * import { decodeSmp, smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 1 asks node 2 for its Ethernet attributes, limited to the MTU.
 * const m = smp.smpRequest({ sourceID: 1, destID: 2, protoID: smp.PROTO_ID.ETHERNET, attributes: [smp.attrMtu(0)] });
 * const bytes = smpBytes(m);
 * console.log(toHex(bytes)); // 010100010002000001020001800200000000000000000000
 * const back = decodeSmp(bytes, 0, bytes.length, { strict: true });
 * if (back.command === 'REQUEST') console.log(back.protocol, back.attributes[0]?.name); // ETHERNET MTU
 * ```
 */
export function smpRequest(f: SmpCommonInput & {
  readonly sourceID: number;
  readonly destID: number;
  readonly cos?: number;
  readonly rsrv?: number;
  readonly protoID: number;
  readonly attributes?: readonly AttributeLike[];
}): SmpRequest {
  return {
    command: 'REQUEST',
    cmd: SMP_COMMAND.REQUEST,
    ...versionFields(f.ver),
    sourceID: f.sourceID,
    destID: f.destID,
    cos: f.cos ?? 0,
    rsrv: f.rsrv ?? 0,
    protoID: f.protoID,
    protocol: protocolName(f.protoID),
    attributes: scopeAttributes(f.attributes ?? [], f.protoID),
    ...(f.pad && { pad: f.pad }),
  };
}

/**
 * Any ADVERTISE from its S and A bits. With A=0, `protocols` entries need only `protoID`; with
 * A=1 each carries its attributes. `smpAdvertiseUnsupported`, `smpAdvertiseProtocols` and
 * `smpAdvertiseAttributes` build the three valid forms.
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // An answer built from S and A read off a table (S=1, A=0: a protocol list).
 * const m = smp.smpAdvertise({ sourceID: 2, destID: 1, s: 1, a: 0, protocols: [{ protoID: 0x0102 }] });
 * console.log(m.variant, toHex(smpBytes(m))); // PROTOCOL_LIST 02010002000180010102000000000000
 * ```
 */
export function smpAdvertise(f: SmpCommonInput & {
  readonly sourceID: number;
  readonly destID: number;
  readonly s: number;
  readonly a: number;
  readonly protocols: readonly { readonly protoID: number; readonly attributes?: readonly AttributeLike[] }[];
}): SmpAdvertise {
  const common = {
    command: 'ADVERTISE' as const,
    cmd: SMP_COMMAND.ADVERTISE,
    ...versionFields(f.ver),
    sourceID: f.sourceID,
    destID: f.destID,
    s: f.s,
    variant: advertiseVariant(f.s, f.a),
  };
  const pad = f.pad && { pad: f.pad };
  if (f.a === 0) {
    return { ...common, a: 0, protocols: f.protocols.map((p) => ({ protoID: p.protoID, protocol: protocolName(p.protoID) })), ...pad };
  }
  const protocols = f.protocols.map((p) => ({
    protoID: p.protoID,
    protocol: protocolName(p.protoID),
    attributes: scopeAttributes(p.attributes ?? [], p.protoID),
  }));
  return { ...common, a: 1, protocols, ...pad };
}

/**
 * S=0: "the protocol is not supported, and the <A> bit must be set to zero", Count zero (DECISIONS §7).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 2 answers a REQUEST for a protocol it does not support.
 * const m = smp.smpAdvertiseUnsupported({ sourceID: 2, destID: 1 });
 * console.log(m.variant, toHex(smpBytes(m))); // NOT_SUPPORTED 0201000200010000
 * ```
 */
export function smpAdvertiseUnsupported(f: { readonly sourceID: number; readonly destID: number }): SmpAdvertiseList {
  return smpAdvertise({ ...f, s: 0, a: 0, protocols: [] }) as SmpAdvertiseList;
}

/**
 * S=1, A=0: the answer to a REQUEST with ProtoID 0xFFFF (Table 4-3).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 2 supports Ethernet encapsulation and a vendor-defined protocol.
 * const m = smp.smpAdvertiseProtocols({ sourceID: 2, destID: 1, protoIDs: [smp.PROTO_ID.ETHERNET, smp.PROTO_ID.VENDOR_DEFINED] });
 * console.log(toHex(smpBytes(m))); // 02010002000180020102010100000000
 * ```
 */
export function smpAdvertiseProtocols(f: { readonly sourceID: number; readonly destID: number; readonly protoIDs: readonly number[] }): SmpAdvertiseList {
  return smpAdvertise({ sourceID: f.sourceID, destID: f.destID, s: 1, a: 0, protocols: f.protoIDs.map((protoID) => ({ protoID })) }) as SmpAdvertiseList;
}

/**
 * S=1, A=1: the attributes of one or more protocols (Table 4-2).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 2's Ethernet attributes: MTU 1500, carried as Type 11 messages to mailbox 2.
 * const m = smp.smpAdvertiseAttributes({
 *   sourceID: 2, destID: 1,
 *   protocols: [{ protoID: smp.PROTO_ID.ETHERNET, attributes: [smp.attrMtu(1500), smp.attrConveyanceMailbox(2)] }],
 * });
 * console.log(toHex(smpBytes(m))); // 020100020001c0010102000280020000000005dc800100010000000200000000
 * ```
 */
export function smpAdvertiseAttributes(f: {
  readonly sourceID: number;
  readonly destID: number;
  readonly protocols: readonly { readonly protoID: number; readonly attributes: readonly AttributeLike[] }[];
}): SmpAdvertiseAttributes {
  return smpAdvertise({ ...f, s: 1, a: 1 }) as SmpAdvertiseAttributes;
}
