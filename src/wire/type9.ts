import { WireError, WireErrorCode, checkRange, checkRoom, fail, need } from './errors.ts';
import { PREFIX_BYTES, decodeHeader, encodeTransport, idBytes, keepRsrvAckID, readId } from './header.ts';
import type { PacketDecodeOptions } from './header.ts';
import type { LogicalCodec } from './codec.ts';
import { CLAUSE_OPERAND, CLAUSE_TM_OP, sameLabel, tmClause, tmMessage, tmOpName, tmOperand } from './type9-tm.ts';
import type { TmMessage, TmOperand } from './type9-tm.ts';
import { type9Segment } from './type9-types.ts';
import type { Type9Packet } from './type9-types.ts';

export { type9Segment } from './type9-types.ts';
export type {
  Type9AbortPacket,
  Type9ContinuationPacket,
  Type9DataPacket,
  Type9EndPacket,
  Type9ExtendedPacket,
  Type9Packet,
  Type9Segment,
  Type9StartPacket,
  Type9TmPacket,
} from './type9-types.ts';

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

const CLAUSE = 'Part 10 §4.2 Table 4-1';
const CLAUSE_OP = 'Part 10 §4.2 Table 4-2';
const CLAUSE_SINGLE = 'Part 10 §4.2 Figure 4-1';
const CLAUSE_START = 'Part 10 §4.2 Figure 4-2';
const CLAUSE_CONT = 'Part 10 §4.2 Figure 4-3';
const CLAUSE_END = 'Part 10 §4.2 Figure 4-4';
const CLAUSE_TM = 'Part 10 §4.3 Figure 4-5';
const CLAUSE_SAR = 'Part 10 §3.2.5';
/** "Type 9 packets always have a data payload, unless terminating the PDU" (§4.2). */
const CLAUSE_PAYLOAD = 'Part 10 §4.2';

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

/**
 * Strict checks of a non-empty single or end segment's payload (raw = bytes after the header,
 * pad byte included): Table 4-2 O/P, "pad=0x00" (Figure 4-4), "always have a data payload, unless
 * terminating the PDU" (§4.2) and "equal to or less than the MTU size" (§3.2.5).
 */
function strictTail(bytes: Uint8Array, at: number, raw: number, odd: number, pad: number, clause: string): void {
  if (pad && bytes[at + raw - 1] !== 0) fail(WireErrorCode.reserved, 'padByte', at + raw - 1, clause, 'the pad byte shall be 0x00');
  if (odd !== ((raw >> 1) & 1)) fail(WireErrorCode.invalid, 'odd', at, CLAUSE_OP, `O is ${odd} for ${raw >> 1} half-words`);
  if (raw > MTU_MAX) fail(WireErrorCode.invalid, 'payload', at + MTU_MAX, CLAUSE_SAR, `${raw} bytes exceed the largest MTU (256)`);
}

/** "The segmentation bits, Start and End are not used, or are the Odd and Pad fields. Those are left 0's" (§4.3). */
function tmStrict(at: number, flags: number, b0: number, m: TmMessage, operand: TmOperand, tmOp: number): void {
  if (flags & 0xc3) fail(WireErrorCode.reserved, 'flags', at + 1, CLAUSE_TM, 'S, E, O and P are left 0 in extended packets');
  if (b0 & 0x08) fail(WireErrorCode.reserved, 'rsrv', at + 4, CLAUSE_TM, 'the bit after TM OP is reserved');
  if (m.message === 'RESERVED') {
    const off = m.field === 'tmOp' ? at + 4 : m.field === 'parameter1' ? at + 6 : at + 7;
    fail(WireErrorCode.reserved, m.field, off, tmClause(tmOp), `${m.field} value is reserved`);
  }
  if (operand.scope === 'INVALID') {
    fail(WireErrorCode.invalid, operand.problem, operand.problem === 'wildcard' ? at + 4 : at + 5, CLAUSE_OPERAND, `${operand.problem} combination is not permitted`);
  }
}

