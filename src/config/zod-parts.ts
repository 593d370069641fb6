import { z } from 'zod';

/**
 * zod building blocks whose messages say what was expected ("expected an integer 1..5", "missing,
 * expected one of a, b") rather than zod's generic wording, for every configuration schema (the
 * simulator's scenarios, the software fabric's switch file, the node elements' shared settings).
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

/**
 * A `z.unknown()` that parses with the schema `pick(value)` chooses, keeping that schema's issue
 * paths. Its issues do not stop the checks of the fields around it (a parent's `superRefine` still
 * runs), so that a file's every problem is reported at once.
 */
export function dispatch<T>(pick: (v: unknown) => z.ZodType<T>): z.ZodType<T> {
  return z.unknown().transform((v, ctx): T => {
    const r = pick(v).safeParse(v);
    if (r.success) return r.data;
    for (const issue of r.error.issues) ctx.addIssue({ ...issue, continue: true });
    return v as T;
  });
}

/**
 * A parsed value with its undefined fields left out, at every depth: zod gives an absent optional
 * field as `undefined`, and the element configurations (exactOptionalPropertyTypes) want it absent.
 */
export function withoutUndefined<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x: unknown) => withoutUndefined(x)) as T;
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = withoutUndefined(x);
  return out as T;
}
