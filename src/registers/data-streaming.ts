import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, bitMask, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

/**
 * Data Streaming Information CAR (0x3C, Part 10 §5.4.3 Table 5-5) and Data Streaming Logical
 * Layer Control CSR (0x48, Part 10 §5.5.1 Table 5-6).
 */
export const DS_INFO_OFFSET = 0x3c;
/** Offset of the Data Streaming Logical Layer Control CSR. */
export const DS_CONTROL_OFFSET = 0x48;
export const CLAUSE_DS_INFO = 'Part 10 §5.4.3 Table 5-5';
export const CLAUSE_DS_CONTROL = 'Part 10 §5.5.1 Table 5-6';
const CLAUSE_TM_RULES = 'Part 10 §3.4.5';

// ---- Data Streaming Information CAR ----------------------------------------------------------

/** The Data Streaming Information CAR's fields (Table 5-5). */
export const DS_INFO_FIELDS = {
  maxPdu: { bit: 0, width: 16 },
  segSupport: { bit: 16, width: 16 },
} as const;
/** The Data Streaming Information CAR's view. */
export const dsInfoView = new RegisterView('Data Streaming Information CAR', CLAUSE_DS_INFO, DS_INFO_FIELDS);
/** The Data Streaming Information CAR at its offset. */
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

/** Decodes a Data Streaming Information CAR word. */
export function decodeDsInfo(word: number): DsInfo {
  const f = dsInfoView.unpack(word);
  return { ...f, maxPduBytes: countFromField(f.maxPdu), segContexts: countFromField(f.segSupport) };
}

/** The Data Streaming Information CAR word of its fields. */
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

/** TM Types Supported bits (Table 5-6): bit 0 Basic, bit 1 Rate, bit 2 Credit, bit 3 reserved. */
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
 */
export const TM_TYPES = { 0b0000: 'NONE', 0b1000: 'BASIC', 0b1100: 'BASIC_RATE', 0b1010: 'BASIC_CREDIT', 0b1110: 'BASIC_RATE_CREDIT' } as const;
/** The name of a TM Types Supported value; INVALID for a combination §3.4.5 does not allow. */
export type TmTypesName = (typeof TM_TYPES)[keyof typeof TM_TYPES] | 'INVALID';

/** The name of a TM Types Supported value. */
export function tmTypesName(v: number): TmTypesName {
  return (TM_TYPES as Readonly<Record<number, TmTypesName>>)[v] ?? 'INVALID';
}

/** TM Mode values (Table 5-6). */
export const TM_MODE = { disabled: 0, basic: 1, rate: 2, credit: 3, creditRate: 4 } as const;
/** The name of each standard TM Mode, indexed by its value. */
export const TM_MODE_NAMES = ['DISABLED', 'BASIC', 'RATE', 'CREDIT', 'CREDIT_RATE'] as const;
/** The name of a TM Mode value. */
export type TmModeName = (typeof TM_MODE_NAMES)[number] | 'RESERVED' | 'USER_DEFINED';

/** "0b0101 - 0b0111 = Reserved; 0b1000 - 0b1111 = allowed for user defined modes". */
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

/** MTU encodings 0x08..0x40 = 32..256 bytes in 4-byte steps; all others reserved (Table 5-6). */
export const MTU_MIN = 0x08;
/** The largest MTU encoding, 256 bytes. */
export const MTU_MAX = 0x40;

/** The MTU in bytes of an MTU field value; null for a reserved encoding. */
export function mtuBytesFromEncoding(encoding: number): number | null {
  return encoding >= MTU_MIN && encoding <= MTU_MAX ? encoding * 4 : null;
}

/** The MTU field value of an MTU in bytes; a RegisterError for a size Table 5-6 cannot encode. */
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

/** The Data Streaming Logical Layer Control CSR's fields (Table 5-6). */
export const DS_CONTROL_FIELDS = {
  tmTypesSupported: checkedField(0, 4, tmTypesProblem),
  tmMode: checkedField(4, 4, (v: number, word: number) => tmModeProblem(v, word >>> 28)),
  mtu: checkedField(24, 8, mtuCheck),
} as const;
/** The Data Streaming Logical Layer Control CSR's view. */
export const dsControlView = new RegisterView('Data Streaming Logical Layer Control CSR', CLAUSE_DS_CONTROL, DS_CONTROL_FIELDS);
/** The Data Streaming Logical Layer Control CSR at its offset. */
export const dsControl = dsControlView.at(DS_CONTROL_OFFSET);

/** The word masks of the Control CSR's fields. */
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

/** Decodes a Data Streaming Logical Layer Control CSR word; `opts.strict` refuses reserved values. */
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

/** The Data Streaming Logical Layer Control CSR word of its fields. */
export function encodeDsControl(value: Unpacked<typeof DS_CONTROL_FIELDS>): number {
  return dsControlView.pack(value, DS_CONTROL_OFFSET);
}

/** Sets the MTU in bytes through the typed view: 32..256 in 4-byte steps, else RegisterError. */
export function setMtuBytes(space: RegisterSpace, bytes: number): void {
  dsControl.set(space, 'mtu', mtuEncoding(bytes));
}

/** MTU in bytes as the element currently uses it, null when a raw write left a reserved encoding. */
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
