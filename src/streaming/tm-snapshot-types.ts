import type { Counters, PendingTimer } from '../engine/contract.ts';
import type { ClassifierRule, PacketFlow, QueueGranularity, StreamTarget } from './classifier.ts';
import type { EgressAu } from './tm-credit-egress.ts';
import type { HeldAu } from './tm-credit.ts';
import type { TmModeSetting, TmTypesSetting } from './tm-mode.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import type {
  TmCreditPolicy, TmDiscardPolicy, TmEgressCounterName, TmIngressCounterName, TmOnOffPolicy, TmRateConfig, TmRatePolicy, TmRateTimerName,
} from './tm-types.ts';

/**
 * What `TmIngress.snapshot()` and `TmEgress.snapshot()` give (Part 10 traffic management): plain
 * JSON. Kept apart from tm-types.ts, the engines' configuration, inputs and outputs.
 */

/** Where the TM mode comes from, as snapshots show it: the configuration, or the registers (with the mode they give now). */
export type TmModeSnapshot =
  | { readonly from: 'config'; readonly mode: TmModeSetting; readonly types: TmTypesSetting }
  | { readonly from: 'registers'; readonly side: 'ingress' | 'egress'; readonly mode: TmModeSetting };

/** The classification table in force, as `TmIngress.snapshot()` shows it. */
export interface ClassifierSnapshot {
  readonly rules: readonly ClassifierRule[];
  readonly default: StreamTarget | null;
  readonly granularity: QueueGranularity;
  readonly crfSupported: boolean;
}

/** One ingress queue (§3.4.2 on/off, §3.4.3 rates), as `TmIngress.snapshot()` shows it. */
export interface TmIngressQueueSnapshot {
  readonly key: string;
  readonly destinationID: number;
  readonly cos: number;
  /** Low cos bits the queue does not tell apart (class queues). */
  readonly cosFreeBits: number;
  /** null for a class queue (every stream). */
  readonly streamID: number | null;
  readonly flow: PacketFlow;
  /** Ready PDUs and their bytes. */
  readonly ready: number;
  readonly readyBytes: number;
  /** The level the application last reported, n/255. */
  readonly level: number;
  /** The level of the last Q_STATUS sent; null before the first. */
  readonly lastSentLevel: number | null;
  readonly on: boolean;
  readonly averageRate: number;
  readonly peakRate: number;
  readonly gate: 'open' | 'closed';
  readonly closedBy: 'on-off' | 'credit' | 'rate' | null;
}

/** The allocation units an ingress holds for one designation (§3.4.4), as `TmIngress.creditContexts()` lists them. */
export interface TmIngressCreditSnapshot {
  readonly key: string;
  readonly designation: TmDesignation;
  /** The AU in use; the others wait in the order they were allocated. */
  readonly current: HeldAu | null;
  readonly waiting: readonly HeldAu[];
  /** The flow CREDIT STATUS messages go in. */
  readonly flow: PacketFlow;
}

/** `TmIngress.snapshot()`. */
export interface TmIngressSnapshot {
  readonly localID: number;
  readonly tt: number;
  readonly mode: TmModeSnapshot;
  readonly classifier: ClassifierSnapshot;
  readonly amountBits: number;
  readonly rate: Required<TmRateConfig>;
  readonly lowCredits: number;
  readonly discard: TmDiscardPolicy;
  /** By queue key. */
  readonly queues: readonly TmIngressQueueSnapshot[];
  readonly credit: readonly TmIngressCreditSnapshot[];
  readonly timers: readonly PendingTimer<TmRateTimerName>[];
  readonly stats: Counters<TmIngressCounterName>;
}

/** The allocation units an egress issued to one designation (§3.4.4), as `TmEgress.creditState()` gives them. */
export interface TmEgressCreditState {
  readonly designation: TmDesignation;
  /** The AU number the next ALLOCATE takes. */
  readonly nextAllocationUnit: number;
  readonly aus: readonly EgressAu[];
}

/** `TmEgress.snapshot()`. */
export interface TmEgressSnapshot {
  /** The time of the last input. */
  readonly now: number;
  readonly localID: number;
  readonly tt: number;
  readonly mode: TmModeSnapshot;
  readonly granularity: QueueGranularity;
  readonly levelBits: number;
  readonly defaultFlow: string;
  /** The automatic policies in force; null: off. */
  readonly policy: { readonly onOff: TmOnOffPolicy | null; readonly rate: Required<TmRatePolicy> | null; readonly credit: TmCreditPolicy | null };
  /** The egress's own queues (§3.3 "source ID+cos"), by key. */
  readonly queues: readonly { readonly key: string; readonly level: number; readonly designation: TmDesignation; readonly reduceStreak: number }[];
  /** Designation keys sent an XOFF and no XON since. */
  readonly off: readonly string[];
  /** The last Q_STATUS level each designation reported. */
  readonly ingressLevels: readonly { readonly designation: string; readonly level: number }[];
  readonly credit: readonly (TmEgressCreditState & { readonly key: string })[];
  readonly stats: Counters<TmEgressCounterName>;
}
