/**
 * The public TypeScript API of an end point process (issue 8 §2: "start an endpoint, discover
 * peers, open a stream or conduit for a protocol, send and receive PDUs (async iterables),
 * observe flow-control state"). `startEndpoint` (endpoint-start.ts) returns a `RiodpEndpoint`.
 */
import type { Time } from '../engine/contract.ts';
import type { ContactSource } from '../session/discovery-types.ts';
import type { Contact, StreamRef } from '../session/types.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { LinkCounters } from './link.ts';
import type { FabricCounters, FlowState } from './endpoint-engine.ts';
import type { TmDesignation } from '../streaming/tm-operand-match.ts';
import type { TmEgressCommand, TmIngressCommand } from '../streaming/tm-types.ts';

/** A session management participant discovery found (Annex 2 §3.3). */
export interface Peer {
  readonly node: number;
  /** How it receives management messages. */
  readonly contact: Contact;
  readonly source: ContactSource;
  /** Init_Stage 0, Lock_Val free and Num_Attr initialised on the chosen block. */
  readonly complete: boolean;
  /**
   * An illegal register was reported for it (§3.7.3), or since it was last discovered the session
   * engine judged it suspect: a request to it went unanswered (§3.7.1, §3.7.3) or, in validation
   * mode, it sent a message with reserved fields set (§3.8.5).
   */
  readonly suspect: boolean;
}

/** What `RiodpEndpoint.openStream` and `openConduit` open. */
export interface OpenOptions {
  /** The node to open the stream to. Discovered first when its contact is not known yet. */
  readonly to: number;
  readonly protoID: number;
  /**
   * Attributes of the OPEN besides OPEN_MESSAGE_NUMBER (§4.2.3). A vendor-defined protocol
   * (ProtoID 0x0101) is named by its VENDOR and PROTOCOL_NAME attributes (§6.2). Default: what
   * the node advertised, else none.
   */
  readonly attributes?: readonly AttributeLike[];
  /** hop_count of the discovery reads when the node is not known yet (Part 3 §2.5). Default 0xFF. */
  readonly hop?: number;
}

/** A stream's transmit side as `status()` shows it. */
export interface TxStatus {
  readonly streamID: number;
  /** Annex 2 §4.2.6: FLOW_CONTROL XOFF received and not released. */
  readonly xoff: boolean;
  /** PDUs handed to the end point and not yet segmented. */
  readonly outstanding: number;
  readonly dataHeaderFormat: string;
}

/** A stream's receive side as `status()` shows it. */
export interface RxStatus {
  readonly streamID: number;
  /** PDUs received and not yet read by the application. */
  readonly buffered: number;
  /** Whether this end point has XOFF'd the sender (its buffer passed `api.rxHigh`). */
  readonly xoffSent: boolean;
  /** PDUs dropped because the buffer was at `api.rxLimit` and the application had not read for `api.rxStallMs`. */
  readonly dropped: number;
}

/**
 * Why PDUs of a stream were, or may have been, lost (decision FF5, docs/fabric-api.md "Losses"):
 * - `reassembly`: a Part 10 §3.2.5 reassembly defect, an aborted PDU or a reassembly timeout on
 *   this receive stream (or, for Type 11, a message of its node's that was not reassembled);
 * - `overflow`: the application read nothing for `api.rxStallMs` at `api.rxLimit` (a PDU dropped);
 * - `send-failed`: a Type 11 message of this transmit stream that the peer did not take;
 * - `link-down`: this end point's link to the switch went down (the switch stopped or restarted,
 *   the connection broke): what was in flight on the link is lost, of unknown count;
 * - `peer-lost`: the switch reports the peer's link down (the peer process died);
 * - `peer-silent`: a STATUS query went unanswered (Annex 2 §3.7.1);
 * - `peer-restart`: the peer no longer knows the stream (its STATUS answer, §3.8.3): it restarted.
 */
export type LossReason = 'reassembly' | 'overflow' | 'send-failed' | 'link-down' | 'peer-lost' | 'peer-silent' | 'peer-restart';

/** A loss on one stream, as `Stream.onLoss` and `RiodpEndpoint.onLoss` report it. */
export interface StreamLoss {
  readonly at: Time;
  /** The side it concerns: a receive stream lost what it would have received, a transmit stream what it sent. */
  readonly stream: StreamRef;
  readonly reason: LossReason;
  /** PDUs known to be lost; null for a possible gap of unknown size (what was in flight). */
  readonly pdus: number | null;
  readonly detail: string;
}

/** The losses of a stream so far (both sides of a conduit). */
export interface LossStatus {
  /** PDUs known to be lost. */
  readonly pdus: number;
  /** Reports of a possible gap of unknown size. */
  readonly gaps: number;
  /** The latest report, if any. */
  readonly last: StreamLoss | null;
}

