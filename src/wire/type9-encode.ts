import { WireError, WireErrorCode, checkRange, checkRoom } from './errors.ts';
import { PREFIX_BYTES, encodeTransport, idBytes } from './header.ts';
import { CLAUSE_OPERAND, CLAUSE_TM_OP, sameLabel, tmClause, tmMessage, tmOpName, tmOperand } from './type9-tm.ts';
import { CLAUSE_T9, CLAUSE_T9_END, CLAUSE_T9_OP, CLAUSE_T9_SAR, CLAUSE_T9_TM, FTYPE_DATA_STREAMING, TM_BYTES, type9Segment } from './type9-types.ts';
import type { Type9Packet } from './type9-types.ts';

// The Type 9 DATA STREAMING encoder (Part 10 §4): every field range-checked and every label
// checked against the raw fields before anything is written. Decoding is type9.ts.

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
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE_T9);
  checkRange(p.sourceID, size * 8, 'sourceID', CLAUSE_T9);
  checkRange(p.cos, 8, 'cos', CLAUSE_T9);
  checkRange(p.start, 1, 'start', CLAUSE_T9);
  checkRange(p.end, 1, 'end', CLAUSE_T9);
  checkRange(p.xh, 1, 'xh', CLAUSE_T9);
  if (p.odd !== undefined) checkRange(p.odd, 1, 'odd', CLAUSE_T9_OP);
  if (p.pad !== undefined) checkRange(p.pad, 1, 'pad', CLAUSE_T9_OP);
  const x3 = p.segment === 'tm' || p.segment === 'extended' ? p.xtype : p.rsrv;
  checkRange(x3, 3, p.segment === 'tm' || p.segment === 'extended' ? 'xtype' : 'rsrv', CLAUSE_T9);
  const length = p.segment === 'end' || p.segment === 'abort' ? p.length : 0;
  const n = p.segment === 'tm' ? 0 : p.payload.length;
  const derived = type9Segment(p.start, p.end, p.xh, x3, length, n);
  if (derived !== p.segment) labelError('segment', CLAUSE_T9, `S=${p.start} E=${p.end} xh=${p.xh} is a ${derived} packet, not ${p.segment}`);
  switch (p.segment) {
    case 'single':
    case 'start':
    case 'extended':
      checkRange(p.streamID, 16, 'streamID', CLAUSE_T9);
      break;
    case 'end':
      checkRange(p.length, 16, 'length', CLAUSE_T9);
      if (p.pduLength !== (p.length === 0 ? 0x10000 : p.length)) labelError('pduLength', CLAUSE_T9, `length ${p.length} means ${p.length || 0x10000} bytes`);
      break;
    case 'tm':
      checkRange(p.streamID, 16, 'streamID', CLAUSE_T9);
      checkRange(p.tmOp, 4, 'tmOp', CLAUSE_T9_TM);
      checkRange(p.rsrv, 1, 'rsrv', CLAUSE_T9_TM);
      checkRange(p.wildcard, 3, 'wildcard', CLAUSE_T9_TM);
      checkRange(p.mask, 8, 'mask', CLAUSE_T9_TM);
      checkRange(p.parameter1, 8, 'parameter1', CLAUSE_T9_TM);
      checkRange(p.parameter2, 8, 'parameter2', CLAUSE_T9_TM);
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
    if (p.pad !== undefined && p.pad !== odd && !(p.pad === 1 && p.payload.length === 0)) labelError('pad', CLAUSE_T9_OP, `P=${p.pad} for a ${p.payload.length}-byte payload`);
    if (p.padByte !== undefined) {
      checkRange(p.padByte, 8, 'padByte', CLAUSE_T9_END);
      if (!odd) labelError('padByte', CLAUSE_T9_END, 'an even payload has no pad byte');
    }
  } else if (p.segment === 'start' || p.segment === 'continuation') {
    // No pad mechanism here (O/P reserved): the payload is whole half-words.
    if (p.payload.length & 1) labelError('payload', CLAUSE_T9_SAR, `a ${p.segment} payload is a whole number of half-words`);
  } else if (p.segment === 'extended' && p.payload.length & 1) {
    labelError('payload', CLAUSE_T9, 'the payload is a whole number of half-words');
  }
  return x3;
}

export function encodeType9(p: Type9Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  if ((p.ftype as number) !== FTYPE_DATA_STREAMING) labelError('ftype', CLAUSE_T9, `ftype ${String(p.ftype)} is not 9`);
  const x3 = checkType9(p);
  checkRoom(bytes, offset, type9Length(p), CLAUSE_T9);
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
