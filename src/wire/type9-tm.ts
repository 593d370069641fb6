import { WireError, WireErrorCode, checkRange } from './errors.ts';

/**
 * Meaning of the Type 9 traffic management header (Part 10 §4.3, §3.4): the operation
 * (TM_OP with parameter 1 and 2, Tables 4-3 to 4-6) and the operand (VSID + wildcard + mask,
 * §4.3.1). Pure functions over the raw fields; the codec (type9.ts) keeps the raw fields.
 */

export const CLAUSE_TM_OP = 'Part 10 §4.3 Table 4-3';
export const CLAUSE_OPERAND = 'Part 10 §4.3.1';
export const CLAUSE_BASIC = 'Part 10 §4.3.2 Table 4-4';
export const CLAUSE_RATE = 'Part 10 §4.3.3 Table 4-5';
export const CLAUSE_CREDIT = 'Part 10 §4.3.4 Table 4-6';

/**
 * TM OP (Table 4-3): 0b0100–0b1111 reserved.
 *
 * @example
 * ```ts
 * import { TM_OP, tmMessage } from 'riodp/wire';
 *
 * // Under the rate OP, parameter 1 0b0000_0101 with parameter 2 0x40 reduces the peak rate by 64/256.
 * console.log(tmMessage(TM_OP.rate, 0b0000_0101, 0x40)); // { message: 'REDUCE', rate: 'peak', amount: 64, factor: 0.75 }
 * ```
 */
export const TM_OP = { basic: 0, rate: 1, credit: 2, application: 3 } as const;
/** A TM OP value (Part 10 Table 4-3). */
export type TmOp = (typeof TM_OP)[keyof typeof TM_OP];
/**
 * The name of each TM OP value, indexed by it.
 *
 * @example
 * ```ts
 * import { TM_OP_NAMES } from 'riodp/wire';
 *
 * // A menu of the TM operations a stream manager can send.
 * console.log(TM_OP_NAMES.map((name, op) => `${op}=${name}`).join(' ')); // 0=BASIC 1=RATE 2=CREDIT 3=APPLICATION
 * ```
 */
export const TM_OP_NAMES = ['BASIC', 'RATE', 'CREDIT', 'APPLICATION'] as const;
/** The name of a TM OP; RESERVED for 0b0100–0b1111. */
export type TmOpName = (typeof TM_OP_NAMES)[number] | 'RESERVED';

/**
 * The name of a TM OP value.
 *
 * @example
 * ```ts
 * import { tmOpName } from 'riodp/wire';
 *
 * console.log(tmOpName(2), tmOpName(0b1001)); // CREDIT RESERVED
 * ```
 */
export function tmOpName(tmOp: number): TmOpName {
  return TM_OP_NAMES[tmOp] ?? 'RESERVED';
}

/**
 * The value of a TM OP name.
 *
 * @example
 * ```ts
 * import { tmOpCode } from 'riodp/wire';
 *
 * console.log(tmOpCode('CREDIT')); // 2
 * ```
 */
export function tmOpCode(name: Exclude<TmOpName, 'RESERVED'>): TmOp {
  return TM_OP_NAMES.indexOf(name) as TmOp;
}

/** "For 'Y' = 0 (Param 1 = 0x01, 0x02) the messages apply to average rate. For 'Y' = 1 (0x05, 0x06) … peak rate." */
export type TmRate = 'average' | 'peak';

