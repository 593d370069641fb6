import { LineError, nameErrorClass } from '../line-error.ts';

/**
 * The requests and responses of `riodp serve` (docs/serve.md): one JSON object per line each way.
 * A response carries the request's `id` and `"ok": true` with the op's result fields, or
 * `"ok": false` with an error `code` and message. This module holds what every op shares: the
 * error type, and the readers of request fields, which check as strictly as `riodp model` checks
 * its input lines (an unknown field is an error, not a typo silently dropped).
 */
export const SERVE_PROTOCOL = 'riodp-serve/1';

/** What a request's `id` may be; `null` answers a request whose id could not be read. */
export type RequestId = string | number | null;

export type Response = Readonly<Record<string, unknown>> & { readonly id: RequestId; readonly ok: boolean };

/** The `code` of an error response: docs/serve.md "Errors" lists when each is given. */
export type ErrorCode =
  | 'json'
  | 'line-too-long'
  | 'request'
  | 'op'
  | 'instance'
  | 'exists'
  | 'config'
  | 'input'
  | 'stopped'
  | 'wire'
  | 'internal';

/** A request that gets an error response; `extra` fields go into the response beside `error`. */
export class ServeError extends LineError {
  readonly code: ErrorCode;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, extra: Readonly<Record<string, unknown>> = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}
nameErrorClass(ServeError, 'ServeError');

export function errorResponse(id: RequestId, e: ServeError): Response {
  return { id, ok: false, code: e.code, error: e.message, ...e.extra };
}

export type Request = Readonly<Record<string, unknown>>;

function bad(field: string, what: string, value: unknown): ServeError {
  return new ServeError('request', `${value === undefined ? 'missing, expected' : 'expected'} ${what} (${field})`);
}

/** Refuses a field the op does not read; `id` and `op` belong to every request. */
export function onlyFields(req: Request, allowed: readonly string[]): void {
  for (const k of Object.keys(req)) {
    if (k !== 'id' && k !== 'op' && !allowed.includes(k)) throw new ServeError('request', `unknown field (${k})`);
  }
}

export function str(req: Request, field: string): string {
  const v = req[field];
  if (typeof v !== 'string' || v === '') throw bad(field, 'a non-empty string', v);
  return v;
}

export function oneOf<T extends string>(req: Request, field: string, values: readonly T[], fallback?: T): T {
  const v = req[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw bad(field, `one of ${values.join(', ')}`, v);
  return v as T;
}

export function bool(req: Request, field: string, fallback: boolean): boolean {
  const v = req[field];
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw bad(field, 'true or false', v);
  return v;
}

/** A safe integer >= min, or undefined when absent. */
export function optionalInt(req: Request, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = req[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
    throw bad(field, max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer ${min}..${max}`, v);
  }
  return v;
}

export function int(req: Request, field: string, min: number): number {
  const v = optionalInt(req, field, min);
  if (v === undefined) throw bad(field, `an integer >= ${min}`, v);
  return v;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A JSON object, or `fallback` when absent. */
export function object(req: Request, field: string, fallback?: Record<string, unknown>): Record<string, unknown> {
  const v = req[field];
  if (v === undefined && fallback !== undefined) return fallback;
  if (!isRecord(v)) throw bad(field, 'a JSON object', v);
  return v;
}
