import { RegisterError, RegisterErrorCode } from './errors.ts';
import { EF_ID, expectEfBlock } from './ef-chain.ts';
import type { EfBlockSpec } from './ef-chain.ts';
import { RegisterView, checkedField, checkRsrv, fieldMask, getField } from './fields.ts';
import type { Unpacked, ViewDecodeOptions } from './fields.ts';
import { lockWrite } from './lock.ts';
import { AccessSource, RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec, WriteHook } from './space.ts';

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

// ---- Write Enable CSR (the lock) ----------------------------------------------------------------

/**
 * Lock_Val of the block's Write Enable CSR (§5.2.2): 0xFFFF when no initiator holds the lock.
 *
 * @example
 * ```ts
 * import { acquireSessionLock, buildEndpointRegisters, sessionLockVal } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } }); // block at 0x160
 * sessionLockVal(space, 0x160); // → 0xffff: unlocked
 * acquireSessionLock(space, 0x160, 0x0005);
 * sessionLockVal(space, 0x160); // → 5: held by the initiator that wrote 0x0005
 * ```
 */
export function sessionLockVal(space: RegisterSpace, base: number): number {
  return space.readWord(base + SESSION_BLOCK.writeEnable) & 0xffff;
}

/**
 * Whether an initiator holds the lock (Lock_Val != 0xFFFF), which makes the block writable.
 *
 * @example
 * ```ts
 * import { SESSION_BLOCK, acquireSessionLock, buildEndpointRegisters, sessionLocked } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } }); // block at 0x160
 * const advertisement = 0x160 + SESSION_BLOCK.advertisement;
 * space.writeWord(advertisement, 0x00000003); // unlocked: the block is read only, the MAINTENANCE write is ignored
 * acquireSessionLock(space, 0x160, 0x0005);
 * sessionLocked(space, 0x160);                // → true
 * space.writeWord(advertisement, 0x00000003); // lands: the block now advertises mailbox 3
 * ```
 */
export function sessionLocked(space: RegisterSpace, base: number): boolean {
  return sessionLockVal(space, base) !== SESSION_BLOCK.unlocked;
}

function checkLockValue(value: number, base: number): void {
  if (!Number.isInteger(value) || value < 0 || value >= SESSION_BLOCK.unlocked) {
    throw new RegisterError(RegisterErrorCode.range, base + SESSION_BLOCK.writeEnable, 'Session Management Protocol Register Write Enable CSR.lockVal', CLAUSE_WRITE_ENABLE, `lock value ${String(value)} is outside 0x0000–0xFFFE (0xFFFF means unlocked)`);
  }
}

/**
 * Writes `value` as a MAINTENANCE initiator would and reads back, as Part 3 §3.5.3 asks
 * ("must then read ... to verify that it owns the lock"). True when `value` now holds the lock.
 *
 * @example
 * ```ts
 * import { acquireSessionLock, buildEndpointRegisters } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } }); // block at 0x160
 * acquireSessionLock(space, 0x160, 0x0005); // → true: initiator 5 owns the block
 * acquireSessionLock(space, 0x160, 0x0006); // → false: initiator 6 must wait
 * ```
 */
export function acquireSessionLock(space: RegisterSpace, base: number, value: number): boolean {
  checkLockValue(value, base);
  space.writeWord(base + SESSION_BLOCK.writeEnable, value);
  return sessionLockVal(space, base) === value;
}

/**
 * Writes the held value to release the lock; true when the block is unlocked afterwards.
 *
 * @example
 * ```ts
 * import { acquireSessionLock, buildEndpointRegisters, releaseSessionLock } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } }); // block at 0x160
 * acquireSessionLock(space, 0x160, 0x0005);
 * releaseSessionLock(space, 0x160, 0x0006); // → false: not the value held, no effect
 * releaseSessionLock(space, 0x160, 0x0005); // → true: Lock_Val is 0xFFFF again
 * ```
 */
export function releaseSessionLock(space: RegisterSpace, base: number, value: number): boolean {
  checkLockValue(value, base);
  space.writeWord(base + SESSION_BLOCK.writeEnable, value);
  return !sessionLocked(space, base);
}

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

// ---- The block ----------------------------------------------------------------------------------

export interface SessionBlockOptions {
  /** Sess_Mgmt_Max_Attr: attributes of 8 octets the block holds (0..254). */
  readonly maxAttr: number;
}

/**
 * Hook for write-protected registers: MAINTENANCE writes land only while some initiator holds the
 * lock (Lock_Val != 0xFFFF); with Lock_Val 0xFFFF the registers are read only.
 */