export function decodeType9(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Type9Packet {
  const p = decodeFields(bytes, offset, end, opts);
  return opts.ackIdBits === 5 ? keepRsrvAckID(p, bytes[offset] as number, opts) : p;
}

function decodeFields(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions): Type9Packet {
  need(end, offset, PREFIX_BYTES, 'prefix', CLAUSE);
  // The prefix is read inline rather than through decodeHeader to keep the hot path at two
  // allocations (result and payload view); decodeHeader still reports the errors it owns.
  const b0 = bytes[offset] as number;
  const b1 = bytes[offset + 1] as number;
  const tt = (b1 >> 4) & 3;
  let ackID = b0 >> 2;
  if (opts.ackIdBits === 5) {
    if (ackID & 1 && opts.strict) decodeHeader(bytes, offset, end, opts);
    ackID >>= 1;
  }
  if (tt === 3) decodeHeader(bytes, offset, end, opts);
  const ftype = b1 & 0xf;
  if (ftype !== FTYPE_DATA_STREAMING) fail(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE, `ftype ${ftype} is not data streaming`);
  const vc = (b0 >> 1) & 1;
  const crf = b0 & 1;
  const prio = b1 >> 6;
  const size = tt === 0 ? 1 : tt === 1 ? 2 : 4;
  const at = offset + PREFIX_BYTES + 2 * size;
  need(end, offset + PREFIX_BYTES, 2 * size + 2, 'header', CLAUSE);
  const destinationID = readId(bytes, offset + PREFIX_BYTES, size);
  const sourceID = readId(bytes, offset + PREFIX_BYTES + size, size);
  const cos = bytes[at] as number;
  const flags = bytes[at + 1] as number;
  const s = flags >> 7;
  const e = (flags >> 6) & 1;
  const x3 = (flags >> 3) & 7;
  const xh = (flags >> 2) & 1;
  const o = (flags >> 1) & 1;
  const p = flags & 1;
  const strict = opts.strict === true;

  if (xh) {
    need(end, at + 2, 2, 'streamID', CLAUSE_TM);
    const streamID = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    if (x3 !== 0) {
      if (strict) fail(WireErrorCode.reserved, 'xtype', at + 1, CLAUSE_TM_OP, `xtype 0b${x3.toString(2).padStart(3, '0')} is reserved`);
      if ((end - at - 4) & 1) fail(WireErrorCode.invalid, 'payload', end - 1, CLAUSE, 'the payload is a whole number of half-words');
      return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, xtype: x3, xh, odd: o, pad: p, segment: 'extended', streamID, payload: bytes.subarray(at + 4, end) };
    }
    const t = at + 4;
    need(end, t, TM_BYTES, 'tm', CLAUSE_TM);
    if (t + TM_BYTES !== end) fail(WireErrorCode.trailing, 'packet', t + TM_BYTES, CLAUSE_TM, 'the TM packet adds a fixed 4 bytes');
    const tb = bytes[t] as number;
    const tmOp = tb >> 4;
    const wildcard = tb & 7;
    const mask = bytes[t + 1] as number;
    const parameter1 = bytes[t + 2] as number;
    const parameter2 = bytes[t + 3] as number;
    const tm = tmMessage(tmOp, parameter1, parameter2);
    const operand = tmOperand(wildcard, mask);
    if (strict) tmStrict(at, flags, tb, tm, operand, tmOp);
    return {
      ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, xtype: 0, xh, odd: o, pad: p, segment: 'tm',
      streamID, tmOp, tmOpName: tmOpName(tmOp), rsrv: (tb >> 3) & 1, wildcard, mask, parameter1, parameter2, tm, operand,
    };
  }

  if (strict && x3 !== 0) fail(WireErrorCode.reserved, 'rsrv', at + 1, CLAUSE, 'reserved bits are assigned to logic 0s');
  if (!s && !e) {
    const raw = end - at - 2;
    if (raw & 1) fail(WireErrorCode.invalid, 'payload', end - 1, CLAUSE, 'the payload is a whole number of half-words');
    if (strict) strictMtu(at + 1, o, p, raw, at + 2, CLAUSE_CONT);
    return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'continuation', payload: bytes.subarray(at + 2, end) };
  }
  need(end, at + 2, 2, s ? 'streamID' : 'length', s ? CLAUSE_SINGLE : CLAUSE_END);
  const field = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
  const d = at + 4;
  const raw = end - d;
  if (raw & 1) fail(WireErrorCode.invalid, 'payload', end - 1, CLAUSE, 'the payload is a whole number of half-words');
  if (s && !e) {
    if (strict) strictMtu(at + 1, o, p, raw, d, CLAUSE_START);
    return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'start', streamID: field, payload: bytes.subarray(d, end) };
  }
  if (!s && field === 0 && raw === 0) {
    if (strict && (o | p)) fail(WireErrorCode.invalid, o ? 'odd' : 'pad', at + 1, CLAUSE_OP, 'an abort has no payload: O and P are 0');
    return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'abort', length: 0, payload: bytes.subarray(d, end) };
  }
  if (strict) {
    if (raw === 0) fail(WireErrorCode.invalid, 'payload', d, CLAUSE_PAYLOAD, 'type 9 packets always have a data payload, unless terminating the PDU');
    strictTail(bytes, d, raw, o, p, s ? CLAUSE_SINGLE : CLAUSE_END);
  }
  // The pad byte is not part of the payload; a P bit without room for a pad byte is kept raw.
  const stop = p && raw > 0 ? end - 1 : end;
  const padByte = stop === end ? 0 : (bytes[stop] as number);
  const payload = bytes.subarray(d, stop);
  if (s) {
    return padByte === 0
      ? { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'single', streamID: field, payload }
      : { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'single', streamID: field, payload, padByte };
  }
  const pduLength = field === 0 ? 0x10000 : field;
  return padByte === 0
    ? { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'end', length: field, pduLength, payload }
    : { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'end', length: field, pduLength, payload, padByte };
}