/** The operation of a TM message. Numbers are the raw parameter values; ratios are derived. */
export type TmMessage =
  | { readonly message: 'XOFF' }
  | { readonly message: 'XON' }
  /** Parameter 1 = 0, parameter 2 0x01–0xFE: "User/application defined" (Tables 4-4 to 4-6). */
  | { readonly message: 'USER_DEFINED'; readonly value: number }
  /** "Source queue is n/255 full (where n is parameter 2). 0 = empty, 0xFF = full". */
  | { readonly message: 'Q_STATUS'; readonly level: number; readonly fullness: number }
  /** Rate parameter 1 = 0b0000_0Y01, parameter 2 = 0: "DECREASE<0> … MAINTAIN current rate" (§3.4.3). */
  | { readonly message: 'MAINTAIN'; readonly rate: TmRate }
  /** Rate parameter 1 = 0b0000_0Y01, n = 1–255: "CurrentRate x (1-n/256)". */
  | { readonly message: 'REDUCE'; readonly rate: TmRate; readonly amount: number; readonly factor: number }
  /** Rate parameter 1 = 0b0000_0Y10, n = 1–254: "CurrentRate x (1+ n/256)". */
  | { readonly message: 'INCREASE'; readonly rate: TmRate; readonly amount: number; readonly factor: number }
  /** Rate parameter 1 = 0b0000_0Y10, parameter 2 = 0xFF: "Double the current rate". */
  | { readonly message: 'DOUBLE'; readonly rate: TmRate }
  /** Credit parameter 1 = 0b0001_nnnn: allocation unit nnnn, parameter 2 credits (0 retires the AU, §3.4.4). */
  | { readonly message: 'ALLOCATE'; readonly allocationUnit: number; readonly credits: number }
  /** Credit parameter 1 = 0b0010_nnnn: allocation unit nnnn, parameter 2 credits. */
  | { readonly message: 'CREDIT_STATUS'; readonly allocationUnit: number; readonly credits: number }
  /** TM OP 0b0011: "The use of this message is application defined" — parameters are opaque. */
  | { readonly message: 'APPLICATION_DEFINED' }
  /** A reserved TM OP, parameter 1 or parameter 2 value; `field` names which. */
  | { readonly message: 'RESERVED'; readonly field: 'tmOp' | 'parameter1' | 'parameter2' };
/** The name of a TM message. */
export type TmMessageName = TmMessage['message'];

/**
 * Every TM message name.
 *
 * @example
 * ```ts
 * import { TM_MESSAGE_NAMES } from 'riodp/wire';
 * import type { TmMessageName } from 'riodp/wire';
 *
 * // A per-message counter table for a TM monitor.
 * const seen = new Map<TmMessageName, number>(TM_MESSAGE_NAMES.map((m) => [m, 0]));
 * seen.set('XOFF', (seen.get('XOFF') ?? 0) + 1);
 * console.log(seen.size, seen.get('XOFF')); // 12 1
 * ```
 */
export const TM_MESSAGE_NAMES: readonly TmMessageName[] = [
  'XOFF', 'XON', 'USER_DEFINED', 'Q_STATUS', 'MAINTAIN', 'REDUCE', 'INCREASE', 'DOUBLE',
  'ALLOCATE', 'CREDIT_STATUS', 'APPLICATION_DEFINED', 'RESERVED',
];

const XOFF: TmMessage = { message: 'XOFF' };
const XON: TmMessage = { message: 'XON' };
const APPLICATION: TmMessage = { message: 'APPLICATION_DEFINED' };
const RESERVED_OP: TmMessage = { message: 'RESERVED', field: 'tmOp' };
const RESERVED_P1: TmMessage = { message: 'RESERVED', field: 'parameter1' };
const RESERVED_P2: TmMessage = { message: 'RESERVED', field: 'parameter2' };

/**
 * Parameter 1 = 0 is common to the basic, rate and credit tables: "Only 0x00 shall be assured to
 * be XOFF, and 0xFF shall assured to be XON"; 0x01–0xFE are user defined.
 */
function onOff(p2: number): TmMessage {
  if (p2 === 0) return XOFF;
  if (p2 === 0xff) return XON;
  return { message: 'USER_DEFINED', value: p2 };
}

function qStatus(p2: number): TmMessage {
  return { message: 'Q_STATUS', level: p2, fullness: p2 / 255 };
}

/**
 * The operation of a TM header. Reserved values come back as `{ message: 'RESERVED', field }`.
 *
 * @example
 * ```ts
 * import { TM_OP, tmMessage } from 'riodp/wire';
 *
 * // Credit OP, parameter 1 0b0001_0011: allocate 8 credits of allocation unit 3.
 * console.log(tmMessage(TM_OP.credit, 0x13, 8)); // { message: 'ALLOCATE', allocationUnit: 3, credits: 8 }
 * console.log(tmMessage(TM_OP.basic, 0, 0xff)); // { message: 'XON' }
 * ```
 */
