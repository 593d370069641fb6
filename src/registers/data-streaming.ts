import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, bitMask, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

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
const CLAUSE_TM_RULES = 'Part 10 §3.4.5';

// ---- Data Streaming Information CAR ----------------------------------------------------------

/**
 * The Data Streaming Information CAR's fields (Table 5-5).
 *
 * @example
 * ```ts
 * import { DS_INFO_FIELDS } from 'riodp/registers';
 *
 * for (const [name, f] of Object.entries(DS_INFO_FIELDS)) console.log(`${name}: bits ${f.bit}–${f.bit + f.width - 1}`);
 * // maxPdu: bits 0–15
 * // segSupport: bits 16–31
 * ```
 */
export const DS_INFO_FIELDS = {
  maxPdu: { bit: 0, width: 16 },
  segSupport: { bit: 16, width: 16 },
} as const;
/**
 * The Data Streaming Information CAR's view.
 *
 * @example
 * ```ts
 * import { dsInfoView } from 'riodp/registers';
 *
 * // The raw fields; 0x0000 means 64K in both (decodeDsInfo gives the counts).
 * dsInfoView.unpack(0x10000010); // → { maxPdu: 0x1000, segSupport: 0x10, rsrv: 0 }
 * ```
 */
export const dsInfoView = new RegisterView('Data Streaming Information CAR', CLAUSE_DS_INFO, DS_INFO_FIELDS);
/**
 * The Data Streaming Information CAR at its offset.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, dsInfo } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * dsInfo.get(space, 'segSupport'); // → 16 segmentation contexts
 * ```
 */
export const dsInfo = dsInfoView.at(DS_INFO_OFFSET);

/** MaxPDU and SegSupport: "0x0000 - 64kbytes" / "64k segmentation contexts", otherwise the value. */
export function countFromField(field: number): number {
  return field === 0 ? 0x10000 : field;
}

/** Inverse of countFromField for 1..65536; anything else is not representable. */
export function fieldFromCount(count: number, field: 'maxPdu' | 'segSupport'): number {
  if (!Number.isInteger(count) || count < 1 || count > 0x10000) {
    throw new RegisterError(RegisterErrorCode.range, DS_INFO_OFFSET, `${dsInfoView.register}.${field}`, CLAUSE_DS_INFO, `${String(count)} is outside 1..65536`);
  }
  return count & 0xffff;
}

/** A decoded Data Streaming Information CAR. */
export type DsInfo = Unpacked<typeof DS_INFO_FIELDS> & {
  /** Largest PDU in bytes the destination accepts (1..65536). */
  readonly maxPduBytes: number;
  /** Segmentation contexts the destination supports (1..65536). */
  readonly segContexts: number;
};

/**
 * Decodes a Data Streaming Information CAR word.
 *
 * @example
 * ```ts
 * import { decodeDsInfo } from 'riodp/registers';
 *
 * const info = decodeDsInfo(0x00000010); // MaxPDU 0x0000: "64kbytes"
 * console.log(info.maxPduBytes, info.segContexts); // 65536 16
 * ```
 */
export function decodeDsInfo(word: number): DsInfo {
  const f = dsInfoView.unpack(word);
  return { ...f, maxPduBytes: countFromField(f.maxPdu), segContexts: countFromField(f.segSupport) };
}

/**
 * The Data Streaming Information CAR word of its fields.
 *
 * @example
 * ```ts
 * import { encodeDsInfo } from 'riodp/registers';
 *
 * encodeDsInfo({ maxPdu: 0x1000, segSupport: 16, rsrv: 0 }); // → 0x10000010: 4 Kbyte PDUs, 16 contexts
 * ```
 */
export function encodeDsInfo(value: Unpacked<typeof DS_INFO_FIELDS>): number {
  return dsInfoView.pack(value, DS_INFO_OFFSET);
}

export function dsInfoRegister(maxPduBytes: number, segContexts: number): RegisterSpec {
  return {
    offset: DS_INFO_OFFSET,
    name: dsInfoView.register,
    kind: RegisterKind.car,
    clause: CLAUSE_DS_INFO,
    reset: ((fieldFromCount(maxPduBytes, 'maxPdu') << 16) | fieldFromCount(segContexts, 'segSupport')) >>> 0,
  };
}

// ---- Data Streaming Logical Layer Control CSR --------------------------------------------------

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

