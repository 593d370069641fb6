import type { Counters, Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { ArbRxSnapshot, ArbTxSnapshot } from '../flow/arbitration-types.ts';
import type { CcpEndpointConfig, CcpEndpointSnapshot, FlowChangeCause } from '../flow/ccp-endpoint-types.ts';
import type { TmModeSetting } from '../streaming/tm-mode.ts';
import type { TmDesignation } from '../streaming/tm-operand-match.ts';
import type { TmEgressSnapshot, TmIngressSnapshot } from '../streaming/tm-snapshot-types.ts';
import type { TmEgressCommand, TmEgressCounterName, TmIngressCommand, TmIngressCounterName } from '../streaming/tm-types.ts';
import type { StreamRef } from '../session/types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { ResolvedArbitrationConfig } from './endpoint/arbitration-config.ts';
import type { FabricArbitrationConfig } from './endpoint/session-features.ts';
import type { FabricTmConfig } from './endpoint/tm-config.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type {
  EndpointCounter, EndpointPacket, EndpointTimerName, EngineCounters, GateInput, PacketOutput, SessionEndpointConfig, SessionEndpointInput, SessionEndpointOutput,
  SessionEndpointSnapshot,
} from './session-endpoint-types.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';

/**
 * `FabricEndpoint` (src/node/fabric-endpoint.ts): the end point processing element of issue 8's
 * software fabric, sans-IO. It is the `SessionEndpoint` (register space served over Type 8,
 * discovery, the session engine, Type 11 messaging, Type 9 data streaming with segmentation and
 * reassembly) plus the Part 9 reaction to congestion control packets (`CcpEndpoint`): a Type 7
 * XOFF stops the end point's packets of that flow towards that destination until XON or the
 * orphaned-XOFF timer (§2.4.2.1, A.2), while its other flows and its responses go on.
 *
 * A driver (src/net/endpoint-process.ts, or a test) hands it decoded packets, link state,
 * application commands, transmit opportunities (`pull`) and timer expiries, and sends what it
 * answers. Durations are in the driver's time unit (ns over TCP).
 */

export interface FabricEndpointConfig extends SessionEndpointConfig {
  /** Part 9 reaction (src/flow/ccp-endpoint-types.ts). Default: the engine's defaults. */
  readonly ccp?: CcpEndpointConfig;
  /**
   * Packets pulled from the session stack for a flow an XOFF has stopped are held here until the
   * flow restarts, at most this many for all flows together (default 64). With `gateFlows` only a
   * few come here: the Type 9 packet staged before the XOFF came, and Type 11 segments, which are
   * not gated (at most `letters` messages per destination and mailbox are in flight). Responses are
   * never stopped (Part 6 §6.12: responses go "even if outbound request packets ... are congestion
   * blocked"), but the session stack hands out its packets one at a time and cannot be asked for
   * its responses alone: while the hold is full the end point pulls nothing from it and answers
   * idle (`blockedPulls`) until a held flow restarts, at the latest by the orphaned XOFF timer
   * (decision FE1 of docs/conformance.md).
   */
  readonly heldLimit?: number;
  /**
   * Part 9 §2.4.5 rule 1 at the source: on every change of the CCP engine's flow states the end
   * point gates the session stack's Type 9 flows that may not send (`GateInput` of
   * session-endpoint-types.ts), so their segments stay queued in the segmenter and the other flows
   * take the link; the hold then only takes what was already staged. Default true; false leaves
   * everything to the hold (the behaviour before gating: a stopped bulk flow fills the hold and
   * then blocks every flow, decision FE1), for comparison.
   */
  readonly gateFlows?: boolean;
  /**
   * issue 8 §3 "a peer killed mid-PDU leaves the rest running, its reassembly contexts ...
   * reclaimed, its streams reported closed": when a reassembly times out (Type 9 `idle-timeout`,
   * Type 11 `reassembly-timeout`) the end point verifies every stream to that source with STATUS
   * queries (Annex 2 §3.8.3), so a silent peer's streams close with cause `status-timeout`
   * (§3.7.1). Default true. To make the Type 9 timeout happen, a `FabricEndpoint` defaults
   * `type9.idleTimeout` to 1 s (1_000_000_000, the REQUEST_TIMEOUT_PERIOD default of §3.5.3.5)
   * where `SessionEndpoint` leaves it off; null still switches it off.
   */
  readonly verifyOnReassemblyTimeout?: boolean;
  /**
   * Part 10 traffic management (endpoint/tm-streams.ts, docs/fabric-endpoint.md "Traffic
   * management"): an ingress queue per Type 9 transmit stream, whose PDUs are held in the end point
   * and handed to the session stack one at a time while the egress lets them go, and an egress
   * directing the senders of the data this end point receives from the levels the driver gives
   * (`tm-level`). Absent: no traffic management; TM packets received go to the session stack,
   * which reports them, as before.
   */
  readonly tm?: FabricTmConfig;
  /**
   * Part 9 flow arbitration (endpoint/session-features.ts, docs/fabric-endpoint.md "Flow arbitration"):
   * every PDU of the arbitrated Type 9 flows (default the conveyance's normalFlow: DATA3 streams)
   * waits for a grant from its destination, and this end point grants its own resources to the
   * flows that end at it. Times in ns, defaults for a real clock (decision FE17). Absent: none; a
   * flow arbitration message received goes to the CCP engine, which ignores its FAM bits (§3.3).
   */
  readonly arbitration?: FabricArbitrationConfig;
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** The end point's link to its switch came up or went down (the driver's TCP link opened or closed). */
export interface FabricLinkInput {
  readonly kind: 'link-up' | 'link-down';
}

