import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import { DATA2_MAX_PAYLOAD, segmentName } from './data.ts';
import type { SmpData, SmpData1, SmpData2 } from './data.ts';
import {
  CLAUSE,
  SMP_COMMAND,
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
  withPad,
  writePad,
} from './header.ts';

// The codec of the DATA, DATA1 and DATA2 messages (Annex 2 §4.3.1–§4.3.3): their headers read
// from and written to octets. The message shapes and builders are in data.ts.

const DATA_HEADER = 12;
const DATA1_HEADER = 16;
const DATA2_HEADER = 4;

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
