import { integerInRange } from '../engine/config-checks.ts';
import { COMPONENT_TAG_OFFSET, decodeComponentTag, setComponentTagAdvertisement } from '../registers/component-tag.ts';
import type { ComponentTagAdvertisement } from '../registers/component-tag.ts';
import { EF_ID, findEfBlocks } from '../registers/ef-chain.ts';
import { getField } from '../registers/fields.ts';
import { DESTINATION_OPERATIONS_OFFSET, OPERATIONS_BITS, SOURCE_OPERATIONS_OFFSET } from '../registers/operations.ts';
import { NUM_ATTR_NOT_INITIALIZED, SESSION_BLOCK, advertisementWord, decodeAdvertisement, decodeAttributeRange } from '../registers/session-block.ts';
import type { AdvertisementConfig } from '../registers/session-block.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { attempt } from '../wire/errors.ts';
import { ATTRIBUTE_BYTES, checkAttribute, writeAttribute } from '../wire/smp/attributes.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { checkMailbox } from './type11-mailbox.ts';
import type { Contact } from './types.ts';

/**
 * The local end point's side of Annex 2 §3.2 "Initialization of Session Management Advertisement
 * CSRs", on the element's own `RegisterSpace` (src/registers/).
 *
 * - Reset: "On hardware power-up and on hardware reset, the Session Management Advertisement CSR
 *   and the Component Tag CSR must be initialized by hardware to indicate non-participation" —
 *   the register definitions reset to Conveyance 0xF and Sess_Mgmt_Sup 0, so `space.reset()` is
 *   the hardware reset; `readParticipation` reports what a space advertises.
 * - `initialiseAdvertisement(space, plan)`: the local processor's software initialisation, "must
 *   indicate participation ... by modifying the Session Management Advertisement CSR, or
 *   optionally by modifying the Component Tag CSR if the ... Block is not available". One block
 *   per conveyance (§5.2 "an instance ... for every conveyance supported"), each given its
 *   contact, the protocol attributes the local processor knows, and whether later stages follow.
 * - `writeStage(port, base, stage)`: one stage of the staged initialisation ("protocol support
 *   related attributes could be initialized by the local processor, while system related
 *   attributes such as message timeout values could be initialized by a remote processor"),
 *   through a `RegisterPort`: `localPort(space)` for the element's processor, `maintenancePort`
 *   for a processor elsewhere (MAINTENANCE writes, write-protected by Lock_Val in hardware).
 *
 * Every writer, local or remote, follows §3.2 "If the ... Write Enable CSR is locked, other
 * processors must respect the lock and not attempt to modify the attribute registers": it takes
 * the lock with its own Lock_Val and reads it back (Part 3 §3.5.3, whose lock §5.2.2 says is
 * "identical"), writes nothing when another value holds it, and writes its value again to release.
 * Plan and stage arguments that cannot be right throw a RangeError naming the field; a lock held
 * by someone else, a finished or out-of-turn initialisation are results, not errors.
 */

/** A processor's access to one element's configuration space. */
export interface RegisterPort {
  read(offset: number): number;
  write(offset: number, value: number): void;
}

/** The element's own processor: local writes (§5.2.3 "may be written by the local processing element"). */
export function localPort(space: RegisterSpace): RegisterPort {
  return { read: (o) => space.readWord(o), write: (o, v) => { space.writeLocal(o, v); } };
}

/** A remote processor: MAINTENANCE reads and writes, which Lock_Val write-protects (§5.2.2). */
export function maintenancePort(space: RegisterSpace): RegisterPort {
  return { read: (o) => space.readWord(o), write: (o, v) => { space.writeWord(o, v); } };
}

