import { RegisterError, RegisterErrorCode } from './errors.ts';
import { bitMask } from './fields.ts';
import { CONFIG_SPACE, RegisterKind } from './space.ts';
import type { RegisterSpace, RegisterSpec } from './space.ts';

/**
 * The extended features data structure (Part 1 §5.3): "a singly linked list of double-word
 * structures. Each of these contains a pointer to the next structure (EF_PTR) and an extended
 * feature type identifier (EF_ID). The end of the list is determined when the next extended
 * feature pointer has a value of logic 0. All pointers ... shall index completely into the
 * extended features space ... aligned to a double-word boundary ... Pointer values not in
 * extended features space or improperly aligned are illegal and shall be treated as the end of
 * the data structure." The first pointer is ExtendedFeaturesPtr, bits 16–31 of the Assembly
 * Information CAR (0xC, Part 1 §5.4.4 Table 5-6), valid when PE Features CAR bit 28 is set.
 * Block header: bits 0–15 EF_PTR, bits 16–31 EF_ID (DECISIONS §6).
 */
export const CLAUSE_EF = 'Part 1 §5.3';
/**
 * Offset of the Assembly Information CAR, whose bits 16–31 point to the first block.
 *
 * @example
 * ```ts
 * import { ASSEMBLY_INFO_OFFSET, buildEndpointRegisters, walkEfChain } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ voq: {} });
 * const head = space.readWord(ASSEMBLY_INFO_OFFSET) & 0xffff; // ExtendedFeaturesPtr: 0x100
 * walkEfChain((offset) => space.readWord(offset), head).blocks.length; // → 2: LP-Serial, then VoQ Backpressure
 * ```
 */
export const ASSEMBLY_INFO_OFFSET = 0xc;
const PE_FEATURES_OFFSET = 0x10;
const EXTENDED_FEATURES_BIT = bitMask(28);

/**
 * Extended features block IDs riodp knows.
 *
 * @example
 * ```ts
 * import { EF_ID, buildEndpointRegisters, findEfBlocks } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ ports: 2, voq: {} });
 * findEfBlocks(space, EF_ID.voqBackpressure);   // → [ 0x180 ]
 * findEfBlocks(space, EF_ID.sessionManagement); // → []
 * ```
 */
export const EF_ID = {
  lpSerialEndpoint: 0x0001,
  lpSerialEndpointSwRecovery: 0x0002,
  lpSerialEndpointFree: 0x0003,
  lpSerialEndpointFreeSwRecovery: 0x0009,
  virtualChannel: 0x000a,
  voqBackpressure: 0x000b,
  sessionManagement: 0x000c,
  lpSerialLane: 0x000d,
  switchRoutingTable: 0x000e,
  timestampGeneration: 0x000f,
  miscellaneous: 0x0010,
  lpSerialEndpointII: 0x0011,
  lpSerialEndpointSwRecoveryII: 0x0012,
  lpSerialEndpointFreeII: 0x0013,
  lpSerialEndpointFreeSwRecoveryII: 0x0019,
} as const;

const EF_ID_NAMES: Readonly<Record<number, string>> = {
  0x0001: 'LP_SERIAL_ENDPOINT',
  0x0002: 'LP_SERIAL_ENDPOINT_SW_RECOVERY',
  0x0003: 'LP_SERIAL_ENDPOINT_FREE',
  0x0009: 'LP_SERIAL_ENDPOINT_FREE_SW_RECOVERY',
  0x000a: 'VIRTUAL_CHANNEL',
  0x000b: 'VOQ_BACKPRESSURE',
  0x000c: 'SESSION_MANAGEMENT',
  0x000d: 'LP_SERIAL_LANE',
  0x000e: 'SWITCH_ROUTING_TABLE',
  0x000f: 'TIMESTAMP_GENERATION',
  0x0010: 'MISCELLANEOUS',
  0x0011: 'LP_SERIAL_ENDPOINT_II',
  0x0012: 'LP_SERIAL_ENDPOINT_SW_RECOVERY_II',
  0x0013: 'LP_SERIAL_ENDPOINT_FREE_II',
  0x0019: 'LP_SERIAL_ENDPOINT_FREE_SW_RECOVERY_II',
};

/**
 * The name of an EF_ID; UNKNOWN for one riodp does not know.
 *
 * @example
 * ```ts
 * import { efIdName } from 'riodp/registers';
 *
 * const header = 0x0198000b; // a block header: EF_PTR 0x0198, EF_ID 0x000B
 * efIdName(header & 0xffff); // → 'VOQ_BACKPRESSURE'
 * efIdName(0x0042);          // → 'UNKNOWN'
 * ```
 */
