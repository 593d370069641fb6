import { COMPONENT_TAG_OFFSET, decodeComponentTag } from '../registers/component-tag.ts';
import { ASSEMBLY_INFO_OFFSET, EF_ID, isLegalEfPointer } from '../registers/ef-chain.ts';
import { attemptRegister } from '../registers/errors.ts';
import { bitMask } from '../registers/fields.ts';
import { DESTINATION_OPERATIONS_OFFSET, OPERATIONS_BITS, SOURCE_OPERATIONS_OFFSET } from '../registers/operations.ts';
import {
  CLAUSE_ADVERTISEMENT, CLAUSE_WRITE_ENABLE, NUM_ATTR_NOT_INITIALIZED, SESSION_BLOCK, decodeAdvertisement, decodeAttributeRange,
} from '../registers/session-block.ts';
import { attempt } from '../wire/errors.ts';
import { ATTRIBUTE_BYTES, attributeFromValue, attributeIdBits, checkAttributeStrict } from '../wire/smp/attributes.ts';
import type { SmpAttribute } from '../wire/smp/attributes.ts';
import type { FoundContact, NonParticipation } from './discovery-types.ts';
import { MAILBOX_COUNT, isMailbox } from './type11-mailbox.ts';
import type { Contact } from './types.ts';

/**
 * What discovery learns of one node, as a generator: it yields the offset of each word it needs
 * and is resumed with the word (the engine turns yields into `read` outputs; a read error ends
 * the generator from outside). Order of reads: PE Features CAR, Assembly Information CAR and the
 * extended features chain (Part 1 §5.3), then per Session Management block (EF_ID 0x000C) its
 * Write Enable, Advertisement and Attribute Range CSRs and the valid attributes, then, unless a
 * block gives a Type 11 contact, the Component Tag CSR and the Operations CARs (§5.3, §3.3).
 */

const PE_FEATURES_OFFSET = 0x10;
const EXTENDED_FEATURES = bitMask(28);
const CLAUSE_TAG = 'Annex 2 §5.3 Table 5-6';
const CLAUSE_STREAM_ID = 'Annex 2 §3.5.2.5 Table 3-1';
/** Table 5-3 "formatted according to the definition in Part 2": mailboxes 0–63 (decision T2). */
const CLAUSE_MAILBOX = 'Annex 2 §5.2.3 Table 5-3, Part 2 Table 4-4';

function mailboxDetail(mailbox: number): string {
  return `mailbox ID ${mailbox} names no Part 2 mailbox (0–${MAILBOX_COUNT - 1})`;
}

export interface ProbeOptions {
  readonly validation: boolean;
  readonly maxEfBlocks: number;
  readonly tagCos: number;
  readonly protoID: number;
  readonly waitForLock: boolean;
  /** The last attempt: attributes are read even from a block still initialising. */
  readonly final: boolean;
}

export interface IllegalRegister {
  readonly offset: number;
  readonly field: string;
  readonly clause: string;
  readonly detail: string;
}

export interface ChainProblem {
  readonly offset: number;
  readonly reason: 'pointer' | 'loop' | 'limit';
  readonly detail: string;
}

export interface ProbeResult {
  readonly contacts: readonly FoundContact[];
  readonly illegal: readonly IllegalRegister[];
  readonly chain: ChainProblem | null;
  /** A block is still being initialised (Init_Stage ≠ 0, Lock_Val held, Num_Attr not initialized). */
  readonly incomplete: boolean;
  /** Why no contact was found (meaningful when `contacts` is empty). */
  readonly why: NonParticipation;
}

export type Probe = Generator<number, ProbeResult, number>;

const hex = (v: number): string => `0x${(v >>> 0).toString(16)}`;

/** Part 1 §5.3 walk, one header read per yield: illegal pointers and loops end the list. */
function* walkChain(o: ProbeOptions, problems: { chain: ChainProblem | null }): Generator<number, number[], number> {
  const blocks: number[] = [];
  if (((yield PE_FEATURES_OFFSET) & EXTENDED_FEATURES) === 0) return blocks;
  let ptr = (yield ASSEMBLY_INFO_OFFSET) & 0xffff;
  let at = ASSEMBLY_INFO_OFFSET;
  const seen = new Set<number>();
  while (ptr !== 0) {
    // "Pointer values not in extended features space or improperly aligned are illegal and shall be treated as the end of the data structure."
    if (!isLegalEfPointer(ptr)) {
      problems.chain = { offset: at, reason: 'pointer', detail: `EF_PTR ${hex(ptr)} is not a double-word aligned offset in 0x100-0xFFFC (Part 1 §5.3)` };
      break;
    }
    if (seen.has(ptr)) {
      problems.chain = { offset: at, reason: 'loop', detail: `EF_PTR ${hex(ptr)} returns to a block already visited (Part 1 §5.3)` };
      break;
    }
    if (seen.size >= o.maxEfBlocks) {
      problems.chain = { offset: at, reason: 'limit', detail: `more than ${o.maxEfBlocks} extended features blocks` };
      break;
    }
    seen.add(ptr);
    const header = yield ptr;
    if ((header & 0xffff) === EF_ID.sessionManagement) blocks.push(ptr);
    at = ptr;
    ptr = header >>> 16;
  }
  return blocks;
}

