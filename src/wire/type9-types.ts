import type { PacketHeader } from './header.ts';
import type { TmMessage, TmOpName, TmOperand } from './type9-tm.ts';

/**
 * The decoded shapes of Type 9 DATA STREAMING packets (Part 10 §4, DECISIONS §4), one per
 * segment type, and the rule that tells the segment type from the header bits. The layout and
 * the payload/pad convention are described at FTYPE_DATA_STREAMING below; type9.ts re-exports all
 * of these.
 */
export type Type9Segment = 'single' | 'start' | 'continuation' | 'end' | 'abort' | 'tm' | 'extended';

interface Type9Base extends PacketHeader {
  readonly ftype: 9;
  readonly destinationID: number;
  readonly sourceID: number;
  /** Class of service. */
  readonly cos: number;
  /** S bit (reserved, 0, when xh = 1). */
  readonly start: number;
  /** E bit (reserved, 0, when xh = 1). */
  readonly end: number;
  readonly xh: number;
  /** O bit: decoded always; on encode derived from the payload for single/end segments, else 0. */
  readonly odd?: number;
  /** P bit: decoded always; on encode derived from the payload for single/end segments, else 0. */
  readonly pad?: number;
}

/** Start (S=1 E=0) or single (S=1 E=1) segment, Figures 4-1/4-2. */
export interface Type9StartPacket extends Type9Base {
  readonly segment: 'single' | 'start';
  /** The 3 reserved bits between E and xh. */
  readonly rsrv: number;
  readonly streamID: number;
  readonly payload: Uint8Array;
  /** Value of the P pad byte when it is not 0x00 (lenient decoding only). */
  readonly padByte?: number;
}

/** Continuation segment (S=0 E=0), Figure 4-3: the payload follows the header directly. */
export interface Type9ContinuationPacket extends Type9Base {
  readonly segment: 'continuation';
  readonly rsrv: number;
  readonly payload: Uint8Array;
}

/** End segment (S=0 E=1), Figure 4-4; `abort` is "length 0 with no payload" (DECISIONS §4). */
export interface Type9EndPacket extends Type9Base {
  readonly segment: 'end';
  readonly rsrv: number;
  /** Raw 16-bit PDU length field. */
  readonly length: number;
  /** The PDU length in bytes: "0x0000 - 64kbytes", else the field value. */
  readonly pduLength: number;
  readonly payload: Uint8Array;
  readonly padByte?: number;
}

/**
 * An end segment with no payload and length 0: the source aborts the PDU (Part 10 §3.2.5 segmentation rule
 * 9).
 */
export interface Type9AbortPacket extends Type9Base {
  readonly segment: 'abort';
  readonly rsrv: number;
  readonly length: 0;
  readonly payload: Uint8Array;
}

/** Traffic management packet (xh = 1, xtype = 000), Figure 4-5. */
export interface Type9TmPacket extends Type9Base {
  readonly segment: 'tm';
  readonly xtype: 0;
  readonly streamID: number;
  readonly tmOp: number;
  readonly tmOpName: TmOpName;
  /** The reserved bit between TM_OP and wildcard. */
  readonly rsrv: number;
  readonly wildcard: number;
  readonly mask: number;
  readonly parameter1: number;
  readonly parameter2: number;
  /** The operation (Tables 4-4 to 4-6). */
  readonly tm: TmMessage;
  /** The operand's scope (§4.3.1). */
  readonly operand: TmOperand;
}

/** xh = 1 with a reserved xtype (0b001–0b111): streamID, then bytes riodp cannot interpret. */
export interface Type9ExtendedPacket extends Type9Base {
  readonly segment: 'extended';
  readonly xtype: number;
  readonly streamID: number;
  readonly payload: Uint8Array;
}

/** A data segment (Part 10 §4.2): single, start, continuation, end, or abort. */
export type Type9DataPacket = Type9StartPacket | Type9ContinuationPacket | Type9EndPacket | Type9AbortPacket;
/**
 * A Type 9 DATA STREAMING packet: a data segment, a traffic management packet, or another extended packet.
 */
export type Type9Packet = Type9DataPacket | Type9TmPacket | Type9ExtendedPacket;

/**
 * The segment a header describes (DECISIONS §4): xh first, then S/E; abort is an empty end with length 0.
 *
 * @example
 * ```ts
 * import { type9Segment } from 'riodp/wire';
 *
 * // Arguments: S, E, xh, xtype, the end segment's length field, payload bytes.
 * console.log(type9Segment(1, 0, 0, 0, 0, 64)); // start
 * console.log(type9Segment(0, 1, 0, 0, 0, 0)); // abort
 * console.log(type9Segment(0, 0, 1, 0, 0, 0)); // tm
 * ```
 */