/**
 * Part 10 §3.3 "Egress queuing should be based on: source ID+cos": how full the driver's receive
 * buffer for the data of `sourceID` in class `cos` is, n/255 (0 empty, 255 full), for the egress's
 * policy (XOFF/XON, REDUCE/INCREASE). Give it at every change; the end point samples it in the
 * rate modes (`tm.levelPeriod`, also after a TM Mode write to a rate mode). Without `tm` it is an `invalid-input`.
 */
export interface TmLevelInput {
  readonly kind: 'tm-level';
  readonly sourceID: number;
  readonly cos: number;
  readonly level: number;
  /** The streamID the egress's messages name (under the class wildcard). Default: the stream the last PDU of that source and cos came on, else 0. */
  readonly streamID?: number;
}

/**
 * An application's own Part 10 TM message: `ingress`, about one of this end point's open Type 9
 * transmit streams (`Q_STATUS`, §3.4.5 rule 5 "An ingress may "insist" by sending repeated Q_STATUS
 * messages"; `RELINQUISH`, §3.4.4 "credit status <0> to asynchronously relinquish credits"; user
 * and application defined messages); `egress`, to a sender of data this end point receives, named
 * by `to` (its node as `peer`, cos, streamID, wildcard and mask of §4.3.1): XOFF, XON, rate
 * messages, ALLOCATE and RETIRE by hand, user and application defined messages. Without `tm`, or
 * for a stream with no TM queue, an `invalid-input`; what the engine refuses is its event.
 */
export type TmCommandInput =
  | { readonly kind: 'tm-command'; readonly side: 'ingress'; readonly stream: StreamRef; readonly command: TmIngressCommand }
  | { readonly kind: 'tm-command'; readonly side: 'egress'; readonly to: TmDesignation; readonly command: TmEgressCommand };

/** `tm:` timers are the traffic management's (its rate engine, `tm:rate:<queue>`, and its level samples, `tm:level`). */
export type FabricTimerName = EndpointTimerName | 'ccp:orphan' | `tm:${string}` | `arb:${string}`;

/**
 * Everything `SessionEndpoint` takes (a received `packet` may now also be Type 7), plus link state
 * and the CCP engine's timer; not its `gate`, which the end point derives from the CCPs it gets
 * (a `gate` given to it is an `invalid-input`).
 */
