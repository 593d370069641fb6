import { z } from 'zod';
import { zodIssues } from '../../config/issues.ts';
import type { Issue } from '../../config/issues.ts';
import { FLOW_ID_LABELS } from '../../wire/flow-id.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import { InputError } from './input-error.ts';

/**
 * zod building blocks for model config files and input lines, with messages that say what was
 * expected ("expected an integer 1..5") rather than zod's generic wording, and the formatting of
 * issues into `path: message` lines.
 */

function describeRange(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? 'a non-negative integer' : `an integer >= ${min}`;
  return `an integer ${min}..${max}`;
}

/** A zod error function: "expected …", or "missing, expected …" when the field is absent. */
export function expecting(what: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? `missing, expected ${what}` : `expected ${what}`);
}

/** A safe integer in [min, max] (max omitted: unbounded). */
export function int(min: number, max?: number): z.ZodNumber {
  const error = expecting(describeRange(min, max));
  const n = z.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? n.max(Number.MAX_SAFE_INTEGER, { error }) : n.max(max, { error });
}

/** A time or duration in nanoseconds, > 0. */
export const duration = int(1);

/** Device IDs: JSON bounds them to 32 bits; the width of a given tt is checked where tt is known. */
export const deviceId = int(0, 0xffffffff);

export const tt = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: expecting('a tt 0 (Dev8), 1 (Dev16) or 2 (Dev32)') });

/** Largest device ID of a transport size (Part 3: 8, 16, 32 bits). */
export function maxDeviceId(t: number): number {
  return t === 0 ? 0xff : t === 1 ? 0xffff : 0xffffffff;
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: expecting(`one of ${values.join(', ')}`) });
}

export const flowId: z.ZodType<FlowIdLabel> = oneOf(FLOW_ID_LABELS as [FlowIdLabel, ...FlowIdLabel[]]);

export const bool = z.boolean({ error: expecting('true or false') });

/** MTU in bytes, Part 10 §5.5.1 Table 5-6: "0b0000_1000 - 32 byte block size" to "0b0100_0000 - 256 byte block size", 4-byte steps. */
export const mtu = (() => {
  const error = expecting('an MTU in bytes, a multiple of 4 from 32 to 256');
  return z.number({ error }).refine((v) => Number.isInteger(v) && v >= 32 && v <= 256 && v % 4 === 0, { error });
})();

/** VC1–VC8 channels on the link (Part 6 Table 2-2); 0 is single VC mode. */
export const vcCount = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(4), z.literal(8)], { error: expecting('one of 0, 1, 2, 4, 8') });

/** prio/CRF of a message flow (flows.ts MessageFlow). */
export const messageFlow = z.strictObject({ prio: int(0, 3), crf: int(0, 1) }, { error: expecting('an object {prio, crf}') });

/**
 * zod issues as one entry per bad field, formatted as every configuration file is (src/config/issues.ts):
 * an unknown key is its own entry ("unknown field"), and a discriminated union names the
 * discriminator's choices. The only records in model configs are keyed by device ID
 * (congestion-point routes.table), so a bad record key asks for one.
 */
export function issues(error: z.ZodError, prefix: readonly PropertyKey[] = []): Issue[] {
  return zodIssues(error, prefix, 'expected a device ID in decimal digits as the key');
}

/** The first issue of an input line as an InputError: one stderr line per bad line. */
export function firstIssue(error: z.ZodError, base = ''): InputError {
  const i = issues(error, base === '' ? [] : [base])[0];
  return new InputError(i?.message ?? 'invalid input', i?.path ?? base);
}

/** A device ID that fits the transport size `t` (Part 3 §2.4: 8, 16 or 32 bits). */
export function checkDeviceId(id: number, t: number, path: string): number {
  if (id > maxDeviceId(t)) throw new InputError(`expected a device ID 0..${maxDeviceId(t)} (tt ${t})`, path);
  return id;
}

export const segmentKind = oneOf(['single', 'start', 'continuation', 'end', 'abort']);
export const arbMode = oneOf(['single', 'multi']);