export function type9Segment(start: number, end: number, xh: number, xtype: number, length: number, payloadLength: number): Type9Segment {
  if (xh) return xtype === 0 ? 'tm' : 'extended';
  if (start) return end ? 'single' : 'start';
  if (!end) return 'continuation';
  return length === 0 && payloadLength === 0 ? 'abort' : 'end';
}

// The constants and clauses the codec shares: type9.ts decodes, type9-encode.ts encodes,
// type9-framing.ts gives serial framing the half-word parity.

/**
 * Type 9 DATA STREAMING packet (Part 10 §4, DECISIONS §4). After destinationID/sourceID:
 * cos(8) | S(1) | E(1) | rsrv/xtype(3) | xh(1) | O(1) | P(1), then streamID(16) for start and
 * single segments, length(16) for end segments, nothing for continuations, and the payload.
 * With xh = 1 the 3-bit field is xtype (000 = traffic management), S/E/O/P are reserved, and
 * streamID is followed by TM_OP(4) | rsrv(1) | wildcard(3) | mask(8) | parameter1(8) | parameter2(8).
 *
 * Payload convention: `payload` is a view (subarray) of the decoded bytes and never contains
 * the P pad byte. Encoding a single or end segment appends the pad byte when the payload length
 * is odd and derives P and O from it unless `pad`/`odd` are given; lenient decoding keeps the
 * raw O/P bits and a non-zero pad byte (`padByte`) so that encode(decode(x)) reproduces x.
 *
 * @example
 * ```ts
 * import { FTYPE_DATA_STREAMING, decodePacket, parseHex, toHex } from 'riodp/wire';
 *
 * // A single-segment PDU (S = E = 1) of 4 bytes on stream 0x42, class of service 0x10.
 * const bytes = parseHex('0009 0501 10c0 0042 dead beef');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === FTYPE_DATA_STREAMING && p.segment === 'single') console.log(p.streamID, toHex(p.payload)); // 66 deadbeef
 * ```
 */
export const FTYPE_DATA_STREAMING = 9;

export const CLAUSE_T9 = 'Part 10 §4.2 Table 4-1';
export const CLAUSE_T9_OP = 'Part 10 §4.2 Table 4-2';
export const CLAUSE_T9_SINGLE = 'Part 10 §4.2 Figure 4-1';
export const CLAUSE_T9_START = 'Part 10 §4.2 Figure 4-2';
export const CLAUSE_T9_CONT = 'Part 10 §4.2 Figure 4-3';
export const CLAUSE_T9_END = 'Part 10 §4.2 Figure 4-4';
export const CLAUSE_T9_TM = 'Part 10 §4.3 Figure 4-5';
export const CLAUSE_T9_SAR = 'Part 10 §3.2.5';
/** "Type 9 packets always have a data payload, unless terminating the PDU" (§4.2). */
export const CLAUSE_T9_PAYLOAD = 'Part 10 §4.2';

/**
 * "The maximum … MTU … 0x08–0x40 valid" in 4-byte units (Part 10 §5.5.1): 32 to 256 bytes.
 *
 * @example
 * ```ts
 * import { MTU_MAX, MTU_MIN } from 'riodp/wire';
 *
 * // An MTU register field of 0x10 (4-byte units) is 64 bytes: a 1000-byte PDU takes 16 segments.
 * const mtu = 0x10 * 4;
 * console.log(mtu >= MTU_MIN && mtu <= MTU_MAX, Math.ceil(1000 / mtu)); // true 16
 * ```
 */
export const MTU_MIN = 32;
/**
 * The largest MTU, 256 bytes (0x40).
 *
 * @example
 * ```ts
 * import { MTU_MAX } from 'riodp/wire';
 *
 * // The fewest segments a 64 KiB PDU (the largest) can be cut into.
 * console.log(65536 / MTU_MAX); // 256
 * ```
 */
export const MTU_MAX = 256;
/**
 * Bytes of the TM header after streamID (Figure 4-5): "The TM packet adds a fixed 4 bytes".
 *
 * @example
 * ```ts
 * import { TM_BYTES, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A TM XOFF: prefix, Dev8 IDs, cos/flags and streamID (8 bytes), then the TM header.
 * const bytes = parseHex('0009 0501 1004 0000 0100 0000');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 9 && p.segment === 'tm') console.log(bytes.length - TM_BYTES, p.tm.message); // 8 XOFF
 * ```
 */
export const TM_BYTES = 4;