function tmModeProblem(mode: number, types: number): string | undefined {
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

const mtuCheck = (v: number): string | undefined => (mtuBytesFromEncoding(v) === null ? `MTU encoding 0x${v.toString(16).padStart(2, '0')} is reserved (valid 0x08–0x40)` : undefined);

/**
 * New TM types must be a valid combination and still support the current mode (§3.4.5 rule 4),
 * so narrowing the types cannot leave a mode behind that strict decoding rejects.
 */
function tmTypesProblem(types: number, word: number): string | undefined {
  if (tmTypesName(types) === 'INVALID') return `TM types 0b${types.toString(2).padStart(4, '0')} is not a valid combination`;
  const mode = getField(word, 4, 4);
  return tmModeName(mode) === 'RESERVED' ? undefined : tmModeProblem(mode, types);
}

/**
 * The Data Streaming Logical Layer Control CSR's fields (Table 5-6).
 *
 * @example
 * ```ts
 * import { DS_CONTROL_FIELDS } from 'riodp/registers';
 *
 * // Check a value from a user before it goes into a MAINTENANCE write.
 * DS_CONTROL_FIELDS.mtu.check(0x41, 0, 0); // → 'MTU encoding 0x41 is reserved (valid 0x08–0x40)'
 * DS_CONTROL_FIELDS.mtu.check(0x40, 0, 0); // → undefined: 256 bytes is fine
 * ```
 */
export const DS_CONTROL_FIELDS = {
  tmTypesSupported: checkedField(0, 4, tmTypesProblem),
  tmMode: checkedField(4, 4, (v: number, word: number) => tmModeProblem(v, word >>> 28)),
  mtu: checkedField(24, 8, mtuCheck),
} as const;
/**
 * The Data Streaming Logical Layer Control CSR's view.
 *
 * @example
 * ```ts
 * import { dsControlView } from 'riodp/registers';
 *
 * // The word a MAINTENANCE read of 0x48 returned: Basic+Credit supported, Credit mode, 256-byte MTU.
 * dsControlView.unpack(0xa3000040); // → { tmTypesSupported: 0b1010, tmMode: 3, mtu: 0x40, rsrv: 0 }
 * ```
 */
export const dsControlView = new RegisterView('Data Streaming Logical Layer Control CSR', CLAUSE_DS_CONTROL, DS_CONTROL_FIELDS);
/**
 * The Data Streaming Logical Layer Control CSR at its offset.
 *
 * @example
 * ```ts
 * import { TM_MODE, buildEndpointRegisters, dsControl } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256, tm: { types: 'BASIC' } } });
 * dsControl.get(space, 'mtu'); // → 0x40 (256 bytes)
 * dsControl.update(space, { tmMode: TM_MODE.basic, mtu: 0x20 }); // Basic mode, 128-byte MTU
 * ```
 */
export const dsControl = dsControlView.at(DS_CONTROL_OFFSET);

/**
 * The word masks of the Control CSR's fields.
 *
 * @example
 * ```ts
 * import { DS_CONTROL_MASKS } from 'riodp/registers';
 *
 * const word = 0xa3ff0040; // read from a device under test
 * console.log(((word & DS_CONTROL_MASKS.reserved) >>> 0).toString(16)); // ff0000: reserved bits 8–15 are set
 * ```
 */
export const DS_CONTROL_MASKS = {
  tmTypesSupported: fieldMask(0, 3),
  tmMode: fieldMask(4, 4),
  mtu: fieldMask(24, 8),
  /** Bit 3 of TM Types Supported and bits 8–23 are reserved. */
  reserved: (bitMask(3) | fieldMask(8, 16)) >>> 0,
} as const;

/** A decoded Data Streaming Logical Layer Control CSR: its fields, their names, and the MTU in bytes. */
export type DsControl = Unpacked<typeof DS_CONTROL_FIELDS> & {
  readonly tmTypes: TmTypesName;
  readonly tmModeName: TmModeName;
  /** MTU in bytes, null for a reserved encoding. */
  readonly mtuBytes: number | null;
};

/**
 * Decodes a Data Streaming Logical Layer Control CSR word; `opts.strict` refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodeDsControl } from 'riodp/registers';
 *
 * const ctl = decodeDsControl(0xa3000040, { strict: true });
 * console.log(ctl.tmTypes, ctl.tmModeName, ctl.mtuBytes); // BASIC_CREDIT CREDIT 256
 * ```
 */
export function decodeDsControl(word: number, opts: ViewDecodeOptions = {}): DsControl {
  const f = dsControlView.unpack(word);
  const value: DsControl = { ...f, tmTypes: tmTypesName(f.tmTypesSupported), tmModeName: tmModeName(f.tmMode), mtuBytes: mtuBytesFromEncoding(f.mtu) };
  if (opts.strict === true) {
    const reg = dsControlView.register;
    checkRsrv(f.rsrv, DS_CONTROL_OFFSET, reg, CLAUSE_DS_CONTROL);
    if (value.tmTypes === 'INVALID') throw new RegisterError(RegisterErrorCode.invalid, DS_CONTROL_OFFSET, `${reg}.tmTypesSupported`, CLAUSE_DS_CONTROL, 'not a valid combination');
    if (value.tmModeName === 'RESERVED') throw new RegisterError(RegisterErrorCode.reserved, DS_CONTROL_OFFSET, `${reg}.tmMode`, CLAUSE_DS_CONTROL, 'reserved TM mode');
    const modeProblem = tmModeProblem(f.tmMode, f.tmTypesSupported);
    if (modeProblem !== undefined) throw new RegisterError(RegisterErrorCode.invalid, DS_CONTROL_OFFSET, `${reg}.tmMode`, CLAUSE_TM_RULES, modeProblem);
    if (value.mtuBytes === null) throw new RegisterError(RegisterErrorCode.reserved, DS_CONTROL_OFFSET, `${reg}.mtu`, CLAUSE_DS_CONTROL, `MTU encoding 0x${f.mtu.toString(16)} is reserved`);
  }
  return value;
}

/**
 * The Data Streaming Logical Layer Control CSR word of its fields.
 *
 * @example
 * ```ts
 * import { TM_MODE, encodeDsControl, mtuEncoding } from 'riodp/registers';
 *
 * encodeDsControl({ tmTypesSupported: 0b1100, tmMode: TM_MODE.rate, mtu: mtuEncoding(256), rsrv: 0 }); // → 0xc2000040
 * ```
 */
export function encodeDsControl(value: Unpacked<typeof DS_CONTROL_FIELDS>): number {
  return dsControlView.pack(value, DS_CONTROL_OFFSET);
}

/**
 * Sets the MTU in bytes through the typed view: 32..256 in 4-byte steps, else RegisterError.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, dsControl, setMtuBytes } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * setMtuBytes(space, 128);
 * dsControl.get(space, 'mtu'); // → 0x20
 * ```
 */
export function setMtuBytes(space: RegisterSpace, bytes: number): void {
  dsControl.set(space, 'mtu', mtuEncoding(bytes));
}

/**
 * MTU in bytes as the element currently uses it, null when a raw write left a reserved encoding.
 *
 * @example
 * ```ts
 * import { DS_CONTROL_OFFSET, buildEndpointRegisters, getMtuBytes } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ dataStreaming: { maxPdu: 4096, segSupport: 16, mtu: 256 } });
 * getMtuBytes(space); // → 256
 * space.writeWord(DS_CONTROL_OFFSET, 0x00000004); // a MAINTENANCE write of the reserved MTU 0x04 is stored as written
 * getMtuBytes(space); // → null
 * ```
 */
export function getMtuBytes(space: RegisterSpace): number | null {
  return mtuBytesFromEncoding(dsControl.get(space, 'mtu'));
}

/**
 * TM Types Supported is read-only; TM Mode and MTU are writable. A MAINTENANCE write of a
 * reserved MTU or TM mode is stored as written: "When a writable bit field is set to a reserved
 * value, device behavior is implementation specific" (Part 10 rev 4.1 §5.3), and riodp's choice
 * is the plain register that software can read back; the typed view reports it (mtuBytes null).
 * A running end point then puts back a TM Mode it cannot run (src/node/endpoint/tm-mode-register.ts).
 */
export function dsControlRegister(reset: number): RegisterSpec {
  return {
    offset: DS_CONTROL_OFFSET,
    name: dsControlView.register,
    kind: RegisterKind.csr,
    clause: CLAUSE_DS_CONTROL,
    reset,
    writable: (DS_CONTROL_MASKS.tmMode | DS_CONTROL_MASKS.mtu) >>> 0,
    reserved: DS_CONTROL_MASKS.reserved,
  };
}
