import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, bitMask, checkedField, checkRsrv, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpec } from './space.ts';

/**
 * Processing Element Features CAR (offset 0x10). Its bits are defined across the stack:
 * Part 1 §5.4.5 Table 5-7 (bits 0–3, 28, 29–31), Part 6 §7.4.1 Table 7-3 (4, 10, 25, 26),
 * Part 3 §3.4.1 Table 3-3 (19, 22, 23, 27) and Part 9 §4.2 Table 4-1: bit 20 Flow Arbitration
 * Support (0x00000800) and bit 24 Flow Control Support (0x00000080). Bits no part defines are
 * reserved (read 0). Part 9 lists 24 then "26-31"; bit 25 is Part 6's implementation-defined bit.
 *
 * @example
 * ```ts
 * import { PE_FEATURES_OFFSET, buildEndpointRegisters, decodePeFeatures } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ flowControl: true });
 * const pe = decodePeFeatures(space.readWord(PE_FEATURES_OFFSET));
 * console.log(pe.flowControlSupport, pe.extendedAddressing); // true ADDR_34
 * ```
 */
export const PE_FEATURES_OFFSET = 0x10;
export const CLAUSE_PE_FEATURES = 'Part 9 §4.2 Table 4-1';
const CLAUSE_EXT_ADDR = 'Part 1 §5.4.5 Table 5-7';
const CLAUSE_ROUTE = 'Part 3 §3.4.1 Table 3-3';

/** Part 3 Table 3-3: bit 22 "can only be set if bit 23 is set and bit 19 is clear". */
function routeTableProblem(_v: number, word: number): string | undefined {
  return getField(word, 22, 1) === 1 && (getField(word, 23, 1) === 0 || getField(word, 19, 1) === 1)
    ? 'extended route table configuration support (bit 22) can only be set if bit 23 is set and bit 19 is clear'
    : undefined;
}

/**
 * The Processing Element Features CAR's fields (Part 1 §5.4.5 Table 5-7, Part 9 §4.2 Table 4-1).
 *
 * @example
 * ```ts
 * import { PE_FEATURES_FIELDS, decodePeFeatures } from 'riodp/registers';
 *
 * // Which features a switch's CAR (read as 0x18000119) claims.
 * const pe = decodePeFeatures(0x18000119);
 * const names = (Object.keys(PE_FEATURES_FIELDS) as (keyof typeof PE_FEATURES_FIELDS)[]).filter((k) => pe[k] === true);
 * // → [ 'switch', 'multiport', 'standardRouteTableConfigSupport', 'dev16Support', 'extendedFeatures' ]
 * ```
 */
export const PE_FEATURES_FIELDS = {
  bridge: { bit: 0, width: 1 },
  memory: { bit: 1, width: 1 },
  processor: { bit: 2, width: 1 },
  switch: { bit: 3, width: 1 },
  multiport: { bit: 4, width: 1 },
  errorFreeModeSupport: { bit: 10, width: 1 },
  dev32Support: checkedField(19, 1, routeTableProblem),
  flowArbitrationSupport: { bit: 20, width: 1 },
  extendedRouteTableConfigSupport: checkedField(22, 1, routeTableProblem),
  standardRouteTableConfigSupport: checkedField(23, 1, routeTableProblem),
  flowControlSupport: { bit: 24, width: 1 },
  implementationDefined: { bit: 25, width: 1 },
  crfSupport: { bit: 26, width: 1 },
  dev16Support: { bit: 27, width: 1 },
  extendedFeatures: { bit: 28, width: 1 },
  extendedAddressingSupport: checkedField(29, 3, (v: number) => (extendedAddressingName(v) === 'RESERVED' ? `extended addressing encoding 0b${v.toString(2).padStart(3, '0')} is reserved` : undefined)),
} as const;

/**
 * The Processing Element Features CAR's view.
 *
 * @example
 * ```ts
 * import { peFeaturesView } from 'riodp/registers';
 *
 * // A processor with 16-bit device IDs and 34-bit addresses, the rest 0.
 * const word = peFeaturesView.pack({ ...peFeaturesView.unpack(0), processor: true, dev16Support: true, extendedAddressingSupport: 0b001 });
 * console.log(word.toString(16)); // 20000011
 * ```
 */
export const peFeaturesView = new RegisterView('Processing Element Features CAR', CLAUSE_PE_FEATURES, PE_FEATURES_FIELDS);
/**
 * Typed get/set by field name on a space, e.g. `peFeatures.get(space, 'flowControlSupport')`.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, peFeatures } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ flowControl: true });
 * peFeatures.get(space, 'flowControlSupport');     // → true
 * peFeatures.get(space, 'flowArbitrationSupport'); // → false
 * ```
 */
export const peFeatures = peFeaturesView.at(PE_FEATURES_OFFSET);

/**
 * The word masks of the Part 9 bits: flow arbitration and flow control support.
 *
 * @example
 * ```ts
 * import { PE_FEATURES_BITS } from 'riodp/registers';
 *
 * // A PE Features CAR word from a MAINTENANCE read response: does the peer take part in Type 7 flow control?
 * const word = 0x18000199;
 * console.log((word & PE_FEATURES_BITS.flowControlSupport) !== 0); // true
 * ```
 */