/** Why a writer wrote nothing. */
export type StageRefusal =
  /** Another processor holds Lock_Val (§3.2 "must respect the lock"). */
  | 'locked'
  /** Sess_Mgmt_Init_Stage is 0, "Initialization of registers complete". */
  | 'complete'
  /** Sess_Mgmt_Init_Stage is not the stage this writer is for. */
  | 'out-of-turn'
  /** The attributes would exceed Sess_Mgmt_Max_Attr. */
  | 'full'
  /** Stage 15 is the last one 0x1-0xF can show in progress; it must complete initialisation. */
  | 'stages';

export type StageResult =
  | { readonly ok: true; readonly initStage: number; readonly numAttr: number }
  | { readonly ok: false; readonly reason: StageRefusal; readonly initStage: number; readonly lockVal: number };

export interface StageWrite {
  /** This writer's Lock_Val, 0x0000–0xFFFE (0xFFFF means unlocked). */
  readonly lockValue: number;
  /** Attributes this stage appends after the Sess_Mgmt_Num_Attr valid ones. */
  readonly attributes?: readonly AttributeLike[];
  /** The stage (1..15) the writer expects "in progress"; absent: whichever is. */
  readonly stage?: number;
  /** Last stage: Init_Stage becomes 0 ("complete"); otherwise the next stage. */
  readonly last: boolean;
}

const UNLOCKED = SESSION_BLOCK.unlocked;

function lockOf(port: RegisterPort, base: number): number {
  return port.read(base + SESSION_BLOCK.writeEnable) & 0xffff;
}

/**
 * Takes the lock unless another value holds it. Writing our own value while we hold it would
 * release it (§5.2.2 "writing the value of the Lock_Val field ... resets the Lock_Val field to
 * 0xFFFF"), so the field is read first; the read back settles a race with another writer.
 */
function acquire(port: RegisterPort, base: number, lockValue: number): number | undefined {
  const held = lockOf(port, base);
  if (held === lockValue) return undefined;
  if (held !== UNLOCKED) return held;
  port.write(base + SESSION_BLOCK.writeEnable, lockValue);
  const now = lockOf(port, base);
  return now === lockValue ? undefined : now;
}

function release(port: RegisterPort, base: number, lockValue: number): void {
  port.write(base + SESSION_BLOCK.writeEnable, lockValue);
}

function attributeWords(a: AttributeLike): [number, number] {
  const bytes = new Uint8Array(ATTRIBUTE_BYTES);
  writeAttribute(a, bytes, 0);
  const view = new DataView(bytes.buffer);
  return [view.getUint32(0), view.getUint32(4)];
}

function writeAttributes(port: RegisterPort, base: number, first: number, attrs: readonly AttributeLike[]): void {
  attrs.forEach((a, i) => {
    const [hi, lo] = attributeWords(a);
    const at = base + SESSION_BLOCK.attributes + ATTRIBUTE_BYTES * (first + i);
    port.write(at, hi);
    port.write(at + 4, lo);
  });
}

/** Attribute Range word: Max_Attr bits 8–15 (kept: read only from RapidIO), Init_Stage 20–23, Num_Attr 24–31. */
function rangeWord(maxAttr: number, initStage: number, numAttr: number): number {
  return ((maxAttr << 16) | (initStage << 8) | numAttr) >>> 0;
}

function checkLockValue(v: unknown, field: string): number {
  return integerInRange(v, 0, UNLOCKED - 1, field);
}

function checkAttributeList(list: readonly AttributeLike[] | undefined, field: string): readonly AttributeLike[] {
  const attrs = list ?? [];
  attrs.forEach((a, i) => {
    const r = attempt(() => { checkAttribute(a, `${field}[${i}]`); });
    if (!r.ok) throw new RangeError(`${field}[${i}] must be an attribute of Annex 2 §3.5.3 Table 3-2 (${r.error.detail})`);
  });
  return attrs;
}

/**
 * One initialisation stage by any processor: lock, append attributes, advance
 * Sess_Mgmt_Init_Stage ("0x1-0xF - Initialization of registers incomplete, initialization stage
 * X in progress", "0x0 - ... complete"), unlock. `base` is the block's header offset.
 */
