import { z } from 'zod';
import { type9Segment } from '../../wire/type9.ts';
import type { Type9Packet, Type9Segment } from '../../wire/type9.ts';
import {
  TM_MESSAGE_NAMES, TM_OP_NAMES, TM_SCOPES, tmMessage, tmOpCode, tmOpName, tmOperand, tmOperandFields, tmParameters,
} from '../../wire/type9-tm.ts';
import type { TmMessage, TmMessageName, TmOperand, TmScope } from '../../wire/type9-tm.ts';
import { hexBytes, invalidJson, orInvalid, parseWith, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

/**
 * JSON input of a Type 9 packet (docs/cli.md): what `riodp decode --json` prints.
 * Raw fields and labels pair up — (start, end, xh) with segment, length with pduLength, tmOp
 * with tmOpName, (parameter1, parameter2) with tm, (wildcard, mask) with operand — and either
 * side may be left out; given both, they must agree. Inside `tm` and `operand` only the fields
 * that identify the value are needed; derived ones (fullness, factor) are checked when given.
 */
const SEGMENTS = ['single', 'start', 'continuation', 'end', 'abort', 'tm', 'extended'] as const satisfies readonly Type9Segment[];

const tmSchema = z.strictObject({
  message: z.enum(TM_MESSAGE_NAMES as [TmMessageName, ...TmMessageName[]]),
  value: uint(8).optional(),
  level: uint(8).optional(),
  fullness: z.number().optional(),
  rate: z.enum(['average', 'peak']).optional(),
  amount: uint(8).optional(),
  factor: z.number().optional(),
  allocationUnit: uint(4).optional(),
  credits: uint(8).optional(),
  field: z.enum(['tmOp', 'parameter1', 'parameter2']).optional(),
});

const operandSchema = z.strictObject({
  scope: z.enum(TM_SCOPES as [TmScope, ...TmScope[]]),
  cosValues: z.number().int().optional(),
  problem: z.enum(['wildcard', 'mask']).optional(),
});

const schema = z.strictObject({
  ...headerShape,
  ftype: z.literal(9),
  destinationID: deviceId,
  sourceID: deviceId,
  cos: uint(8),
  start: uint(1).optional(),
  end: uint(1).optional(),
  rsrv: uint(3).optional(),
  xtype: uint(3).optional(),
  xh: uint(1).optional(),
  odd: uint(1).optional(),
  pad: uint(1).optional(),
  segment: z.enum(SEGMENTS).optional(),
  streamID: uint(16).optional(),
  length: uint(16).optional(),
  pduLength: z.number().int().min(1).max(0x10000).optional(),
  tmOp: uint(4).optional(),
  tmOpName: z.enum([...TM_OP_NAMES, 'RESERVED']).optional(),
  wildcard: uint(3).optional(),
  mask: uint(8).optional(),
  parameter1: uint(8).optional(),
  parameter2: uint(8).optional(),
  tm: tmSchema.optional(),
  operand: operandSchema.optional(),
  payload: hexBytes.optional(),
  padByte: uint(8).optional(),
  crc: uint(16).optional(),
  earlyCrc: uint(16).optional(),
});
type Json = z.infer<typeof schema>;

/** Every field the label gives must equal the one derived from the raw fields. */
function agrees(given: object, derived: object, field: string): void {
  for (const [k, v] of Object.entries(given)) {
    if (v !== undefined && (derived as Record<string, unknown>)[k] !== v) {
      invalidJson(`${field}.${k}`, `${JSON.stringify(v)} does not match the raw fields (${JSON.stringify(derived)})`);
    }
  }
}

/** S/E/xh of a segment label; extended packets keep S and E as given (they are reserved bits there). */
function segmentBits(j: Json): { start: number; end: number; xh: number } {
  const seg = j.segment;
  if (seg === undefined) {
    return { start: orInvalid(j.start, 'start', 'give start, end and xh, or segment'), end: orInvalid(j.end, 'end', 'give start, end and xh, or segment'), xh: orInvalid(j.xh, 'xh', 'give start, end and xh, or segment') };
  }
  const ext = seg === 'tm' || seg === 'extended';
  const want = ext ? { start: j.start ?? 0, end: j.end ?? 0, xh: 1 } : { start: seg === 'single' || seg === 'start' ? 1 : 0, end: seg === 'single' || seg === 'end' || seg === 'abort' ? 1 : 0, xh: 0 };
  agrees({ start: j.start, end: j.end, xh: j.xh }, want, 'segment bits');
  return want;
}

function resolveLength(j: Json, seg: Type9Segment | undefined): number {
  if (j.length !== undefined) {
    if (j.pduLength !== undefined && j.pduLength !== (j.length || 0x10000)) invalidJson('pduLength', `length ${j.length} means ${j.length || 0x10000} bytes`);
    return j.length;
  }
  if (j.pduLength !== undefined) return j.pduLength & 0xffff;
  return seg === 'abort' ? 0 : invalidJson('length', 'give length or pduLength');
}

function tmFromJson(t: z.infer<typeof tmSchema>): TmMessage | undefined {
  const why = `${t.message} needs this field`;
  switch (t.message) {
    case 'XOFF':
    case 'XON':
    case 'APPLICATION_DEFINED':
      return { message: t.message };
    case 'USER_DEFINED':
      return { message: t.message, value: orInvalid(t.value, 'tm.value', why) };
    case 'Q_STATUS':
      return { message: t.message, level: orInvalid(t.level, 'tm.level', why), fullness: 0 };
    case 'MAINTAIN':
    case 'DOUBLE':
      return { message: t.message, rate: orInvalid(t.rate, 'tm.rate', why) };
    case 'REDUCE':
    case 'INCREASE':
      return { message: t.message, rate: orInvalid(t.rate, 'tm.rate', why), amount: orInvalid(t.amount, 'tm.amount', why), factor: 0 };
    case 'ALLOCATE':
    case 'CREDIT_STATUS':
      return { message: t.message, allocationUnit: orInvalid(t.allocationUnit, 'tm.allocationUnit', why), credits: orInvalid(t.credits, 'tm.credits', why) };
    case 'RESERVED':
      return undefined;
  }
}

function resolveTm(j: Json, base: TmBase): Type9Packet {
  let tmOp = j.tmOp;
  if (j.tmOpName !== undefined && j.tmOpName !== 'RESERVED') {
    const code = tmOpCode(j.tmOpName);
    if (tmOp !== undefined && tmOp !== code) invalidJson('tmOpName', `TM OP ${tmOp} is ${tmOpName(tmOp)}`);
    tmOp = code;
  }
  const op = orInvalid(tmOp, 'tmOp', 'give tmOp, or a tmOpName other than RESERVED');
  let { parameter1, parameter2 } = j;
  if (parameter1 === undefined || parameter2 === undefined) {
    const m = j.tm === undefined ? undefined : tmFromJson(j.tm);
    const fromLabel = m === undefined ? undefined : tmParameters(op, m);
    parameter1 ??= orInvalid(fromLabel, 'parameter1', 'give parameter1 and parameter2, or a tm message that defines them').parameter1;
    parameter2 ??= orInvalid(fromLabel, 'parameter2', 'give parameter1 and parameter2, or a tm message that defines them').parameter2;
  }
  const tm = tmMessage(op, parameter1, parameter2);
  if (j.tm !== undefined) agrees(j.tm, tm, 'tm');
  let { wildcard, mask } = j;
  if (j.operand !== undefined && (wildcard === undefined || mask === undefined)) {
    const o = j.operand;
    const given: TmOperand | undefined =
      o.scope === 'classGroup' ? { scope: o.scope, cosValues: orInvalid(o.cosValues, 'operand.cosValues', 'a class group needs cosValues') } : o.scope === 'INVALID' ? undefined : { scope: o.scope };
    const fields = tmOperandFields(orInvalid(given, 'wildcard', 'an INVALID operand needs wildcard and mask'));
    wildcard ??= fields.wildcard;
    mask ??= fields.mask;
  }
  wildcard = orInvalid(wildcard, 'wildcard', 'give wildcard and mask, or operand');
  mask = orInvalid(mask, 'mask', 'give wildcard and mask, or operand');
  const operand = tmOperand(wildcard, mask);
  if (j.operand !== undefined) agrees(j.operand, operand, 'operand');
  if (j.payload !== undefined && j.payload.length > 0) invalidJson('payload', 'a TM packet has no payload');
  return {
    ...base, xtype: 0, segment: 'tm', streamID: orInvalid(j.streamID, 'streamID', 'a TM packet has a streamID'),
    tmOp: op, tmOpName: tmOpName(op), rsrv: j.rsrv ?? 0, wildcard, mask, parameter1, parameter2, tm, operand,
  };
}

interface TmBase {
  readonly ackID: number; readonly vc: number; readonly crf: number; readonly prio: number; readonly tt: number; readonly ftype: 9;
  readonly destinationID: number; readonly sourceID: number; readonly cos: number;
  readonly start: number; readonly end: number; readonly xh: number; readonly odd?: number; readonly pad?: number;
}

/** Fields each segment type has besides the common ones; anything else in the input is an error. */
const TM_KEYS = ['tmOp', 'tmOpName', 'wildcard', 'mask', 'parameter1', 'parameter2', 'tm', 'operand'] as const;
const OWN_KEYS: Readonly<Record<Type9Segment, readonly (keyof Json)[]>> = {
  single: ['rsrv', 'streamID', 'payload', 'padByte'],
  start: ['rsrv', 'streamID', 'payload'],
  continuation: ['rsrv', 'payload'],
  end: ['rsrv', 'length', 'pduLength', 'payload', 'padByte'],
  abort: ['rsrv', 'length', 'payload'],
  tm: ['xtype', 'rsrv', 'streamID', 'payload', ...TM_KEYS],
  extended: ['xtype', 'streamID', 'payload'],
};
const COMMON_KEYS = new Set<string>(['ackID', 'vc', 'crf', 'prio', 'tt', 'ftype', 'destinationID', 'sourceID', 'cos', 'start', 'end', 'xh', 'odd', 'pad', 'segment', 'crc', 'earlyCrc']);

function onlyOwnFields(j: Json, p: Type9Packet): Type9Packet {
  const own = new Set<string>(OWN_KEYS[p.segment]);
  for (const [k, v] of Object.entries(j)) {
    if (v !== undefined && !COMMON_KEYS.has(k) && !own.has(k)) invalidJson(k, `a ${p.segment} packet has no ${k} field`);
  }
  return p;
}

export function type9FromJson(json: unknown): Type9Packet {
  const j = parseWith(schema, json);
  return onlyOwnFields(j, resolve(j));
}

function resolve(j: Json): Type9Packet {
  const bits = segmentBits(j);
  const base: TmBase = {
    ackID: j.ackID, vc: j.vc, crf: j.crf, prio: j.prio, tt: j.tt, ftype: 9,
    destinationID: j.destinationID, sourceID: j.sourceID, cos: j.cos, ...bits,
    ...(j.odd === undefined ? {} : { odd: j.odd }), ...(j.pad === undefined ? {} : { pad: j.pad }),
  };
  if (bits.xh) {
    if (j.xtype === undefined && j.segment !== 'tm') invalidJson('xtype', 'an extended packet needs xtype');
    const xtype: number = j.xtype ?? 0;
    if (j.segment !== undefined && j.segment !== (xtype === 0 ? 'tm' : 'extended')) invalidJson('segment', `xtype ${xtype} is ${xtype === 0 ? 'tm' : 'extended'}`);
    if (xtype === 0) return resolveTm(j, base);
    return { ...base, xtype, segment: 'extended', streamID: orInvalid(j.streamID, 'streamID', 'an extended packet has a streamID'), payload: j.payload ?? new Uint8Array(0) };
  }
  if (j.xtype !== undefined) invalidJson('xtype', 'xtype exists only with xh = 1; the field is rsrv');
  const payload = j.payload ?? new Uint8Array(0);
  const rsrv = j.rsrv ?? 0;
  const isEnd = !bits.start && bits.end;
  const length = isEnd ? resolveLength(j, j.segment) : 0;
  const seg = type9Segment(bits.start, bits.end, 0, rsrv, length, payload.length);
  if (j.segment !== undefined && j.segment !== seg) invalidJson('segment', `these fields describe a ${seg} packet`);
  const padByte = j.padByte === undefined ? {} : { padByte: j.padByte };
  switch (seg) {
    case 'single':
    case 'start':
      return { ...base, rsrv, segment: seg, streamID: orInvalid(j.streamID, 'streamID', `a ${seg} segment has a streamID`), payload, ...padByte };
    case 'continuation':
      return { ...base, rsrv, segment: seg, payload };
    case 'abort':
      return { ...base, rsrv, segment: seg, length: 0, payload };
    default:
      return { ...base, rsrv, segment: 'end', length, pduLength: length || 0x10000, payload, ...padByte };
  }
}