/**
 * Start and continuation segments: O and P are "rsv" (Figures 4-2/4-3) and "Start segments and
 * continuation segments are always filled to the MTU size" (§3.2.4), a multiple of 4 bytes
 * between 32 and 256 (§5.5.1).
 */
function strictMtu(flagsAt: number, o: number, p: number, raw: number, d: number, clause: string): void {
  if (o | p) fail(WireErrorCode.reserved, o ? 'odd' : 'pad', flagsAt, clause, 'O and P are reserved in start and continuation segments');
  if (raw % 4 !== 0 || raw < MTU_MIN || raw > MTU_MAX) {
    fail(WireErrorCode.invalid, 'payload', d, CLAUSE_SAR, `${raw} bytes is not an MTU (a multiple of 4 from 32 to 256)`);
  }
}

/**
 * Whether a strict decoding error is the segment size check and nothing else: a start or
 * continuation payload that is not an MTU (§3.2.4 "always filled to the MTU size", §5.5.1), or a
 * single or end payload over the largest MTU (§3.2.5 rules 3, 6). Every other strict check of the
 * packet comes before it, so the lenient decoding of the same bytes is the packet strict decoding
 * would give without it: what a reassembler, which judges sizes against its own MTU (rules 3–6),
 * takes instead.
 */
export function isSegmentSizeError(e: WireError): boolean {
  return e.code === WireErrorCode.invalid && e.field === 'payload' && e.clause === CLAUSE_SAR;
}

/** Bytes after the common header for a packet, pad byte included. */
function bodyLength(p: Type9Packet): number {
  switch (p.segment) {
    case 'single':
    case 'end':
      return 2 + p.payload.length + (p.payload.length & 1);
    case 'start':
    case 'abort':
    case 'extended':
      return 2 + p.payload.length;
    case 'continuation':
      return p.payload.length;
    case 'tm':
      return 2 + TM_BYTES;
  }
}

export function type9Length(p: Type9Packet): number {
  return PREFIX_BYTES + 2 * idBytes(p.tt) + 2 + bodyLength(p);
}

function labelError(field: string, clause: string, detail: string): never {
  throw new WireError(WireErrorCode.invalid, field, 0, clause, detail);
}

