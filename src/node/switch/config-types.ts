import type { CongestionPointConfig } from '../../flow/congestion-point-types.ts';
import type { VoqSymbolForm } from '../../wire/voq-cs64.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import type { Arbitration } from './arbiters.ts';
import type { VoqMatcher } from './voq-matching.ts';

/**
 * The configuration of the switch element (`SwitchCore`, core.ts), the one switch every host runs:
 * the simulator adds its timing (crossbar speedup, slots) and links around it, the software fabric
 * its TCP listeners. Checked once by `resolveSwitchConfig` (config.ts); a bad field throws a
 * `RangeError` naming it (`<name>.<field>` when the switch has a name).
 */

/**
 * How packets wait between the input links and the output links (issue 7 §2, issue 15):
 * - 'output-queued': output queues; a packet waits at its input, in a FIFO per priority, only
 *   while its output queue has no room;
 * - 'input-fifo': one FIFO per input whose head contends for its output (Karol et al. 1987);
 * - 'input-voq': a virtual output queue per (output, class) at each input, matched by iSLIP
 *   (McKeown 1999), PIM or the wave front arbiter (`matcher`);
 * - 'cioq-voq-backpressure': output queues whose traffic is staged by the next switch's VoQ
 *   backpressure messages (VoQ Backpressure Chapter 4, the upstream role).
 */
export type Queueing = 'output-queued' | 'input-fifo' | 'input-voq' | 'cioq-voq-backpressure';

/**
 * Every switch architecture, as `queueing` takes them.
 *
 * @example
 * ```ts
 * import { QUEUEINGS, SwitchElement } from 'riodp/node';
 *
 * const arg: string = 'input-voq'; // e.g. a --queueing option
 * const queueing = QUEUEINGS.find((q) => q === arg);
 * if (queueing === undefined) throw new Error(`--queueing: expected one of ${QUEUEINGS.join(', ')}`);
 * const sw = new SwitchElement({ deviceId: 0x50, ports: 4, routes: { 1: 0, 2: 1, 3: 2, 4: 3 }, queueing });
 * console.log(sw.snapshot().queueing); // input-voq: a virtual output queue per (output, class) at each input, matched by iSLIP
 * ```
 */
export const QUEUEINGS: readonly Queueing[] = ['output-queued', 'input-fifo', 'input-voq', 'cioq-voq-backpressure'];

/** A routing table entry: the output port, and the next switch's egress port for VoQ staging. */
export interface SwitchRoute {
  readonly port: number;
  /**
   * VoQ Backpressure §2.2 "that lookup must produce the egress port for the current device as
   * well as the egress port for the next device". Absent: 0, the only port of an end point
   * (§5.1.2 "Single port end points implement the port 0 register only").
   */
  readonly next?: number;
}

/** One port of a switch. */
export interface SwitchPortConfig {
  /**
   * issue 8 §3 "A switch port accepts only the source IDs configured for it and drops (and
   * counts) packets with any other sourceID": the IDs an end point's port accepts, or 'any'
   * (default) for a port to another switch. Type 7 packets carry no sourceID: their
   * tgtdestinationID, which names the sender in every Type 7 an end point sends, is checked.
   */
  readonly accept?: 'any' | readonly number[];
}

/** A buffer's size in packets and the places kept for higher priorities. */
export interface BufferSpec {
  readonly packets: number;
  /**
   * Part 6 §6.12 rule 4 "a minimum of one maximum length packet input buffer must be reserved for
   * each priority level": a packet of priority p is taken only while more than
   * (3 − p) × reservePerPriority places are free.
   */
  readonly reservePerPriority?: number;
}

/** One port's Part 9 congestion point (src/flow/congestion-point-types.ts); the switch is its router. */
export type SwitchCongestionSettings = Omit<CongestionPointConfig, 'role' | 'routes' | 'participants'>;

/** VoQ backpressure (VoQ Backpressure Chapters 2–4). */
export interface SwitchVoqSettings {
  /** Output-queue detector (§2.5): congested at `high` queued packets, clear again at `low`. */
  readonly high: number;
  readonly low: number;
  /** Default 'seed' (DECISIONS §5). */
  readonly format?: VoqFormat;
  /** Default 'cs48'; 'cs64' needs format 'part12-rev4.1'. */
  readonly symbol?: VoqSymbolForm;
  /** §4.2 f refresh timer, in the host's time unit; null (default) = none. */
  readonly refreshPeriod?: number | null;
  /** Ports whose Port n VoQ Control CSR enables generation (§4.2 a). Default every port. */
  readonly generate?: readonly number[];
  /** 'cioq-voq-backpressure': staging queues per output (§2.3). Default the port count. */
  readonly stagingQueues?: number;
}

/** Identity CARs (Part 1 §5.4.1–5.4.4) and the Component Tag CSR (Part 3 §3.5.4). */
export interface SwitchIdentity {
  readonly deviceIdentity?: number;
  readonly deviceVendorIdentity?: number;
  readonly deviceRev?: number;
  readonly assyIdentity?: number;
  readonly assyVendorIdentity?: number;
  readonly assyRev?: number;
  readonly componentTag?: number;
}

