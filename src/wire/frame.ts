import { WireError, WireErrorCode, checkRange, checkRoom, fail, need } from './errors.ts';
import type { DecodeOptions } from './errors.ts';
import {
  CLAUSE_FRAME, CLOSE_TEXT_MAX, FRAME_HEADER_BYTES, FRAME_KIND, FRAME_LENGTH_BYTES, HELLO_BYTES, HELLO_MAGIC, KIND_NAMES, LINK_VERSION, MAX_FRAME_LENGTH_FIELD,
  cs48Frame, cs64Frame, helloFrame, packetFrame, reasonName,
} from './frame-types.ts';
import type { CloseFrame, DecodedFrame, Frame, HelloFrame } from './frame-types.ts';
import { decodeSerialPacket, encodeSerialPacket, serialPacketLength } from './packet.ts';
import { decodeSymbol, encodeSymbol } from './symbol.ts';
import type { SymbolOptions } from './symbol.ts';
import { SYMBOL64_LENGTH, decodeSymbol64, encodeSymbol64 } from './symbol64.ts';
import type { VoqFormat } from './voq-stype2.ts';

// The codec of a riodp TCP link frame (docs/net-framing.md): one frame decoded from, measured for,
// or written into a byte buffer. The frame kinds, their constants and constructors are in
// frame-types.ts, re-exported here for the modules that import them from this file.
export {
  CLAUSE_FRAME, CLOSE_REASON, CLOSE_TEXT_MAX, FRAME_HEADER_BYTES, FRAME_KIND, FRAME_LENGTH_BYTES, HELLO_MAGIC, LINK_VERSION, MAX_FRAME_LENGTH_FIELD, MAX_SENT_FRAME,
  clipUtf8, closeFrame, cs48Frame, cs64Frame, frameKindName, helloFrame, packetFrame, reasonName,
} from './frame-types.ts';
export type {
  CloseFrame, CloseReason, CloseReasonName, Cs48Frame, Cs64Frame, DecodedFrame, Frame, FrameKindName, HelloFrame, PacketFrame, ReservedFrame,
} from './frame-types.ts';

const CLAUSE_LENGTH = CLAUSE_FRAME.length;

export interface FrameDecodeOptions extends DecodeOptions {
  /** stype2 format of CS48 symbols (DECISIONS §5); default 'seed'. */
  readonly voqFormat?: VoqFormat;
  /** Part 12 RX Port Group Size in bits, 0–6, for VoQ symbols; default 0. */
  readonly part12GroupSize?: number;
}

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Symbol options derived from the last frame options seen: one object, not one per symbol. */
let lastOpts: FrameDecodeOptions | undefined;
let lastSymbolOpts: SymbolOptions = { link: 'cs48' };

function symbolOptions(opts: FrameDecodeOptions): SymbolOptions {
  if (opts !== lastOpts) {
    lastSymbolOpts = { ...opts, link: 'cs48' };
    lastOpts = opts;
  }
  return lastSymbolOpts;
}

const NO_OPTS: FrameDecodeOptions = Object.freeze({});

/**
 * Decodes the one frame at bytes[offset, end), length field included: `end` must be where the
 * length field says the frame ends. A body that fails its kind's rules throws that kind's
 * WireError (its offset into `bytes`); a kind this version does not define is a ReservedFrame,
 * or a WireError code `undefined` when decoding strictly.
 *
 * @example
 * ```ts
 * import { decodeFrame, parseHex } from 'riodp/wire';
 *
 * // A packet frame around a doorbell: the packet is decoded and its CRC-16 checked.
 * const bytes = parseHex('000d 01 000a05010007beef9f730000');
 * const f = decodeFrame(bytes, 0, bytes.length);
 * if (f.kindName === 'packet' && f.packet.ftype === 10) console.log(f.packet.info.toString(16), f.packet.crc.toString(16)); // beef 9f73
 * ```
 */