export function tmMessage(tmOp: number, p1: number, p2: number): TmMessage {
  switch (tmOp) {
    case TM_OP.basic:
      // Table 4-4: parameter 1 0x00 or 0x03; "All other parameter 1 values are reserved."
      if (p1 === 0) return onOff(p2);
      return p1 === 0x03 ? qStatus(p2) : RESERVED_P1;
    case TM_OP.rate: {
      if (p1 === 0) return onOff(p2);
      // Table 4-5 prints the Q_Status range as 0x01–0xFF but also "0x00 = Empty": 0x00 is kept valid.
      if (p1 === 0x03) return qStatus(p2);
      const rate: TmRate = p1 & 0b100 ? 'peak' : 'average';
      const op = p1 & ~0b100;
      if (op === 0b01) {
        return p2 === 0 ? { message: 'MAINTAIN', rate } : { message: 'REDUCE', rate, amount: p2, factor: 1 - p2 / 256 };
      }
      if (op === 0b10) {
        if (p2 === 0xff) return { message: 'DOUBLE', rate };
        // INCREASE is defined for 0x01–0xFE only; an increase of 0 is not in the table.
        return p2 === 0 ? RESERVED_P2 : { message: 'INCREASE', rate, amount: p2, factor: 1 + p2 / 256 };
      }
      return RESERVED_P1;
    }
    case TM_OP.credit: {
      if (p1 === 0) return onOff(p2);
      const au = p1 & 0xf;
      if (p1 >> 4 === 0b0001) return { message: 'ALLOCATE', allocationUnit: au, credits: p2 };
      if (p1 >> 4 === 0b0010) return { message: 'CREDIT_STATUS', allocationUnit: au, credits: p2 };
      return p1 === 0x30 ? qStatus(p2) : RESERVED_P1;
    }
    case TM_OP.application:
      return APPLICATION;
    default:
      return RESERVED_OP;
  }
}

/** Clause of the table that defines a TM OP's parameters, for error reports. */
export function tmClause(tmOp: number): string {
  if (tmOp === TM_OP.basic) return CLAUSE_BASIC;
  if (tmOp === TM_OP.rate) return CLAUSE_RATE;
  if (tmOp === TM_OP.credit) return CLAUSE_CREDIT;
  return CLAUSE_TM_OP;
}

function bad(tmOp: number, message: string): never {
  throw new WireError(WireErrorCode.invalid, 'tm', 0, tmClause(tmOp), message);
}

function rateBit(tmOp: number, rate: TmRate): number {
  if (tmOp !== TM_OP.rate) bad(tmOp, 'rate messages need TM OP 0b0001');
  return rate === 'peak' ? 0b100 : 0;
}

/**
 * Parameter 1 and 2 for a message under a TM OP (inverse of tmMessage). Only the identifying
 * fields are read (`value`, `level`, `rate`, `amount`, `allocationUnit`, `credits`); derived
 * ratios are ignored. APPLICATION_DEFINED and RESERVED carry no parameters: undefined.
 *
 * @example
 * ```ts
 * import { TM_OP, tmParameters } from 'riodp/wire';
 *
 * // Halve the average rate of a stream: REDUCE by 128/256.
 * console.log(tmParameters(TM_OP.rate, { message: 'REDUCE', rate: 'average', amount: 128, factor: 0.5 })); // { parameter1: 1, parameter2: 128 }
 * ```
 */