/** Checks every field's range and that the labels agree with the raw fields; returns the 3-bit field. */
function checkType9(p: Type9Packet): number {
  const size = idBytes(p.tt);
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE);
  checkRange(p.sourceID, size * 8, 'sourceID', CLAUSE);
  checkRange(p.cos, 8, 'cos', CLAUSE);
  checkRange(p.start, 1, 'start', CLAUSE);
  checkRange(p.end, 1, 'end', CLAUSE);
  checkRange(p.xh, 1, 'xh', CLAUSE);
  if (p.odd !== undefined) checkRange(p.odd, 1, 'odd', CLAUSE_OP);
  if (p.pad !== undefined) checkRange(p.pad, 1, 'pad', CLAUSE_OP);
  const x3 = p.segment === 'tm' || p.segment === 'extended' ? p.xtype : p.rsrv;
  checkRange(x3, 3, p.segment === 'tm' || p.segment === 'extended' ? 'xtype' : 'rsrv', CLAUSE);
  const length = p.segment === 'end' || p.segment === 'abort' ? p.length : 0;
  const n = p.segment === 'tm' ? 0 : p.payload.length;
  const derived = type9Segment(p.start, p.end, p.xh, x3, length, n);
  if (derived !== p.segment) labelError('segment', CLAUSE, `S=${p.start} E=${p.end} xh=${p.xh} is a ${derived} packet, not ${p.segment}`);
  switch (p.segment) {
    case 'single':
    case 'start':
    case 'extended':
      checkRange(p.streamID, 16, 'streamID', CLAUSE);
      break;
    case 'end':
      checkRange(p.length, 16, 'length', CLAUSE);
      if (p.pduLength !== (p.length === 0 ? 0x10000 : p.length)) labelError('pduLength', CLAUSE, `length ${p.length} means ${p.length || 0x10000} bytes`);
      break;
    case 'tm':
      checkRange(p.streamID, 16, 'streamID', CLAUSE);
      checkRange(p.tmOp, 4, 'tmOp', CLAUSE_TM);
      checkRange(p.rsrv, 1, 'rsrv', CLAUSE_TM);
      checkRange(p.wildcard, 3, 'wildcard', CLAUSE_TM);
      checkRange(p.mask, 8, 'mask', CLAUSE_TM);
      checkRange(p.parameter1, 8, 'parameter1', CLAUSE_TM);
      checkRange(p.parameter2, 8, 'parameter2', CLAUSE_TM);
      if (p.tmOpName !== tmOpName(p.tmOp)) labelError('tmOpName', CLAUSE_TM_OP, `TM OP ${p.tmOp} is ${tmOpName(p.tmOp)}`);
      if (!sameLabel(p.tm, tmMessage(p.tmOp, p.parameter1, p.parameter2))) labelError('tm', tmClause(p.tmOp), 'tm does not match tmOp, parameter1 and parameter2');
      if (!sameLabel(p.operand, tmOperand(p.wildcard, p.mask))) labelError('operand', CLAUSE_OPERAND, 'operand does not match wildcard and mask');
      break;
    default:
      break;
  }
  if (p.segment === 'single' || p.segment === 'end') {
    const odd = p.payload.length & 1;
    // P must describe the payload: otherwise decoding would not give the same payload back.
    // P=1 with no payload at all is a malformed packet lenient decoding keeps; it changes no layout.
    if (p.pad !== undefined && p.pad !== odd && !(p.pad === 1 && p.payload.length === 0)) labelError('pad', CLAUSE_OP, `P=${p.pad} for a ${p.payload.length}-byte payload`);
    if (p.padByte !== undefined) {
      checkRange(p.padByte, 8, 'padByte', CLAUSE_END);
      if (!odd) labelError('padByte', CLAUSE_END, 'an even payload has no pad byte');
    }
  } else if (p.segment === 'start' || p.segment === 'continuation') {
    // No pad mechanism here (O/P reserved): the payload is whole half-words.
    if (p.payload.length & 1) labelError('payload', CLAUSE_SAR, `a ${p.segment} payload is a whole number of half-words`);
  } else if (p.segment === 'extended' && p.payload.length & 1) {
    labelError('payload', CLAUSE, 'the payload is a whole number of half-words');
  }
  return x3;
}

