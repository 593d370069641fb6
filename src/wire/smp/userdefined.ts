import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import { CLAUSE, USERDEFINED_FIRST, checkCmdVer, put16, readVer, versionName, reservedZero, u16, versionFields } from './header.ts';
import type { SmpCommonInput, SmpVersioned } from './header.ts';

/**
 * USERDEFINED (Annex 2 §4.2.9 Table 4-11): <CMD=0xF0 to 0xFF><VER><COS>Reserved |
 * <SourceID><StreamID> | <user-defined data>. The data is opaque, so it runs to the end of the
 * message: any pad the application adds is part of it (riodp neither adds nor strips a pad).
 */
export interface SmpUserDefined extends SmpVersioned {
  readonly command: 'USERDEFINED';
  readonly cos: number;
  /** Octet 3 ("Reserved"). */
  readonly rsrv: number;
  readonly sourceID: number;
  readonly streamID: number;
  /** A view of the input. */
  readonly userDefinedData: Uint8Array;
}

const HEADER = 8;

export function decodeUserDefined(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpUserDefined {
  need(end, offset, HEADER, 'USERDEFINED', CLAUSE.userDefined);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const rsrv = bytes[offset + 3] as number;
  reservedZero(rsrv, strict, 'rsrv', offset + 3, CLAUSE.userDefined);
  return {
    command: 'USERDEFINED',
    cmd: bytes[offset] as number,
    ver,
    version,
    cos: bytes[offset + 2] as number,
    rsrv,
    sourceID: u16(bytes, offset + 4),
    streamID: u16(bytes, offset + 6),
    userDefinedData: bytes.subarray(offset + HEADER, end),
  };
}

export function userDefinedLength(m: SmpUserDefined): number {
  return HEADER + m.userDefinedData.length;
}

export function encodeUserDefined(m: SmpUserDefined, bytes: Uint8Array, offset: number): number {
  const clause = CLAUSE.userDefined;
  checkCmdVer('USERDEFINED', m.cmd, m.ver, clause);
  checkRange(m.cos, 8, 'cos', clause);
  checkRange(m.rsrv, 8, 'rsrv', clause);
  checkRange(m.sourceID, 16, 'sourceID', clause);
  checkRange(m.streamID, 16, 'streamID', clause);
  bytes[offset] = m.cmd;
  bytes[offset + 1] = m.ver;
  bytes[offset + 2] = m.cos;
  bytes[offset + 3] = m.rsrv;
  put16(bytes, offset + 4, m.sourceID);
  put16(bytes, offset + 6, m.streamID);
  bytes.set(m.userDefinedData, offset + HEADER);
  return offset + HEADER + m.userDefinedData.length;
}

/**
 * A user-defined message (§4.2.9): <CMD> 0xF0–0xFF and its data.
 *
 * @example
 * ```ts
 * import { decodeSmp, smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // An application command 0xF2 with eight octets of its own data on StreamID 0x0010.
 * const m = smp.smpUserDefined({ cmd: 0xf2, sourceID: 1, streamID: 0x0010, userDefinedData: Uint8Array.of(0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0) });
 * const bytes = smpBytes(m);
 * console.log(toHex(bytes)); // f201000000010010deadbeef00000000
 * console.log(decodeSmp(bytes, 0, bytes.length).command); // USERDEFINED
 * ```
 */
export function smpUserDefined(f: Omit<SmpCommonInput, 'pad'> & {
  readonly cmd: number;
  readonly cos?: number;
  readonly rsrv?: number;
  readonly sourceID: number;
  readonly streamID: number;
  readonly userDefinedData?: Uint8Array;
}): SmpUserDefined {
  if (!Number.isInteger(f.cmd) || f.cmd < USERDEFINED_FIRST || f.cmd > 0xff) {
    throw new WireError(WireErrorCode.range, 'cmd', 0, CLAUSE.userDefined, 'USERDEFINED commands are 0xF0 to 0xFF');
  }
  return {
    command: 'USERDEFINED',
    cmd: f.cmd,
    ...versionFields(f.ver),
    cos: f.cos ?? 0,
    rsrv: f.rsrv ?? 0,
    sourceID: f.sourceID,
    streamID: f.streamID,
    userDefinedData: f.userDefinedData ?? new Uint8Array(0),
  };
}
