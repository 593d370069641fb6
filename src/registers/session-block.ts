import { RegisterError, RegisterErrorCode } from './errors.ts';
import { EF_ID, expectEfBlock } from './ef-chain.ts';
import type { EfBlockSpec } from './ef-chain.ts';
import { checkRsrv, fieldMask, getField } from './fields.ts';
import type { ViewDecodeOptions } from './fields.ts';
import { lockWrite } from './lock.ts';
import {
  CLAUSE_ADVERTISEMENT, CLAUSE_ATTRIBUTE_RANGE, CLAUSE_ATTRIBUTES, CLAUSE_SESSION_BLOCK, CLAUSE_WRITE_ENABLE, NUM_ATTR_NOT_INITIALIZED, SESSION_BLOCK,
  advertisementView, advertisementWord, attributeRangeView, decodeAdvertisement, decodeAttributeRange,
} from './session-csrs.ts';
import type { AdvertisementConfig, AttributeRange, SessionAdvertisement } from './session-csrs.ts';
import { AccessSource, RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec, WriteHook } from './space.ts';

// The Session Management Protocol extended features block (Annex 2 §5.2): its lock, its register
// definitions and its attribute registers, read and initialized as a whole. The layout and the
// views of its Advertisement and Attribute Range CSRs are in session-csrs.ts, re-exported here for
// the modules that import them from this file.
export {
  CLAUSE_SESSION_BLOCK, CLAUSE_WRITE_ENABLE, CLAUSE_ADVERTISEMENT, CLAUSE_ATTRIBUTE_RANGE, CLAUSE_ATTRIBUTES, SESSION_BLOCK, CONVEYANCE,
  conveyanceName, advertisementView, decodeAdvertisement, encodeAdvertisement, advertisementWord, NUM_ATTR_NOT_INITIALIZED, attributeRangeView,
  decodeAttributeRange, encodeAttributeRange,
} from './session-csrs.ts';
export type { ConveyanceName, SessionAdvertisement, AdvertisementConfig, AttributeRange } from './session-csrs.ts';

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
