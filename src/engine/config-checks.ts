import { ccpPrioCrf } from '../wire/flow-id.ts';
import type { FlowPacketFields } from '../wire/flow-id.ts';
import { TT } from '../wire/header.ts';
import type { Tt } from '../wire/header.ts';

/**
 * Constructor config checks shared by the protocol engines. The engine contract lets a
 * constructor throw "a `RangeError` with a one-line message naming the field"; every message
 * here is `<field> must be <what>`. Configurations also arrive as JSON (`riodp model`), so the
 * checks look at the value at run time rather than trusting its static type.
 *
 * The checks fill in no defaults: an engine applies its own (`??` or `orDefault`) first.
 */

/**
 * `v`, or `dflt` when `v` is absent. Unlike `??`, null is kept: for a nullable field null means
 * "off", and for any other field it is a value the check then rejects.
 */
export function orDefault<T>(v: T | undefined, dflt: T): T {
  return v === undefined ? dflt : v;
}

export function positiveInteger(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${field} must be a positive integer`);
  return v;
}

export function nonNegativeInteger(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new RangeError(`${field} must be a non-negative integer`);
  return v;
}

/** An integer in [min, max]; for small bounded fields (bit widths, prio, selection counts). */
export function integerInRange(v: unknown, min: number, max: number, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new RangeError(`${field} must be an integer from ${min} to ${max}`);
  return v;
}

/** A duration that null switches off (e.g. a timeout an application may do without). */
export function positiveIntegerOrNull(v: unknown, field: string): number | null {
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${field} must be a positive integer or null`);
  return v;
}

/** A delay that may be zero and that null switches off. */
export function nonNegativeIntegerOrNull(v: unknown, field: string): number | null {
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new RangeError(`${field} must be a non-negative integer or null`);
  return v;
}

export function booleanFlag(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') throw new RangeError(`${field} must be a boolean`);
  return v;
}

/**
 * How a one-of message lists the allowed values: `'one-of'` as "one of a, b, c"; `'or'` as
 * "'a' or 'b'" (strings quoted) or "0, 1 or 2". The engines word these differently per field,
 * and their messages are part of their tested behaviour.
 */
export type ChoiceWording = 'one-of' | 'or';

function listChoices(allowed: readonly (string | number)[], wording: ChoiceWording): string {
  if (wording === 'one-of') return `one of ${allowed.join(', ')}`;
  const shown = allowed.map((a) => (typeof a === 'string' ? `'${a}'` : String(a)));
  const last = shown.pop();
  return shown.length === 0 ? String(last) : `${shown.join(', ')} or ${String(last)}`;
}

export function oneOf<const T extends string | number>(v: unknown, allowed: readonly T[], field: string, wording: ChoiceWording = 'one-of'): T {
  if (!allowed.includes(v as T)) throw new RangeError(`${field} must be ${listChoices(allowed, wording)}`);
  return v as T;
}

/**
 * The prio/CRF a message is sent in. Absent: Part 9 §2.4.2 "marking flow control packets with a
 * "prio" field value of 0b11, and a "CRF" bit value of 0b1, if supported", i.e. CRF 0 when the
 * system does not support CRF (DECISIONS §3). A given flow is kept as it is.
 */
export function messageFlow(f: FlowPacketFields | undefined, field: string, crfSupported = true): FlowPacketFields {
  if (f === undefined) return ccpPrioCrf(crfSupported);
  integerInRange(f.prio, 0, 3, `${field}.prio`);
  oneOf(f.crf, [0, 1], `${field}.crf`, 'or');
  return { prio: f.prio, crf: f.crf };
}

/** Part 3 §2.4 tt: 0b00 Dev8, 0b01 Dev16, 0b10 Dev32; 0b11 is reserved. */
export function transportType(v: unknown, field: string): Tt {
  return oneOf(v, [TT.dev8, TT.dev16, TT.dev32], field, 'or');
}

/** Device ID width of a transport type (Part 3 §2.4: 8, 16 or 32 bits). */
export function deviceIdBits(tt: number): number {
  return tt === TT.dev8 ? 8 : tt === TT.dev16 ? 16 : 32;
}

/**
 * Whether `id` can be written in a device ID field of a packet of transport type `tt`. Engines
 * also use it on protocol input, where an ID that does not fit is counted, not thrown.
 */
export function fitsDeviceId(id: unknown, tt: number): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 && id < 2 ** deviceIdBits(tt);
}

/**
 * How a device ID message states the bound: `'range'` as "an integer from 0 to 255", `'tt'` as
 * "a device ID for tt 0".
 */
export type DeviceIdWording = 'range' | 'tt';

export function deviceIdForTt(v: unknown, tt: number, field: string, wording: DeviceIdWording = 'range'): number {
  if (!fitsDeviceId(v, tt)) {
    const what = wording === 'range' ? `an integer from 0 to ${2 ** deviceIdBits(tt) - 1}` : `a device ID for tt ${tt}`;
    throw new RangeError(`${field} must be ${what}`);
  }
  return v;
}
