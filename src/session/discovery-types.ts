import type { Counters, PendingTimer, Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { SmpAttribute } from '../wire/smp/attributes.ts';
import type { ResolvedDiscoveryConfig } from './discovery-config.ts';
import type { Contact } from './types.ts';

/**
 * Discovery of remote session management participants (Annex 2 §3.3, Chapter 5): engine
 * `SessionDiscovery` (src/session/discovery.ts). It reads remote registers through maintenance
 * reads it asks the driver for (`read` outputs answered by `read-result` inputs) and reports, per
 * node, how to reach its management process.
 */

/** A conveyance of management messages: Type 11 mailboxes or a Type 9 stream (§3.3). */
export type Conveyance = Contact['conveyance'];

/** A node to discover (§3.3). */
export interface DiscoveryTarget {
  readonly node: number;
  /** hop_count of the MAINTENANCE read requests (Part 3 §2.5); 0xFF reaches an end point. Default 0xFF. */
  readonly hop?: number;
}

/** §3.3 "they may scan management space for all remote nodes": device IDs first..last. */
export interface DiscoveryScan {
  readonly first: number;
  readonly last: number;
  readonly hop?: number;
}

/** The configuration of a `SessionDiscovery` (durations in the driver's time unit). */
export interface DiscoveryConfig {
  /** §3.3 "an implementation-specific mechanism, such as a built-in table, to check only for specified remote systems". */
  readonly targets?: readonly DiscoveryTarget[];
  readonly scan?: DiscoveryScan;
  /** This end point's own device ID, skipped by the scan. */
  readonly self?: number;
  /** Device ID width (8, 16 or 32). Default 16. */
  readonly deviceIdBits?: 8 | 16 | 32;
  /** Conveyances this end point can send management messages over, most preferred first. Default ['type11', 'type9']. */
  readonly conveyances?: readonly Conveyance[];
  /** §5.2 validation mode: reserved fields of the block checked and illegal registers reported. Default false. */
  readonly validation?: boolean;
  /** Time to wait for each read's result before the node is unreachable. Default 100 ms (ns). */
  readonly readTimeout?: number;
  /** Time between reads of a node whose registers are still being initialised. Default 250 ms (ns). */
  readonly pollPeriod?: number;
  /** Re-reads of a node still initialising before it is reported as it stands. Default 4. */
  readonly pollLimit?: number;
  /** Nodes read at the same time, each with one read outstanding. Default 4. */
  readonly parallel?: number;
  /** Extended features blocks followed per node before the walk stops (Part 1 §5.3 lists are finite). Default 256. */
  readonly maxEfBlocks?: number;
  /**
   * COS used with a StreamID from the Component Tag CSR, which carries none: Table 5-6 "The COS
   * field in the VSID should be the highest priority COS supported by the interface" and Part 10
   * leaves the priority of cos values to the implementation. Default 0.
   */
  readonly tagCos?: number;
  /** ProtoID the block's attributes are named under (the block does not say). Default 0x0000. */
  readonly attributeProtoID?: number;
  /** Read a block again later while another processor holds Lock_Val (it may be half written). Default true. */
  readonly waitForLock?: boolean;
}

/** Start discovering the configured targets and scan range. */
export interface StartInput {
  readonly kind: 'start';
}

/** Discover one node (again), e.g. after §3.8.3's Stream_Unknown suggests it rebooted. */
export interface DiscoverInput {
  readonly kind: 'discover';
  readonly node: number;
  readonly hop?: number;
}

/** The driver's answer to a `read`: the 32-bit word, or why there is none. */
export interface ReadResultInput {
  readonly kind: 'read-result';
  readonly tag: number;
  readonly value?: number;
  readonly error?: string;
}

/** Timer names of a `SessionDiscovery`: a read's timeout, and the poll of a block still being initialised. */
export type DiscoveryTimerName = `read:${number}` | `poll:${number}`;

/**
 * What `SessionDiscovery.handle` takes: start, discover one node, the answers to its reads, timer expiries.
 */
export type DiscoveryInput = StartInput | DiscoverInput | ReadResultInput | TimerInput<DiscoveryTimerName>;

/** A MAINTENANCE read of one word at `offset` of `node`'s configuration space. */
export interface ReadOutput {
  readonly kind: 'read';
  readonly tag: number;
  readonly node: number;
  readonly hop: number;
  readonly offset: number;
}

/** Where a contact was advertised. */
export type ContactSource = 'block' | 'component-tag';

/**
 * A management contact read from a node's registers (a session management block, §5.2, or the Component Tag
 * CSR, §5.3).
 */
export interface FoundContact {
  readonly contact: Contact;
  readonly source: ContactSource;
  /** The block's header offset, or 0x6C for the Component Tag CSR. */
  readonly offset: number;
  /** Sess_Mgmt_Init_Stage (0 for the Component Tag CSR, which has none). */
  readonly initStage: number;
  /** Lock_Val (0xFFFF unlocked; also for the Component Tag CSR). */
  readonly lockVal: number;
  /** Sess_Mgmt_Num_Attr; null while "not initialized". */
  readonly numAttr: number | null;
  /** The valid attributes, decoded (§5.2.5 "formatted as per the attributes defined in Section 3.5.3"). */
  readonly attributes: readonly SmpAttribute[];
}

/** Why a node does not take part in session management. */
export type NonParticipation =
  /** No session block, and Component Tag CSR bit 0 is 0 (§5.3 "the node does not conform"). */
  | 'no-advertisement'
  /** Every block says Conveyance 0xF "Not Supported". */
  | 'not-supported'
  /** Blocks still in their reset state, initialisation in progress, after every poll. */
  | 'incomplete'
  /** A Component Tag advertisement the Operations CARs do not allow (§5.3). */
  | 'operations'
  /** Every advertisement found was unusable (reserved or invalid values). */
  | 'illegal';

/**
 * Why a node could not be discovered: a read answered with an error, a read unanswered, or no conveyance both
 * ends have.
 */
export type UnreachableReason = 'read-error' | 'timeout' | 'no-common-conveyance';

/**
 * What a `SessionDiscovery` reports: each node's outcome (participant, not participating, unreachable),
 * register problems, and the end of discovery.
 */
export type DiscoveryEvent =
  | {
    readonly event: 'participant';
    readonly node: number;
    /** The contact chosen by `conveyances` preference. */
    readonly contact: Contact;
    readonly source: ContactSource;
    /** Every usable contact found, blocks in chain order, then the Component Tag CSR. */
    readonly contacts: readonly FoundContact[];
    /** The chosen contact's attributes. */
    readonly attributes: readonly SmpAttribute[];
    readonly initStage: number;
    /** Init_Stage 0, Lock_Val free and Num_Attr initialised on the chosen contact's block. */
    readonly complete: boolean;
    /** An illegal register was reported for this node (§3.7.3 "judged to be suspect"). */
    readonly suspect: boolean;
  }
  | { readonly event: 'not-participating'; readonly node: number; readonly why: NonParticipation }
  | { readonly event: 'unreachable'; readonly node: number; readonly reason: UnreachableReason; readonly error: string; readonly offset?: number }
  | { readonly event: 'illegal-block'; readonly node: number; readonly offset: number; readonly field: string; readonly clause: string; readonly detail: string }
  | { readonly event: 'ef-chain'; readonly node: number; readonly offset: number; readonly reason: 'pointer' | 'loop' | 'limit'; readonly detail: string }
  | { readonly event: 'stale-result'; readonly tag: number }
  | { readonly event: 'ignored'; readonly reason: string }
  /** Every node asked for is reported and nothing is pending. */
  | { readonly event: 'done'; readonly nodes: number; readonly participants: number };

/** A `DiscoveryEvent` at time `at`. */
export interface DiscoveryEventOutput {
  readonly kind: 'event';
  readonly at: Time;
  readonly detail: DiscoveryEvent;
}

/**
 * What `SessionDiscovery.handle` returns: MAINTENANCE reads for the driver to make, events, timer requests.
 */
export type DiscoveryOutput = ReadOutput | DiscoveryEventOutput | TimerOutput<DiscoveryTimerName>;

/**
 * The names of a `SessionDiscovery`'s counters.
 *
 * @example
 * ```ts
 * import { DISCOVERY_COUNTERS, SessionDiscovery } from 'riodp/engines';
 *
 * const d = new SessionDiscovery({ targets: [{ node: 2 }, { node: 3 }] });
 * for (const o of d.handle({ kind: 'start' }, 0)) {
 *   if (o.kind === 'read') d.handle({ kind: 'read-result', tag: o.tag, error: 'ERROR status' }, 10); // the MAINTENANCE response said ERROR
 * }
 * const c = d.counters();
 * console.log(DISCOVERY_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // reads=2 readErrors=2 nodes=2 unreachable=2
 * ```
 */
export const DISCOVERY_COUNTERS = [
  'reads',
  'readErrors',
  'readTimeouts',
  'badResults',
  'staleResults',
  'polls',
  'nodes',
  'participants',
  'notParticipating',
  'unreachable',
  'illegal',
  'efChainErrors',
  'ignored',
] as const;
/** A counter of a `SessionDiscovery`. */
export type DiscoveryCounter = (typeof DISCOVERY_COUNTERS)[number];

/** `SessionDiscovery.snapshot()`. */
export interface DiscoverySnapshot {
  readonly config: ResolvedDiscoveryConfig;
  readonly started: boolean;
  /** The next node of the `scan` range; null when none is left. */
  readonly scanNext: number | null;
  /** Nodes waiting for a free read slot (`parallel`). */
  readonly queue: readonly { readonly node: number; readonly hop: number; readonly attempt: number }[];
  /** Nodes being read: the read outstanding (its tag and offset) and the reads made. */
  readonly active: readonly { readonly node: number; readonly attempt: number; readonly tag: number; readonly offset: number; readonly reads: number }[];
  /** Nodes whose block was still initialising, waiting out the poll period. */
  readonly waiting: readonly { readonly node: number; readonly attempt: number }[];
  /** The outcome of each node done. */
  readonly results: readonly { readonly node: number; readonly result: DiscoveryEvent['event'] }[];
  readonly timers: readonly PendingTimer<DiscoveryTimerName>[];
  readonly stats: Counters<DiscoveryCounter>;
}