export function writeStage(port: RegisterPort, base: number, stage: StageWrite): StageResult {
  const lockValue = checkLockValue(stage.lockValue, 'lockValue');
  const attrs = checkAttributeList(stage.attributes, 'attributes');
  if (stage.stage !== undefined) integerInRange(stage.stage, 1, 15, 'stage');
  const holder = acquire(port, base, lockValue);
  const range = decodeAttributeRange(port.read(base + SESSION_BLOCK.attributeRange));
  if (holder !== undefined) return { ok: false, reason: 'locked', initStage: range.sessMgmtInitStage, lockVal: holder };
  const refuse = (reason: StageRefusal): StageResult => {
    release(port, base, lockValue);
    return { ok: false, reason, initStage: range.sessMgmtInitStage, lockVal: lockValue };
  };
  const current = range.sessMgmtInitStage;
  if (current === 0) return refuse('complete');
  if (stage.stage !== undefined && stage.stage !== current) return refuse('out-of-turn');
  if (!stage.last && current === 0xf) return refuse('stages');
  const valid = range.sessMgmtNumAttr === NUM_ATTR_NOT_INITIALIZED ? 0 : range.sessMgmtNumAttr;
  if (valid + attrs.length > range.sessMgmtMaxAttr) return refuse('full');
  writeAttributes(port, base, valid, attrs);
  const next = stage.last ? 0 : current + 1;
  port.write(base + SESSION_BLOCK.attributeRange, rangeWord(range.sessMgmtMaxAttr, next, valid + attrs.length));
  release(port, base, lockValue);
  return { ok: true, initStage: next, numAttr: valid + attrs.length };
}

// ---- The local processor's initialisation ---------------------------------------------------

/** A session management block an end point advertises: the contact, and the attributes it lists. */
export interface BlockPlan {
  /** Where this block tells others to send management messages (Table 5-3 Conveyance_Info). */
  readonly contact: Contact;
  /** The protocol attributes the local processor writes, from attribute 0. */
  readonly attributes?: readonly AttributeLike[];
  /**
   * Whether other processors write later stages (default false). True leaves Init_Stage at the
   * stage after the local one, for a remote processor to complete with `writeStage`.
   */
  readonly laterStages?: boolean;
}

export interface AdvertisementPlan {
  /** One entry per block of the space, in chain order; blocks left out keep Conveyance 0xF. */
  readonly blocks?: readonly BlockPlan[];
  /** The Component Tag CSR advertisement (§5.3): without any block, or Type 11 beside Type 9 blocks (§3.3). */
  readonly componentTag?: Contact;
  /** The local processor's Lock_Val, 0x0000–0xFFFE. Default 0x0000. */
  readonly lockValue?: number;
}

export type BlockResult =
  | { readonly base: number; readonly ok: true; readonly contact: Contact; readonly initStage: number; readonly numAttr: number }
  | { readonly base: number; readonly ok: false; readonly reason: 'locked'; readonly lockVal: number };

export interface AdvertisementResult {
  readonly blocks: readonly BlockResult[];
  /** 'blocked': a block it stands beside (§3.3 mixed case) could not be written. */
  readonly componentTag: 'written' | 'not-planned' | 'blocked';
}

/**
 * Table 5-3 "the mailbox ID, formatted according to the definition in Part 2": a Part 2 mailbox
 * 0–63 (decision T2). An ID the register could hold but no sender could reach is not advertised.
 */
function advertisementOf(c: Contact, field: string): AdvertisementConfig {
  if (c.conveyance === 'type11') return { conveyance: 'MESSAGING', mailbox: checkMailbox(c.mailbox, `${field}.mailbox`) };
  if ((c.conveyance as string) !== 'type9') throw new RangeError(`${field}.conveyance must be 'type11' or 'type9'`);
  // Table 3-1: "0xFFFF Invalid".
  return { conveyance: 'DATA_STREAMING', cos: integerInRange(c.cos, 0, 0xff, `${field}.cos`), streamId: integerInRange(c.streamID, 0, 0xfffe, `${field}.streamID`) };
}