export type FabricEndpointInput =
  | Exclude<SessionEndpointInput, TimerInput<EndpointTimerName> | GateInput>
  | FabricLinkInput
  | TmLevelInput
  | TmCommandInput
  | TimerInput<FabricTimerName>;

// ---------------------------------------------------------------------------------------------
// Outputs

/** Part 9: a flow of this end point stopped or restarted (what `riodp status` and the API show as XOFF state). */
export interface FlowStateOutput {
  readonly kind: 'flow-state';
  readonly at: Time;
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly state: 'xoff' | 'xon';
  readonly cause: FlowChangeCause;
}

/** What a `FabricEndpoint` itself reports (`source: 'fabric'`), besides its session stack's events. */
export type FabricEvent =
  /** A Type 7 packet the CCP engine reported on (reserved flowID, counter saturated, orphan restart, ...). */
  | { readonly event: 'ccp'; readonly name: string; readonly detail: Readonly<Record<string, unknown>> }
  /** A received packet of a type this end point has no engine for (dropped, counted). */
  | { readonly event: 'unsupported-packet'; readonly ftype: number; readonly reason: string }
  /** The link went down: packets held for stopped flows were discarded. */
  | { readonly event: 'link-down'; readonly discarded: number }
  /** An input the end point does not take from a driver (a `gate`); ignored, counted. */
  | { readonly event: 'invalid-input'; readonly detail: string }
  /**
   * Traffic management: an event of the ingress or egress engine (tm-types.ts event names), a gate
   * of a stream's queue closed or opened by XOFF/XON (`gate`), or the end point's own (`malformed`,
   * `not-for-us`, `queue-full`, `discarded`, `hand-on-refused`, `outbox-full`).
   */
  | { readonly event: 'tm'; readonly side: 'ingress' | 'egress' | 'endpoint'; readonly name: string; readonly detail: Readonly<Record<string, unknown>> };

/** What the end point sends: the session stack's packets, with `tm` Type 9 TM packets (xh = 1), with `arbitration` Type 7 flow arbitration messages. */
export type FabricPacket = EndpointPacket | Type9TmPacket | Type7Packet;

/**
 * What `FabricEndpoint.handle` returns: packets to send, deliveries, flow state changes, events, timer
 * requests.
 */
export type FabricEndpointOutput =
  | Exclude<SessionEndpointOutput, TimerOutput<EndpointTimerName> | PacketOutput>
  | { readonly kind: 'packet'; readonly packet: FabricPacket }
  | TimerOutput<FabricTimerName>
  | FlowStateOutput
  | { readonly kind: 'event'; readonly source: 'fabric'; readonly at: Time; readonly detail: FabricEvent };

/**
 * The names of a `FabricEndpoint`'s own counters (`counters().fabric`).
 *
 * @example
 * ```ts
 * import { FABRIC_COUNTERS, FabricEndpoint } from 'riodp/node';
 * import { makeCcp } from 'riodp/wire';
 *
 * const ep = new FabricEndpoint({
 *   nodeId: 1,
 *   conveyances: ['type9'],
 *   advertisement: { blocks: [{ contact: { conveyance: 'type9', streamID: 0xfff1, cos: 0 } }] },
 *   session: { protocols: [{ protoID: 0x1234, attributes: [], dataHeaderFormat: 'DATA3' }] },
 * });
 * ep.handle({ kind: 'link-up' }, 0);
 * // A congested switch on the way to node 2 sends node 1 an XOFF for flow 0A (Part 9 §3.2):
 * const xoff = makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 0, command: 'XOFF', flowID: '0A', soc: 0 });
 * ep.handle({ kind: 'packet', packet: xoff }, 10); // → { kind: 'flow-state', destinationID: 2, flowID: '0A', state: 'xoff', … }, timer ccp:orphan
 * const c = ep.counters().fabric;
 * console.log(FABRIC_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // ccpIn=1 gates=1
 * ```
 */