/** The strict decoder's first complaint about a word, as an illegal-register finding. */
function strictFinding(fn: () => unknown, offset: number, prefix: string): IllegalRegister | undefined {
  const r = attemptRegister(fn);
  if (r.ok) return undefined;
  const dot = r.error.register.lastIndexOf('.');
  return { offset, field: `${prefix}.${dot < 0 ? 'rsrv' : r.error.register.slice(dot + 1)}`, clause: r.error.clause, detail: r.error.detail };
}

interface BlockOutcome {
  readonly contact?: FoundContact;
  readonly incomplete: boolean;
  readonly unusable: boolean;
}

function* readAttributes(base: number, count: number, o: ProbeOptions, illegal: IllegalRegister[]): Generator<number, SmpAttribute[], number> {
  const out: SmpAttribute[] = [];
  const bytes = new Uint8Array(ATTRIBUTE_BYTES);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < count; i++) {
    const at = base + SESSION_BLOCK.attributes + ATTRIBUTE_BYTES * i;
    view.setUint32(0, yield at);
    view.setUint32(4, yield at + 4);
    const idLen = attributeIdBits(bytes[0] as number) / 8;
    const id = idLen === 1 ? view.getUint8(0) : idLen === 2 ? view.getUint16(0) : view.getUint32(0);
    const a = attributeFromValue(id, bytes.slice(idLen), o.protoID);
    if (o.validation) {
      const r = attempt(() => { checkAttributeStrict(a, at, `attributes[${i}]`); });
      if (!r.ok) illegal.push({ offset: at, field: `attributes[${i}]`, clause: r.error.clause, detail: r.error.detail });
    }
    out.push(a);
  }
  return out;
}

function* readBlock(base: number, o: ProbeOptions, illegal: IllegalRegister[]): Generator<number, BlockOutcome, number> {
  const weAt = base + SESSION_BLOCK.writeEnable;
  const advAt = base + SESSION_BLOCK.advertisement;
  const rangeAt = base + SESSION_BLOCK.attributeRange;
  const we = yield weAt;
  const advWord = yield advAt;
  const rangeWord = yield rangeAt;
  const report = (f: IllegalRegister | undefined): void => { if (f !== undefined) illegal.push(f); };

  const adv = decodeAdvertisement(advWord);
  const range = decodeAttributeRange(rangeWord);
  const lockVal = we & 0xffff;
  let unusable = false;
  if (o.validation) {
    // §5.2 "Implementations configured in validation mode should check these fields when first reading the ... Block".
    if ((we & 0xffff0000) !== 0) report({ offset: weAt, field: 'writeEnable.rsrv', clause: CLAUSE_WRITE_ENABLE, detail: `reserved bits ${hex(we & 0xffff0000)} are not 0` });
    report(strictFinding(() => decodeAdvertisement(advWord, { strict: true }, advAt), advAt, 'advertisement'));
    report(strictFinding(() => decodeAttributeRange(rangeWord, { strict: true }, rangeAt), rangeAt, 'attributeRange'));
  } else if (adv.conveyanceName === 'RESERVED') {
    report({ offset: advAt, field: 'advertisement.conveyance', clause: CLAUSE_ADVERTISEMENT, detail: `conveyance ${hex(adv.conveyance)} is reserved` });
  }
  if (adv.conveyanceName === 'RESERVED') unusable = true;
  if (adv.streamId === 0xffff) {
    report({ offset: advAt, field: 'advertisement.conveyanceInfo', clause: CLAUSE_STREAM_ID, detail: 'StreamID 0xFFFF is invalid' });
    unusable = true;
  }
  if (adv.mailbox !== null && !isMailbox(adv.mailbox)) {
    report({ offset: advAt, field: 'advertisement.conveyanceInfo', clause: CLAUSE_MAILBOX, detail: mailboxDetail(adv.mailbox) });
    unusable = true;
  }

  const initStage = range.sessMgmtInitStage;
  const numAttr = range.sessMgmtNumAttr === NUM_ATTR_NOT_INITIALIZED ? null : range.sessMgmtNumAttr;
  if (adv.conveyanceName === 'NOT_SUPPORTED' || unusable) {
    // A block still at its reset value may be about to advertise: polled while a stage is in progress.
    return { incomplete: !unusable && initStage !== 0, unusable };
  }
  const incomplete = initStage !== 0 || numAttr === null || (o.waitForLock && lockVal !== SESSION_BLOCK.unlocked);
  const count = numAttr === null || (incomplete && !o.final) ? 0 : Math.min(numAttr, range.sessMgmtMaxAttr);
  const attributes = yield* readAttributes(base, count, o, illegal);
  const contact: Contact = adv.mailbox !== null
    ? { conveyance: 'type11', mailbox: adv.mailbox }
    : { conveyance: 'type9', streamID: adv.streamId ?? 0, cos: adv.cos ?? 0 };
  return { contact: { contact, source: 'block', offset: base, initStage, lockVal, numAttr, attributes }, incomplete, unusable: false };
}