export function decodeFrame(bytes: Uint8Array, offset: number, end: number, opts: FrameDecodeOptions = NO_OPTS): DecodedFrame {
  if (!Number.isInteger(offset) || !Number.isInteger(end) || offset < 0 || end > bytes.length || offset > end) {
    throw new WireError(WireErrorCode.range, 'span', 0, 'riodp API', `[${String(offset)}, ${String(end)}) is not inside ${bytes.length} bytes`);
  }
  need(end, offset, FRAME_LENGTH_BYTES, 'length', CLAUSE_LENGTH);
  const length = ((bytes[offset] as number) << 8) | (bytes[offset + 1] as number);
  if (length === 0) fail(WireErrorCode.invalid, 'length', offset, CLAUSE_LENGTH, 'a frame length of 0 leaves no kind byte');
  const bodyAt = offset + FRAME_HEADER_BYTES;
  need(end, offset + FRAME_LENGTH_BYTES, length, 'frame', CLAUSE_LENGTH);
  if (end > offset + FRAME_LENGTH_BYTES + length) {
    fail(WireErrorCode.trailing, 'frame', offset + FRAME_LENGTH_BYTES + length, CLAUSE_LENGTH, `the length field says ${length} bytes follow it, ${end - offset - FRAME_LENGTH_BYTES} given`);
  }
  const kind = bytes[offset + 2] as number;
  switch (kind) {
    case FRAME_KIND.packet:
      return packetFrame(decodeSerialPacket(bytes, bodyAt, end, opts));
    case FRAME_KIND.cs48:
      return cs48Frame(decodeSymbol(bytes, bodyAt, end, symbolOptions(opts)));
    case FRAME_KIND.cs64:
      return cs64Frame(decodeSymbol64(bytes, bodyAt, end, opts));
    case FRAME_KIND.hello:
      return decodeHello(bytes, bodyAt, end, opts);
    case FRAME_KIND.close:
      return decodeClose(bytes, bodyAt, end, opts);
    default:
      if (opts.strict === true) fail(WireErrorCode.undefined, 'kind', offset + 2, CLAUSE_FRAME.kind, `frame kind 0x${hex2(kind)} is not defined in link version ${LINK_VERSION}`);
      return { kind, kindName: 'RESERVED', body: bytes.subarray(bodyAt, end) };
  }
}

function decodeHello(bytes: Uint8Array, at: number, end: number, opts: FrameDecodeOptions): HelloFrame {
  need(end, at, HELLO_BYTES, 'hello', CLAUSE_FRAME.hello);
  for (let i = 0; i < HELLO_MAGIC.length; i++) {
    if (bytes[at + i] !== HELLO_MAGIC[i]) fail(WireErrorCode.invalid, 'magic', at + i, CLAUSE_FRAME.hello, 'a HELLO body starts with "RIOD"');
  }
  const version = bytes[at + HELLO_MAGIC.length] as number;
  const extAt = at + HELLO_BYTES;
  if (extAt === end) return helloFrame(version);
  // Version 1 defines no bytes after the version; a later version may (§3.4).
  if (opts.strict === true && version === LINK_VERSION) {
    fail(WireErrorCode.trailing, 'hello', extAt, CLAUSE_FRAME.hello, `a version ${LINK_VERSION} HELLO body is ${HELLO_BYTES} bytes`);
  }
  return { ...helloFrame(version), ext: bytes.subarray(extAt, end) };
}

function decodeClose(bytes: Uint8Array, at: number, end: number, opts: FrameDecodeOptions): CloseFrame {
  need(end, at, 1, 'reason', CLAUSE_FRAME.close);
  const reason = bytes[at] as number;
  const name = reasonName(reason);
  if (name === 'RESERVED' && opts.strict === true) fail(WireErrorCode.reserved, 'reason', at, CLAUSE_FRAME.close, `close reason ${reason} is reserved`);
  if (end - at - 1 > CLOSE_TEXT_MAX) fail(WireErrorCode.invalid, 'text', at + 1 + CLOSE_TEXT_MAX, CLAUSE_FRAME.close, `the text is at most ${CLOSE_TEXT_MAX} bytes`);
  let text: string;
  try {
    text = utf8Strict.decode(bytes.subarray(at + 1, end));
  } catch {
    fail(WireErrorCode.invalid, 'text', at + 1, CLAUSE_FRAME.close, 'the text is not UTF-8');
  }
  return { kind: FRAME_KIND.close, kindName: 'close', reason, reasonName: name, text };
}

/**
 * Encoded bytes of a frame, length field included.
 *
 * @example
 * ```ts
 * import { frameLength, helloFrame, messageSegment, packetFrame } from 'riodp/wire';
 *
 * // A 14-byte message is 16 bytes with its CRC-16, then 3 of frame header.
 * const p = messageSegment({ tt: 0, destinationID: 5, sourceID: 1, letter: 0, mailbox: 0, payload: new Uint8Array(8) });
 * console.log(frameLength(packetFrame(p)), frameLength(helloFrame())); // 19 8
 * ```
 */
export function frameLength(frame: Frame): number {
  return FRAME_HEADER_BYTES + bodyLength(frame);
}

function bodyLength(frame: Frame): number {
  switch (frame.kindName) {
    case 'packet':
      return serialPacketLength(frame.packet);
    case 'cs48':
      return 6;
    case 'cs64':
      return SYMBOL64_LENGTH;
    case 'hello':
      return HELLO_BYTES + (frame.ext?.length ?? 0);
    case 'close':
      return 1 + utf8.encode(frame.text).length;
    case 'RESERVED':
      return frame.body.length;
  }
}

