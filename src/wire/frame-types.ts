import type { Packet, SerialPacket } from './packet.ts';
import { MAX_SERIAL_PACKET } from './serial.ts';
import type { ControlSymbol, SymbolFields } from './symbol.ts';
import type { ControlSymbol64, Symbol64Fields } from './symbol64.ts';

/**
 * The frame of a riodp TCP link (issue 8 §1: "A link is a TCP connection carrying LP-Serial
 * packets (with their CRCs) and control symbols in length-prefixed frames"), specified in
 * docs/net-framing.md, whose sections the clauses below name:
 *
 *   length(16, big-endian) | kind(8) | body(length - 1 bytes)
 *
 * `length` counts the bytes after itself (kind and body), so a frame is `2 + length` bytes and a
 * receiver knows where the next one starts without looking inside the body. That is what lets a
 * body that fails to decode be dropped while the connection is kept (§4.2).
 *
 * Payloads are views: a packet's payload (80 logical bytes or less) and the body of a frame of a
 * reserved kind are `subarray`s of the input (see serial.ts for longer packets).
 *
 * This file holds the frame kinds, their constants and constructors; frame.ts is the codec.
 */

/** Sections of docs/net-framing.md, the clauses of the errors below. */
export const CLAUSE_FRAME = {
  length: 'riodp link §2',
  packet: 'riodp link §3.1',
  cs48: 'riodp link §3.2',
  cs64: 'riodp link §3.3',
  hello: 'riodp link §3.4',
  close: 'riodp link §3.5',
  kind: 'riodp link §3.6',
} as const;

/**
 * The length field and the kind byte.
 *
 * @example
 * ```ts
 * import { FRAME_HEADER_BYTES, parseHex } from 'riodp/wire';
 *
 * // A packet frame: length 0x000d, kind 0x01, then the 12-byte LP-Serial packet.
 * const frame = parseHex('000d 01 000a05010007beef9f730000');
 * console.log(frame.length - FRAME_HEADER_BYTES); // 12
 * ```
 */
export const FRAME_HEADER_BYTES = 3;
/**
 * Octets of a frame's length field.
 *
 * @example
 * ```ts
 * import { FRAME_LENGTH_BYTES, parseHex } from 'riodp/wire';
 *
 * // Where the next frame starts: the length field counts the bytes after itself.
 * const stream = parseHex('0006 10 52494f4401 000d 01 000a05010007beef9f730000');
 * const next = FRAME_LENGTH_BYTES + (((stream[0] ?? 0) << 8) | (stream[1] ?? 0));
 * console.log(next, stream[next + 2]); // 8 1
 * ```
 */
export const FRAME_LENGTH_BYTES = 2;
/**
 * The largest value of the 16-bit length field.
 *
 * @example
 * ```ts
 * import { MAX_FRAME_LENGTH_FIELD, frameLength } from 'riodp/wire';
 *
 * // A reserved-kind frame with the largest body the length field can state.
 * const big = { kind: 0x20, kindName: 'RESERVED', body: new Uint8Array(MAX_FRAME_LENGTH_FIELD - 1) } as const;
 * console.log(frameLength(big)); // 65537
 * ```
 */
export const MAX_FRAME_LENGTH_FIELD = 0xffff;
/**
 * The largest frame riodp sends: a packet frame around a 284-byte LP-Serial packet (Part 6 §2.5).
 *
 * @example
 * ```ts
 * import { MAX_SENT_FRAME } from 'riodp/wire';
 *
 * // A send buffer that holds any frame riodp writes.
 * const buffer = new Uint8Array(MAX_SENT_FRAME);
 * console.log(buffer.length); // 287
 * ```
 */
export const MAX_SENT_FRAME = FRAME_HEADER_BYTES + MAX_SERIAL_PACKET;

/**
 * The frame kinds (docs/net-framing.md §2).
 *
 * @example
 * ```ts
 * import { FRAME_KIND, FRAME_LENGTH_BYTES, parseHex } from 'riodp/wire';
 *
 * // Route a received frame by its kind byte, before decoding the body.
 * const frame = parseHex('0006 10 52494f4401');
 * console.log(frame[FRAME_LENGTH_BYTES] === FRAME_KIND.hello); // true
 * ```
 */
export const FRAME_KIND = { packet: 0x01, cs48: 0x02, cs64: 0x03, hello: 0x10, close: 0x11 } as const;
/** The name of a frame kind. */
export type FrameKindName = keyof typeof FRAME_KIND;
export const KIND_NAMES = new Map<number, FrameKindName>(Object.entries(FRAME_KIND).map(([n, k]) => [k, n as FrameKindName]));

/**
 * The link version this code speaks (§3.4); a peer that announces another is refused.
 *
 * @example
 * ```ts
 * import { LINK_VERSION, decodeFrame, parseHex } from 'riodp/wire';
 *
 * // A peer's HELLO announcing version 2.
 * const bytes = parseHex('0006 10 52494f4402');
 * const f = decodeFrame(bytes, 0, bytes.length);
 * if (f.kindName === 'hello' && f.version !== LINK_VERSION) console.log('refuse version', f.version); // refuse version 2
 * ```
 */