export function encodeType9(p: Type9Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  if ((p.ftype as number) !== FTYPE_DATA_STREAMING) labelError('ftype', CLAUSE, `ftype ${String(p.ftype)} is not 9`);
  const x3 = checkType9(p);
  checkRoom(bytes, offset, type9Length(p), CLAUSE);
  const at = encodeTransport(p, p.destinationID, p.sourceID, bytes, offset, ackIdBits);
  const padded = (p.segment === 'single' || p.segment === 'end') && (p.payload.length & 1) === 1;
  // Table 4-2: O = odd number of half-words after padding, P = a pad byte was added.
  const derivedOdd = p.segment === 'single' || p.segment === 'end' ? ((p.payload.length + 1) >> 1) & 1 : 0;
  const odd = p.odd ?? derivedOdd;
  const pad = p.pad ?? (padded ? 1 : 0);
  bytes[at] = p.cos;
  bytes[at + 1] = (p.start << 7) | (p.end << 6) | (x3 << 3) | (p.xh << 2) | (odd << 1) | pad;
  let d = at + 2;
  switch (p.segment) {
    case 'single':
    case 'start':
    case 'extended':
    case 'tm':
      bytes[d] = p.streamID >> 8;
      bytes[d + 1] = p.streamID & 0xff;
      d += 2;
      break;
    case 'end':
    case 'abort':
      bytes[d] = p.length >> 8;
      bytes[d + 1] = p.length & 0xff;
      d += 2;
      break;
    case 'continuation':
      break;
  }
  if (p.segment === 'tm') {
    bytes[d] = (p.tmOp << 4) | (p.rsrv << 3) | p.wildcard;
    bytes[d + 1] = p.mask;
    bytes[d + 2] = p.parameter1;
    bytes[d + 3] = p.parameter2;
    return d + TM_BYTES;
  }
  bytes.set(p.payload, d);
  d += p.payload.length;
  if (padded) bytes[d++] = p.padByte ?? 0;
  return d;
}

export const type9Codec: LogicalCodec<Type9Packet> = {
  ftype: FTYPE_DATA_STREAMING,
  name: 'DATA STREAMING',
  decode: decodeType9,
  encode: encodeType9,
  encodedLength: type9Length,
  oddHalfwords: type9OddHalfwords,
  parityAssumed: type9ParityAssumed,
};

/**
 * Half-word parity of the logical packet, for serial framing (DECISIONS §1). The header is
 * 3 + ids half-words (2 + ids for a continuation). Single and end segments add the O bit: "This
 * bit makes it possible for the destination to determine the end of a data payload if packet
 * padding is done by the underlying transport" (§4.2). Start and continuation payloads are the
 * MTU, a multiple of 4 bytes (§5.5.1), so they add an even count. Extended packets are taken to
 * be the fixed TM size (header + streamID + 4 bytes), also for reserved xtypes. For start and
 * continuation segments that is an assumption (type9ParityAssumed).
 */
export function type9OddHalfwords(bytes: Uint8Array, offset: number, available: number): boolean {
  const limit = offset + available;
  need(limit, offset, PREFIX_BYTES, 'prefix', CLAUSE);
  const tt = ((bytes[offset + 1] as number) >> 4) & 3;
  const size = idBytes(tt, offset + 1);
  const at = offset + PREFIX_BYTES + 2 * size;
  // Checked from the IDs on, as decodeType9 does: a packet too short for its IDs is reported
  // where it ends, not at a header offset past the end.
  need(limit, offset + PREFIX_BYTES, 2 * size + 2, 'header', CLAUSE);
  const flags = bytes[at + 1] as number;
  const header = 1 + size + 2;
  if (flags & 0x04) return ((header + 2) & 1) === 1;
  const s = flags >> 7;
  const e = (flags >> 6) & 1;
  if (!s && !e) return ((header - 1) & 1) === 1;
  if (s && !e) return (header & 1) === 1;
  return ((header + ((flags >> 1) & 1)) & 1) === 1;
}

/**
 * Start and continuation segments (xh = 0, E = 0): "Start segments and continuation segments are
 * always filled to the MTU size" (§3.2.4), so type9OddHalfwords takes their payload to be a
 * multiple of 4 bytes, and O and P, which would say otherwise, are reserved there (Figures 4-2,
 * 4-3). A payload of 4k + 2 bytes flips the parity: serial framing finds its CRC at the other
 * layout (serial.ts decodeSerial), so the packet reaches the segment size checks instead of being
 * reported as a CRC error.
 */
export function type9ParityAssumed(bytes: Uint8Array, offset: number, available: number): boolean {
  const limit = offset + available;
  if (offset + PREFIX_BYTES > limit) return false;
  const tt = ((bytes[offset + 1] as number) >> 4) & 3;
  if (tt === 3) return false;
  const flagsAt = offset + PREFIX_BYTES + 2 * (tt === 0 ? 1 : tt === 1 ? 2 : 4) + 1;
  if (flagsAt >= limit) return false;
  return ((bytes[flagsAt] as number) & 0x44) === 0;
}