/**
 * Writes the frame at `offset`; returns the offset after its last byte. The kind written is
 * `kind`, which must be the code of `kindName` (or, for a reserved frame, a code this version
 * does not define). Fields are range-checked before anything is written.
 *
 * @example
 * ```ts
 * import { encodeFrame, frameLength, helloFrame, packetFrame, toHex } from 'riodp/wire';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const doorbell: Type10Packet = {
 *   ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 5, sourceID: 1, rsrv: 0, srcTID: 7, info: 0xbeef,
 * };
 * // What a link writes on connecting, then a packet: frames back to back in one buffer.
 * const frames = [helloFrame(), packetFrame(doorbell)];
 * const bytes = new Uint8Array(frames.reduce((n, f) => n + frameLength(f), 0));
 * let at = 0;
 * for (const f of frames) at = encodeFrame(f, bytes, at);
 * console.log(at, toHex(bytes)); // 23 00061052494f4401000d01000a05010007beef9f730000
 * ```
 */
export function encodeFrame(frame: Frame, bytes: Uint8Array, offset: number): number {
  if (!Number.isInteger(offset) || offset < 0) fail(WireErrorCode.range, 'buffer', 0, CLAUSE_LENGTH, `offset ${String(offset)} is not a byte index`);
  checkKind(frame, offset);
  const bodyAt = offset + FRAME_HEADER_BYTES;
  const body = bodyLength(frame);
  const length = 1 + body;
  if (length > MAX_FRAME_LENGTH_FIELD) fail(WireErrorCode.range, 'length', offset, CLAUSE_LENGTH, `${length} bytes do not fit in the 16-bit length field`);
  checkRoom(bytes, offset, FRAME_LENGTH_BYTES + length, CLAUSE_LENGTH);
  switch (frame.kindName) {
    case 'packet':
      encodeSerialPacket(frame.packet, bytes, bodyAt, 6);
      break;
    case 'cs48':
      if (frame.symbol.link !== 'cs48') fail(WireErrorCode.invalid, 'link', bodyAt, CLAUSE_FRAME.cs48, `a CS48 frame carries a cs48 symbol, not ${frame.symbol.link}`);
      encodeSymbol(frame.symbol, bytes, bodyAt);
      break;
    case 'cs64':
      encodeSymbol64(frame.symbol, bytes, bodyAt);
      break;
    case 'hello':
      checkRange(frame.version, 8, 'version', CLAUSE_FRAME.hello, bodyAt + HELLO_MAGIC.length);
      bytes.set(HELLO_MAGIC, bodyAt);
      bytes[bodyAt + HELLO_MAGIC.length] = frame.version;
      if (frame.ext !== undefined) bytes.set(frame.ext, bodyAt + HELLO_BYTES);
      break;
    case 'close': {
      checkRange(frame.reason, 8, 'reason', CLAUSE_FRAME.close, bodyAt);
      if (body - 1 > CLOSE_TEXT_MAX) fail(WireErrorCode.range, 'text', bodyAt + 1, CLAUSE_FRAME.close, `${body - 1} bytes of UTF-8, at most ${CLOSE_TEXT_MAX}`);
      bytes[bodyAt] = frame.reason;
      utf8.encodeInto(frame.text, bytes.subarray(bodyAt + 1, bodyAt + body));
      break;
    }
    case 'RESERVED':
      bytes.set(frame.body, bodyAt);
      break;
  }
  bytes[offset] = length >> 8;
  bytes[offset + 1] = length & 0xff;
  bytes[offset + 2] = frame.kind;
  return bodyAt + body;
}

function checkKind(frame: Frame, offset: number): void {
  const at = offset + FRAME_LENGTH_BYTES;
  if (frame.kindName === 'RESERVED') {
    checkRange(frame.kind, 8, 'kind', CLAUSE_FRAME.kind, at);
    const defined = KIND_NAMES.get(frame.kind);
    if (defined !== undefined) fail(WireErrorCode.invalid, 'kind', at, CLAUSE_FRAME.kind, `kind 0x${hex2(frame.kind)} is ${defined}, not a reserved kind`);
    return;
  }
  // Frames also arrive as JSON, so the pair is checked at run time, not trusted to its type.
  const code = (FRAME_KIND as Readonly<Record<string, number | undefined>>)[frame.kindName];
  if (code === undefined || frame.kind !== code) {
    fail(WireErrorCode.invalid, 'kind', at, CLAUSE_FRAME.kind, `kind ${String(frame.kind)} does not match kindName '${frame.kindName}'`);
  }
}

function hex2(v: number): string {
  return v.toString(16).padStart(2, '0');
}
