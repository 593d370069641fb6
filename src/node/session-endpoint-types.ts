import type { Counters, Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { DataStreamingConfig, EndpointConfig } from '../registers/builder.ts';
import type {
  Conveyance, DiscoveryConfig, DiscoveryCounter, DiscoveryEvent, DiscoverySnapshot, DiscoveryTimerName,
} from '../session/discovery-types.ts';
import type { BlockPlan, Participation } from '../session/local-advertisement.ts';
import type { SessionEngineSnapshot } from '../session/snapshot-types.ts';
import type {
  Type11ConveyanceConfig, Type11ConveyanceSnapshot, Type11CounterName, Type11Event, Type11TimerName,
} from '../session/type11-conveyance-types.ts';
import type {
  Type9ConveyanceConfig, Type9ConveyanceSnapshot, Type9CounterName, Type9Event, Type9RecycleInput,
} from '../session/type9-conveyance-types.ts';
import type { Contact, DeliverOutput, SessionConfig, SessionCounter, SessionEvent, SessionInput } from '../session/types.ts';
import type { IdleTimerName, ReassemblerEvent } from '../streaming/reassembler-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Packet } from '../wire/packet.ts';
import type { Type11Packet } from '../wire/type11.ts';
import type { Type13MessageResponse } from '../wire/type13.ts';
import type { Type8ReadRequest, Type8Response } from '../wire/type8.ts';
import type { Type9DataPacket } from '../wire/type9-types.ts';

/**
 * `SessionEndpoint` (src/node/session-endpoint.ts): one RapidIO end point's Annex 2 session
 * management stack, composed of the engines of src/session/ over its own register space:
 *
 * - the configuration space (src/registers/builder.ts) with the session management blocks and/or
 *   Component Tag CSR, initialised by the local processor to advertise participation (§3.2);
 * - Type 8 MAINTENANCE both ways: requests from the network are answered from that space, and
 *   `SessionDiscovery`'s register reads go out as read requests whose responses feed it back (§3.3);
 * - the `SessionEngine`, fed the contacts discovery finds;
 * - the Type 11 and Type 9 conveyances that carry its messages and PDUs.
 *
 * Sans-IO: received packets, application commands, timers and transmit opportunities (`pull`) in;
 * packets, deliveries, events and timer requests out. Durations are in the driver's time unit
 * (ns in `riodp model`); each inner engine keeps its own configuration of them.
 */

export type EndpointBlockPlan = BlockPlan & {
  /** Sess_Mgmt_Max_Attr of the block (0..254). Default the larger of 8 and the plan's attributes. */
  readonly maxAttr?: number;
};

/** What the local processor writes at initialisation (§3.2; local-advertisement.ts `AdvertisementPlan`). */
export interface EndpointAdvertisement {
  /** One Session Management block per entry (§5.2 "an instance ... for every conveyance supported"). */
  readonly blocks?: readonly EndpointBlockPlan[];
  /** The Component Tag CSR advertisement (§5.3): without blocks, or Type 11 beside Type 9 blocks (§3.3). */
  readonly componentTag?: Contact;
  /** The local processor's Lock_Val, 0x0000–0xFFFE. Default 0x0000. */
  readonly lockValue?: number;
}

/**
 * The configuration of a `SessionEndpoint`: its identity and registers, and the configuration of each inner
 * engine.
 */
export interface SessionEndpointConfig {
  /** This end point's device ID: its packets' sourceID, its base device ID CSR, the session's nodeId. */
  readonly nodeId: number;
  /** tt of its packets: 0 (Dev8) or 1 (Dev16, Annex 2's 2-octet IDs, §3.5.2.2). Default 1. */
  readonly tt?: 0 | 1;
  /**
   * The conveyances this end point has, most preferred first: discovery chooses remote contacts in
   * this order, and only these conveyance engines exist. Default ['type11', 'type9'].
   */
  readonly conveyances?: readonly Conveyance[];
  readonly advertisement: EndpointAdvertisement;
  /**
   * Register options besides the session blocks (builder.ts `EndpointConfig`). Defaults: Data
   * Message in the Operations CARs with Type 11, Data Streaming (MaxPDU 64 KiB, 65536 contexts,
   * the Type 9 MTU, no traffic management) with Type 9; base device IDs from `nodeId`. The fields
   * of `dataStreaming` given replace those defaults one by one; its `mtu`, if given, must be the
   * Type 9 conveyance's (one field, Part 10 §5.5.1), which it is when `type9.mtu` is left out.
   */
  readonly registers?: Omit<EndpointConfig, 'session' | 'dataStreaming'> & { readonly dataStreaming?: Partial<DataStreamingConfig> };
  /**
   * The session engine; `contact` defaults to the first contact advertised (blocks, then Component
   * Tag). With a Type 11 conveyance, `type11SegmentSize` is that conveyance's `segmentSize`.
   */
  readonly session: Omit<SessionConfig, 'nodeId' | 'deviceIdBits' | 'contact'> & { readonly contact?: Contact };
  readonly discovery?: Omit<DiscoveryConfig, 'self' | 'deviceIdBits' | 'conveyances'>;
  /** `letters` defaults to 1 here (docs/conformance.md, decision P1). */
  readonly type11?: Omit<Type11ConveyanceConfig, 'nodeId' | 'tt'>;
  readonly type9?: Omit<Type9ConveyanceConfig, 'nodeId' | 'tt'>;
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** A received packet, decoded (Type 8, 9, 11 or 13; any other is reported and dropped). */
export interface PacketInput {
  readonly kind: 'packet';
  readonly packet: Packet;
}

/** The session engine's application commands (its `message`, `pdu` and timer inputs come from inside). */
export type EndpointCommand = Exclude<SessionInput, { readonly kind: 'message' | 'pdu' | 'timer' }>;

/** Discovery: without `node`, the configured targets and scan (§3.3); with it, that node (again). */
export interface DiscoverCommand {
  readonly kind: 'discover';
  readonly node?: number;
  readonly hop?: number;
}

/** A transmit opportunity: up to `max` packets (a positive integer, default 1). */
export interface PullInput {
  readonly kind: 'pull';
  readonly max?: number;
}

/** Timer names carry the inner engine they belong to. */
export type EndpointTimerName = `session:${string}` | `discovery:${DiscoveryTimerName}` | `type11:${Type11TimerName}` | `type9:${IdleTimerName}`;

/**
 * Stops (`stopped: true`) or restarts the end point's Type 9 segments of one flow towards one
 * destination: the transmit side of Part 9 §2.4.5 rule 1 ("A XOFF flow control transaction stops
 * all transaction request flows of the specified priority and lower targeted to the specified
 * destination"), which `FabricEndpoint` drives from its CCP engine. `flowID` is the flow as the Type
 * 9 conveyance sends it (its `highFlow` or `normalFlow`; the Part 10 segmenter's flow). Pulls then
 * pass over that flow's segments (a PDU being segmented pauses mid-PDU) and go on with the others,
 * so the packets of a stopped flow stay queued where they were made. Type 11 messages are not gated
 * (the Type 11 conveyance cannot pass over one destination's segments); a packet already staged for
 * the transmit queue still comes out at the next pull. Without a Type 9 conveyance the gate has
 * nothing to stop and is ignored; a malformed one is the Type 9 conveyance's `invalid-input`.
 */
export interface GateInput {
  readonly kind: 'gate';
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly stopped: boolean;
}

/**
 * The application is done with a delivered PDU (a `deliver` output's `pdu`): with the Type 9
 * conveyance's `bufferPool` on, a multi-segment PDU's memory then holds a later PDU (issue 17,
 * docs/fast-lane.md §12). Any other PDU is passed over and counted (`type9.recyclesIgnored`);
 * without a Type 9 conveyance nothing is reused. The application must not touch `pdu` afterwards.
 */
export type RecycleInput = Type9RecycleInput;

/**
 * What `SessionEndpoint.handle` takes: received packets, the application's commands, pulls, gates, buffers
 * given back, timer expiries.
 */
export type SessionEndpointInput = PacketInput | EndpointCommand | DiscoverCommand | PullInput | GateInput | RecycleInput | TimerInput<EndpointTimerName>;

// ---------------------------------------------------------------------------------------------
// Outputs

/** Every packet an end point transmits. */
export type EndpointPacket = Type8ReadRequest | Type8Response | Type9DataPacket | Type11Packet | Type13MessageResponse;

/** A packet for the driver to send. */
export interface PacketOutput {
  readonly kind: 'packet';
  readonly packet: EndpointPacket;
}

/** A record without its `kind` tag, distributed over a union. */
export type Untagged<E> = E extends unknown ? Omit<E, 'kind'> : never;

/** What the composition itself reports. */
export type EndpointEvent =
  /** A packet whose destinationID is not this end point's (Type 8; the conveyances report their own). */
  | { readonly event: 'not-for-us'; readonly ftype: number; readonly destinationID: number; readonly sourceID: number }
  /** A packet this end point has no use for: a conveyance it lacks, a port-write, a response to a request it never sends. */
  | { readonly event: 'unsupported-packet'; readonly ftype: number; readonly sourceID: number | null; readonly reason: string }
  /** A MAINTENANCE request answered with status ERROR. */
  | { readonly event: 'maintenance-error'; readonly sourceID: number; readonly transaction: string; readonly offset: number; readonly reason: string }
  /** A MAINTENANCE response matching no read in flight (late, duplicated, or never asked). */
  | { readonly event: 'stale-maintenance-response'; readonly sourceID: number; readonly targetTID: number }
  /** The session engine sent over a conveyance this end point does not have. */
  | { readonly event: 'no-conveyance'; readonly conveyance: Conveyance; readonly to: number; readonly unit: 'message' | 'pdu' }
  | { readonly event: 'invalid-input'; readonly detail: string };

/** An event of the end point, tagged with the engine it comes from (`source`). */
export type EndpointEventOutput =
  | { readonly kind: 'event'; readonly source: 'session'; readonly at: Time; readonly detail: SessionEvent }
  | { readonly kind: 'event'; readonly source: 'discovery'; readonly at: Time; readonly detail: DiscoveryEvent }
  | { readonly kind: 'event'; readonly source: 'type11'; readonly at: Time; readonly detail: Untagged<Type11Event> }
  | { readonly kind: 'event'; readonly source: 'type9'; readonly at: Time; readonly detail: Untagged<Type9Event | ReassemblerEvent> }
  | { readonly kind: 'event'; readonly source: 'endpoint'; readonly at: Time; readonly detail: EndpointEvent };

/** The engine an event comes from. */
export type EventSource = EndpointEventOutput['source'];

/** What `SessionEndpoint.handle` returns: packets to send, deliveries, events, timer requests. */
export type SessionEndpointOutput =
  | PacketOutput
  /** A pull found nothing to send. */
  | { readonly kind: 'idle' }
  | DeliverOutput
  | EndpointEventOutput
  | TimerOutput<EndpointTimerName>;

/** The inner engines' counters (`SessionEndpoint.engineCounters()`); null for a conveyance the end point lacks. */
export interface EngineCounters {
  readonly session: Counters<SessionCounter>;
  readonly discovery: Counters<DiscoveryCounter>;
  readonly type11: Counters<Type11CounterName> | null;
  readonly type9: Counters<Type9CounterName> | null;
}

/**
 * The names of a `SessionEndpoint`'s own counters.
 *
 * @example
 * ```ts
 * import { ENDPOINT_COUNTERS, SessionEndpoint } from 'riodp/node';
 * import { maintenanceReadRequest } from 'riodp/wire';
 *
 * const ep = new SessionEndpoint({
 *   nodeId: 2,
 *   conveyances: ['type11'],
 *   advertisement: { blocks: [{ contact: { conveyance: 'type11', mailbox: 1 } }] },
 *   session: { protocols: [{ protoID: 0x1234, attributes: [] }] },
 * });
 * // Node 1 reads node 2's Device Identity CAR (offset 0) with a Type 8 MAINTENANCE read:
 * const read = maintenanceReadRequest({ tt: 0, destinationID: 2, sourceID: 1, srcTID: 5, byteOffset: 0, byteCount: 4 });
 * ep.handle({ kind: 'packet', packet: read }, 0);
 * ep.handle({ kind: 'pull' }, 1); // → the MAINTENANCE_READ_RESPONSE, status DONE, targetTID 5
 * const c = ep.counters();
 * console.log(ENDPOINT_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // packetsIn=1 packetsOut=1 maintenanceReads=1 pulls=1
 * ```
 */
export const ENDPOINT_COUNTERS = [
  'packetsIn',
  'packetsOut',
  'notForUs',
  'unsupportedPackets',
  /** MAINTENANCE read and write requests answered DONE. */
  'maintenanceReads',
  'maintenanceWrites',
  /** MAINTENANCE requests answered ERROR. */
  'maintenanceErrors',
  /** Discovery's reads sent as MAINTENANCE read requests. */
  'readRequests',
  'readResponses',
  'staleResponses',
  'noConveyance',
  'pulls',
  'idlePulls',
  'invalidInputs',
] as const;
/** A counter of a `SessionEndpoint` itself. */
export type EndpointCounter = (typeof ENDPOINT_COUNTERS)[number];

/** `SessionEndpoint.snapshot()`: the end point's own state and each inner engine's snapshot. */
export interface SessionEndpointSnapshot {
  readonly nodeId: number;
  readonly tt: number;
  readonly conveyances: readonly Conveyance[];
  /** The contacts its session management blocks advertise (§3.2). */
  readonly advertised: readonly Contact[];
  /** Type 9 streams dedicated to management messages. */
  readonly managementStreams: readonly number[];
  /** What its registers advertise, as its own processor reads them. */
  readonly participation: Participation;
  /** Packets waiting to go: Type 8 requests and responses, and one staged packet per source engine. */
  readonly transmit: {
    readonly type8: readonly string[];
    readonly staged: readonly { readonly source: string; readonly rank: string; readonly ftype: number; readonly destinationID: number }[];
  };
  /** Discovery's MAINTENANCE reads in flight, by transaction ID. */
  readonly reads: {
    readonly next: number;
    readonly inFlight: readonly { readonly tid: number; readonly tag: number; readonly node: number; readonly offset: number; readonly until: number }[];
  };
  readonly session: SessionEngineSnapshot;
  readonly discovery: DiscoverySnapshot;
  /** null for a conveyance the end point lacks. */
  readonly type11: Type11ConveyanceSnapshot | null;
  readonly type9: Type9ConveyanceSnapshot | null;
  readonly counters: Counters<EndpointCounter>;
}