export function efIdName(id: number): string {
  return EF_ID_NAMES[id] ?? 'UNKNOWN';
}

/** A block to place: its header name and ID, its size in bytes and its other registers. */
export interface EfBlockSpec {
  readonly id: number;
  readonly name: string;
  readonly clause: string;
  /** Bytes from the header to the end of the block. */
  readonly size: number;
  /** The block's registers, header excluded, for a block placed at `base`. */
  readonly registers: (base: number) => readonly RegisterSpec[];
}

/** Where a block was placed in the extended features space. */
export interface EfPlacement {
  readonly id: number;
  readonly name: string;
  readonly base: number;
  readonly size: number;
}

/** The header: "Hard wired pointer to the next block" and "Hard wired Extended Features ID". */
export function efHeaderRegister(base: number, id: number, next: number, name: string, clause: string): RegisterSpec {
  return { offset: base, name, kind: RegisterKind.csr, clause, reset: (((next & 0xffff) << 16) | (id & 0xffff)) >>> 0 };
}

/**
 * Whether an EF_PTR points into the extended features space, double-word aligned (an illegal one ends the
 * list).
 *
 * @example
 * ```ts
 * import { isLegalEfPointer } from 'riodp/registers';
 *
 * isLegalEfPointer(0x180);   // → true
 * isLegalEfPointer(0x184);   // → false: not double-word aligned
 * isLegalEfPointer(0x10000); // → false: implementation-defined space, not extended features space
 * ```
 */
export function isLegalEfPointer(ptr: number): boolean {
  return ptr >= CONFIG_SPACE.efStart && ptr <= CONFIG_SPACE.efEnd && ptr % 8 === 0;
}

/**
 * Places the blocks one after another from `start` (double-word aligned, inside extended
 * features space), defines each header with EF_PTR to the next (0 for the last) and each
 * block's registers. Returns where each block went; the caller points 0xC at the first.
 */
export function layoutEfChain(space: RegisterSpace, blocks: readonly EfBlockSpec[], start: number = CONFIG_SPACE.efStart): EfPlacement[] {
  const placements: EfPlacement[] = [];
  let base = start;
  for (const b of blocks) {
    if (!isLegalEfPointer(base) || base + b.size - 1 > 0xffff || b.size < 8) {
      throw new RegisterError(RegisterErrorCode.definition, base, b.name, CLAUSE_EF, `block of ${b.size} bytes does not fit double-word aligned in extended features space`);
    }
    placements.push({ id: b.id, name: b.name, base, size: b.size });
    base += Math.ceil(b.size / 8) * 8;
  }
  placements.forEach((p, i) => {
    const block = blocks[i] as EfBlockSpec;
    space.define(efHeaderRegister(p.base, p.id, placements[i + 1]?.base ?? 0, p.name, block.clause));
    for (const r of block.registers(p.base)) space.define(r);
  });
  return placements;
}

/** A block found walking the list: its base, EF_ID, next pointer and name. */
export interface EfBlockInfo {
  readonly base: number;
  readonly efId: number;
  readonly efPtr: number;
  readonly name: string;
}

/** The result of walking the extended features list. */
export interface EfWalk {
  /** Whether PE Features CAR bit 28 says the list exists (always true for walkEfChain). */
  readonly present: boolean;
  readonly head: number;
  readonly blocks: readonly EfBlockInfo[];
  /** Why the walk stopped early (illegal pointer or loop); null when it ended at EF_PTR 0. */
  readonly error: RegisterError | null;
}

/** Options of the walks. */
export interface EfWalkOptions {
  /** Throw the RegisterError instead of ending the walk there. */
  readonly strict?: boolean;
}

/**
 * Follows the list from `head` with `readWord` (a local space or MAINTENANCE reads of a remote
 * element). Lenient (default): an illegal pointer ends the list as Part 1 §5.3 requires and a
 * pointer seen before ends it too; either is reported in `error`. Strict: both throw.
 *
 * @example
 * ```ts
 * import { walkEfChain } from 'riodp/registers';
 *
 * // Block headers MAINTENANCE reads of a remote device returned; its ExtendedFeaturesPtr was 0x100.
 * const headers = new Map([[0x100, 0x01800001], [0x180, 0x0184000b]]); // the second EF_PTR, 0x184, is misaligned
 * const walk = walkEfChain((offset) => headers.get(offset) ?? 0, 0x100);
 * walk.blocks.map((b) => b.name); // → [ 'LP_SERIAL_ENDPOINT', 'VOQ_BACKPRESSURE' ]: the illegal pointer ends the list
 * walk.error?.code;               // → 'ef-pointer'
 * ```
 */
