import { WireError, WireErrorCode, fail, need } from './errors.ts';
import { PREFIX_BYTES, decodeHeader, keepRsrvAckID, readId } from './header.ts';
import type { PacketDecodeOptions } from './header.ts';
import type { LogicalCodec } from './codec.ts';
import { CLAUSE_OPERAND, CLAUSE_TM_OP, tmClause, tmMessage, tmOpName, tmOperand } from './type9-tm.ts';
import type { TmMessage, TmOperand } from './type9-tm.ts';
import { encodeType9, type9Length } from './type9-encode.ts';
import { type9OddHalfwords, type9ParityAssumed } from './type9-framing.ts';
import {
  CLAUSE_T9, CLAUSE_T9_CONT, CLAUSE_T9_END, CLAUSE_T9_OP, CLAUSE_T9_PAYLOAD, CLAUSE_T9_SAR, CLAUSE_T9_SINGLE, CLAUSE_T9_START, CLAUSE_T9_TM,
  FTYPE_DATA_STREAMING, MTU_MAX, MTU_MIN, TM_BYTES,
} from './type9-types.ts';
import type { Type9Packet } from './type9-types.ts';

// The Type 9 DATA STREAMING decoder (Part 10 §4, DECISIONS §4) and the codec the packet layer
// dispatches to. The packet shapes and constants are in type9-types.ts, the encoder in
// type9-encode.ts, the half-word parity in type9-framing.ts; all are re-exported here for the
// modules that import them from this file.
export { FTYPE_DATA_STREAMING, MTU_MAX, MTU_MIN, TM_BYTES, type9Segment } from './type9-types.ts';
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
export { encodeType9, type9Length } from './type9-encode.ts';
export { type9OddHalfwords, type9ParityAssumed } from './type9-framing.ts';

/**
 * Strict checks of a non-empty single or end segment's payload (raw = bytes after the header,
 * pad byte included): Table 4-2 O/P, "pad=0x00" (Figure 4-4), "always have a data payload, unless
 * terminating the PDU" (§4.2) and "equal to or less than the MTU size" (§3.2.5).
 */
function strictTail(bytes: Uint8Array, at: number, raw: number, odd: number, pad: number, clause: string): void {
  if (pad && bytes[at + raw - 1] !== 0) fail(WireErrorCode.reserved, 'padByte', at + raw - 1, clause, 'the pad byte shall be 0x00');
  if (odd !== ((raw >> 1) & 1)) fail(WireErrorCode.invalid, 'odd', at, CLAUSE_T9_OP, `O is ${odd} for ${raw >> 1} half-words`);
  if (raw > MTU_MAX) fail(WireErrorCode.invalid, 'payload', at + MTU_MAX, CLAUSE_T9_SAR, `${raw} bytes exceed the largest MTU (256)`);
}

/** "The segmentation bits, Start and End are not used, or are the Odd and Pad fields. Those are left 0's" (§4.3). */
function tmStrict(at: number, flags: number, b0: number, m: TmMessage, operand: TmOperand, tmOp: number): void {
  if (flags & 0xc3) fail(WireErrorCode.reserved, 'flags', at + 1, CLAUSE_T9_TM, 'S, E, O and P are left 0 in extended packets');
  if (b0 & 0x08) fail(WireErrorCode.reserved, 'rsrv', at + 4, CLAUSE_T9_TM, 'the bit after TM OP is reserved');
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
  need(end, offset, PREFIX_BYTES, 'prefix', CLAUSE_T9);
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
  if (ftype !== FTYPE_DATA_STREAMING) fail(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE_T9, `ftype ${ftype} is not data streaming`);
  const vc = (b0 >> 1) & 1;
  const crf = b0 & 1;
  const prio = b1 >> 6;
  const size = tt === 0 ? 1 : tt === 1 ? 2 : 4;
  const at = offset + PREFIX_BYTES + 2 * size;
  need(end, offset + PREFIX_BYTES, 2 * size + 2, 'header', CLAUSE_T9);
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
    need(end, at + 2, 2, 'streamID', CLAUSE_T9_TM);
    const streamID = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    if (x3 !== 0) {
      if (strict) fail(WireErrorCode.reserved, 'xtype', at + 1, CLAUSE_TM_OP, `xtype 0b${x3.toString(2).padStart(3, '0')} is reserved`);
      if ((end - at - 4) & 1) fail(WireErrorCode.invalid, 'payload', end - 1, CLAUSE_T9, 'the payload is a whole number of half-words');
      return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, xtype: x3, xh, odd: o, pad: p, segment: 'extended', streamID, payload: bytes.subarray(at + 4, end) };
    }
    const t = at + 4;
    need(end, t, TM_BYTES, 'tm', CLAUSE_T9_TM);
    if (t + TM_BYTES !== end) fail(WireErrorCode.trailing, 'packet', t + TM_BYTES, CLAUSE_T9_TM, 'the TM packet adds a fixed 4 bytes');
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

  if (strict && x3 !== 0) fail(WireErrorCode.reserved, 'rsrv', at + 1, CLAUSE_T9, 'reserved bits are assigned to logic 0s');
  if (!s && !e) {
    const raw = end - at - 2;
    if (raw & 1) fail(WireErrorCode.invalid, 'payload', end - 1, CLAUSE_T9, 'the payload is a whole number of half-words');
    if (strict) strictMtu(at + 1, o, p, raw, at + 2, CLAUSE_T9_CONT);
    return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'continuation', payload: bytes.subarray(at + 2, end) };
  }
  need(end, at + 2, 2, s ? 'streamID' : 'length', s ? CLAUSE_T9_SINGLE : CLAUSE_T9_END);
  const field = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
  const d = at + 4;
  const raw = end - d;
  if (raw & 1) fail(WireErrorCode.invalid, 'payload', end - 1, CLAUSE_T9, 'the payload is a whole number of half-words');
  if (s && !e) {
    if (strict) strictMtu(at + 1, o, p, raw, d, CLAUSE_T9_START);
    return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'start', streamID: field, payload: bytes.subarray(d, end) };
  }
  if (!s && field === 0 && raw === 0) {
    if (strict && (o | p)) fail(WireErrorCode.invalid, o ? 'odd' : 'pad', at + 1, CLAUSE_T9_OP, 'an abort has no payload: O and P are 0');
    return { ackID, vc, crf, prio, tt, ftype: 9, destinationID, sourceID, cos, start: s, end: e, rsrv: x3, xh, odd: o, pad: p, segment: 'abort', length: 0, payload: bytes.subarray(d, end) };
  }
  if (strict) {
    if (raw === 0) fail(WireErrorCode.invalid, 'payload', d, CLAUSE_T9_PAYLOAD, 'type 9 packets always have a data payload, unless terminating the PDU');
    strictTail(bytes, d, raw, o, p, s ? CLAUSE_T9_SINGLE : CLAUSE_T9_END);
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
    fail(WireErrorCode.invalid, 'payload', d, CLAUSE_T9_SAR, `${raw} bytes is not an MTU (a multiple of 4 from 32 to 256)`);
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
  return e.code === WireErrorCode.invalid && e.field === 'payload' && e.clause === CLAUSE_T9_SAR;
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