/**
 * A per-port budget of MAINTENANCE requests the switch performs itself (maintenance-budget.ts):
 * `burst` at once, then one every `interval` (the host's time unit: ps in the simulator, ns over
 * TCP). Requests beyond it are dropped and counted (`maintenanceDropped`).
 */
export interface SwitchMaintenanceBudget {
  readonly burst: number;
  readonly interval: number;
}

/** How an output chooses among the inputs that have a packet for it (issue 15). */
export interface SwitchArbitrationSettings {
  /** Default 'round-robin'. */
  readonly policy?: Arbitration;
  /** `weighted`: consecutive wins per input, one per port (default 1 each). */
  readonly weights?: readonly number[];
  /**
   * Contenders of the highest class (prio × 2 + CRF, Part 6 §5) win before the policy is asked
   * (default true): the order in which the switch serves its queues, applied to the inputs.
   */
  readonly byClass?: boolean;
  /**
   * `random`: the seed of its stream (default 1). A host with seeded streams of its own (the
   * simulator: `switch:<name>:arb` of the scenario's seed) uses them unless a seed is given here.
   */
  readonly seed?: number;
}

/** The configuration of a `SwitchElement` (durations in the driver's time unit). */
export interface SwitchConfig {
  /** Names the switch in messages, probes and random streams. Default 'switch'. */
  readonly name?: string;
  /**
   * Base Device ID CSR; a MAINTENANCE read or write request to this ID is for the switch. Default:
   * every bit set for `tt` (a switch without an ID of its own, reached with hop_count 0).
   */
  readonly deviceId?: number;
  /**
   * 0 (Dev8) or 1 (Dev16, default): the width of the route table and route CSRs, and the transport
   * type a congestion point assumes for a packet that carries no decoded header.
   */
  readonly tt?: 0 | 1;
  /** External ports, 2–255 (Part 1 Table 5-8 PortTotal). */
  readonly ports: number;
  /** destinationID → output port, or the port and the next switch's egress port. */
  readonly routes: Readonly<Record<number, number | SwitchRoute>>;
  /** Where IDs without an entry and IDs above `routeLimit` go; none by default (dropped, counted). */
  readonly defaultPort?: number;
  /** Max_destID (Part 3 Table 3-4). Default 0xFF (Dev8) or 0xFFFF (Dev16). */
  readonly routeLimit?: number;
  /** Per port, index = port number; missing entries accept any source. */
  readonly portConfig?: readonly SwitchPortConfig[];
  /** Default 'output-queued'. */
  readonly queueing?: Queueing;
  /**
   * Every input buffer, or one per port: the packets received that wait to cross to their output.
   * Default 8 packets. A packet beyond it is dropped and counted (`hold-overrun`): a host whose
   * link keeps to the credits, or stops reading when told, never sends one.
   */
  readonly inputBuffer?: BufferSpec | readonly BufferSpec[];
  /**
   * Every output queue. Default 32 packets, none reserved per priority ('output-queued',
   * 'cioq-voq-backpressure'); input-queued switches have 0 (a packet crosses as it goes on the
   * link) or 1 (an output register), default 0. A reserve per priority lets maintenance responses
   * (one priority above their request) and other high-priority packets into an output that
   * lower-priority traffic has filled; on simulated links the receivers' buffers keep such places
   * (Part 6 §5 credits), on the software fabric's TCP links there are none, so `riodp switch`
   * defaults it to 1 (docs/fabric-switch.md).
   */
  readonly outputBuffer?: BufferSpec;
  /** A policy name, or the policy with its weights and class rule. */
  readonly arbitration?: Arbitration | SwitchArbitrationSettings;
  /** iSLIP or PIM iterations ('input-voq'). Default 1. */
  readonly iterations?: number;
  /**
   * 'input-voq': how inputs are paired with outputs (voq-matching.ts). Default 'islip'. Its
   * arbitration is the matcher's own: `arbitration` may be absent or name it (round-robin for
   * 'islip' and 'wavefront', random for 'pim', whose stream `arbitration.seed` then seeds).
   */
  readonly matcher?: VoqMatcher;
  /** The switch's own CCPs waiting per output (Part 9 §2.4.6 rule 2: beyond them CCPs are dropped). Default 4. */
  readonly ccpQueue?: number;
  /**
   * Part 9 congestion points: one setting for every port, one per port (null = none), or none.
   * They watch the output queues, or the input buffers of the input-queued modes (where packets wait).
   */
  readonly congestion?: SwitchCongestionSettings | readonly (SwitchCongestionSettings | null)[] | null;
  /** VoQ backpressure: generation (downstream role) and, with 'cioq-voq-backpressure', staging. */
  readonly voq?: SwitchVoqSettings | null;
  /**
   * The MAINTENANCE requests for the switch (Part 3 §2.5) each input port may have performed:
   * null (default) for no limit. `riodp switch` files default to one (docs/fabric-switch.md).
   */
  readonly maintenanceBudget?: SwitchMaintenanceBudget | null;
  readonly identity?: SwitchIdentity;
}
