import { SMP_COMMAND, SMP_VER, versionFields } from './header.ts';
import type { SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';

// The DATA, DATA1 and DATA2 messages: their decoded shapes and the builders an application uses.
// Reading and writing their octets is data-codec.ts.

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

function streamOrLength(streamOrPdu: boolean, streamID: number, pduLength: number): StreamOrLength {
  return streamOrPdu ? { streamID } : { pduLength };
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