/** A stream (or a conduit's pair) as `Stream.status()` shows it. */
export interface StreamStatus {
  readonly remote: number;
  readonly protoID: number;
  /** Both sides of a conduit (§3.4), or one. */
  readonly conduit: boolean;
  readonly tx: TxStatus | null;
  readonly rx: RxStatus | null;
  readonly closed: boolean;
  readonly loss: LossStatus;
}

/**
 * One stream, or the two streams of a conduit, of this end point. Iterating yields the PDUs
 * received, in order, and ends when the receive stream has closed and every PDU was read.
 */
export interface Stream extends AsyncIterable<Uint8Array> {
  readonly remote: number;
  readonly protoID: number;
  /** The attributes agreed for the stream (of the receive stream when there is one). */
  readonly attributes: readonly AttributeLike[];
  readonly tx: StreamRef | null;
  readonly rx: StreamRef | null;
  readonly conduit: boolean;
  readonly closed: boolean;
  /**
   * Hands a PDU to the end point for segmentation; resolves once it was accepted. Waits while the
   * stream is XOFF'd (FLOW_CONTROL, §4.2.6) and while `api.sendWindow` PDUs of the stream wait to
   * be segmented (which is how a Part 9 XOFF of the flow, or a full link, holds it). Rejects for a
   * stream without a transmit side, a closed stream, or a PDU the end point refuses (over 64 KiB).
   */
  send(pdu: Uint8Array): Promise<void>;
  /** The next PDU received, or null once the receive stream has closed and nothing is left. */
  read(): Promise<Uint8Array | null>;
  /**
   * Gives a PDU this stream delivered back to the end point once the application is done with it:
   * a multi-segment Type 9 (DATA3) PDU's memory then holds a later PDU instead of new memory
   * (`type9.bufferPool` buffers at most, default 8; docs/fast-lane.md §12). Other PDUs, and a PDU
   * given back twice, are passed over (counted as `type9.recyclesIgnored`). The application must
   * not read or keep `pdu` afterwards: its bytes will be overwritten.
   */
  release(pdu: Uint8Array): void;
  /** CLOSE (§4.2.7) each open side; resolves when the end point has reported them closed (or at once if they are). */
  close(): Promise<void>;
  /** The stream's state now. */
  status(): StreamStatus;
  /**
   * Calls `listener` at once for each loss on this stream (its PDUs not delivered intact, or
   * possibly not: `StreamLoss.pdus` null); returns the function that stops it. A stream closed
   * by a peer's loss (`peer-lost`, `peer-silent`, `peer-restart`) reports it before it ends.
   */
  onLoss(listener: (l: StreamLoss) => void): () => void;
}

/** A change of flow-control state this end point sees. */
export type FlowChange =
  /** Part 9: a flow of this end point stopped or restarted by a congestion control packet or the orphan timer. */
  | { readonly kind: 'part9'; readonly at: Time; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly state: 'xoff' | 'xon'; readonly cause: string }
  /** Annex 2 FLOW_CONTROL: one of this end point's transmit streams XOFF'd or released (`xon`, `xon-timeout`). */
  | { readonly kind: 'session-tx'; readonly at: Time; readonly stream: StreamRef; readonly state: 'xoff' | 'xon'; readonly cause: 'xoff' | 'xon' | 'xon-timeout' }
  /** Annex 2 FLOW_CONTROL sent by this end point for a receive stream whose buffer filled or drained. */
  | { readonly kind: 'session-rx'; readonly at: Time; readonly stream: StreamRef; readonly state: 'xoff' | 'xon'; readonly cause: 'buffer' }
  /**
   * A receive stream at `api.rxLimit` made the end point stop taking packets from its link
   * (`held`); the link goes on once the application has read (`released`), or after
   * `api.rxStallMs` without a read (`stalled`: its PDUs beyond the limit are dropped until it reads).
   */
  | { readonly kind: 'rx-link'; readonly at: Time; readonly stream: StreamRef; readonly state: 'held' | 'released' | 'stalled' };

/** An event of the end point's engines (session, discovery, conveyances, fabric), as the engine output it. */
export interface EngineEvent {
  readonly source: string;
  readonly at: Time;
  readonly detail: Readonly<Record<string, unknown>>;
}

/**
 * The names of the application API's counters (`EndpointStatus.counters.api`).
 *
 * @example
 * ```ts
 * import { API_COUNTERS, endpointConfig, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], routes: { 1: 0 }, log: 'silent' }));
 * const ep = await startEndpoint(endpointConfig({ nodeId: 1, switch: { port: sw.addresses[0]!.tcpPort }, log: 'silent' }));
 * await ep.readRegister(0x50, 0, 0x00); // a MAINTENANCE read of the switch's Device Identity CAR
 * const c = ep.status().counters.api;
 * console.log(API_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // readRequests=1 readResponses=1 connects=1
 * await ep.close();
 * await sw.close();
 * ```
 */
