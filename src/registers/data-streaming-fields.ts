import { RegisterError, RegisterErrorCode } from './errors.ts';

// Where the Data Streaming registers are (Part 10 §5.4.3, §5.5.1) and what the values of the
// Control CSR's fields mean: TM types, TM modes (§3.4.5) and MTU encodings. Their views, codecs
// and register definitions are data-streaming.ts.

/**
 * Data Streaming Information CAR (0x3C, Part 10 §5.4.3 Table 5-5) and Data Streaming Logical
 * Layer Control CSR (0x48, Part 10 §5.5.1 Table 5-6).
 *
 * @example
 * ```ts
 * import { DS_INFO_OFFSET, buildEndpointRegisters, decodeDsInfo } from 'riodp/registers';
 *
 * // A source reads the destination's limits before it segments a PDU.
 * const destination = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * const info = decodeDsInfo(destination.readWord(DS_INFO_OFFSET));
 * console.log(info.maxPduBytes, info.segContexts); // 4096 16
 * ```
 */
export const DS_INFO_OFFSET = 0x3c;
/**
 * Offset of the Data Streaming Logical Layer Control CSR.
 *
 * @example
 * ```ts
 * import { DS_CONTROL_OFFSET, buildEndpointRegisters, decodeDsControl, encodeDsControl, getMtuBytes } from 'riodp/registers';
 *
 * // A host lowers a remote end point's MTU to 128 bytes: MAINTENANCE read, modify, write.
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * const ctl = decodeDsControl(space.readWord(DS_CONTROL_OFFSET));
 * space.writeWord(DS_CONTROL_OFFSET, encodeDsControl({ ...ctl, mtu: 128 / 4 }));
 * getMtuBytes(space); // → 128
 * ```
 */
export const DS_CONTROL_OFFSET = 0x48;
export const CLAUSE_DS_INFO = 'Part 10 §5.4.3 Table 5-5';
export const CLAUSE_DS_CONTROL = 'Part 10 §5.5.1 Table 5-6';

/**
 * TM Types Supported bits (Table 5-6): bit 0 Basic, bit 1 Rate, bit 2 Credit, bit 3 reserved.
 *
 * @example
 * ```ts
 * import { TM_TYPE_BITS, buildEndpointRegisters, dsControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256, tm: { types: 'BASIC_CREDIT' } } });
 * const types = dsControl.get(space, 'tmTypesSupported'); // 0b1010
 * console.log((types & TM_TYPE_BITS.credit) !== 0, (types & TM_TYPE_BITS.rate) !== 0); // true false
 * ```
 */
export const TM_TYPE_BITS = { basic: 0b1000, rate: 0b0100, credit: 0b0010 } as const;

/**
 * "Valid Combinations: 0b1000, 0b1100, 0b1010, 0b1110. All others invalid" (Table 5-6), i.e.
 * Basic alone or with Rate and/or Credit (§3.4.5 rule 2: TM support implies Basic). riodp reads
 * 0b0000 as "no traffic management" (§3.4.5 rule 1: TM support is optional), not as invalid.
 *
 * Why an element without traffic management reads 0b0000, which the table calls invalid: the
 * table has no encoding for "none", and every valid one claims Basic, a promise (§3.4.5 rule 2
 * "Any endpoint advertising support for traffic management shall support the basic mode of
 * operation") such an element cannot keep; its Operations CARs say the same with bit 12 ("PE can
 * support data streaming traffic management") clear. So 0b0000 appears exactly when bit 12 is
 * clear (builder.ts), and an element with traffic management reads its valid combination (the
 * fabric end point and the simulator's: src/node/endpoint/tm-registers.ts tmRegisterSettings).
 *
 * @example
 * ```ts
 * import { TM_TYPES } from 'riodp/registers';
 *
 * console.log(TM_TYPES[0b1110]); // BASIC_RATE_CREDIT
 * console.log(0b0110 in TM_TYPES); // false: Rate and Credit without Basic is no valid combination
 * ```
 */
export const TM_TYPES = { 0b0000: 'NONE', 0b1000: 'BASIC', 0b1100: 'BASIC_RATE', 0b1010: 'BASIC_CREDIT', 0b1110: 'BASIC_RATE_CREDIT' } as const;
/** The name of a TM Types Supported value; INVALID for a combination §3.4.5 does not allow. */
export type TmTypesName = (typeof TM_TYPES)[keyof typeof TM_TYPES] | 'INVALID';

/**
 * The name of a TM Types Supported value.
 *
 * @example
 * ```ts
 * import { tmTypesName } from 'riodp/registers';
 *
 * tmTypesName(0b1010); // → 'BASIC_CREDIT'
 * tmTypesName(0b0110); // → 'INVALID'
 * ```
 */
export function tmTypesName(v: number): TmTypesName {
  return (TM_TYPES as Readonly<Record<number, TmTypesName>>)[v] ?? 'INVALID';
}

/**
 * TM Mode values (Table 5-6).
 *
 * @example
 * ```ts
 * import { TM_MODE, attemptRegister, buildEndpointRegisters, dsControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256, tm: { types: 'BASIC_CREDIT' } } });
 * dsControl.set(space, 'tmMode', TM_MODE.credit); // supported: accepted
 * const r = attemptRegister(() => dsControl.set(space, 'tmMode', TM_MODE.rate));
 * if (!r.ok) console.log(r.error.detail); // TM mode RATE needs TM types 0b0100, supported are 0b1010
 * ```
 */
