import { oneOf, orDefault } from '../engine/config-checks.ts';
import { DS_CONTROL_OFFSET, TM_TYPE_BITS, decodeDsControl, tmModeName } from '../registers/data-streaming.ts';
import { DESTINATION_OPERATIONS_OFFSET, OPERATIONS_BITS, SOURCE_OPERATIONS_OFFSET } from '../registers/operations.ts';
import { RegisterSpace } from '../registers/space.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import type { TmOp } from '../wire/type9-tm.ts';
import type { TmModeSnapshot } from './tm-snapshot-types.ts';

/**
 * Traffic management modes and the TM OPs each uses (Part 10 §3.4.2–§3.4.5, §5.5.1 Table 5-6:
 * TM Types Supported and TM Mode of the Data Streaming Logical Layer Control CSR).
 *
 * @example
 * ```ts
 * import { TM_MODE_SETTINGS, TmEgress } from 'riodp/engines';
 * import type { TmModeSetting } from 'riodp/engines';
 *
 * // A mode named on a command line or in a file, checked before it configures an engine:
 * const isTmMode = (s: string): s is TmModeSetting => (TM_MODE_SETTINGS as readonly string[]).includes(s);
 * const arg: string = 'CREDIT'; // e.g. from the command line
 * if (!isTmMode(arg)) throw new Error(`--tm-mode: expected one of ${TM_MODE_SETTINGS.join(', ')}`);
 * const egress = new TmEgress({ localID: 2, mode: arg });
 * console.log(egress.snapshot().mode); // { from: 'config', mode: 'CREDIT', types: 'BASIC_CREDIT' }
 * ```
 */
export const TM_MODE_SETTINGS = ['DISABLED', 'BASIC', 'RATE', 'CREDIT', 'CREDIT_RATE'] as const;
/** A TM Mode (Table 5-6). */
export type TmModeSetting = (typeof TM_MODE_SETTINGS)[number];

/**
 * §3.4.5 "the valid combinations for supporting traffic management" (and NONE: "Supporting traffic management is entirely optional").
 *
 * @example
 * ```ts
 * import { TM_TYPES_SETTINGS, TmIngress } from 'riodp/engines';
 *
 * // Which TM Types Supported combinations (Part 10 §3.4.5) can run the RATE mode?
 * const usable = TM_TYPES_SETTINGS.filter((types) => {
 *   try { new TmIngress({ mode: 'RATE', types }); return true; } catch { return false; } // RangeError: mode must be supported by types
 * });
 * console.log(usable); // [ 'BASIC_RATE', 'BASIC_RATE_CREDIT' ]
 * ```
 */
export const TM_TYPES_SETTINGS = ['NONE', 'BASIC', 'BASIC_RATE', 'BASIC_CREDIT', 'BASIC_RATE_CREDIT'] as const;
/** A TM Types Supported combination (Table 5-6, §3.4.5). */
export type TmTypesSetting = (typeof TM_TYPES_SETTINGS)[number];

const TYPE_BITS: Readonly<Record<TmTypesSetting, number>> = {
  NONE: 0,
  BASIC: TM_TYPE_BITS.basic,
  BASIC_RATE: TM_TYPE_BITS.basic | TM_TYPE_BITS.rate,
  BASIC_CREDIT: TM_TYPE_BITS.basic | TM_TYPE_BITS.credit,
  BASIC_RATE_CREDIT: TM_TYPE_BITS.basic | TM_TYPE_BITS.rate | TM_TYPE_BITS.credit,
};

/** §3.4.5 rule 4 "Any supported modes shall be supported fully": the types a mode needs. */
const MODE_NEEDS: Readonly<Record<TmModeSetting, number>> = {
  DISABLED: 0,
  BASIC: TM_TYPE_BITS.basic,
  RATE: TM_TYPE_BITS.basic | TM_TYPE_BITS.rate,
  CREDIT: TM_TYPE_BITS.basic | TM_TYPE_BITS.credit,
  CREDIT_RATE: TM_TYPE_BITS.basic | TM_TYPE_BITS.rate | TM_TYPE_BITS.credit,
};

/** The fewest TM types that support a mode: the default when only `mode` is configured. */
const MINIMAL_TYPES: Readonly<Record<TmModeSetting, TmTypesSetting>> = {
  DISABLED: 'NONE', BASIC: 'BASIC', RATE: 'BASIC_RATE', CREDIT: 'BASIC_CREDIT', CREDIT_RATE: 'BASIC_RATE_CREDIT',
};

export function usesRate(mode: TmModeSetting): boolean {
  return mode === 'RATE' || mode === 'CREDIT_RATE';
}

export function usesCredit(mode: TmModeSetting): boolean {
  return mode === 'CREDIT' || mode === 'CREDIT_RATE';
}

/**
 * Whether a mode takes messages of a TM OP. The basic OP is taken in every enabled mode (§3.4.5
 * rule 2: basic support is mandatory; §3.4.3 "the type 0 messages no longer need to be used", not
 * that they are refused); rate and credit OPs only in the modes that use them; the application
 * OP (Table 4-3 "The use of this message is application defined") whenever TM is enabled.
 */
export function modeTakesOp(mode: TmModeSetting, tmOp: number): boolean {
  if (mode === 'DISABLED') return false;
  switch (tmOp) {
    case TM_OP.basic:
    case TM_OP.application:
      return true;
    case TM_OP.rate:
      return usesRate(mode);
    case TM_OP.credit:
      return usesCredit(mode);
    default:
      return false;
  }
}

