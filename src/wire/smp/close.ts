import { checkRange, need } from '../errors.ts';
import {
  CLAUSE,
  SMP_COMMAND,
  checkAddressedWords,
  checkStreamID,
  padLength,
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
import type { SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';

/** CLOSE (Annex 2 §4.2.7 Table 4-8); STATUS (§4.2.8), which answers it, is status.ts. */

export interface SmpClose extends SmpVersioned, SmpPadded {
  readonly command: 'CLOSE';
  /** "Regardless of which endpoint initiates the CLOSE, the SourceID indicates the node sending data." */
  readonly sourceID: number;
  readonly destID: number;
  readonly cos: number;
  /** Octet 7 (Word 1 "Reserved"). */
  readonly rsrv: number;
  readonly streamID: number;
}

const CLOSE_FIELDS = 10;

export function decodeClose(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpClose {
  need(end, offset, CLOSE_FIELDS, 'CLOSE', CLAUSE.close);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const rsrv = bytes[offset + 7] as number;
  reservedZero(rsrv, strict, 'rsrv', offset + 7, CLAUSE.close);
  const streamID = u16(bytes, offset + 8);
  checkStreamID(streamID, strict, offset + 8);
  const pad = readPad(bytes, offset, offset + CLOSE_FIELDS, end, strict, CLAUSE.close);
  return withPad({
    command: 'CLOSE',
    cmd: SMP_COMMAND.CLOSE,
    ver,
    version,
    sourceID: u16(bytes, offset + 2),
    destID: u16(bytes, offset + 4),
    cos: bytes[offset + 6] as number,
    rsrv,
    streamID,
  }, pad);
}

export function closeLength(m: SmpClose): number {
  return CLOSE_FIELDS + padLength(CLOSE_FIELDS, m.pad);
}

export function encodeClose(m: SmpClose, bytes: Uint8Array, offset: number): number {
  const clause = CLAUSE.close;
  checkAddressedWords('CLOSE', m, clause);
  checkRange(m.streamID, 16, 'streamID', clause);
  writeAddressedWords(m, bytes, offset);
  put16(bytes, offset + 8, m.streamID);
  return writePad(bytes, offset + CLOSE_FIELDS, CLOSE_FIELDS, m.pad);
}

/**
 * A CLOSE message (§4.2.7).
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Either end may close StreamID 0x0010; SourceID is always the node sending data (node 1).
 * const m = smp.smpClose({ sourceID: 1, destID: 2, streamID: 0x0010 });
 * console.log(toHex(smpBytes(m))); // 08010001000200000010000000000000
 * ```
 */
export function smpClose(f: SmpCommonInput & {
  readonly sourceID: number;
  readonly destID: number;
  readonly cos?: number;
  readonly rsrv?: number;
  readonly streamID: number;
}): SmpClose {
  return {
    command: 'CLOSE',
    cmd: SMP_COMMAND.CLOSE,
    ...versionFields(f.ver),
    sourceID: f.sourceID,
    destID: f.destID,
    cos: f.cos ?? 0,
    rsrv: f.rsrv ?? 0,
    streamID: f.streamID,
    ...(f.pad && { pad: f.pad }),
  };
}