interface TagOutcome {
  readonly contact?: FoundContact;
  readonly advertised: boolean;
  readonly operations: boolean;
  readonly unusable: boolean;
}

function* readTag(blocks: number, o: ProbeOptions, illegal: IllegalRegister[]): Generator<number, TagOutcome, number> {
  const word = yield COMPONENT_TAG_OFFSET;
  const tag = decodeComponentTag(word);
  // "If Bit 0 of the Component Tag CSR contains a value of 0, then the node does not conform to this specification."
  if (!tag.sessMgmtSup) return { advertised: false, operations: false, unusable: false };
  const fail = (field: string, clause: string, detail: string, operations = false): TagOutcome => {
    illegal.push({ offset: COMPONENT_TAG_OFFSET, field, clause, detail });
    return { advertised: true, operations, unusable: true };
  };
  if (tag.sessMgmtChanName === 'RESERVED' || tag.sessMgmtChanName === 'EXPANSION') {
    return fail('componentTag.sessMgmtChan', CLAUSE_TAG, `Sess_Mgmt_Chan ${tag.sessMgmtChan} is reserved`);
  }
  if (o.validation) {
    const f = strictFinding(() => decodeComponentTag(word, { strict: true }), COMPONENT_TAG_OFFSET, 'componentTag');
    if (f !== undefined) illegal.push(f);
  }
  // §5.3 "may be used ... only if a Session Management Protocol register extension block is not
  // present", except §3.3's Type 11 tag beside Type 9 blocks.
  if (blocks > 0 && tag.sessMgmtChanName === 'DATA_STREAMING') {
    return fail('componentTag.sessMgmtChan', 'Annex 2 §5.3, §3.3', 'a Type 9 Component Tag advertisement beside a Session Management block');
  }
  if (tag.streamId === 0xffff) return fail('componentTag.sessMgmtChanInfo', CLAUSE_STREAM_ID, 'StreamID 0xFFFF is invalid');
  if (tag.mailbox !== null && !isMailbox(tag.mailbox)) return fail('componentTag.sessMgmtChanInfo', 'Annex 2 §5.3 Table 5-6, Part 2 Table 4-4', mailboxDetail(tag.mailbox));
  // §5.3 "Only devices whose Destination Operations CAR and Source Operations CAR indicate
  // support for Data Message and/or Data Streaming transactions may advertise support".
  const needed = (OPERATIONS_BITS.dataMessage | OPERATIONS_BITS.dataStreaming) >>> 0;
  const src = yield SOURCE_OPERATIONS_OFFSET;
  const dst = yield DESTINATION_OPERATIONS_OFFSET;
  if ((src & needed) === 0 || (dst & needed) === 0) {
    return fail('componentTag.sessMgmtSup', 'Annex 2 §5.3', 'the Operations CARs indicate neither Data Message nor Data Streaming', true);
  }
  const contact: Contact = tag.mailbox !== null
    ? { conveyance: 'type11', mailbox: tag.mailbox }
    : { conveyance: 'type9', streamID: tag.streamId ?? 0, cos: o.tagCos };
  return {
    contact: { contact, source: 'component-tag', offset: COMPONENT_TAG_OFFSET, initStage: 0, lockVal: SESSION_BLOCK.unlocked, numAttr: null, attributes: [] },
    advertised: true,
    operations: false,
    unusable: false,
  };
}

export function* probeNode(o: ProbeOptions): Probe {
  const problems: { chain: ChainProblem | null } = { chain: null };
  const illegal: IllegalRegister[] = [];
  const contacts: FoundContact[] = [];
  const bases = yield* walkChain(o, problems);
  let incomplete = false;
  let unusable = false;
  for (const base of bases) {
    const b = yield* readBlock(base, o, illegal);
    if (b.contact !== undefined) contacts.push(b.contact);
    incomplete ||= b.incomplete;
    unusable ||= b.unusable;
  }
  let tag: TagOutcome = { advertised: false, operations: false, unusable: false };
  if (!contacts.some((c) => c.contact.conveyance === 'type11')) {
    tag = yield* readTag(bases.length, o, illegal);
    if (tag.contact !== undefined) contacts.push(tag.contact);
  }
  const why: NonParticipation = tag.operations ? 'operations'
    : unusable || tag.unusable ? 'illegal'
      : incomplete ? 'incomplete'
        : bases.length > 0 ? 'not-supported' : 'no-advertisement';
  return { contacts, illegal, chain: problems.chain, incomplete, why };
}
