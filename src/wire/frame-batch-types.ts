import { WireErrorCode } from './errors.ts';
import type { WireError } from './errors.ts';

/**
 * The status column of a frame batch (issue 17 "Bad frames are marked and counted, never
 * thrown", docs/fast-lane.md §2): `ok`, or the defect the object path (decodeFrame →
 * decodeSerialPacket) reports as a WireError, mapped by `frameDefectOf`. The batch decides
 * the same frames bad as the object path, with the same defect.
 *
 * @example
 * ```ts
 * import { FRAME_DEFECT, FrameBatch, parseHex } from 'riodp/wire';
 *
 * // A doorbell frame whose CRC-16 was corrupted on the way (0x9f74, not 0x9f73).
 * const chunk = parseHex('000d 01 000a05010007beef9f740000');
 * const batch = new FrameBatch();
 * batch.parse(chunk);
 * console.log(batch.status[0] === FRAME_DEFECT.crc, batch.defects[FRAME_DEFECT.crc]); // true 1
 * ```
 */
export const FRAME_DEFECT = {
  ok: 0,
  /** Final CRC-16 mismatch (Part 6 §2.4.1). */
  crc: 1,
  /** Early CRC mismatch, packets over 80 logical bytes (Part 6 §2.4.1). */
  earlyCrc: 2,
  /** A field runs past the frame's end (WireError `truncated`). */
  truncated: 3,
  /** The packet's length cannot frame it: not a multiple of 4, over 284 bytes, or no layout fits (Part 6 §2.3, §2.5). */
  length: 4,
  /** A reserved encoding, e.g. tt 0b11 (Part 3 §2.4; WireError `reserved`). */
  reserved: 5,
  /** An ftype riodp does not decode (WireError `unsupported`). */
  unsupported: 6,
  /** Any other structural error of the body (WireError `invalid`, `trailing-bytes`, `undefined`, `range`). */
  malformed: 7,
} as const;
/** A `FRAME_DEFECT` value. */
export type FrameDefect = (typeof FRAME_DEFECT)[keyof typeof FRAME_DEFECT];
/**
 * The name of each `FRAME_DEFECT` value, indexed by it.
 *
 * @example
 * ```ts
 * import { FRAME_DEFECT_NAMES, FrameBatch, parseHex } from 'riodp/wire';
 *
 * // Report each bad frame of a chunk by name: here a doorbell with a corrupted CRC.
 * const chunk = parseHex('000d 01 000a05010007beef9f740000');
 * const batch = new FrameBatch();
 * batch.parse(chunk);
 * for (let i = 0; i < batch.count; i++) console.log(batch.offset[i], FRAME_DEFECT_NAMES[batch.status[i] ?? 0]); // 0 crc
 * ```
 */
export const FRAME_DEFECT_NAMES = ['ok', 'crc', 'earlyCrc', 'truncated', 'length', 'reserved', 'unsupported', 'malformed'] as const;
/**
 * How many `FRAME_DEFECT` values there are.
 *
 * @example
 * ```ts
 * import { FRAME_DEFECT_COUNT, FrameBatch, parseHex } from 'riodp/wire';
 *
 * // Totals over many parses (a HELLO, then a doorbell with a bad CRC), one counter per defect.
 * const totals = new Uint32Array(FRAME_DEFECT_COUNT);
 * const batch = new FrameBatch();
 * for (const hex of ['00061052494f4401', '000d01000a05010007beef9f740000']) {
 *   batch.parse(parseHex(hex));
 *   for (let d = 0; d < FRAME_DEFECT_COUNT; d++) totals[d] = (totals[d] ?? 0) + (batch.defects[d] ?? 0);
 * }
 * console.log(totals.join(' ')); // 1 1 0 0 0 0 0 0
 * ```
 */
export const FRAME_DEFECT_COUNT = FRAME_DEFECT_NAMES.length;

/**
 * The defect a WireError of the object decoder stands for.
 *
 * @example
 * ```ts
 * import { FRAME_DEFECT_NAMES, WireError, decodeFrame, frameDefectOf, parseHex } from 'riodp/wire';
 *
 * // The object path throws; the same verdict as a batch would count it.
 * const bytes = parseHex('000d 01 000a05010007beef9f740000');
 * try {
 *   decodeFrame(bytes, 0, bytes.length);
 * } catch (e) {
 *   if (e instanceof WireError) console.log(e.code, FRAME_DEFECT_NAMES[frameDefectOf(e)]); // crc crc
 * }
 * ```
 */
export function frameDefectOf(e: WireError): FrameDefect {
  switch (e.code) {
    case WireErrorCode.crc:
      return e.field === 'earlyCrc' ? FRAME_DEFECT.earlyCrc : FRAME_DEFECT.crc;
    case WireErrorCode.truncated:
      return FRAME_DEFECT.truncated;
    case WireErrorCode.reserved:
      return FRAME_DEFECT.reserved;
    case WireErrorCode.unsupported:
      return FRAME_DEFECT.unsupported;
    case WireErrorCode.invalid:
      return e.field === 'length' ? FRAME_DEFECT.length : FRAME_DEFECT.malformed;
    default:
      return FRAME_DEFECT.malformed;
  }
}

