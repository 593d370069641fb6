import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import {
  CLAUSE,
  SMP_COMMAND,
  SMP_VER,
  checkCmdVer,
  checkStreamID,
  padLength,
  put16,
  put24,
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
import type { SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';

/**
 * DATA (Annex 2 §4.3.1 Table 4-12), DATA1 (§4.3.2 Table 4-13) and DATA2 (§4.3.3 Table 4-14).
 * <Length> counts the payload octets of this message; "If padding is used, the data must contain
 * zeros, and the pad octets are not included in the <S+E+00+Length>, <Length>, <StreamID/PDU-Length>,
 * and <Reserved/PDU-Length> fields" (§4.3.2). The payload is a view of the input.
 *
 * DATA3 (§4.3.4) has no header at all: "the actual command value of 0x0B must never be
 * transmitted", so a DATA3 message cannot be told from its payload and is never decoded here.
 */
export type SegmentName = 'SINGLE' | 'START' | 'END' | 'CONTINUATION';
/**
 * "If a transfer fits within a single segment, then both the S and E bits are set."
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // S and E are the top two bits of a DATA message's octet 8.
 * const b = parseHex('0601020000000001c003001001020300');
 * const octet8 = b[8] ?? 0;
 * console.log(smp.segmentName(octet8 >> 7, (octet8 >> 6) & 1), smp.segmentName(0, 0)); // SINGLE CONTINUATION
 * const m = decodeSmp(b, 0, b.length);
 * if (m.command === 'DATA') console.log(m.segment, m.streamID, m.payload); // SINGLE 16 Uint8Array(3) [ 1, 2, 3 ]
 * ```
 */
export function segmentName(s: number, e: number): SegmentName {
  if (s === 1) return e === 1 ? 'SINGLE' : 'START';
  return e === 1 ? 'END' : 'CONTINUATION';
}

interface Segmented {
  readonly s: number;
  readonly e: number;
  readonly segment: SegmentName;
}
/**
 * "If either the S or E bit is set, then the StreamID/PDU-Length field contains the StreamID. If
 * neither S nor E is set, then the StreamID/PDU-Length field contains PDU-Length": exactly one
 * of `streamID` and `pduLength` is present.
 */
interface StreamOrLength {
  readonly streamID?: number;
  readonly pduLength?: number;
}

export interface SmpData extends SmpVersioned, SmpPadded, Segmented, StreamOrLength {
  readonly command: 'DATA';
  readonly mailbox: number;
  readonly cos: number;
  /** Octets 4–5 (<Reserved>). */
  readonly rsrv: number;
  readonly sourceID: number;
  /** The "00" bits between E and <Length>. */
  readonly rsrv1: number;
  readonly payload: Uint8Array;
}

/** DATA1 keeps <VER> without the 0x01 rule (§3.5.2.1 exempts it, DECISIONS §7). */
export interface SmpData1 extends SmpPadded, Segmented, StreamOrLength {
  readonly command: 'DATA1';
  readonly cmd: number;
  readonly ver: number;
  readonly mailbox: number;
  readonly cos: number;
  readonly rsrv: number;
  readonly sourceID: number;
  /** With S or E set: the <Reserved> half of <Reserved/PDU-Length>. */
  readonly rsrv1: number;
  readonly payload: Uint8Array;
}

export interface SmpData2 extends SmpPadded, Segmented {
  readonly command: 'DATA2';
  readonly cmd: number;
  /** "the seventh octet of the DATA Header attribute" (§4.3.3). */
  readonly implementationSpecific: number;
  readonly payload: Uint8Array;
}

/**
 * "the maximum PDU size is 16380 octets" (§4.3.3).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // Splitting a PDU into DATA2 segments: one if it fits, otherwise start, continuations and end.
 * const pdu = new Uint8Array(40_000);
 * const n = Math.ceil(pdu.length / smp.DATA2_MAX_PAYLOAD);
 * const segments = Array.from({ length: n }, (_, i) =>
 *   smp.smpData2({ s: i === 0 ? 1 : 0, e: i === n - 1 ? 1 : 0, payload: pdu.subarray(i * smp.DATA2_MAX_PAYLOAD, (i + 1) * smp.DATA2_MAX_PAYLOAD) }));
 * console.log(segments.map((m) => `${m.segment} ${m.payload.length}`).join(', ')); // START 16380, CONTINUATION 16380, END 7240
 * ```
 */
export const DATA2_MAX_PAYLOAD = 16380;

const DATA_HEADER = 12;
const DATA1_HEADER = 16;
const DATA2_HEADER = 4;

function streamOrLength(streamOrPdu: boolean, streamID: number, pduLength: number): StreamOrLength {
  return streamOrPdu ? { streamID } : { pduLength };
}

export function decodeData(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpData {
  need(end, offset, DATA_HEADER, 'DATA', CLAUSE.data);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const rsrv = u16(bytes, offset + 4);
  reservedZero(rsrv, strict, 'rsrv', offset + 4, CLAUSE.data);
  const b8 = bytes[offset + 8] as number;
  const s = b8 >> 7;
  const e = (b8 >> 6) & 1;
  const rsrv1 = (b8 >> 4) & 3;
  reservedZero(rsrv1, strict, 'rsrv1', offset + 8, CLAUSE.data);
  const length = u16(bytes, offset + 8) & 0x0fff;
  const field = u16(bytes, offset + 10);
  if (s | e) checkStreamID(field, strict, offset + 10);
  const at = offset + DATA_HEADER;
  need(end, at, length, 'payload', CLAUSE.data);
  const pad = readPad(bytes, offset, at + length, end, strict, CLAUSE.data);
  const cmd = SMP_COMMAND.DATA;
  const mailbox = bytes[offset + 2] as number;
  const cos = bytes[offset + 3] as number;
  const sourceID = u16(bytes, offset + 6);
  const segment = segmentName(s, e);
  const payload = bytes.subarray(at, at + length);
  // Two literals rather than `...streamOrLength()`: V8 copies object spreads slowly.
  return withPad(
    (s | e) === 1
      ? { command: 'DATA', cmd, ver, version, mailbox, cos, rsrv, sourceID, s, e, segment, rsrv1, streamID: field, payload }
      : { command: 'DATA', cmd, ver, version, mailbox, cos, rsrv, sourceID, s, e, segment, rsrv1, pduLength: field, payload },
    pad,
  );
}

export function decodeData1(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpData1 {
  need(end, offset, DATA1_HEADER, 'DATA1', CLAUSE.data1);
  const rsrv = u16(bytes, offset + 4);
  reservedZero(rsrv, strict, 'rsrv', offset + 4, CLAUSE.data1);
  const b8 = bytes[offset + 8] as number;
  const s = b8 >> 7;
  const e = (b8 >> 6) & 1;
  const length = u32(bytes, offset + 8) & 0x3fffffff;
  const streamOrPdu = (s | e) === 1;
  const rsrv1 = streamOrPdu ? u16(bytes, offset + 14) : 0;
  if (streamOrPdu) {
    checkStreamID(u16(bytes, offset + 12), strict, offset + 12);
    reservedZero(rsrv1, strict, 'rsrv1', offset + 14, CLAUSE.data1);
  }
  const at = offset + DATA1_HEADER;
  need(end, at, length, 'payload', CLAUSE.data1);
  const pad = readPad(bytes, offset, at + length, end, strict, CLAUSE.data1);
  const cmd = SMP_COMMAND.DATA1;
  const ver = bytes[offset + 1] as number;
  const mailbox = bytes[offset + 2] as number;
  const cos = bytes[offset + 3] as number;
  const sourceID = u16(bytes, offset + 6);
  const segment = segmentName(s, e);
  const payload = bytes.subarray(at, at + length);
  return withPad(
    streamOrPdu
      ? { command: 'DATA1', cmd, ver, mailbox, cos, rsrv, sourceID, s, e, segment, rsrv1, streamID: u16(bytes, offset + 12), payload }
      : { command: 'DATA1', cmd, ver, mailbox, cos, rsrv, sourceID, s, e, segment, rsrv1, pduLength: u32(bytes, offset + 12), payload },
    pad,
  );
}

export function decodeData2(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpData2 {
  need(end, offset, DATA2_HEADER, 'DATA2', CLAUSE.data2);
  const b2 = bytes[offset + 2] as number;
  const s = b2 >> 7;
  const e = (b2 >> 6) & 1;
  const length = u16(bytes, offset + 2) & 0x3fff;
  if (strict && length > DATA2_MAX_PAYLOAD) {
    throw new WireError(WireErrorCode.invalid, 'length', offset + 2, CLAUSE.data2, `the maximum PDU size is ${DATA2_MAX_PAYLOAD} octets`);
  }
  const at = offset + DATA2_HEADER;
  need(end, at, length, 'payload', CLAUSE.data2);
  const pad = readPad(bytes, offset, at + length, end, strict, CLAUSE.data2);
  return withPad({
    command: 'DATA2',
    cmd: SMP_COMMAND.DATA2,
    implementationSpecific: bytes[offset + 1] as number,
    s,
    e,
    segment: segmentName(s, e),
    payload: bytes.subarray(at, at + length),
  }, pad);
}

type AnyData = SmpData | SmpData1 | SmpData2;

function headerOf(m: AnyData): number {
  return m.command === 'DATA' ? DATA_HEADER : m.command === 'DATA1' ? DATA1_HEADER : DATA2_HEADER;
}

export function dataLength(m: AnyData): number {
  const n = headerOf(m) + m.payload.length;
  return n + padLength(n, m.pad);
}

function streamField(m: SmpData | SmpData1, bits: number, clause: string): number {
  if ((m.s | m.e) === 1) {
    if (m.streamID === undefined) throw new WireError(WireErrorCode.invalid, 'streamID', 0, clause, 'S or E set: the field holds the StreamID');
    checkRange(m.streamID, 16, 'streamID', clause);
    return m.streamID;
  }
  if (m.pduLength === undefined) throw new WireError(WireErrorCode.invalid, 'pduLength', 0, clause, 'neither S nor E set: the field holds PDU-Length');
  checkRange(m.pduLength, bits, 'pduLength', clause);
  return m.pduLength;
}

/** Encodes DATA, DATA1 or DATA2. */
export function encodeData(m: AnyData, bytes: Uint8Array, offset: number): number {
  const clause = m.command === 'DATA' ? CLAUSE.data : m.command === 'DATA1' ? CLAUSE.data1 : CLAUSE.data2;
  checkCmdVer(m.command, m.cmd, m.command === 'DATA2' ? undefined : m.ver, clause);
  checkRange(m.s, 1, 's', clause);
  checkRange(m.e, 1, 'e', clause);
  const len = m.payload.length;
  if (m.command === 'DATA2') {
    checkRange(m.implementationSpecific, 8, 'implementationSpecific', clause);
    checkRange(len, 14, 'payload.length', clause);
    bytes[offset + 1] = m.implementationSpecific;
    put16(bytes, offset + 2, (m.s << 15) | (m.e << 14) | len);
  } else {
    checkRange(m.mailbox, 8, 'mailbox', clause);
    checkRange(m.cos, 8, 'cos', clause);
    checkRange(m.rsrv, 16, 'rsrv', clause);
    checkRange(m.sourceID, 16, 'sourceID', clause);
    if (m.command === 'DATA') {
      checkRange(m.rsrv1, 2, 'rsrv1', clause);
      checkRange(len, 12, 'payload.length', clause);
      const field = streamField(m, 16, clause);
      put16(bytes, offset + 8, (m.s << 15) | (m.e << 14) | (m.rsrv1 << 12) | len);
      put16(bytes, offset + 10, field);
    } else {
      checkRange(m.rsrv1, 16, 'rsrv1', clause);
      // With neither S nor E the word is all PDU-Length: a Reserved half has nowhere to go.
      if ((m.s | m.e) === 0 && m.rsrv1 !== 0) {
        throw new WireError(WireErrorCode.invalid, 'rsrv1', 0, clause, 'neither S nor E set: the last word holds PDU-Length, no Reserved half');
      }
      checkRange(len, 30, 'payload.length', clause);
      const field = streamField(m, 32, clause);
      bytes[offset + 8] = (m.s << 7) | (m.e << 6) | (len >>> 24);
      put24(bytes, offset + 9, len & 0xffffff);
      if ((m.s | m.e) === 1) {
        put16(bytes, offset + 12, field);
        put16(bytes, offset + 14, m.rsrv1);
      } else {
        put32(bytes, offset + 12, field);
      }
    }
    bytes[offset + 1] = m.ver;
    bytes[offset + 2] = m.mailbox;
    bytes[offset + 3] = m.cos;
    put16(bytes, offset + 4, m.rsrv);
    put16(bytes, offset + 6, m.sourceID);
  }
  bytes[offset] = m.cmd;
  const at = offset + headerOf(m);
  bytes.set(m.payload, at);
  return writePad(bytes, at + len, at + len - offset, m.pad);
}

/**
 * The fields `smpData` and `smpData1` take. `s`/`e` name the segment; the StreamID/PDU-Length field
 * holds `streamID` when S or E is set and `pduLength` when neither is.
 */
export interface DataInput extends SmpCommonInput {
  readonly mailbox?: number;
  readonly cos?: number;
  readonly rsrv?: number;
  readonly sourceID: number;
  /** Default 1 with `e` 1: a single-segment transfer. */
  readonly s?: number;
  readonly e?: number;
  readonly rsrv1?: number;
  readonly streamID?: number;
  readonly pduLength?: number;
  readonly payload: Uint8Array;
}

function dataCommon(f: DataInput): Segmented & { mailbox: number; cos: number; rsrv: number; sourceID: number } {
  const s = f.s ?? 1;
  const e = f.e ?? 1;
  return {
    mailbox: f.mailbox ?? 0,
    cos: f.cos ?? 0,
    rsrv: f.rsrv ?? 0,
    sourceID: f.sourceID,
    s,
    e,
    segment: segmentName(s, e),
  };
}

function tail(f: DataInput): StreamOrLength & { payload: Uint8Array } & SmpPadded {
  const segmented = ((f.s ?? 1) | (f.e ?? 1)) === 1;
  return {
    ...streamOrLength(segmented, f.streamID ?? 0, f.pduLength ?? 0),
    payload: f.payload,
    ...(f.pad && { pad: f.pad }),
  };
}

/**
 * A DATA message (§4.3.1).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Three payload octets on StreamID 0x0010, to the receiver's mailbox 2, in one segment (S and E set).
 * const m = smp.smpData({ sourceID: 1, mailbox: 2, streamID: 0x0010, payload: Uint8Array.of(1, 2, 3) });
 * console.log(m.segment, toHex(smpBytes(m))); // SINGLE 0601020000000001c003001001020300
 * ```
 */
export function smpData(f: DataInput): SmpData {
  const { mailbox, cos, rsrv, sourceID, s, e, segment } = dataCommon(f);
  return {
    command: 'DATA',
    cmd: SMP_COMMAND.DATA,
    ...versionFields(f.ver),
    mailbox,
    cos,
    rsrv,
    sourceID,
    s,
    e,
    segment,
    rsrv1: f.rsrv1 ?? 0,
    ...tail(f),
  };
}

/**
 * A DATA1 message (§4.3.2), for large PDUs.
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // The first segment of a 100 000-octet PDU: DATA1's <Length> is 30 bits wide, DATA's only 12.
 * const m = smp.smpData1({ sourceID: 1, mailbox: 2, s: 1, e: 0, streamID: 0x0010, payload: new Uint8Array(100_000) });
 * const bytes = smpBytes(m);
 * console.log(m.segment, bytes.length, toHex(bytes.subarray(8, 16))); // START 100016 800186a000100000
 * ```
 */
export function smpData1(f: DataInput): SmpData1 {
  const { mailbox, cos, rsrv, sourceID, s, e, segment } = dataCommon(f);
  return {
    command: 'DATA1',
    cmd: SMP_COMMAND.DATA1,
    ver: f.ver ?? SMP_VER,
    mailbox,
    cos,
    rsrv,
    sourceID,
    s,
    e,
    segment,
    rsrv1: (s | e) === 1 ? (f.rsrv1 ?? 0) : 0,
    ...tail(f),
  };
}

/**
 * A DATA2 message (§4.3.3): no addressing, a one-octet header.
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // A stream opened with DATA_HEADER_FORMAT DATA2 and Implementation-Specific octet 0x5A.
 * const m = smp.smpData2({ implementationSpecific: 0x5a, payload: Uint8Array.of(1, 2, 3) });
 * console.log(toHex(smpBytes(m))); // 0a5ac00301020300
 * ```
 */
export function smpData2(f: Pick<DataInput, 's' | 'e' | 'payload' | 'pad'> & { readonly implementationSpecific?: number }): SmpData2 {
  const s = f.s ?? 1;
  const e = f.e ?? 1;
  return {
    command: 'DATA2',
    cmd: SMP_COMMAND.DATA2,
    implementationSpecific: f.implementationSpecific ?? 0,
    s,
    e,
    segment: segmentName(s, e),
    payload: f.payload,
    ...(f.pad && { pad: f.pad }),
  };
}
