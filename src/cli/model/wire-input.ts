import { WireError } from '../../wire/errors.ts';
import { InputError } from './input-error.ts';

/** Clauses that name riodp's own input rules rather than the spec: not repeated in messages. */
export const CLI_CLAUSES: ReadonlySet<string> = new Set(['docs/cli.md', 'input', 'riodp API']);

/** Fields a codec names for the whole value it was given (the hex, the JSON object, the bytes), not a field inside it. */
const WHOLE_VALUE: ReadonlySet<string> = new Set(['hex', 'json', 'buffer', 'span', 'symbol']);

/**
 * A WireError of a packet or symbol read from an input line, as an input error on the field
 * `base.<field>` (or `base` itself); a hex form also names the byte.
 */
export function fromWire(e: WireError, base: string, fromHex: boolean): InputError {
  const path = WHOLE_VALUE.has(e.field) ? base : `${base}.${e.field}`;
  const detail = e.detail.replace(/^Invalid input: expected (.*), received undefined$/, 'missing, expected $1').replace(/^Invalid input: /, '');
  const clause = CLI_CLAUSES.has(e.clause) ? '' : `, ${e.clause}`;
  const at = fromHex ? `, byte ${e.offset}` : '';
  return new InputError(`${detail}${clause}${at}`, path);
}

/** `fn()`, its WireError turned into an input error by `fromWire`. */
export function wire<T>(fn: () => T, base: string, fromHex: boolean): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WireError) throw fromWire(e, base, fromHex);
    throw e;
  }
}
