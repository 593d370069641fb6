import type { Counters, PendingTimer, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type7Packet } from '../wire/type7.ts';

/**
 * Source end point reaction to congestion control packets (Part 9 §2.4.2.1, §2.4.2.3, §2.4.5,
 * Annex A.2): engine `ccp-endpoint`.
 */

/**
 * How flows share XON/XOFF counters (§2.4.2.3: "the number of counters and how flows are
 * aggregated to a particular counter is implementation dependant. However, all flows must be
 * associated with a counter").
 * - `per-flow` (default): one counter per (tgtdestinationID, flowID).
 * - `bounded`: `count` counters; (destinationID, flow) uses counter
 *   `(destinationID * 14 + flowIndex) % count`. Flows sharing a counter stop and start together.
 */
export type CounterMapping = { readonly mode: 'per-flow' } | { readonly mode: 'bounded'; readonly count: number };

/** A flow §2.4.3 lets the end point keep sending despite XOFF (`critical` in the configuration). */
export interface CriticalFlow {
  /** Omitted: the flow is critical towards every destination. */
  readonly destinationID?: number;
  readonly flowID: FlowIdLabel;
}

/** The configuration of a `CcpEndpoint` (durations in the driver's time unit). */
export interface CcpEndpointConfig {
  /**
   * Orphaned XOFF period (A.2 "shall be programmable"), > 0. The mechanism is mandatory
   * (§2.4.2.1 "there shall be an orphaned XOFF mechanism"), so it cannot be switched off.
   * Default 1_000_000 (1 ms in nanoseconds).
   */
  readonly orphanPeriod?: number;
  /** Counter width in bits, 1..31: counters saturate at 2^bits − 1 ("In no event shall the counter wrap"). Default 8. */
  readonly counterBits?: number;
  /** Default `{ mode: 'per-flow' }`. */
  readonly counters?: CounterMapping;
  /**
   * §2.4.3 "an end point may choose to ignore a flow control XOFF request for a transaction
   * request flow that it regards as critical": XOFFs naming a critical flow are ignored (counted)
   * and a critical flow is never stopped by an XOFF of a higher flow either. Default none.
   */
  readonly critical?: readonly CriticalFlow[];
  /**
   * Whether this end point supports flow arbitration (PE Features CAR bit 20). When false, "A
   * device that does not support the SAR protocol ignores the FAM bits" (§3.3): every Type 7 acts
   * on its XON/XOFF bit alone. When true, arbitration commands (FAM ≠ 000) belong to the
   * arbitration engines and are ignored here (event `arbitration-message`). Default false.
   */
  readonly flowArbitration?: boolean;
}

/** What `CcpEndpoint.handle` takes. */
export type CcpEndpointInput =
  /** A received Type 7 packet addressed to this end point. */
  | { readonly kind: 'ccp'; readonly packet: Type7Packet }
  | TimerInput<'orphan'>
  /**
   * §2.4.2.3 "The counter is initialized to zero at start up or when a new DestinationID and given
   * Priority is initialized": zero every counter of that destination (its flows restart, its
   * orphan FIFO entries go).
   */
  | { readonly kind: 'reset-destination'; readonly destinationID: number }
  /** Reprograms the orphan period (A.2 "programmable through an implementation-dependent register"); applies from the next arming. */
  | { readonly kind: 'set-orphan-period'; readonly period: number };

/**
 * What changed a flow's send permission: an XOFF, an XON, the orphaned XOFF timer (Annex A.2) or a
 * `reset-destination` input.
 */
export type FlowChangeCause = 'xoff' | 'xon' | 'orphan' | 'reset';

/** The events a `CcpEndpoint` reports. */
export type CcpEndpointEventName =
  /** §3.4 "For all undefined flowID encodings, there is no action required and the tgtdestinationID is ignored". */
  | 'reserved-flow-id'
  | 'critical-xoff-ignored'
  /** An XOFF found its counter at the top: it stays there (no wrap). */
  | 'counter-saturated'
  /** An XON found its counter at zero ("stopping at zero"). */
  | 'xon-at-zero'
  /** A.2: the oldest XOFF'd flow's timer elapsed; its counter was reset and it restarted. */
  | 'orphan-restart'
  /** With flow arbitration supported: an arbitration command, left to the arbitration engines. */
  | 'arbitration-message'
  /** With flow arbitration supported: an undefined XON/XOFF+FAM combination (DECISIONS §3), ignored. */
  | 'undefined-command';

/** What `CcpEndpoint.handle` returns: flow permission changes, the orphan timer, events. */
export type CcpEndpointOutput =
  /**
   * The send permission of (destinationID, flowID) changed. Emitted for every flow whose state
   * changes, in Table 3-1 order, after the counters have been updated.
   */
  | {
    readonly kind: 'flow';
    readonly destinationID: number;
    readonly flowID: FlowIdLabel;
    readonly enabled: boolean;
    readonly cause: FlowChangeCause;
  }
  | TimerOutput<'orphan'>
  | {
    readonly kind: 'event';
    readonly name: CcpEndpointEventName;
    readonly destinationID?: number;
    readonly flowID?: string;
    readonly counter?: number;
  };

/** The counters of a `CcpEndpoint`. */
export type CcpEndpointCounterName =
  | 'xoff' | 'xon' | 'reservedFlowId' | 'criticalIgnored' | 'saturated' | 'xonAtZero' | 'orphanRestarts' | 'arbitrationIgnored' | 'undefinedIgnored';

/** A stopped flow's place in the orphaned XOFF FIFO (Annex A.2), oldest first. */
export interface OrphanQueueEntry {
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  /** The counter's current value. */
  readonly counter: number;
}

/**
 * A non-zero XON/XOFF counter (§2.4.2.3): by counter number under the `bounded` mapping, by
 * (destinationID, flowID) under `per-flow`.
 */
export type CcpCounterEntry =
  | { readonly counter: number; readonly value: number }
  | { readonly destinationID: number; readonly flowID: FlowIdLabel | 'RESERVED'; readonly value: number };

/** `CcpEndpoint.snapshot()`. */
export interface CcpEndpointSnapshot {
  readonly orphanPeriod: number;
  readonly counterBits: number;
  /** 2^counterBits − 1: counters saturate there. */
  readonly counterMax: number;
  readonly counterMapping: CounterMapping;
  readonly critical: readonly CriticalFlow[];
  readonly flowArbitration: boolean;
  readonly counters: readonly CcpCounterEntry[];
  /** Destinations with stopped flows, by destinationID. */
  readonly stopped: readonly { readonly destinationID: number; readonly flows: readonly FlowIdLabel[] }[];
  readonly orphanQueue: readonly OrphanQueueEntry[];
  readonly timers: readonly PendingTimer<'orphan'>[];
  readonly stats: Counters<CcpEndpointCounterName>;
}