function tagAdvertisementOf(space: RegisterSpace, c: Contact, plan: readonly BlockPlan[], blocks: number): ComponentTagAdvertisement {
  // §5.3 "Only devices whose Destination Operations CAR and Source Operations CAR indicate support
  // for Data Message and/or Data Streaming transactions may advertise ... using the Component Tag CSR".
  const needed = (OPERATIONS_BITS.dataMessage | OPERATIONS_BITS.dataStreaming) >>> 0;
  if ((space.readWord(SOURCE_OPERATIONS_OFFSET) & needed) === 0 || (space.readWord(DESTINATION_OPERATIONS_OFFSET) & needed) === 0) {
    throw new RangeError('componentTag must be left out: the Operations CARs indicate neither Data Message nor Data Streaming (Annex 2 §5.3)');
  }
  // §5.3 "only if a Session Management Protocol register extension block is not present", except
  // §3.3's mixed system: the blocks for Type 9, the Component Tag CSR for Type 11.
  if (blocks > 0 && !(c.conveyance === 'type11' && plan.length === blocks && plan.every((b) => b.contact.conveyance === 'type9'))) {
    throw new RangeError('componentTag must be Type 11 with every Session Management block advertising Type 9, or the element must have no block (Annex 2 §5.3, §3.3)');
  }
  if (c.conveyance === 'type11') return { conveyance: 'MESSAGING', mailbox: checkMailbox(c.mailbox, 'componentTag.mailbox') };
  // Table 5-6: "x = 1 = StreamID MSB = 0xFF, x = 0 = StreamID MSB = 0x00".
  const id = integerInRange(c.streamID, 0, 0xfffe, 'componentTag.streamID');
  if (id >>> 8 !== 0 && id >>> 8 !== 0xff) throw new RangeError('componentTag.streamID must have an MSB of 0x00 or 0xFF (Annex 2 §5.3 Table 5-6)');
  return { conveyance: 'DATA_STREAMING', streamId: id };
}

function initialiseBlock(space: RegisterSpace, base: number, b: BlockPlan, attrs: readonly AttributeLike[], lockValue: number): BlockResult {
  const port = localPort(space);
  const holder = acquire(port, base, lockValue);
  if (holder !== undefined) return { base, ok: false, reason: 'locked', lockVal: holder };
  const maxAttr = getField(space.readWord(base + SESSION_BLOCK.attributeRange), 8, 8);
  writeAttributes(port, base, 0, attrs);
  // The local stage is stage 1 (the reset value); later stages continue from 2.
  const initStage = b.laterStages === true ? 2 : 0;
  port.write(base + SESSION_BLOCK.attributeRange, rangeWord(maxAttr, initStage, attrs.length));
  // Participation last: a reader never sees a contact whose block is still being filled in
  // without also seeing Init_Stage in progress.
  port.write(base + SESSION_BLOCK.advertisement, advertisementWord(advertisementOf(b.contact, 'contact'), base + SESSION_BLOCK.advertisement));
  release(port, base, lockValue);
  return { base, ok: true, contact: b.contact, initStage, numAttr: attrs.length };
}