function writeProtected(base: number): WriteHook {
  return ({ space, source, current, merged }) => {
    if (source === AccessSource.local) return merged;
    return sessionLocked(space, base) ? merged : current;
  };
}

export function sessionBlock(opts: SessionBlockOptions): EfBlockSpec {
  const { maxAttr } = opts;
  if (!Number.isInteger(maxAttr) || maxAttr < 0 || maxAttr > SESSION_BLOCK.maxAttr) {
    throw new RegisterError(RegisterErrorCode.definition, 0, attributeRangeView.register, CLAUSE_ATTRIBUTE_RANGE, `Sess_Mgmt_Max_Attr ${String(maxAttr)} is outside 0..254`);
  }
  return {
    id: EF_ID.sessionManagement,
    name: 'Session Management Protocol Register Block Header',
    clause: CLAUSE_SESSION_BLOCK,
    size: SESSION_BLOCK.attributes + 8 * maxAttr,
    registers: (base): RegisterSpec[] => [
      {
        offset: base + SESSION_BLOCK.writeEnable,
        name: 'Session Management Protocol Register Write Enable CSR',
        kind: RegisterKind.csr,
        clause: CLAUSE_WRITE_ENABLE,
        reset: SESSION_BLOCK.unlocked,
        writable: 0xffff,
        reserved: 0xffff0000,
        onWrite: ({ current, value }) => lockWrite(current & 0xffff, value & 0xffff, SESSION_BLOCK.unlocked),
      },
      {
        offset: base + SESSION_BLOCK.advertisement,
        name: advertisementView.register,
        kind: RegisterKind.csr,
        clause: CLAUSE_ADVERTISEMENT,
        // §3.2: "On hardware power-up and on hardware reset, the Session Management Advertisement
        // CSR ... must be initialized by hardware to indicate non-participation".
        reset: advertisementWord({ conveyance: 'NOT_SUPPORTED' }),
        writable: 0xffffffff,
        onWrite: writeProtected(base),
      },
      {
        offset: base + SESSION_BLOCK.attributeRange,
        name: attributeRangeView.register,
        kind: RegisterKind.csr,
        clause: CLAUSE_ATTRIBUTE_RANGE,
        reset: ((maxAttr << 16) | (1 << 8) | NUM_ATTR_NOT_INITIALIZED) >>> 0,
        writable: fieldMask(20, 12),
        reserved: ~attributeRangeView.mask >>> 0,
        onWrite: writeProtected(base),
      },
      ...Array.from({ length: 2 * maxAttr }, (_, i): RegisterSpec => ({
        offset: base + SESSION_BLOCK.attributes + 4 * i,
        name: `Session Management Protocol Attribute ${i >> 1} CSR word ${i & 1}`,
        kind: RegisterKind.csr,
        clause: CLAUSE_ATTRIBUTES,
        writable: 0xffffffff,
        onWrite: writeProtected(base),
      })),
    ],
  };
}

function attributeOffset(space: RegisterSpace, base: number, index: number): number {
  const max = getField(space.readWord(base + SESSION_BLOCK.attributeRange), 8, 8);
  if (!Number.isInteger(index) || index < 0 || index >= max) {
    throw new RegisterError(RegisterErrorCode.outOfRange, base + SESSION_BLOCK.attributes, 'Session Management Protocol Attribute CSR', CLAUSE_ATTRIBUTES, `attribute ${String(index)} is outside 0..${max - 1}`);
  }
  return base + SESSION_BLOCK.attributes + 8 * index;
}

/**
 * Attribute `index` (8 octets: Attribute ID then Attribute Value, Annex 2 §3.5.3).
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, readSessionAttribute } from 'riodp/registers';
 *
 * // REQUEST_RETRY_PERIOD (attribute ID 0xF0000000): 250 000 µs.
 * const retry = Uint8Array.from([0xf0, 0x00, 0x00, 0x00, 0x00, 0x03, 0xd0, 0x90]);
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2, attributes: [retry] }] } }); // block at 0x160
 * const attr = readSessionAttribute(space, 0x160, 0);
 * new DataView(attr.buffer).getUint32(4); // → 250000
 * ```
 */
export function readSessionAttribute(space: RegisterSpace, base: number, index: number): Uint8Array {
  return space.read(attributeOffset(space, base, index), 8);
}