export const LINK_VERSION = 1;
/**
 * "RIOD": the first four body bytes of a HELLO, so that a capture or a stray client is told apart.
 *
 * @example
 * ```ts
 * import { FRAME_HEADER_BYTES, HELLO_MAGIC, parseHex } from 'riodp/wire';
 *
 * // The body of a received HELLO frame starts with the magic.
 * const body = parseHex('0006 10 52494f4401').subarray(FRAME_HEADER_BYTES);
 * console.log(String.fromCharCode(...HELLO_MAGIC), HELLO_MAGIC.every((b, i) => body[i] === b)); // RIOD true
 * ```
 */
export const HELLO_MAGIC: readonly number[] = [0x52, 0x49, 0x4f, 0x44];
/** Bytes of a version 1 HELLO body: the magic and the version. */
export const HELLO_BYTES = HELLO_MAGIC.length + 1;

/**
 * Why a link is closed (the CLOSE frame's reason, docs/net-framing.md).
 *
 * @example
 * ```ts
 * import { CLOSE_REASON, closeFrame, encodeFrame, frameLength, toHex } from 'riodp/wire';
 *
 * const f = closeFrame(CLOSE_REASON.normal, 'bye');
 * const bytes = new Uint8Array(frameLength(f));
 * encodeFrame(f, bytes, 0);
 * console.log(toHex(bytes)); // 00051100627965
 * ```
 */
export const CLOSE_REASON = { normal: 0, protocol: 1, version: 2, application: 3 } as const;
/** A `CLOSE_REASON` value. */
export type CloseReason = (typeof CLOSE_REASON)[keyof typeof CLOSE_REASON];
/** The name of a close reason; RESERVED for a value the table lacks. */
export type CloseReasonName = keyof typeof CLOSE_REASON | 'RESERVED';
const REASON_NAMES = new Map<number, CloseReasonName>(Object.entries(CLOSE_REASON).map(([n, r]) => [r, n as CloseReasonName]));
/**
 * Bytes of UTF-8 a CLOSE may carry: the whole frame stays within MAX_SENT_FRAME.
 *
 * @example
 * ```ts
 * import { CLOSE_REASON, CLOSE_TEXT_MAX, closeFrame, frameLength } from 'riodp/wire';
 *
 * // Cut a long diagnostic to what a CLOSE carries (ASCII: one byte per character).
 * const detail = 'x'.repeat(400);
 * const f = closeFrame(CLOSE_REASON.protocol, detail.slice(0, CLOSE_TEXT_MAX));
 * console.log(frameLength(f)); // 259
 * ```
 */
export const CLOSE_TEXT_MAX = 255;

/** A frame carrying one LP-Serial packet. */
export interface PacketFrame<P extends Packet = Packet> {
  readonly kind: typeof FRAME_KIND.packet;
  readonly kindName: 'packet';
  readonly packet: P;
}
/** A frame carrying one Control Symbol 48. */
export interface Cs48Frame<S extends SymbolFields = SymbolFields> {
  readonly kind: typeof FRAME_KIND.cs48;
  readonly kindName: 'cs48';
  readonly symbol: S;
}
/** A frame carrying one Control Symbol 64. */
export interface Cs64Frame<S extends Symbol64Fields = Symbol64Fields> {
  readonly kind: typeof FRAME_KIND.cs64;
  readonly kindName: 'cs64';
  readonly symbol: S;
}
/** The first frame each side sends: the link protocol's magic and version. */
export interface HelloFrame {
  readonly kind: typeof FRAME_KIND.hello;
  readonly kindName: 'hello';
  readonly version: number;
  /** Body bytes after the version (§3.4: a later version may add fields); present only when not empty. */
  readonly ext?: Uint8Array;
}
/** The last frame a side sends: why, and a short text. */
export interface CloseFrame {
  readonly kind: typeof FRAME_KIND.close;
  readonly kindName: 'close';
  readonly reason: number;
  readonly reasonName: CloseReasonName;
  readonly text: string;
}
/** A kind this version does not define (§3.6): kept whole so that it can be skipped and counted. */
export interface ReservedFrame {
  readonly kind: number;
  readonly kindName: 'RESERVED';
  readonly body: Uint8Array;
}

/** A frame to encode. */
export type Frame = PacketFrame | Cs48Frame | Cs64Frame | HelloFrame | CloseFrame | ReservedFrame;
/** A frame as `decodeFrame` returns it: packets and symbols decoded with their CRCs checked. */
export type DecodedFrame = PacketFrame<SerialPacket> | Cs48Frame<ControlSymbol> | Cs64Frame<ControlSymbol64> | HelloFrame | CloseFrame | ReservedFrame;