export const FABRIC_COUNTERS = [
  /** Type 7 packets given to the CCP engine. */
  'ccpIn',
  /** Packets pulled from the session stack while their flow was stopped, then held. */
  'held',
  /** Held packets sent after their flow restarted. */
  'released',
  /** Held packets discarded at link-down. */
  'discarded',
  /** Pulls answered idle while packets were held: every packet ready belongs to a stopped flow, or the hold is full. */
  'blockedPulls',
  'unsupportedPackets',
  /** Gate changes given to the session stack (a Type 9 flow stopped or restarted at the source). */
  'gates',
  /** Inputs reported as `invalid-input` of source `fabric`. */
  'invalidInputs',
] as const;
/** A counter of a `FabricEndpoint` itself. */
export type FabricCounter = (typeof FABRIC_COUNTERS)[number];

/**
 * The names of the end point's traffic management counters (`counters().tm.endpoint`), besides those of its
 * TM engines.
 *
 * @example
 * ```ts
 * import { FabricEndpoint, TM_ENDPOINT_COUNTERS } from 'riodp/node';
 *
 * const ep = new FabricEndpoint({
 *   nodeId: 2,
 *   conveyances: ['type9'],
 *   advertisement: { blocks: [{ contact: { conveyance: 'type9', streamID: 0xfff2, cos: 0 } }] },
 *   session: { protocols: [{ protoID: 0x1234, attributes: [], dataHeaderFormat: 'DATA3' }] },
 *   tm: { mode: 'BASIC' },
 * });
 * ep.handle({ kind: 'link-up' }, 0);
 * // Node 2's application stops node 1's class 0 traffic: a Part 10 XOFF (§3.4.2), wildcard 1 (every stream of the class).
 * ep.handle({ kind: 'tm-command', side: 'egress', to: { peer: 1, cos: 0, streamID: 0, wildcard: 1, mask: 0 }, command: { message: 'XOFF' } }, 0);
 * ep.handle({ kind: 'pull' }, 1); // → a Type 9 TM packet (xh 1, TM OP BASIC, XOFF) to node 1
 * const c = ep.counters().tm?.endpoint;
 * if (c) console.log(TM_ENDPOINT_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // tmSent=1
 * ```
 */
export const TM_ENDPOINT_COUNTERS = [
  /** TM packets sent (both engines'). */
  'tmSent',
  /** Type 9 TM packets received (xh = 1, xtype 0). */
  'tmReceived',
  /** Received TM packets not given to an engine for their shape, or rejected by it as breaking §4.3 (reserved value, invalid operand). */
  'tmMalformed',
  /** Received TM packets for another destinationID. */
  'tmNotForUs',
  /** TM packets dropped because `outboxLimit` were waiting. */
  'tmDropped',
  /** Gates of stream queues the ingress closed or opened (any mechanism: on/off, rate, credit). */
  'gateCloses',
  'gateOpens',
  /** PDUs of transmit streams taken into their TM queue, and handed on from it to the session stack. */
  'pdusHeld',
  'pdusHandedOn',
  /** PDUs handed on that the session stack refused (its own event says why). */
  'handOnRefused',
  /** `send` commands refused because the stream's queue held `queuePdus`. */
  'queueFull',
  /** PDUs held when their stream closed, dropped. */
  'pdusDiscarded',
  /** First segments of received PDUs given to the egress. */
  'egressPdus',
  /** `tm-level` inputs taken, and refused as malformed. */
  'levelInputs',
  'invalidLevels',
] as const;
/** A traffic management counter of a `FabricEndpoint`. */
export type TmEndpointCounter = (typeof TM_ENDPOINT_COUNTERS)[number];

/** `FabricEndpoint.counters().tm`: the end point's own and its two engines'. */
export interface FabricTmCounters {
  readonly endpoint: Counters<TmEndpointCounter>;
  readonly ingress: Counters<TmIngressCounterName>;
  readonly egress: Counters<TmEgressCounterName>;
}

/** `FabricEndpoint.counters()`; `tm` only with traffic management. */
export interface FabricCounters {
  readonly fabric: Counters<FabricCounter>;
  readonly endpoint: Counters<EndpointCounter>;
  readonly engines: EngineCounters;
  readonly ccp: Readonly<Record<string, number>>;
  readonly tm?: FabricTmCounters;
  /** Flow arbitration's counters (src/node/endpoint/arbitration-counters.ts), only with `arbitration`. */
  readonly arbitration?: Readonly<Record<string, number>>;
}