export const API_COUNTERS = [
  'pdusSent',
  'pdusReceived',
  'rxDropped',
  /** Times a receive stream at `api.rxLimit` made the end point stop taking packets from its link. */
  'rxHolds',
  /** Times the application read nothing of such a stream for `api.rxStallMs`: its PDUs beyond the limit are dropped. */
  'rxStalls',
  'xoffSent',
  'xonSent',
  'sendRefused',
  'readRequests',
  'readResponses',
  'readErrors',
  'readTimeouts',
  'tidCollisions',
  'gatedPackets',
  'gateOverflow',
  'symbolsIn',
  'encodeErrors',
  /** Packets pulled from the engine and not yet on the link when it went down. */
  'unsentDiscarded',
  /** PDUs known to be lost, over all streams (StreamLoss.pdus). */
  'pdusLost',
  /** Loss reports, over all streams (one per stream and event). */
  'lossReports',
  'connects',
  'linkDowns',
] as const;
/** A counter of the application API. */
export type ApiCounter = (typeof API_COUNTERS)[number];

/** The end point's link to its switch. */
export interface LinkStatus {
  readonly state: 'connecting' | 'up' | 'closed';
  readonly switch: string;
  readonly connects: number;
}

/** What `RiodpEndpoint.status()` gives: the end point's link, peers, streams, flows and counters. */
export interface EndpointStatus {
  readonly nodeId: number;
  /** The sans-IO end point inside (endpoint-engine.ts). */
  readonly engine: string;
  readonly link: LinkStatus;
  readonly peers: readonly Peer[];
  readonly streams: readonly StreamStatus[];
  /** Part 9 flows (FabricEndpoint.flows()). */
  readonly flows: readonly FlowState[];
  readonly counters: {
    readonly engine: FabricCounters;
    readonly link: LinkCounters | null;
    readonly api: Readonly<Record<ApiCounter, number>>;
  };
}

/**
 * A running end point of the software fabric, as `startEndpoint` resolves with it: discovery, streams and
 * conduits, Part 9 flow state, traffic management, register reads.
 */
export interface RiodpEndpoint {
  readonly nodeId: number;
  /**
   * Without `node`: discovery of the configured targets and scan (§3.3), resolved when it is done
   * with every participant known. With `node`: that node (again), resolved with it, or [] when it
   * does not participate or cannot be reached.
   */
  discover(node?: number, hop?: number): Promise<Peer[]>;
  /** OPEN a stream to a node (§3.5.1.3): resolves with the transmit stream once ACCEPTed; rejects on REFUSE or timeout. */
  openStream(o: OpenOptions): Promise<Stream>;
  /** A conduit (§3.4): resolves once both streams are open. */
  openConduit(o: OpenOptions): Promise<Stream>;
  /** Streams and conduits peers open to this end point, as they complete. One consumer at a time. */
  incoming(): AsyncIterable<Stream>;
  /** Part 9 state of every flow this end point has sent on or been told about. */
  flowState(): FlowState[];
  /** Flow-control changes from now on; each call is its own subscription (at most 1024 changes held, oldest dropped). */
  flowChanges(): AsyncIterable<FlowChange>;
  /** Calls `listener` on each flow-control change; returns the function that stops it. */
  onFlowChange(listener: (c: FlowChange) => void): () => void;
  /** Calls `listener` on each loss on any stream of this end point (Stream.onLoss); returns the function that stops it. */
  onLoss(listener: (l: StreamLoss) => void): () => void;
  /** Calls `listener` on each engine event; returns the function that stops it. */
  onEvent(listener: (e: EngineEvent) => void): () => void;
  /** The end point's state now. */
  status(): EndpointStatus;
  /** A Type 8 MAINTENANCE read of the 32-bit register at `offset` of node `to` with hop_count `hop` (Part 3 §2.5). */
  readRegister(to: number, hop: number, offset: number): Promise<number>;
  /**
   * Sends an application's own Part 10 TM message (docs/fabric-api.md §1 "Traffic management");
   * throws a StreamError when the end point has no `tm` or does not take the message.
   */
  tmCommand(c: TmCommand): void;
  /** Closes the link and stops; pending operations reject, iterations end. */
  close(): Promise<void>;
}

/**
 * An application's Part 10 TM message: `ingress`, about its own transmit stream (`to`, `streamID`):
 * `Q_STATUS` again (§3.4.5 rule 5), `RELINQUISH` (§3.4.4), user or application defined; `egress`,
 * to the sender of data it receives, named by `to` (`peer` = its node, `cos`, `streamID`,
 * `wildcard`, `mask` of §4.3.1): XOFF, XON, REDUCE, INCREASE, DOUBLE, MAINTAIN, ALLOCATE, RETIRE,
 * user or application defined (src/streaming/tm-types.ts).
 */
export type TmCommand =
  | { readonly side: 'ingress'; readonly to: number; readonly streamID: number; readonly command: TmIngressCommand }
  | { readonly side: 'egress'; readonly to: TmDesignation; readonly command: TmEgressCommand };