export const TM_MODE = { disabled: 0, basic: 1, rate: 2, credit: 3, creditRate: 4 } as const;
/**
 * The name of each standard TM Mode, indexed by its value.
 *
 * @example
 * ```ts
 * import { TM_MODE_NAMES } from 'riodp/registers';
 *
 * TM_MODE_NAMES.indexOf('CREDIT_RATE'); // → 4, the TM Mode encoding of a mode named in a configuration
 * ```
 */
export const TM_MODE_NAMES = ['DISABLED', 'BASIC', 'RATE', 'CREDIT', 'CREDIT_RATE'] as const;
/** The name of a TM Mode value. */
export type TmModeName = (typeof TM_MODE_NAMES)[number] | 'RESERVED' | 'USER_DEFINED';

/**
 * "0b0101 - 0b0111 = Reserved; 0b1000 - 0b1111 = allowed for user defined modes".
 *
 * @example
 * ```ts
 * import { tmModeName } from 'riodp/registers';
 *
 * tmModeName(0b0011); // → 'CREDIT'
 * tmModeName(0b0101); // → 'RESERVED'
 * tmModeName(0b1001); // → 'USER_DEFINED'
 * ```
 */
export function tmModeName(v: number): TmModeName {
  if (v >= 8) return 'USER_DEFINED';
  return TM_MODE_NAMES[v] ?? 'RESERVED';
}

/** The TM types a standard mode needs (§3.4.5 rule 4: a mode is usable only if supported). */
function tmModeNeeds(mode: number): number {
  switch (mode) {
    case TM_MODE.basic: return TM_TYPE_BITS.basic;
    case TM_MODE.rate: return TM_TYPE_BITS.rate;
    case TM_MODE.credit: return TM_TYPE_BITS.credit;
    case TM_MODE.creditRate: return TM_TYPE_BITS.rate | TM_TYPE_BITS.credit;
    default: return 0;
  }
}

export function tmModeProblem(mode: number, types: number): string | undefined {
  if (tmModeName(mode) === 'RESERVED') return `TM mode 0b${mode.toString(2).padStart(4, '0')} is reserved`;
  const needs = tmModeNeeds(mode);
  if ((types & needs) !== needs) return `TM mode ${tmModeName(mode)} needs TM types 0b${needs.toString(2).padStart(4, '0')}, supported are 0b${types.toString(2).padStart(4, '0')}`;
  return undefined;
}

/**
 * MTU encodings 0x08..0x40 = 32..256 bytes in 4-byte steps; all others reserved (Table 5-6).
 *
 * @example
 * ```ts
 * import { MTU_MAX, MTU_MIN } from 'riodp/registers';
 *
 * console.log(MTU_MIN * 4, MTU_MAX * 4); // 32 256: the smallest and largest MTU in bytes
 * ```
 */
export const MTU_MIN = 0x08;
/**
 * The largest MTU encoding, 256 bytes.
 *
 * @example
 * ```ts
 * import { MTU_MAX, MTU_MIN, buildEndpointRegisters, dsControl } from 'riodp/registers';
 *
 * // Clamp a wanted payload size to the MTUs Table 5-6 can encode.
 * const wanted = 1024;
 * const encoding = Math.min(MTU_MAX, Math.max(MTU_MIN, Math.ceil(wanted / 4)));
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 32 } });
 * dsControl.set(space, 'mtu', encoding); // 0x40: 256 bytes
 * ```
 */
export const MTU_MAX = 0x40;

/**
 * The MTU in bytes of an MTU field value; null for a reserved encoding.
 *
 * @example
 * ```ts
 * import { mtuBytesFromEncoding } from 'riodp/registers';
 *
 * mtuBytesFromEncoding(0x40); // → 256
 * mtuBytesFromEncoding(0x41); // → null: reserved
 * ```
 */
export function mtuBytesFromEncoding(encoding: number): number | null {
  return encoding >= MTU_MIN && encoding <= MTU_MAX ? encoding * 4 : null;
}

/**
 * The MTU field value of an MTU in bytes; a RegisterError for a size Table 5-6 cannot encode.
 *
 * @example
 * ```ts
 * import { attemptRegister, mtuEncoding } from 'riodp/registers';
 *
 * mtuEncoding(64); // → 0x10
 * const r = attemptRegister(() => mtuEncoding(100)); // not a multiple of 4 bytes
 * if (!r.ok) console.log(r.error.code); // invalid
 * ```
 */
export function mtuEncoding(bytes: number): number {
  if (!Number.isInteger(bytes) || bytes % 4 !== 0 || bytes < MTU_MIN * 4 || bytes > MTU_MAX * 4) {
    throw new RegisterError(RegisterErrorCode.invalid, DS_CONTROL_OFFSET, 'Data Streaming Logical Layer Control CSR.mtu', CLAUSE_DS_CONTROL, `MTU ${String(bytes)} bytes is not a multiple of 4 in 32..256`);
  }
  return bytes / 4;
}
