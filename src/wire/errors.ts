/**
 * The wire layer's one error type. Decoders throw nothing else: every failure names the
 * field, the byte offset where it sits and the spec clause that the input violates.
 *
 * @example
 * ```ts
 * import { WireError, WireErrorCode, decodePacket } from 'riodp/wire';
 *
 * // A doorbell cut short: a stream reader waits for more bytes, anything else is dropped.
 * const bytes = Uint8Array.from([0x00, 0x0a, 0x05, 0x01, 0x00]);
 * try {
 *   decodePacket(bytes, 0, bytes.length);
 * } catch (e) {
 *   if (e instanceof WireError && e.code === WireErrorCode.truncated) console.log('need more bytes'); // need more bytes
 * }
 * ```
 */
export const WireErrorCode = {
  truncated: 'truncated',
  trailing: 'trailing-bytes',
  crc: 'crc',
  reserved: 'reserved',
  undefined: 'undefined',
  invalid: 'invalid',
  range: 'range',
  unsupported: 'unsupported',
} as const;
export type WireErrorCode = (typeof WireErrorCode)[keyof typeof WireErrorCode];

/**
 * What every decoder (and encoder) throws: `code` says what is wrong, `field` and `offset` where, `clause`
 * the rule, `detail` the rest.
 *
 * @example
 * ```ts
 * import { WireError, decodePacket } from 'riodp/wire';
 *
 * const bytes = Uint8Array.from([0x00, 0x0a, 0x05, 0x01, 0x00]); // a doorbell missing 3 bytes
 * try {
 *   decodePacket(bytes, 0, bytes.length);
 * } catch (e) {
 *   if (!(e instanceof WireError)) throw e;
 *   console.log(e.code, e.field, e.offset); // truncated doorbell 2
 *   console.log(e.clause); // Part 2 §4.2.4 Figure 4-1
 * }
 * ```
 */
export class WireError extends Error {
  readonly code: WireErrorCode;
  readonly field: string;
  readonly offset: number;
  readonly clause: string;
  readonly detail: string;

  constructor(code: WireErrorCode, field: string, offset: number, clause: string, detail: string) {
    // Bad input is normal input: engines and fuzzers meet these errors at packet rate, and a
    // captured stack costs microseconds while saying nothing the field/offset/clause do not.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${field} at byte ${offset}: ${detail} (${clause})`);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.field = field;
    this.offset = offset;
    this.clause = clause;
    this.detail = detail;
  }
}
// On the prototype, not as a per-instance class field: defining an own property per error costs.
Object.defineProperty(WireError.prototype, 'name', { value: 'WireError', writable: true, configurable: true });

/** Result object handed across layer boundaries (engines, CLI) instead of a throw. */
export type DecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: WireError };

/**
 * Runs a codec call and returns its value or the `WireError` it threw, as a `DecodeResult`; any other
 * exception is rethrown.
 *
 * @example
 * ```ts
 * import { attempt, decodePacket } from 'riodp/wire';
 *
 * const bytes = Uint8Array.from([0x00, 0x0a, 0x05, 0x01, 0x00]); // a doorbell missing 3 bytes
 * const r = attempt(() => decodePacket(bytes, 0, bytes.length));
 * if (r.ok) console.log(r.value.ftype);
 * else console.log(r.error.message); // doorbell at byte 2: needs 6 bytes, 3 left (Part 2 §4.2.4 Figure 4-1)
 * ```
 */
export function attempt<T>(fn: () => T): DecodeResult<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, error: e };
    throw e;
  }
}

/** Throws a truncation error unless `need` bytes are available at `offset` before `end`. */
export function need(end: number, offset: number, count: number, field: string, clause: string): void {
  if (offset + count > end) {
    throw new WireError(
      WireErrorCode.truncated,
      field,
      offset,
      clause,
      `needs ${count} byte${count === 1 ? '' : 's'}, ${Math.max(0, end - offset)} left`,
    );
  }
}

/** Throws a WireError; for checks written as one-line conditions. */
export function fail(code: WireErrorCode, field: string, offset: number, clause: string, detail: string): never {
  throw new WireError(code, field, offset, clause, detail);
}

/** Throws a range error on field `buffer` unless `count` bytes fit in `bytes` at `offset`: encoders check before writing. */
export function checkRoom(bytes: Uint8Array, offset: number, count: number, clause: string): void {
  if (offset + count > bytes.length) throw new WireError(WireErrorCode.range, 'buffer', offset, clause, `needs ${count} bytes`);
}

/**
 * Options every decoder accepts. Lenient decoding (the default) labels reserved and undefined
 * encodings instead of rejecting them, and keeps reserved bits so that encoding reproduces the
 * input; engines then apply the spec's "no action" rules. Strict decoding (validation mode and
 * the CLI) throws on any reserved bit that is not zero and on any reserved or undefined value.
 */
export interface DecodeOptions {
  readonly strict?: boolean;
}

/** Checks a field against its range before it is written; encoders never truncate silently. */
export function checkRange(value: number, bits: number, field: string, clause: string, offset = 0): void {
  const max = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new WireError(WireErrorCode.range, field, offset, clause, `value ${String(value)} does not fit in ${bits} bits`);
  }
}