/** One flow's Part 9 state (`FabricEndpoint.flows()`): every (destination, flowID) this end point has sent on or been told about. */
export interface FlowState {
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly state: 'xoff' | 'xon';
  /** Packets held for it. */
  readonly held: number;
}

/** Traffic management of a `FabricEndpoint` (Part 10 §3.4), as its snapshot shows it. */
export interface FabricTmSnapshot {
  readonly mode: TmModeSetting;
  /** PDUs held per transmit stream while its gate is closed. */
  readonly queuePdus: number;
  readonly queueLevelBits: number;
  /** ns between the levels given to the egress in the mode in force (0: at every change); `tm.levelPeriod`, else the mode's default (decision R3). */
  readonly levelPeriod: number;
  /** Each Type 9 transmit stream's TM queue. */
  readonly streams: readonly {
    readonly stream: StreamRef;
    readonly cos: number;
    readonly queue: string;
    /** PDUs held back by the gate. */
    readonly held: number;
    /** A PDU handed to the session stack and not sent yet. */
    readonly inFlight: boolean;
    readonly started: boolean;
    readonly gate: 'open' | 'closed';
    /** The queue level reported to the ingress, n/255. */
    readonly level: number;
  }[];
  /** Per stream key, PDUs the ingress still counts as ready although their stream closed with them held. */
  readonly phantoms: readonly { readonly stream: string; readonly pdus: number }[];
  /** The egress queues' levels (source ID + cos) and the level last fed to the egress engine. */
  readonly levels: readonly { readonly sourceID: number; readonly cos: number; readonly streamID: number; readonly level: number; readonly fed: number | null }[];
  /** TM packets waiting to go, and PDUs counted per destination before their first segment left. */
  readonly outbox: { readonly waiting: number; readonly unstarted: readonly { readonly destinationID: number; readonly pdus: number }[] };
  readonly ingress: TmIngressSnapshot;
  readonly egress: TmEgressSnapshot;
  readonly counters: Counters<TmEndpointCounter>;
}

/** Flow arbitration of a `FabricEndpoint` (Part 9 §2.2, §2.4.7), as its snapshot shows it. */
export interface FabricArbitrationSnapshot {
  readonly config: ResolvedArbitrationConfig;
  /** Resources allocated to this end point's receiver now, and the most at once. */
  readonly allocated: number;
  readonly maxAllocated: number;
  readonly tx: ArbTxSnapshot;
  readonly rx: ArbRxSnapshot;
  /** Control packets (REQUEST, RELEASE, XON/XOFF(ARB)) waiting to go. */
  readonly outbox: number;
  /** The arbitrated flows: blocked until granted (§2.4.2.1), and their PDUs queued. */
  readonly flows: readonly { readonly destinationID: number; readonly flowID: FlowIdLabel; readonly blocked: boolean; readonly queued: number }[];
}

/** `FabricEndpoint.snapshot()`: its own Part 9 state and the inner engines' snapshots. */
export interface FabricEndpointSnapshot {
  readonly nodeId: number;
  readonly heldLimit: number;
  readonly gateFlows: boolean;
  readonly verifyOnReassemblyTimeout: boolean;
  readonly link: 'unknown' | 'up' | 'down';
  /** Packets held for stopped flows. */
  readonly held: number;
  readonly flows: readonly FlowState[];
  /** Flows stopped at the session stack (`gateFlows`), by destination. */
  readonly gated: readonly { readonly destinationID: number; readonly flowIDs: readonly FlowIdLabel[] }[];
  readonly counters: Counters<FabricCounter>;
  readonly endpoint: SessionEndpointSnapshot;
  readonly ccp: CcpEndpointSnapshot;
  /** null without traffic management or flow arbitration. */
  readonly tm: FabricTmSnapshot | null;
  readonly arbitration: FabricArbitrationSnapshot | null;
}
