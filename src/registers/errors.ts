/**
 * The register layer's one error type. Register accesses and typed views throw nothing else:
 * every failure names the byte offset into the configuration space, the register there (or
 * '(reserved)' where none is defined) and the spec clause the access or value violates.
 *
 * Accesses that the spec says "terminate normally" (reserved registers, writes to CARs,
 * Part 10 §5.2) never raise one; only accesses that cannot be expressed by a Type 8
 * MAINTENANCE transaction (misaligned, beyond the 16 MB space, bad sizes) and values that a
 * typed view refuses do.
 */
export const RegisterErrorCode = {
  misaligned: 'misaligned',
  outOfRange: 'out-of-range',
  size: 'size',
  range: 'range',
  unmapped: 'unmapped',
  reserved: 'reserved',
  invalid: 'invalid',
  unsupported: 'unsupported',
  definition: 'definition',
  efPointer: 'ef-pointer',
  efLoop: 'ef-loop',
  efId: 'ef-id',
} as const;
export type RegisterErrorCode = (typeof RegisterErrorCode)[keyof typeof RegisterErrorCode];

/**
 * What the register layer throws: an access no MAINTENANCE packet can express, a definition riodp refuses, or
 * a value a typed view refuses (`code`, `offset`, `register`, `clause`, `detail`).
 */
export class RegisterError extends Error {
  override readonly name = 'RegisterError';
  constructor(
    readonly code: RegisterErrorCode,
    /** Byte offset into the configuration space. */
    readonly offset: number,
    /** Register name, '(reserved)' for an offset with no register, or a field path. */
    readonly register: string,
    readonly clause: string,
    readonly detail: string,
  ) {
    super(`${register} at 0x${hex(offset)}: ${detail} (${clause})`);
  }
}

function hex(offset: number): string {
  return Number.isFinite(offset) && offset >= 0 ? Math.trunc(offset).toString(16).padStart(2, '0') : String(offset);
}

/** Result object handed across layer boundaries instead of a throw (mirrors wire `attempt`). */
export type RegisterResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: RegisterError };

/**
 * Runs a register call and returns its value or the `RegisterError` it threw; any other exception is
 * rethrown.
 */
export function attemptRegister<T>(fn: () => T): RegisterResult<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof RegisterError) return { ok: false, error: e };
    throw e;
  }
}