/**
 * Local write of attribute `index` (the element's own initialization; bypasses the lock).
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, readSessionAttribute, writeSessionAttribute } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } }); // block at 0x160
 * // REQUEST_TIMEOUT_PERIOD (attribute ID 0xF0000001): 1 000 000 µs.
 * writeSessionAttribute(space, 0x160, 0, Uint8Array.from([0xf0, 0x00, 0x00, 0x01, 0x00, 0x0f, 0x42, 0x40]));
 * readSessionAttribute(space, 0x160, 0); // → f0 00 00 01 00 0f 42 40
 * ```
 */
export function writeSessionAttribute(space: RegisterSpace, base: number, index: number, data: Uint8Array): void {
  const offset = attributeOffset(space, base, index);
  if (data.length !== 8) {
    throw new RegisterError(RegisterErrorCode.size, offset, 'Session Management Protocol Attribute CSR', CLAUSE_ATTRIBUTES, `an attribute is 8 octets, got ${data.length}`);
  }
  const view = new DataView(data.buffer, data.byteOffset, 8);
  space.writeLocal(offset, view.getUint32(0));
  space.writeLocal(offset + 4, view.getUint32(4));
}

/** A session management block as `readSessionBlock` reads it. */
export interface SessionBlockState {
  readonly base: number;
  readonly lockVal: number;
  readonly locked: boolean;
  readonly advertisement: SessionAdvertisement;
  readonly attributeRange: AttributeRange;
  /** The Sess_Mgmt_Num_Attr valid attributes (none while not initialized). */
  readonly attributes: readonly Uint8Array[];
}

/**
 * Reads a block as a remote initiator would. Strict is Annex 2 §5.2's "validation mode": reserved
 * fields must be zero and values in range.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, readSessionBlock } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'DATA_STREAMING', cos: 0x20, streamId: 0x1234 }] } }); // block at 0x160
 * const block = readSessionBlock(space, 0x160, { strict: true });
 * console.log(block.locked, block.advertisement.streamId, block.attributeRange.initComplete); // false 4660 true
 * ```
 */
export function readSessionBlock(space: RegisterSpace, base: number, opts: ViewDecodeOptions = {}): SessionBlockState {
  expectEfBlock(space, base, EF_ID.sessionManagement, CLAUSE_SESSION_BLOCK);
  const lockWord = space.readWord(base + SESSION_BLOCK.writeEnable);
  if (opts.strict === true) checkRsrv((lockWord & 0xffff0000) >>> 0, base + SESSION_BLOCK.writeEnable, 'Session Management Protocol Register Write Enable CSR', CLAUSE_WRITE_ENABLE);
  const advertisement = decodeAdvertisement(space.readWord(base + SESSION_BLOCK.advertisement), opts, base + SESSION_BLOCK.advertisement);
  const attributeRange = decodeAttributeRange(space.readWord(base + SESSION_BLOCK.attributeRange), opts, base + SESSION_BLOCK.attributeRange);
  const count = attributeRange.numAttrRegisters === null ? 0 : Math.min(attributeRange.sessMgmtNumAttr, attributeRange.sessMgmtMaxAttr);
  const attributes = Array.from({ length: count }, (_, i) => space.read(base + SESSION_BLOCK.attributes + 8 * i, 8));
  const lockVal = lockWord & 0xffff;
  return { base, lockVal, locked: lockVal !== SESSION_BLOCK.unlocked, advertisement, attributeRange, attributes };
}

/**
 * The element's own (local) initialization of one block: advertisement, attributes, range.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, initializeSessionBlock, readSessionBlock } from 'riodp/registers';
 *
 * // Hardware reset leaves the block advertising nothing; the element's software then publishes a Type 11 contact.
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'NOT_SUPPORTED' }] } }); // block at 0x160
 * initializeSessionBlock(space, 0x160, { conveyance: 'MESSAGING', mailbox: 3 });
 * readSessionBlock(space, 0x160).advertisement.mailbox; // → 3
 * ```
 */
export function initializeSessionBlock(space: RegisterSpace, base: number, advertisement: AdvertisementConfig, attributes: readonly Uint8Array[] = []): void {
  expectEfBlock(space, base, EF_ID.sessionManagement, CLAUSE_SESSION_BLOCK);
  space.writeLocal(base + SESSION_BLOCK.advertisement, advertisementWord(advertisement, base + SESSION_BLOCK.advertisement));
  attributes.forEach((a, i) => { writeSessionAttribute(space, base, i, a); });
  attributeRangeView.update(space, base + SESSION_BLOCK.attributeRange, { sessMgmtInitStage: 0, sessMgmtNumAttr: attributes.length });
}