/**
 * The TM OP of the XOFF, XON and Q_STATUS messages an end sends: §3.4.3 "When the traffic
 * management mode is set to TM Type 1 (rate), the XON, XOFF messages are included to carry
 * forward the basic operation (the type 0 messages no longer need to be used)"; likewise in the
 * credit modes, where Table 4-6 carries them. Credit + rate uses the credit table, whose Q_STATUS
 * asks for credits (riodp decision).
 */
export function onOffOp(mode: TmModeSetting): TmOp {
  if (usesCredit(mode)) return TM_OP.credit;
  if (usesRate(mode)) return TM_OP.rate;
  return TM_OP.basic;
}

export interface TmModeConfig {
  readonly mode?: TmModeSetting;
  readonly types?: TmTypesSetting;
  readonly registers?: RegisterSpace;
}

/** Where an engine's mode comes from: fixed by its config, or read from the registers at every input. */
export type TmModeSource =
  | { readonly from: 'config'; readonly mode: TmModeSetting; readonly types: TmTypesSetting }
  | { readonly from: 'registers'; readonly registers: RegisterSpace; readonly side: 'ingress' | 'egress' };

/** The TM types that support `mode`, fewest first: §3.4.5 rule 4 "Any supported modes shall be supported fully". */
export function typesSupporting(mode: TmModeSetting): TmTypesSetting[] {
  return TM_TYPES_SETTINGS.filter((types) => (TYPE_BITS[types] & MODE_NEEDS[mode]) === MODE_NEEDS[mode]);
}

export function resolveTmMode(config: TmModeConfig, side: 'ingress' | 'egress'): TmModeSource {
  if (config.registers !== undefined) {
    if (config.mode !== undefined || config.types !== undefined) throw new RangeError('mode and types must be absent when registers is given (they are read from the register)');
    if (!((config.registers as unknown) instanceof RegisterSpace)) throw new RangeError('registers must be a RegisterSpace');
    if (config.registers.definition(DS_CONTROL_OFFSET) === undefined) throw new RangeError('registers must define the Data Streaming Logical Layer Control CSR (0x48)');
    return { from: 'registers', registers: config.registers, side };
  }
  const mode = oneOf(orDefault(config.mode, 'BASIC'), TM_MODE_SETTINGS, 'mode');
  const types = oneOf(orDefault(config.types, MINIMAL_TYPES[mode]), TM_TYPES_SETTINGS, 'types');
  if ((TYPE_BITS[types] & MODE_NEEDS[mode]) !== MODE_NEEDS[mode]) throw new RangeError(`mode must be supported by types (${mode} is not in ${types})`);
  return { from: 'config', mode, types };
}

/**
 * The mode source after a `set-mode` input (both engines): the configured TM types stay, the mode
 * changes; a string says why the input is refused. A mode the types do not support is refused
 * (§3.4.5 rule 4 "Any supported modes shall be supported fully", §5.5.1 Table 5-6 TM Types
 * Supported is read only); so is `set-mode` to an engine that reads its mode from the registers,
 * where a write of the TM Mode field is the way to change it.
 */
export function setModeSource(src: TmModeSource, mode: unknown): TmModeSource | string {
  if (src.from === 'registers') return 'set-mode: this engine reads its mode from the registers (the TM Mode field of 0x48)';
  if (!(TM_MODE_SETTINGS as readonly unknown[]).includes(mode)) return `set-mode: mode must be one of ${TM_MODE_SETTINGS.join(', ')}`;
  const m = mode as TmModeSetting;
  if ((TYPE_BITS[src.types] & MODE_NEEDS[m]) !== MODE_NEEDS[m]) return `set-mode: ${m} is not supported by the TM types ${src.types} (Part 10 §3.4.5 rule 4)`;
  return { from: 'config', mode: m, types: src.types };
}

/**
 * The mode in force. From registers: the TM Mode field when it names a standard mode the TM
 * Types Supported field supports, and the end advertises TM in its Operations CAR (the Source
 * Operations CAR at the ingress, the data's source; the Destination Operations CAR at the egress;
 * bit 12 "PE can support data streaming traffic management") when that CAR is defined. A
 * reserved, user-defined or unsupported mode reads as DISABLED (riodp decision: "device behavior
 * is implementation specific" for reserved values, and riodp implements no user-defined mode).
 */
export function currentMode(src: TmModeSource): TmModeSetting {
  if (src.from === 'config') return src.mode;
  const space = src.registers;
  const car = src.side === 'ingress' ? SOURCE_OPERATIONS_OFFSET : DESTINATION_OPERATIONS_OFFSET;
  if (space.definition(car) !== undefined && (space.readWord(car) & OPERATIONS_BITS.dataStreamingTrafficManagement) === 0) return 'DISABLED';
  const csr = decodeDsControl(space.readWord(DS_CONTROL_OFFSET));
  const name = tmModeName(csr.tmMode);
  const mode = (TM_MODE_SETTINGS as readonly string[]).includes(name) ? (name as TmModeSetting) : 'DISABLED';
  if (csr.tmTypes === 'INVALID') return 'DISABLED';
  return (TYPE_BITS[csr.tmTypes] & MODE_NEEDS[mode]) === MODE_NEEDS[mode] ? mode : 'DISABLED';
}

/** For snapshots: the mode source as plain data. */
export function modeSourceJson(src: TmModeSource): TmModeSnapshot {
  return src.from === 'config' ? { from: 'config', mode: src.mode, types: src.types } : { from: 'registers', side: src.side, mode: currentMode(src) };
}
