import { z } from 'zod';
import { toJsonValue } from './output.ts';
import { WireError, WireErrorCode } from '../../wire/errors.ts';
import { parseHex } from '../../wire/hex.ts';

export { toJsonValue };

/**
 * JSON input of `riodp encode` (docs/cli.md). Field names are the spec's names in lowerCamelCase;
 * byte strings are hex. Decoding output is produced by `toJsonValue`, and encoding it again must
 * reproduce the input bytes.
 */
export const CLAUSE_JSON = 'docs/cli.md';

export const hexBytes = z.string().transform((s, ctx) => {
  try {
    return parseHex(s);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a hex string' });
    return z.NEVER;
  }
});

export function uint(bits: number): z.ZodNumber {
  return z.number().int().min(0).max(bits >= 32 ? 0xffffffff : 2 ** bits - 1);
}

/** Parses with a schema; a failure becomes one WireError naming the JSON path. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new WireError(WireErrorCode.invalid, path === '' ? 'json' : path, 0, CLAUSE_JSON, issue?.message ?? 'invalid JSON input');
}

/** The WireError for JSON input that cannot be encoded: `invalid`, naming the field. */
export function invalidJson(field: string, detail: string, clause: string = CLAUSE_JSON): never {
  throw new WireError(WireErrorCode.invalid, field, 0, clause, detail);
}

/** `value`, or a WireError naming `field` with `detail` when it is missing. */
export function orInvalid<T>(value: T | undefined, field: string, detail: string, clause: string = CLAUSE_JSON): T {
  return value === undefined ? invalidJson(field, detail, clause) : value;
}

/** A field the raw packet cannot do without. */
export function required<T>(value: T | undefined, field: string, why: string): T {
  return orInvalid(value, field, `${field} is required ${why}`);
}

/**
 * Every field given in `input` must be a field of the built packet, with the same JSON value:
 * this is where a label that contradicts its raw field, or a field of another variant, fails.
 * `crc` and `earlyCrc` (printed by serial decoding) are not packet fields: encode recomputes them.
 */
export function checkAgreement(input: object, built: object, what: string): void {
  const fields = new Map<string, unknown>(Object.entries(built));
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || k === 'crc' || k === 'earlyCrc') continue;
    if (!fields.has(k)) invalidJson(k, `${k} is not a field of ${what}`);
    const given = JSON.stringify(toJsonValue(v));
    const actual = JSON.stringify(toJsonValue(fields.get(k)));
    if (given !== actual) invalidJson(k, `${k} ${given} disagrees with the packet's ${actual}`);
  }
}

