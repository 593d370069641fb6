import { RegisterError, RegisterErrorCode } from './errors.ts';
import { RegisterView, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';

// The session management block's layout (offsets, clauses) and the typed views and codecs of its
// Advertisement and Attribute Range CSRs. The block itself (lock, register definitions, attribute
// registers) is session-block.ts.

/**
 * Session Management Protocol extended features block, EF_ID 0x000C (Annex 2 §5.2): header
 * (0x0), Register Write Enable CSR (0x4), Advertisement CSR (0x8), Attribute Range CSR (0xC) and
 * up to 508 attribute registers (0x10–0x7FC: 254 attributes of 8 octets, Table 5-5).
 *
 * Write protection (§5.2.2): "When the Lock_Val is 0xFFFF, all other registers in this block are
 * read only"; "When the Lock_Val field is not 0xFFFF, all registers in this block are writable."
 * riodp applies that to MAINTENANCE writes of the fields the tables mark "Write Protected by
 * Session Management Protocol Register Write Enable register" and to the attribute registers.
 * Sess_Mgmt_Max_Attr "is Read Only from the RapidIO interface, but may be writable by the local
 * Processing Element", and the Advertisement CSR "may be written by the local processing
 * element": local writes bypass the lock. The header stays hard-wired.
 */
export const CLAUSE_SESSION_BLOCK = 'Annex 2 §5.2.1 Table 5-1';
export const CLAUSE_WRITE_ENABLE = 'Annex 2 §5.2.2 Table 5-2';
export const CLAUSE_ADVERTISEMENT = 'Annex 2 §5.2.3 Table 5-3';
export const CLAUSE_ATTRIBUTE_RANGE = 'Annex 2 §5.2.4 Table 5-4';
export const CLAUSE_ATTRIBUTES = 'Annex 2 §5.2.5 Table 5-5';

/**
 * The session management block's register offsets from its header (Annex 2 §5.2.1 Table 5-1) and limits.
 *
 * @example
 * ```ts
 * import { EF_ID, SESSION_BLOCK, buildEndpointRegisters, decodeAdvertisement, findEfBlocks } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } });
 * for (const base of findEfBlocks(space, EF_ID.sessionManagement)) {
 *   console.log(decodeAdvertisement(space.readWord(base + SESSION_BLOCK.advertisement)).mailbox); // 2
 * }
 * ```
 */
export const SESSION_BLOCK = {
  writeEnable: 0x4,
  advertisement: 0x8,
  attributeRange: 0xc,
  attributes: 0x10,
  /** Sess_Mgmt_Max_Attr 0xFE = 508 registers; 0xFF is reserved. */
  maxAttr: 0xfe,
  unlocked: 0xffff,
} as const;

// ---- Advertisement CSR --------------------------------------------------------------------------

/**
 * Conveyance values of the Advertisement CSR (§5.2.3 Table 5-3).
 *
 * @example
 * ```ts
 * import { CONVEYANCE } from 'riodp/registers';
 *
 * const advertisement = 0x10201234; // read from a remote block's Advertisement CSR
 * console.log(advertisement >>> 28 === CONVEYANCE.dataStreaming); // true: open sessions over Type 9
 * ```
 */
export const CONVEYANCE = { messaging: 0x0, dataStreaming: 0x1, notSupported: 0xf } as const;
/** The name of a Conveyance value. */
export type ConveyanceName = 'MESSAGING' | 'DATA_STREAMING' | 'NOT_SUPPORTED' | 'RESERVED';

/**
 * The name of a Conveyance value; RESERVED for another.
 *
 * @example
 * ```ts
 * import { conveyanceName } from 'riodp/registers';
 *
 * conveyanceName(0x1); // → 'DATA_STREAMING'
 * conveyanceName(0xf); // → 'NOT_SUPPORTED'
 * conveyanceName(0x3); // → 'RESERVED'
 * ```
 */
export function conveyanceName(v: number): ConveyanceName {
  if (v === CONVEYANCE.messaging) return 'MESSAGING';
  if (v === CONVEYANCE.dataStreaming) return 'DATA_STREAMING';
  return v === CONVEYANCE.notSupported ? 'NOT_SUPPORTED' : 'RESERVED';
}

/** The zero bits of Conveyance_Info for each conveyance (bits 4–23 for Type 11, 4–7 for Type 9). */
const INFO_ZERO = { MESSAGING: fieldMask(4, 20), DATA_STREAMING: fieldMask(4, 4) } as const;

/**
 * The whole word as Table 5-3 allows it: Conveyance 0x2-0xE is reserved, and Conveyance_Info is
 * 0x00000nn (Type 11) or 0x0ccssss (Type 9). Checked on either field, as strict decoding does.
 */
function advertisementProblem(_v: number, word: number): string | undefined {
  const name = conveyanceName(word >>> 28);
  if (name === 'RESERVED') return `conveyance 0x${(word >>> 28).toString(16)} is reserved`;
  if (name !== 'NOT_SUPPORTED' && (word & INFO_ZERO[name]) !== 0) return `Conveyance_Info bits 0x${((word & INFO_ZERO[name]) >>> 0).toString(16).padStart(8, '0')} must be 0 for ${name}`;
  return undefined;
}

/**
 * The Session Management Advertisement CSR's view (§5.2.3 Table 5-3).
 *
 * @example
 * ```ts
 * import { advertisementView } from 'riodp/registers';
 *
 * advertisementView.unpack(0x10201234); // → { conveyance: 1, conveyanceInfo: 0x0201234, rsrv: 0 }
 * ```
 */
export const advertisementView = new RegisterView('Session Management Advertisement CSR', CLAUSE_ADVERTISEMENT, {
  conveyance: checkedField(0, 4, advertisementProblem),
  conveyanceInfo: checkedField(4, 28, advertisementProblem),
} as const);

/** A decoded Advertisement CSR: its fields and the contact they give. */
export type SessionAdvertisement = Unpacked<typeof advertisementView.fields> & {
  readonly conveyanceName: ConveyanceName;
  /** Type 11: "0x00000nn where nn represents the mailbox ID". */
  readonly mailbox: number | null;
  /** Type 9: "0x0ccssss": cc the class of service, ssss the streamID. */
  readonly cos: number | null;
  readonly streamId: number | null;
};

/**
 * Decodes an Advertisement CSR word; `opts.strict` refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodeAdvertisement } from 'riodp/registers';
 *
 * const ad = decodeAdvertisement(0x10201234, { strict: true }); // "0x0ccssss": class of service 0x20, stream 0x1234
 * console.log(ad.conveyanceName, ad.cos, ad.streamId?.toString(16)); // DATA_STREAMING 32 1234
 * decodeAdvertisement(0x00000002).mailbox; // → 2: Type 11, mailbox 2
 * ```
 */
export function decodeAdvertisement(word: number, opts: ViewDecodeOptions = {}, offset: number = SESSION_BLOCK.advertisement): SessionAdvertisement {
  const f = advertisementView.unpack(word);
  const name = conveyanceName(f.conveyance);
  const value: SessionAdvertisement = {
    ...f,
    conveyanceName: name,
    mailbox: name === 'MESSAGING' ? getField(word, 24, 8) : null,
    cos: name === 'DATA_STREAMING' ? getField(word, 8, 8) : null,
    streamId: name === 'DATA_STREAMING' ? getField(word, 16, 16) : null,
  };
  if (opts.strict === true) {
    const reg = advertisementView.register;
    if (name === 'RESERVED') throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.conveyance`, CLAUSE_ADVERTISEMENT, `conveyance 0x${f.conveyance.toString(16)} is reserved`);
    if (name !== 'NOT_SUPPORTED') checkRsrv((word & INFO_ZERO[name]) >>> 0, offset, `${reg}.conveyanceInfo`, CLAUSE_ADVERTISEMENT);
  }
  return value;
}

/**
 * The Advertisement CSR word of its fields.
 *
 * @example
 * ```ts
 * import { CONVEYANCE, encodeAdvertisement } from 'riodp/registers';
 *
 * encodeAdvertisement({ conveyance: CONVEYANCE.dataStreaming, conveyanceInfo: 0x0201234, rsrv: 0 }); // → 0x10201234
 * ```
 */
export function encodeAdvertisement(value: Unpacked<typeof advertisementView.fields>): number {
  return advertisementView.pack(value);
}

/** What a block advertises: a Type 11 mailbox, a Type 9 stream, or no support. */
export type AdvertisementConfig =
  | { readonly conveyance: 'MESSAGING'; readonly mailbox: number }
  | { readonly conveyance: 'DATA_STREAMING'; readonly cos: number; readonly streamId: number }
  | { readonly conveyance: 'NOT_SUPPORTED' };

export function advertisementWord(cfg: AdvertisementConfig, offset: number = SESSION_BLOCK.advertisement): number {
  const check = (v: number, bits: number, field: string): number => {
    if (!Number.isInteger(v) || v < 0 || v >= 2 ** bits) throw new RegisterError(RegisterErrorCode.range, offset, `${advertisementView.register}.${field}`, CLAUSE_ADVERTISEMENT, `${String(v)} does not fit in ${bits} bits`);
    return v;
  };
  switch (cfg.conveyance) {
    case 'MESSAGING': return check(cfg.mailbox, 8, 'mailbox');
    case 'DATA_STREAMING': return ((CONVEYANCE.dataStreaming << 28) | (check(cfg.cos, 8, 'cos') << 16) | check(cfg.streamId, 16, 'streamId')) >>> 0;
    case 'NOT_SUPPORTED': return (CONVEYANCE.notSupported << 28) >>> 0;
  }
}

// ---- Attribute Range CSR ------------------------------------------------------------------------

/**
 * Table 5-4 lists "0xFF-0xFFFE - Reserved, 0xFFFF - ... not initialized" for an 8-bit field;
 * riodp reads the field's all-ones value 0xFF as "not initialized" (DECISIONS in registers.md).
 *
 * @example
 * ```ts
 * import { NUM_ATTR_NOT_INITIALIZED, attributeRangeView } from 'riodp/registers';
 *
 * // A remote initiator polls the Attribute Range CSR until the element has published its attributes.
 * const range = attributeRangeView.unpack(0x000801ff);
 * console.log(range.sessMgmtNumAttr === NUM_ATTR_NOT_INITIALIZED); // true: try again later
 * ```
 */
export const NUM_ATTR_NOT_INITIALIZED = 0xff;

function numAttrProblem(num: number, max: number): string | undefined {
  return num !== NUM_ATTR_NOT_INITIALIZED && num > max ? `Sess_Mgmt_Num_Attr ${num} exceeds Sess_Mgmt_Max_Attr ${max}` : undefined;
}

/**
 * The Session Management Attribute Range CSR's view (§5.2.4 Table 5-4).
 *
 * @example
 * ```ts
 * import { SESSION_BLOCK, attemptRegister, attributeRangeView, buildEndpointRegisters } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2, maxAttr: 8 }] } }); // block at 0x160
 * const range = 0x160 + SESSION_BLOCK.attributeRange;
 * const r = attemptRegister(() => attributeRangeView.set(space, range, 'sessMgmtNumAttr', 9));
 * if (!r.ok) console.log(r.error.detail); // Sess_Mgmt_Num_Attr 9 exceeds Sess_Mgmt_Max_Attr 8
 * ```
 */
export const attributeRangeView = new RegisterView('Session Management Attribute Range CSR', CLAUSE_ATTRIBUTE_RANGE, {
  // 0xFF is reserved; lowering the maximum below the valid attributes would break Num <= Max.
  sessMgmtMaxAttr: checkedField(8, 8, (v: number, w: number) => (v === 0xff ? 'Sess_Mgmt_Max_Attr 0xFF is reserved' : numAttrProblem(getField(w, 24, 8), v))),
  sessMgmtInitStage: { bit: 20, width: 4 },
  sessMgmtNumAttr: checkedField(24, 8, (v: number, w: number) => numAttrProblem(v, getField(w, 8, 8))),
} as const);

/** A decoded Attribute Range CSR. */
export type AttributeRange = Unpacked<typeof attributeRangeView.fields> & {
  /** "n - 2n Session Management Protocol Attribute Registers"; null for the reserved 0xFF. */
  readonly maxAttrRegisters: number | null;
  /** Valid attribute registers; null while "not initialized" (0xFF). */
  readonly numAttrRegisters: number | null;
  /** "0x0 - Initialization of registers complete". */
  readonly initComplete: boolean;
};

/**
 * Decodes an Attribute Range CSR word; `opts.strict` refuses reserved values.
 *
 * @example
 * ```ts
 * import { decodeAttributeRange } from 'riodp/registers';
 *
 * const range = decodeAttributeRange(0x00080001, { strict: true });
 * console.log(range.sessMgmtMaxAttr, range.numAttrRegisters, range.initComplete); // 8 2 true: one attribute, two registers
 * ```
 */
export function decodeAttributeRange(word: number, opts: ViewDecodeOptions = {}, offset: number = SESSION_BLOCK.attributeRange): AttributeRange {
  const f = attributeRangeView.unpack(word);
  if (opts.strict === true) {
    const reg = attributeRangeView.register;
    checkRsrv(f.rsrv, offset, reg, CLAUSE_ATTRIBUTE_RANGE);
    if (f.sessMgmtMaxAttr === 0xff) throw new RegisterError(RegisterErrorCode.reserved, offset, `${reg}.sessMgmtMaxAttr`, CLAUSE_ATTRIBUTE_RANGE, '0xFF is reserved');
    if (f.sessMgmtNumAttr !== NUM_ATTR_NOT_INITIALIZED && f.sessMgmtNumAttr > f.sessMgmtMaxAttr) throw new RegisterError(RegisterErrorCode.invalid, offset, `${reg}.sessMgmtNumAttr`, CLAUSE_ATTRIBUTE_RANGE, 'more valid attributes than the maximum');
  }
  return {
    ...f,
    maxAttrRegisters: f.sessMgmtMaxAttr === 0xff ? null : 2 * f.sessMgmtMaxAttr,
    numAttrRegisters: f.sessMgmtNumAttr === NUM_ATTR_NOT_INITIALIZED ? null : 2 * f.sessMgmtNumAttr,
    initComplete: f.sessMgmtInitStage === 0,
  };
}

/**
 * The Attribute Range CSR word of its fields.
 *
 * @example
 * ```ts
 * import { encodeAttributeRange } from 'riodp/registers';
 *
 * encodeAttributeRange({ sessMgmtMaxAttr: 8, sessMgmtInitStage: 0, sessMgmtNumAttr: 1, rsrv: 0 }); // → 0x00080001
 * ```
 */
export function encodeAttributeRange(value: Unpacked<typeof attributeRangeView.fields>): number {
  return attributeRangeView.pack(value);
}
