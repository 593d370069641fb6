import type { Counters, PendingTimer, Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type { ResolvedArbRxConfig } from './arb-rx-config.ts';
import type { ResolvedArbTxConfig } from './arb-tx-config.ts';
import type { ArbTxFlowView } from './arb-tx-flow.ts';
import type { MessageFlow } from './flows.ts';

/**
 * Flow arbitration (Part 9 §2.2, §2.4.7, §2.4.8, Annex A.3): engines `arb-tx` (the transmitting
 * end point) and `arb-rx` (the receiving end point, which owns the resources).
 *
 * Addressing (decision, docs/conformance.md): Type 7 has no sourceID, so the tgtdestinationID of a
 * message names the far end of the flow. REQUEST and RELEASE (transmitter → receiver):
 * destinationID = receiver, tgtdestinationID = the transmitter's own ID (the flow's source).
 * XON(ARB) and XOFF(ARB) (receiver → transmitter): destinationID = transmitter,
 * tgtdestinationID = the receiver's own ID (the flow's destination, as in congestion XON/XOFF).
 * The flowID field names the arbitrated flow; Y is the sequence bit.
 */
export type ArbMode = 'single' | 'multi';

/** A data streaming segment of an arbitrated flow (Part 10 segment kinds; `abort` = end segment with no payload and length 0). */
export type SegmentKind = 'single' | 'start' | 'continuation' | 'end' | 'abort';

/** The configuration of an `ArbTx` (durations in the driver's time unit). */
export interface ArbTxConfig {
  /** This end point's device ID (tgtdestinationID of REQUEST/RELEASE). */
  readonly localID: number;
  /** tt of the messages sent. Default 0 (Dev8). */
  readonly tt?: number;
  /**
   * Arbitration in use towards a receiver only when both ends support it (PE Features bit 20 and
   * the port's Flow Arbitration Participant bit, §3.3, §4.2, §4.3). `enabled` is this end's side
   * (default true); `unsupportedPeers` lists receivers that do not support it. Towards those the
   * flow is not arbitrated: segments pass, REQUESTs are never sent (event `not-arbitrated`).
   */
  readonly enabled?: boolean;
  readonly unsupportedPeers?: readonly number[];
  /**
   * §2.4.7 rule 3: re-send the REQUEST (same sequence bit, rule 4) when no response arrives
   * within this time. null = off (timers are optional, §2.4.8 NOTE). Default 100_000 (100 µs).
   */
  readonly requestTimeout?: number | null;
  /**
   * After XOFF(ARB) rejects a REQUEST, send a new REQUEST (next sequence bit) after this delay
   * (§2.4.2.1 "Timeouts at source end points should result in retrying requests, not just
   * arbitrarily starting a flow"). null = off: the application must ask again. Default 10_000.
   */
  readonly retryDelay?: number | null;
  /** Allow one REQUEST pipelined ahead of the current PDU's end (§2.2.2, rule 11). Default true. */
  readonly pipelining?: boolean;
  /** Flow of REQUESTs (rule 12 "may be sent in any flow (such as a high priority channel)"). Default prio 3, CRF 1. */
  readonly requestFlow?: MessageFlow;
  /** DECISIONS §3 system setting, for the prio/CRF of RELEASE in the data flow. Default true. */
  readonly crfSupported?: boolean;
}

/**
 * What `ArbTx.handle` takes: the application's requests and segments, received Type 7 packets, timer
 * expiries.
 */
export type ArbTxInput =
  /** The application wants a resource for the flow (rule 1: "this does not imply a PDU is immediately ready"). */
  | { readonly kind: 'request'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly mode: ArbMode }
  /** The application wants to transmit one data segment on the flow: answered `transmit` or `refused`. */
  | { readonly kind: 'segment'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly segment: SegmentKind }
  /** Rule 7: relinquish a multi-PDU grant after the current PDU. */
  | { readonly kind: 'release'; readonly destinationID: number; readonly flowID: FlowIdLabel }
  /** A received XON(ARB) or XOFF(ARB) (other commands: event `ignored`). */
  | { readonly kind: 'ccp'; readonly packet: Type7Packet }
  /** Timer names: `request:<destinationID>/<flowID>` (response timeout) and `retry:<destinationID>/<flowID>` (re-request delay). */
  | TimerInput;

/** The events an `ArbTx` reports (nothing else follows from them). */
export type ArbTxEventName =
  /** XOFF(ARB) answered the outstanding REQUEST. */
  | 'rejected'
  /** No response within requestTimeout: the REQUEST was re-sent with the same sequence bit. */
  | 'request-timeout'
  /** XON/XOFF(ARB) whose sequence bit matches no outstanding REQUEST (e.g. the answer to a re-sent REQUEST): ignored. */
  | 'stale-response'
  /** XOFF(ARB) during a multi-PDU grant: the current PDU finishes, then RELEASE (rule 8). */
  | 'revoked'
  /** A request while one REQUEST is outstanding and another already waits: refused (rule 11). */
  | 'request-refused'
  /** A request while one REQUEST is outstanding: held and sent when the outstanding one is answered. */
  | 'request-deferred'
  /** Arbitration not used towards this receiver (one side does not support it). */
  | 'not-arbitrated'
  /** A Type 7 command that is not XON(ARB)/XOFF(ARB). */
  | 'ignored';

/** Why an `ArbTx` refused to transmit a segment. */
export type RefusalReason =
  /** Nothing may be transmitted on an arbitrated flow before XON(ARB) (§2.4.7 preamble, §2.4.2.1). */
  | 'no-grant'
  /** start/single while a PDU is in progress, or continuation/end/abort with none in progress. */
  | 'out-of-sequence'
  /** A new PDU after XOFF(ARB) revoked the multi-PDU grant or after the application released it. */
  | 'releasing';

/**
 * What `ArbTx.handle` returns: packets to send, segments it lets go or refuses, grants, timer requests,
 * events.
 */
export type ArbTxOutput =
  /** REQUEST or RELEASE to send. */
  | { readonly kind: 'send'; readonly packet: Type7Packet }
  | { readonly kind: 'transmit'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly segment: SegmentKind }
  | { readonly kind: 'refused'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly segment: SegmentKind; readonly reason: RefusalReason }
  /** XON(ARB) accepted: the resource is ours (`mode` of the granted REQUEST, `seq` its Y bit). */
  | { readonly kind: 'grant'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly mode: ArbMode; readonly seq: number }
  /**
   * The grant ended: the last segment of a single-PDU grant went, RELEASE was sent, or XOFF(ARB)
   * withdrew a single-PDU grant before its PDU started. `grant` and `grant-ended` alternate.
   */
  | { readonly kind: 'grant-ended'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly reason: 'last-segment' | 'released' | 'revoked' }
  | TimerOutput
  | { readonly kind: 'event'; readonly name: ArbTxEventName; readonly destinationID?: number; readonly flowID?: string; readonly seq?: number };

/** The counters of an `ArbTx`. */
export type ArbTxCounterName = 'requests' | 'reissued' | 'rejected' | 'granted' | 'stale' | 'refusedSegments' | 'releases' | 'revoked' | 'ignored';

/** The configuration of an `ArbRx` (durations in the driver's time unit). */
export interface ArbRxConfig {
  /** This end point's device ID (tgtdestinationID of XON/XOFF(ARB)). */
  readonly localID: number;
  /** tt of the messages sent. Default 0. */
  readonly tt?: number;
  /** Size of the resource pool (e.g. reassembly contexts), >= 0. */
  readonly resources: number;
  /** This end supports arbitration (PE Features bit 20 and the port's participant bit). Default true; when false, REQUESTs are ignored (event). */
  readonly enabled?: boolean;
  /**
   * What to do with a REQUEST that cannot be granted now (rule 9 "may delay sending responses").
   * `queue` (default): hold it (at most one per flow) and answer XON(ARB) when a resource frees,
   * in the grant policy's order, or XOFF(ARB) when the transmitter reissues it first (rule 2).
   * `reject`: XOFF(ARB) at once. With `resources: 0` every REQUEST is answered XOFF(ARB) at once.
   */
  readonly whenBusy?: 'queue' | 'reject';
  /** Bound on queued REQUESTs across flows; beyond it XOFF(ARB) at once. Default unbounded. */
  readonly maxQueued?: number;
  /**
   * §2.4.8: idle time after which a single-PDU resource is freed, and a multi-PDU one is first
   * asked back with XOFF(ARB) and, after a second idle period without RELEASE, freed
   * asynchronously (counted as possible loss). null = off (§2.4.8 NOTE). Default 1_000_000.
   */
  readonly idleTimeout?: number | null;
  /** Flow of XON/XOFF(ARB) (rule 12). Default prio 3, CRF 1. */
  readonly responseFlow?: MessageFlow;
}

/** A REQUEST waiting for a resource, as the grant policy sees it. */
export interface QueuedRequest {
  readonly sourceID: number;
  readonly flowID: FlowIdLabel;
  readonly mode: ArbMode;
  readonly seq: number;
  /** Arrival time and sequence number (ties). */
  readonly at: number;
  readonly order: number;
}

/** Pluggable grant policy (rule 9 "to consider which REQUESTs to grant"): index into `queue` to grant next, or undefined to wait. FIFO by default. */
export type GrantPolicy = (queue: readonly QueuedRequest[], freeResources: number) => number | undefined;

/**
 * What `ArbRx.handle` takes: received REQUEST/RELEASE packets, the data segments of arbitrated flows,
 * reclaims, timer expiries.
 */
export type ArbRxInput =
  /** A received REQUEST or RELEASE (other commands: event `ignored`). */
  | { readonly kind: 'ccp'; readonly packet: Type7Packet }
  /** A data segment arrived on a flow (from the reassembler). */
  | { readonly kind: 'segment'; readonly sourceID: number; readonly flowID: FlowIdLabel; readonly segment: SegmentKind }
  /** Ask a multi-PDU resource back (rule 8): XOFF(ARB), then wait for RELEASE. */
  | { readonly kind: 'reclaim'; readonly sourceID: number; readonly flowID: FlowIdLabel }
  /** Timer names: `idle:<sourceID>/<flowID>`. */
  | TimerInput;

/**
 * Why a resource went back to the pool: the PDU ended (last segment or abort), RELEASE, the idle timeout
 * (§2.4.8), or freed asynchronously after a second timeout.
 */
export type FreeReason = 'last-segment' | 'abort' | 'release' | 'idle-timeout' | 'async';

/** The events an `ArbRx` reports. */
export type ArbRxEventName =
  /** A REQUEST that could not be granted now was queued. */
  | 'queued'
  /** REQUEST with the sequence bit of the flow's current grant (our XON(ARB) was lost): XON(ARB) re-sent. */
  | 'regrant'
  /**
   * A REQUEST identical to the one queued for the flow (a reissue, rule 3 1)), or a late copy of
   * one already served: answered XOFF(ARB) at once; a queued one leaves the queue.
   */
  | 'duplicate-request'
  /** §2.4.8 2: second idle timeout after XOFF(ARB) without RELEASE: freed asynchronously, packets may be lost. */
  | 'possible-loss'
  /** A segment on a flow holding no resource. */
  | 'unexpected-segment'
  /** RELEASE for a flow holding no multi-PDU resource, or with another sequence bit. */
  | 'stale-release'
  | 'arbitration-disabled'
  | 'ignored';

/**
 * What `ArbRx.handle` returns: XON(ARB)/XOFF(ARB) to send, resources allocated and freed, timer requests,
 * events.
 */
export type ArbRxOutput =
  /** XON(ARB) or XOFF(ARB) to send. */
  | { readonly kind: 'send'; readonly packet: Type7Packet }
  | { readonly kind: 'allocated'; readonly sourceID: number; readonly flowID: FlowIdLabel; readonly mode: ArbMode; readonly seq: number }
  | { readonly kind: 'freed'; readonly sourceID: number; readonly flowID: FlowIdLabel; readonly reason: FreeReason }
  | TimerOutput
  | { readonly kind: 'event'; readonly name: ArbRxEventName; readonly sourceID?: number; readonly flowID?: string; readonly seq?: number };

/** The counters of an `ArbRx`. */
export type ArbRxCounterName = 'requests' | 'granted' | 'rejected' | 'queued' | 'regranted' | 'duplicates' | 'released' | 'idleFreed' | 'asyncFreed' | 'unexpectedSegments' | 'staleReleases' | 'ignored';

/** A resource held by a flow. */
export interface ArbAllocation {
  readonly sourceID: number;
  readonly flowID: FlowIdLabel;
  readonly mode: ArbMode;
  /** Y of the granted REQUEST; RELEASE must carry it. */
  readonly seq: number;
  readonly since: Time;
  /** A start or continuation segment arrived and the PDU has not ended. */
  readonly pduOpen: boolean;
  /** PDUs ended (last segment or abort) on this allocation. */
  readonly pdus: number;
  /** XOFF(ARB) sent (rule 8 or §2.4.8 2): waiting for RELEASE. */
  readonly reclaiming: boolean;
}

/** `ArbTx.snapshot()`: the flows it has state for, by destinationID then flowID. */
export interface ArbTxSnapshot {
  readonly config: ResolvedArbTxConfig;
  readonly flows: readonly ArbTxFlowView[];
  readonly timers: readonly PendingTimer[];
  readonly counters: Counters<ArbTxCounterName>;
}

/** `ArbRx.snapshot()`. */
export interface ArbRxSnapshot {
  readonly config: ResolvedArbRxConfig;
  /** Resources not allocated to any flow. */
  readonly free: number;
  readonly allocations: readonly ArbAllocation[];
  /** Queued REQUESTs in arrival order. */
  readonly queue: readonly QueuedRequest[];
  /** Y of each flow's last allocation once it ended with nothing queued behind it (rule 4). */
  readonly served: readonly { readonly sourceID: number; readonly flowID: FlowIdLabel; readonly seq: number }[];
  readonly timers: readonly PendingTimer[];
  readonly counters: Counters<ArbRxCounterName>;
}