/** The local processor's software initialisation (§3.2). Plan errors throw before anything is written. */
export function initialiseAdvertisement(space: RegisterSpace, plan: AdvertisementPlan): AdvertisementResult {
  const lockValue = checkLockValue(plan.lockValue ?? 0, 'lockValue');
  const bases = findEfBlocks(space, EF_ID.sessionManagement);
  const blocks = plan.blocks ?? [];
  if (blocks.length > bases.length) throw new RangeError(`blocks must have at most ${bases.length} entries, one per Session Management block of the element`);
  const lists = blocks.map((b, i) => {
    advertisementOf(b.contact, `blocks[${i}].contact`);
    // §2.4 "the initial information required ... on each conveyance must be put in a separate ... Block".
    if (blocks.findIndex((o) => o.contact.conveyance === b.contact.conveyance) !== i) throw new RangeError(`blocks[${i}].contact must use a conveyance no other block uses (Annex 2 §5.2)`);
    const attrs = checkAttributeList(b.attributes, `blocks[${i}].attributes`);
    const maxAttr = getField(space.readWord((bases[i] as number) + SESSION_BLOCK.attributeRange), 8, 8);
    if (attrs.length > maxAttr) throw new RangeError(`blocks[${i}].attributes must have at most ${maxAttr} entries (Sess_Mgmt_Max_Attr)`);
    return attrs;
  });
  const tag = plan.componentTag === undefined ? undefined : tagAdvertisementOf(space, plan.componentTag, blocks, bases.length);

  const results = blocks.map((b, i) => initialiseBlock(space, bases[i] as number, b, lists[i] ?? [], lockValue));
  if (tag === undefined) return { blocks: results, componentTag: 'not-planned' };
  if (results.some((r) => !r.ok)) return { blocks: results, componentTag: 'blocked' };
  setComponentTagAdvertisement(space, tag);
  return { blocks: results, componentTag: 'written' };
}

// ---- What a space advertises ----------------------------------------------------------------

/** What one session management block advertises, as the element's processor reads it. */
export interface BlockParticipation {
  readonly base: number;
  /** null: Conveyance 0xF "Not Supported" (or a reserved value). */
  readonly contact: Contact | null;
  readonly lockVal: number;
  readonly initStage: number;
  /** null while Sess_Mgmt_Num_Attr reads "not initialized". */
  readonly numAttr: number | null;
  readonly maxAttr: number;
}

/** What the Component Tag CSR advertises. */
export type TagParticipation = { readonly conveyance: 'type11'; readonly mailbox: number } | { readonly conveyance: 'type9'; readonly streamID: number };

/** Whether and how this end point advertises session management (Annex 2 §3.2, Chapter 5). */
export interface Participation {
  /** Whether any block or the Component Tag CSR indicates participation. */
  readonly participating: boolean;
  readonly blocks: readonly BlockParticipation[];
  readonly componentTag: TagParticipation | null;
}

/** The element's advertisement as its own processor reads it. */
export function readParticipation(space: RegisterSpace): Participation {
  const blocks = findEfBlocks(space, EF_ID.sessionManagement).map((base): BlockParticipation => {
    const adv = decodeAdvertisement(space.readWord(base + SESSION_BLOCK.advertisement));
    const range = decodeAttributeRange(space.readWord(base + SESSION_BLOCK.attributeRange));
    const contact: Contact | null = adv.mailbox !== null
      ? { conveyance: 'type11', mailbox: adv.mailbox }
      : adv.streamId !== null && adv.cos !== null ? { conveyance: 'type9', streamID: adv.streamId, cos: adv.cos } : null;
    return {
      base,
      contact,
      lockVal: space.readWord(base + SESSION_BLOCK.writeEnable) & 0xffff,
      initStage: range.sessMgmtInitStage,
      numAttr: range.numAttrRegisters === null ? null : range.sessMgmtNumAttr,
      maxAttr: range.sessMgmtMaxAttr,
    };
  });
  const t = decodeComponentTag(space.readWord(COMPONENT_TAG_OFFSET));
  const componentTag: TagParticipation | null = t.mailbox !== null
    ? { conveyance: 'type11', mailbox: t.mailbox }
    : t.streamId !== null ? { conveyance: 'type9', streamID: t.streamId } : null;
  return { participating: componentTag !== null || blocks.some((b) => b.contact !== null), blocks, componentTag };
}