/**
 * A packet frame.
 *
 * @example
 * ```ts
 * import { encodeFrame, frameLength, packetFrame, toHex } from 'riodp/wire';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const doorbell: Type10Packet = {
 *   ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 5, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef,
 * };
 * const f = packetFrame(doorbell);
 * const bytes = new Uint8Array(frameLength(f));
 * encodeFrame(f, bytes, 0);
 * console.log(toHex(bytes)); // 000d01000a05010007beef9f730000
 * ```
 */
export const packetFrame = <P extends Packet>(packet: P): PacketFrame<P> => ({ kind: FRAME_KIND.packet, kindName: 'packet', packet });
/**
 * A CS48 frame.
 *
 * @example
 * ```ts
 * import { Stype0, Stype1, cs48Frame, encodeFrame, frameLength, toHex } from 'riodp/wire';
 *
 * // packet-accepted for ackID 5, buf_status 31, with a NOP.
 * const f = cs48Frame({ link: 'cs48', stype0: Stype0.packetAccepted, parameter0: 5, parameter1: 31, stype1: Stype1.nop, cmd: 0 });
 * const bytes = new Uint8Array(frameLength(f));
 * encodeFrame(f, bytes, 0);
 * console.log(toHex(bytes)); // 00070202bfc000017c
 * ```
 */
export const cs48Frame = <S extends SymbolFields>(symbol: S): Cs48Frame<S> => ({ kind: FRAME_KIND.cs48, kindName: 'cs48', symbol });
/**
 * A CS64 frame.
 *
 * @example
 * ```ts
 * import { Stype0_64, Stype1_64, cs64Frame, decodeFrame, encodeFrame, frameLength } from 'riodp/wire';
 *
 * // packet-accepted for ackID 5, buf_status 31, with a NOP, on a 64-bit control symbol link.
 * const f = cs64Frame({ link: 'cs64', stype0: Stype0_64.packetAccepted, parameter0: 5, parameter1: 31, stype1: Stype1_64.nop });
 * const bytes = new Uint8Array(frameLength(f));
 * encodeFrame(f, bytes, 0);
 * const back = decodeFrame(bytes, 0, bytes.length);
 * if (back.kindName === 'cs64') console.log(bytes.length, back.symbol.stype0Name, back.symbol.packetAckID); // 11 packet-accepted 5
 * ```
 */
export const cs64Frame = <S extends Symbol64Fields>(symbol: S): Cs64Frame<S> => ({ kind: FRAME_KIND.cs64, kindName: 'cs64', symbol });
/**
 * A HELLO frame (this implementation's link version by default).
 *
 * @example
 * ```ts
 * import { encodeFrame, frameLength, helloFrame, toHex } from 'riodp/wire';
 *
 * // The first frame each side of a link sends: "RIOD" and version 1.
 * const f = helloFrame();
 * const bytes = new Uint8Array(frameLength(f));
 * encodeFrame(f, bytes, 0);
 * console.log(toHex(bytes)); // 00061052494f4401
 * ```
 */
export const helloFrame = (version: number = LINK_VERSION): HelloFrame => ({ kind: FRAME_KIND.hello, kindName: 'hello', version });
/**
 * A CLOSE frame.
 *
 * @example
 * ```ts
 * import { CLOSE_REASON, closeFrame, decodeFrame, encodeFrame, frameLength } from 'riodp/wire';
 *
 * const f = closeFrame(CLOSE_REASON.version, 'version 2 not supported');
 * const bytes = new Uint8Array(frameLength(f));
 * encodeFrame(f, bytes, 0);
 * const back = decodeFrame(bytes, 0, bytes.length);
 * if (back.kindName === 'close') console.log(back.reasonName, back.text); // version version 2 not supported
 * ```
 */
export function closeFrame(reason: CloseReason, text = ''): CloseFrame {
  return { kind: FRAME_KIND.close, kindName: 'close', reason, reasonName: reasonName(reason), text };
}

/**
 * The name of a frame kind; RESERVED for an unknown one.
 *
 * @example
 * ```ts
 * import { frameKindName } from 'riodp/wire';
 *
 * console.log(frameKindName(0x03), frameKindName(0x20)); // cs64 RESERVED
 * ```
 */
export function frameKindName(kind: number): FrameKindName | 'RESERVED' {
  return KIND_NAMES.get(kind) ?? 'RESERVED';
}

/**
 * The name of a close reason; RESERVED for an unknown one.
 *
 * @example
 * ```ts
 * import { reasonName } from 'riodp/wire';
 *
 * console.log(reasonName(2), reasonName(9)); // version RESERVED
 * ```
 */
export function reasonName(reason: number): CloseReasonName {
  return REASON_NAMES.get(reason) ?? 'RESERVED';
}

const utf8 = new TextEncoder();

/** `text` cut to at most `max` bytes of UTF-8 at a character boundary, for a CLOSE (§3.5). */
export function clipUtf8(text: string, max: number = CLOSE_TEXT_MAX): string {
  if (utf8.encode(text).length <= max) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const n = utf8.encode(ch).length;
    if (used + n > max) break;
    out += ch;
    used += n;
  }
  return out;
}