/**
 * Bits of the Type 9 flags byte kept in the `t9Flags` column, as on the wire (Part 10 §4.2
 * Table 4-1): S(1) | E(1) | rsrv/xtype(3) | xh(1) | O(1) | P(1).
 *
 * @example
 * ```ts
 * import { FrameBatch, T9_FLAG, parseHex } from 'riodp/wire';
 *
 * // A packet frame holding a single-segment Type 9 PDU (S = E = 1) on stream 0x42.
 * const chunk = parseHex('0011 01 0009050110c00042deadbeef0d700000');
 * const batch = new FrameBatch();
 * batch.parse(chunk);
 * const flags = batch.t9Flags[0] ?? 0;
 * console.log((flags & T9_FLAG.start) !== 0, (flags & T9_FLAG.end) !== 0, batch.streamID[0]); // true true 66
 * ```
 */
export const T9_FLAG = { start: 0x80, end: 0x40, xtypeMask: 0x38, xh: 0x04, odd: 0x02, pad: 0x01 } as const;
/** A `T9_FLAG` bit. */
export type T9Flag = (typeof T9_FLAG)[keyof typeof T9_FLAG];

/**
 * Frames a batch holds unless told otherwise: a 64 KiB chunk of 16-byte frames.
 *
 * @example
 * ```ts
 * import { DEFAULT_BATCH_CAPACITY, FrameBatch } from 'riodp/wire';
 *
 * console.log(new FrameBatch().capacity === DEFAULT_BATCH_CAPACITY, DEFAULT_BATCH_CAPACITY); // true 4096
 * ```
 */
export const DEFAULT_BATCH_CAPACITY = 4096;

/**
 * The typed-array columns of a batch, one entry per frame, index 0 to `count - 1`. Entries past
 * `count` are stale. Offsets are absolute indices into the chunk last parsed.
 *
 * @example
 * ```ts
 * import { FRAME_DEFECT, FrameBatch, parseHex } from 'riodp/wire';
 * import type { FrameColumns } from 'riodp/wire';
 *
 * // Code that reads the columns only, whoever filled them: payload bytes of the good Type 9 frames.
 * function streamBytes(c: FrameColumns, count: number): number {
 *   let n = 0;
 *   for (let i = 0; i < count; i++) if (c.status[i] === FRAME_DEFECT.ok && c.ftype[i] === 9) n += c.payloadLength[i] ?? 0;
 *   return n;
 * }
 * const batch = new FrameBatch();
 * batch.parse(parseHex('0011 01 0009050110c00042deadbeef0d700000'));
 * console.log(streamBytes(batch, batch.count)); // 4
 * ```
 */
export class FrameColumns {
  readonly capacity: number;
  /** Offset of the frame's length field. */
  readonly offset: Uint32Array;
  /** Bytes of the whole frame, length field included (2 + the length field). */
  readonly length: Uint32Array;
  readonly kind: Uint8Array;
  /** FRAME_DEFECT. */
  readonly status: Uint8Array;
  // Packet frames (kind 0x01) from here on. The prefix columns hold the prefix of any packet
  // body of 2 bytes or more; the others are defined for frames with status ok only (stale
  // otherwise: nothing is written for a field a bad frame may not hold).
  readonly ackID: Uint8Array;
  readonly vc: Uint8Array;
  readonly crf: Uint8Array;
  readonly prio: Uint8Array;
  readonly tt: Uint8Array;
  readonly ftype: Uint8Array;
  readonly destinationID: Uint32Array;
  /** sourceID; for Type 7, the tgtdestinationID that sits in its place. */
  readonly sourceID: Uint32Array;
  /** Logical bytes of the packet (prefix to last logical field, no CRCs, no pad). */
  readonly logical: Uint16Array;
  // Type 9 from here on: frames with status ok and ftype 9 only.
  readonly cos: Uint8Array;
  /** The flags byte, see T9_FLAG. */
  readonly t9Flags: Uint8Array;
  /** streamID of start and single segments and of xh = 1 packets; 0 otherwise. */
  readonly streamID: Uint16Array;
  /** The raw length field of end segments (and aborts); 0 otherwise. */
  readonly t9Length: Uint16Array;
  /**
   * Where the payload starts in the chunk, and its logical length (pad byte excluded, as
   * decodeType9's `payload`). In a packet over 80 logical bytes the payload bytes from packet
   * offset 80 on sit two bytes further, past the early CRC.
   */
  readonly payloadOffset: Uint32Array;
  readonly payloadLength: Uint16Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.offset = new Uint32Array(capacity);
    this.length = new Uint32Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.status = new Uint8Array(capacity);
    this.ackID = new Uint8Array(capacity);
    this.vc = new Uint8Array(capacity);
    this.crf = new Uint8Array(capacity);
    this.prio = new Uint8Array(capacity);
    this.tt = new Uint8Array(capacity);
    this.ftype = new Uint8Array(capacity);
    this.destinationID = new Uint32Array(capacity);
    this.sourceID = new Uint32Array(capacity);
    this.logical = new Uint16Array(capacity);
    this.cos = new Uint8Array(capacity);
    this.t9Flags = new Uint8Array(capacity);
    this.streamID = new Uint16Array(capacity);
    this.t9Length = new Uint16Array(capacity);
    this.payloadOffset = new Uint32Array(capacity);
    this.payloadLength = new Uint16Array(capacity);
  }
}