export function tmParameters(tmOp: number, m: TmMessage): { readonly parameter1: number; readonly parameter2: number } | undefined {
  const check = (v: number, bits: number, field: string): number => {
    checkRange(v, bits, field, tmClause(tmOp));
    return v;
  };
  const onOffOp = tmOp === TM_OP.basic || tmOp === TM_OP.rate || tmOp === TM_OP.credit;
  switch (m.message) {
    case 'XOFF':
    case 'XON':
    case 'USER_DEFINED': {
      if (!onOffOp) bad(tmOp, `${m.message} needs TM OP basic, rate or credit`);
      if (m.message === 'USER_DEFINED' && (m.value === 0 || m.value === 0xff)) bad(tmOp, 'user defined values are 0x01–0xFE');
      const p2 = m.message === 'XOFF' ? 0 : m.message === 'XON' ? 0xff : check(m.value, 8, 'value');
      return { parameter1: 0, parameter2: p2 };
    }
    case 'Q_STATUS':
      if (!onOffOp) bad(tmOp, 'Q_STATUS needs TM OP basic, rate or credit');
      return { parameter1: tmOp === TM_OP.credit ? 0x30 : 0x03, parameter2: check(m.level, 8, 'level') };
    case 'MAINTAIN':
      return { parameter1: 0b01 | rateBit(tmOp, m.rate), parameter2: 0 };
    case 'REDUCE':
      if (m.amount === 0) bad(tmOp, 'REDUCE 0 is MAINTAIN');
      return { parameter1: 0b01 | rateBit(tmOp, m.rate), parameter2: check(m.amount, 8, 'amount') };
    case 'INCREASE':
      if (m.amount === 0 || m.amount === 0xff) bad(tmOp, 'INCREASE amounts are 0x01–0xFE');
      return { parameter1: 0b10 | rateBit(tmOp, m.rate), parameter2: check(m.amount, 8, 'amount') };
    case 'DOUBLE':
      return { parameter1: 0b10 | rateBit(tmOp, m.rate), parameter2: 0xff };
    case 'ALLOCATE':
    case 'CREDIT_STATUS':
      if (tmOp !== TM_OP.credit) bad(tmOp, `${m.message} needs TM OP 0b0010`);
      return {
        parameter1: (m.message === 'ALLOCATE' ? 0x10 : 0x20) | check(m.allocationUnit, 4, 'allocationUnit'),
        parameter2: check(m.credits, 8, 'credits'),
      };
    case 'APPLICATION_DEFINED':
    case 'RESERVED':
      return undefined;
  }
}

/** Operand scopes of §4.3.1; 'INVALID' for the combinations "No other combinations … is permitted" excludes. */
export type TmOperand =
  /** <DestID><CoS><StreamID> + <wc=000> + <m = 0x00> */
  | { readonly scope: 'stream' }
  /** <DestID><CoS>< xx > + <wc = 001> + <m = 0x00> */
  | { readonly scope: 'class' }
  /** <DestID><CoS>< xx > + <wc = 001> + <m = 0xnn>: the cos bits under the mask's ones are don't cares. */
  | { readonly scope: 'classGroup'; readonly cosValues: number }
  /** <DestID>< xx >< xx > + <wc = 011> + <m = xx>: all traffic to the destination. */
  | { readonly scope: 'destination' }
  /** < xx >< xx >< xx > + <wc = 111> + <m = xx>: all traffic from this source. */
  | { readonly scope: 'source' }
  | { readonly scope: 'INVALID'; readonly problem: 'wildcard' | 'mask' };
/**
 * What a TM message's operand designates (§4.3.1): one stream, a class, a class group, a destination, a
 * source, or INVALID.
 */
export type TmScope = TmOperand['scope'];
/**
 * Every operand scope.
 *
 * @example
 * ```ts
 * import { TM_SCOPES, tmOperand } from 'riodp/wire';
 * import type { TmScope } from 'riodp/wire';
 *
 * // Tally the scopes of received TM operands (wildcard, mask).
 * const counts = new Map<TmScope, number>(TM_SCOPES.map((s) => [s, 0]));
 * for (const [wc, m] of [[0b001, 0], [0b011, 0], [0b010, 0]] as const) {
 *   const scope = tmOperand(wc, m).scope;
 *   counts.set(scope, (counts.get(scope) ?? 0) + 1);
 * }
 * console.log(counts.get('class'), counts.get('destination'), counts.get('INVALID')); // 1 1 1
 * ```
 */
export const TM_SCOPES: readonly TmScope[] = ['stream', 'class', 'classGroup', 'destination', 'source', 'INVALID'];