export const PE_FEATURES_BITS = {
  flowArbitrationSupport: bitMask(20),
  flowControlSupport: bitMask(24),
  extendedFeatures: bitMask(28),
} as const;

/**
 * Part 1 Table 5-7: 0b111 66/50/34, 0b101 66/34, 0b011 50/34, 0b001 34-bit; others reserved.
 *
 * @example
 * ```ts
 * import { EXTENDED_ADDRESSING } from 'riodp/registers';
 *
 * // Table 5-7's encodings, offered as the choices when configuring a PE.
 * for (const [encoding, name] of Object.entries(EXTENDED_ADDRESSING)) console.log(`0b${Number(encoding).toString(2).padStart(3, '0')}`, name);
 * // 0b001 ADDR_34, 0b011 ADDR_50_34, 0b101 ADDR_66_34, 0b111 ADDR_66_50_34
 * ```
 */
export const EXTENDED_ADDRESSING = { 0b111: 'ADDR_66_50_34', 0b101: 'ADDR_66_34', 0b011: 'ADDR_50_34', 0b001: 'ADDR_34' } as const;
/** The name of an Extended addressing support value (Table 5-7). */
export type ExtendedAddressingName = (typeof EXTENDED_ADDRESSING)[keyof typeof EXTENDED_ADDRESSING] | 'RESERVED';

/**
 * The name of an Extended addressing support value; RESERVED for another.
 *
 * @example
 * ```ts
 * import { extendedAddressingName } from 'riodp/registers';
 *
 * extendedAddressingName(0b111); // → 'ADDR_66_50_34'
 * extendedAddressingName(0b010); // → 'RESERVED'
 * ```
 */
export function extendedAddressingName(v: number): ExtendedAddressingName {
  return (EXTENDED_ADDRESSING as Readonly<Record<number, ExtendedAddressingName>>)[v] ?? 'RESERVED';
}

/** A decoded Processing Element Features CAR. */
export type PeFeatures = Unpacked<typeof PE_FEATURES_FIELDS> & { readonly extendedAddressing: ExtendedAddressingName };

/**
 * Decodes a Processing Element Features CAR word; `opts.strict` refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodePeFeatures } from 'riodp/registers';
 *
 * const pe = decodePeFeatures(0x18000119, { strict: true }); // as a MAINTENANCE read of 0x10 returned it
 * console.log(pe.switch, pe.multiport, pe.flowControlSupport, pe.extendedAddressing); // true true false ADDR_34
 * ```
 */
export function decodePeFeatures(word: number, opts: ViewDecodeOptions = {}): PeFeatures {
  const f = peFeaturesView.unpack(word);
  const value: PeFeatures = { ...f, extendedAddressing: extendedAddressingName(f.extendedAddressingSupport) };
  if (opts.strict === true) {
    checkRsrv(f.rsrv, PE_FEATURES_OFFSET, peFeaturesView.register, CLAUSE_PE_FEATURES);
    if (value.extendedAddressing === 'RESERVED') {
      throw new RegisterError(RegisterErrorCode.reserved, PE_FEATURES_OFFSET, `${peFeaturesView.register}.extendedAddressingSupport`, CLAUSE_EXT_ADDR, `encoding 0b${f.extendedAddressingSupport.toString(2).padStart(3, '0')} is reserved`);
    }
    // "(can only be set if bit 23 is set and bit 19 is clear)"
    if (f.extendedRouteTableConfigSupport && (!f.standardRouteTableConfigSupport || f.dev32Support)) {
      throw new RegisterError(RegisterErrorCode.invalid, PE_FEATURES_OFFSET, `${peFeaturesView.register}.extendedRouteTableConfigSupport`, CLAUSE_ROUTE, 'needs bit 23 set and bit 19 clear');
    }
  }
  return value;
}

/**
 * Encodes the fields and `rsrv`; the derived `extendedAddressing` name is ignored.
 *
 * @example
 * ```ts
 * import { decodePeFeatures, encodePeFeatures } from 'riodp/registers';
 *
 * // The same switch, now with flow control support (bit 24).
 * encodePeFeatures({ ...decodePeFeatures(0x18000119), flowControlSupport: true }); // → 0x18000199
 * ```
 */
export function encodePeFeatures(value: PeFeatures): number {
  return peFeaturesView.pack(value, PE_FEATURES_OFFSET);
}

/** The CAR's definition: read-only, bits no part defines are reserved, bit 25 implementation-defined. */
export function peFeaturesRegister(reset: number): RegisterSpec {
  return {
    offset: PE_FEATURES_OFFSET,
    name: peFeaturesView.register,
    kind: RegisterKind.car,
    clause: CLAUSE_PE_FEATURES,
    reset,
    reserved: ~peFeaturesView.mask >>> 0,
    implDefined: bitMask(25),
  };
}
