import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, bitMask, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import {
  CLAUSE_DS_CONTROL, CLAUSE_DS_INFO, DS_CONTROL_OFFSET, DS_INFO_OFFSET, mtuBytesFromEncoding, mtuEncoding, tmModeName, tmModeProblem, tmTypesName,
} from './data-streaming-fields.ts';
import type { TmModeName, TmTypesName } from './data-streaming-fields.ts';
import { RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

// The Data Streaming Information CAR (0x3C, Part 10 §5.4.3 Table 5-5) and Logical Layer Control
// CSR (0x48, §5.5.1 Table 5-6): their fields, typed views, codecs and register definitions. The
// offsets and the meanings of the Control CSR's field values are in data-streaming-fields.ts,
// re-exported here for the modules that import them from this file.
export {
  DS_INFO_OFFSET, DS_CONTROL_OFFSET, CLAUSE_DS_INFO, CLAUSE_DS_CONTROL, TM_TYPE_BITS, TM_TYPES, tmTypesName, TM_MODE, TM_MODE_NAMES, tmModeName,
  MTU_MIN, MTU_MAX, mtuBytesFromEncoding, mtuEncoding,
} from './data-streaming-fields.ts';
export type { TmTypesName, TmModeName } from './data-streaming-fields.ts';

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