/**
 * Table 4-3 masks: 0x00, 0x01, 0x03, … 0xFF (ones from the least significant end).
 *
 * @example
 * ```ts
 * import { isValidMask } from 'riodp/wire';
 *
 * console.log(isValidMask(0x0f), isValidMask(0x0e)); // true false
 * ```
 */
export function isValidMask(mask: number): boolean {
  return Number.isInteger(mask) && mask >= 0 && mask <= 0xff && (mask & (mask + 1)) === 0;
}

const OPERANDS = {
  stream: { scope: 'stream' },
  class: { scope: 'class' },
  destination: { scope: 'destination' },
  source: { scope: 'source' },
  badWildcard: { scope: 'INVALID', problem: 'wildcard' },
  badMask: { scope: 'INVALID', problem: 'mask' },
} as const satisfies Record<string, TmOperand>;

/**
 * The operand of a wildcard and mask (§4.3.1). Wildcard bits are dest, class, stream (MSB
 * first); only 000, 001, 011 and 111 are permitted. The mask matters with 000 (it must be 0x00)
 * and 001 (a Table 4-3 value); with 011 and 111 it is a don't care (<m = xx>) and any value is
 * accepted.
 *
 * @example
 * ```ts
 * import { decodePacket, parseHex, tmOperand } from 'riodp/wire';
 *
 * // Wildcard 001 with mask 0x03: the 4 classes of service 0x10–0x13 to destination 0x05.
 * console.log(tmOperand(0b001, 0x03)); // { scope: 'classGroup', cosValues: 4 }
 * // The decoder labels a captured TM packet the same way.
 * const bytes = parseHex('0009 0501 1004 0000 1103 0180');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 9 && p.segment === 'tm') console.log(p.operand.scope, p.tm.message); // classGroup REDUCE
 * ```
 */
export function tmOperand(wildcard: number, mask: number): TmOperand {
  switch (wildcard) {
    case 0b000:
      return mask === 0 ? OPERANDS.stream : OPERANDS.badMask;
    case 0b001:
      if (mask === 0) return OPERANDS.class;
      if (!isValidMask(mask)) return OPERANDS.badMask;
      return { scope: 'classGroup', cosValues: mask + 1 };
    case 0b011:
      return OPERANDS.destination;
    case 0b111:
      return OPERANDS.source;
    default:
      return OPERANDS.badWildcard;
  }
}

/**
 * Wildcard and mask for an operand (inverse of tmOperand). The don't-care mask of 'destination'
 * and 'source' is written as 0x00. A class group covers 2, 4, … 256 cos values.
 *
 * @example
 * ```ts
 * import { tmOperandFields } from 'riodp/wire';
 *
 * console.log(tmOperandFields({ scope: 'classGroup', cosValues: 4 })); // { wildcard: 1, mask: 3 }
 * console.log(tmOperandFields({ scope: 'destination' })); // { wildcard: 3, mask: 0 }
 * ```
 */
export function tmOperandFields(o: TmOperand): { readonly wildcard: number; readonly mask: number } {
  switch (o.scope) {
    case 'stream':
      return { wildcard: 0b000, mask: 0 };
    case 'class':
      return { wildcard: 0b001, mask: 0 };
    case 'classGroup': {
      const mask = o.cosValues - 1;
      if (o.cosValues < 2 || !isValidMask(mask)) {
        throw new WireError(WireErrorCode.invalid, 'operand', 0, 'Part 10 §4.3 Table 4-3 mask', 'a class group covers 2, 4, … 256 cos values');
      }
      return { wildcard: 0b001, mask };
    }
    case 'destination':
      return { wildcard: 0b011, mask: 0 };
    case 'source':
      return { wildcard: 0b111, mask: 0 };
    case 'INVALID':
      throw new WireError(WireErrorCode.invalid, 'operand', 0, CLAUSE_OPERAND, 'an INVALID operand has no encoding; give wildcard and mask');
  }
}

/** Whether two flat label objects (TmMessage, TmOperand) are equal field by field. */
export function sameLabel(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}
