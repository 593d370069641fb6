/**
 * The register layer's one error type. Register accesses and typed views throw nothing else:
 * every failure names the byte offset into the configuration space, the register there (or
 * '(reserved)' where none is defined) and the spec clause the access or value violates.
 *
 * Accesses that the spec says "terminate normally" (reserved registers, writes to CARs,
 * Part 10 §5.2) never raise one; only accesses that cannot be expressed by a Type 8
 * MAINTENANCE transaction (misaligned, beyond the 16 MB space, bad sizes) and values that a
 * typed view refuses do.
 *
 * @example
 * ```ts
 * import { RegisterError, RegisterErrorCode, RegisterSpace } from 'riodp/registers';
 *
 * try {
 *   new RegisterSpace().readWord(0x62); // no MAINTENANCE packet addresses half a register
 * } catch (e) {
 *   if (e instanceof RegisterError && e.code === RegisterErrorCode.misaligned) console.log(e.clause); // Part 10 §5.1
 * }
 * ```
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
 *
 * @example
 * ```ts
 * import { RegisterError, buildEndpointRegisters, dsControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * try {
 *   dsControl.set(space, 'mtu', 0x41); // 260 bytes: Table 5-6 allows 0x08–0x40
 * } catch (e) {
 *   if (e instanceof RegisterError) console.log(e.code, `0x${e.offset.toString(16)}`, e.register); // invalid 0x48 Data Streaming Logical Layer Control CSR.mtu
 * }
 * ```
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
 *
 * @example
 * ```ts
 * import { attemptRegister, decodeDsControl } from 'riodp/registers';
 *
 * // A Data Streaming Control CSR word read from hardware, checked in strict mode.
 * const r = attemptRegister(() => decodeDsControl(0x00000041, { strict: true }));
 * if (!r.ok) console.log(r.error.code, r.error.detail); // reserved MTU encoding 0x41 is reserved
 * ```
 */
export function attemptRegister<T>(fn: () => T): RegisterResult<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof RegisterError) return { ok: false, error: e };
    throw e;
  }
}
