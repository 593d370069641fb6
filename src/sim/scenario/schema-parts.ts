import { z } from 'zod';
import { parseSize, parseTime } from './units.ts';

/**
 * zod building blocks of the scenario schema whose messages say what was expected ("expected an
 * integer 1..5", "expected a time like 10us") rather than zod's generic wording.
 */

/** A zod error function: "expected …", or "missing, expected …" when the field is absent. */
export function expecting(what: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? `missing, expected ${what}` : `expected ${what}`);
}

function describeRange(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? 'a non-negative integer' : `an integer >= ${min}`;
  return `an integer ${min}..${max}`;
}

export function int(min: number, max?: number): z.ZodNumber {
  const error = expecting(describeRange(min, max));
  const n = z.number({ error }).int({ error }).min(min, { error });
  return n.max(max ?? Number.MAX_SAFE_INTEGER, { error });
}

/** A number in [min, max]. */
export function real(min: number, max: number, what: string): z.ZodNumber {
  const error = expecting(what);
  return z.number({ error }).min(min, { error }).max(max, { error });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: expecting(`one of ${values.join(', ')}`) });
}

export const bool = z.boolean({ error: expecting('true or false') });

export const text = z.string({ error: expecting('a non-empty string') }).min(1, { error: expecting('a non-empty string') });

const TIME_WHAT = 'a time: ps as a number, or a string with ps, ns, us, ms or s ("10us")';
const SIZE_WHAT = 'a size: bytes as a number, or a string with B, KB, KiB, MB or MiB ("64B", "4KiB")';

/** A time or duration in integer ps (units.ts), at least `min` ps. */
export function time(min = 0): z.ZodPipe<z.ZodUnknown, z.ZodTransform<number>> {
  const what = min > 0 ? `${TIME_WHAT}, above 0` : TIME_WHAT;
  return z.unknown().transform((v, ctx) => {
    const t = parseTime(v);
    if (t === undefined || t < min) {
      ctx.addIssue({ code: 'custom', message: v === undefined ? `missing, expected ${what}` : `expected ${what}` });
      return z.NEVER;
    }
    return t;
  });
}

/** A size in integer bytes (units.ts), at least 1. */
export function size(): z.ZodPipe<z.ZodUnknown, z.ZodTransform<number>> {
  return z.unknown().transform((v, ctx) => {
    const b = parseSize(v);
    if (b === undefined || b < 1) {
      ctx.addIssue({ code: 'custom', message: v === undefined ? `missing, expected ${SIZE_WHAT}` : `expected ${SIZE_WHAT}` });
      return z.NEVER;
    }
    return b;
  });
}

/** A list of host IDs (checked against the topology once it is built). */
export const hostIds = z.array(int(0), { error: expecting('a list of host IDs') }).min(1, { error: expecting('a non-empty list of host IDs') });