export function walkEfChain(readWord: (offset: number) => number, head: number, opts: EfWalkOptions = {}): EfWalk {
  const blocks: EfBlockInfo[] = [];
  const seen = new Set<number>();
  let ptr = head;
  let at = ASSEMBLY_INFO_OFFSET;
  let error: RegisterError | null = null;
  while (ptr !== 0) {
    if (!isLegalEfPointer(ptr)) {
      error = new RegisterError(RegisterErrorCode.efPointer, at, 'EF_PTR', CLAUSE_EF, `pointer 0x${ptr.toString(16)} is not a double-word aligned offset in extended features space 0x100–0xFFFC`);
      break;
    }
    if (seen.has(ptr)) {
      error = new RegisterError(RegisterErrorCode.efLoop, at, 'EF_PTR', CLAUSE_EF, `pointer 0x${ptr.toString(16)} returns to a block already visited`);
      break;
    }
    seen.add(ptr);
    const header = readWord(ptr);
    const info: EfBlockInfo = { base: ptr, efId: header & 0xffff, efPtr: header >>> 16, name: efIdName(header & 0xffff) };
    blocks.push(info);
    at = ptr;
    ptr = info.efPtr;
  }
  if (error !== null && opts.strict === true) throw error;
  return { present: true, head, blocks, error };
}

/**
 * Walks a space's own list, starting from PE Features bit 28 and ExtendedFeaturesPtr.
 *
 * @example
 * ```ts
 * import { buildEndpointRegisters, walkExtendedFeatures } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ voq: {}, session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } });
 * const walk = walkExtendedFeatures(space, { strict: true });
 * walk.blocks.map((b) => `${b.name} at 0x${b.base.toString(16)}`);
 * // → [ 'LP_SERIAL_ENDPOINT at 0x100', 'VOQ_BACKPRESSURE at 0x160', 'SESSION_MANAGEMENT at 0x170' ]
 * ```
 */
export function walkExtendedFeatures(space: RegisterSpace, opts: EfWalkOptions = {}): EfWalk {
  const head = space.readWord(ASSEMBLY_INFO_OFFSET) & 0xffff;
  if ((space.readWord(PE_FEATURES_OFFSET) & EXTENDED_FEATURES_BIT) === 0) return { present: false, head, blocks: [], error: null };
  return walkEfChain((o) => space.readWord(o), head, opts);
}

/**
 * Bases of every block with this EF_ID, in list order.
 *
 * @example
 * ```ts
 * import { EF_ID, buildEndpointRegisters, findEfBlocks, readSessionBlock } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ session: { blocks: [{ conveyance: 'MESSAGING', mailbox: 2 }] } });
 * const [base] = findEfBlocks(space, EF_ID.sessionManagement);
 * if (base !== undefined) console.log(readSessionBlock(space, base).advertisement.mailbox); // 2
 * ```
 */
export function findEfBlocks(space: RegisterSpace, efId: number): number[] {
  return walkExtendedFeatures(space).blocks.filter((b) => b.efId === efId).map((b) => b.base);
}

/**
 * Checks that `base` holds a header with `efId`, so typed views never read a foreign block.
 *
 * @example
 * ```ts
 * import { EF_ID, attemptRegister, buildEndpointRegisters, expectEfBlock } from 'riodp/registers';
 *
 * const space = buildEndpointRegisters({ voq: {} });
 * // 0x100 holds the LP-Serial block, not the VoQ block a caller assumed.
 * const r = attemptRegister(() => expectEfBlock(space, 0x100, EF_ID.voqBackpressure, 'VoQ Backpressure §5.1.1'));
 * if (!r.ok) console.log(r.error.detail); // expected EF_ID 0x000b, found 0x0001
 * ```
 */
export function expectEfBlock(space: RegisterSpace, base: number, efId: number, clause: string): void {
  const id = isLegalEfPointer(base) ? space.readWord(base) & 0xffff : -1;
  if (id !== efId) {
    throw new RegisterError(RegisterErrorCode.efId, base, 'EF_ID', clause, `expected EF_ID 0x${efId.toString(16).padStart(4, '0')}, found ${id < 0 ? 'an illegal block offset' : `0x${id.toString(16).padStart(4, '0')}`}`);
  }
}
