import type { Counters, Time } from '../engine/contract.ts';
import type { FlowIdLabel, VcCount } from '../wire/flow-id.ts';
import type { Type7Packet } from '../wire/type7.ts';
import type { MessageFlow } from './flows.ts';

/**
 * A congestion point: a switch output port buffer or a destination end point's receive buffer
 * (Part 9 §2.1, §2.4.2.2, §2.4.3, §2.4.6, Annex A.1): engine `congestion-point`.
 */

/** Annex A.1 method 1 (histogram: the `flows` flows with most buffered packets, 1..5) or method 2 (simple threshold). */
export type SelectionPolicy = { readonly kind: 'histogram'; readonly flows: number } | { readonly kind: 'threshold' };

/**
 * §2.4.3 "the choice of which flow to XOFF is preferably made using request packets, not response
 * packets". `fallback` (default): response flows are chosen only when no request flow is
 * available (histogram: they fill the places request flows leave; threshold: a response packet
 * triggers an XOFF only when the buffer holds no request packet). `ignore`: never.
 * `equal`: responses compete like requests (ties still prefer the request).
 */
export type ResponsePolicy = 'fallback' | 'ignore' | 'equal';

/** The configuration of a `CongestionPoint`. */
export interface CongestionPointConfig {
  /** SOC of the CCPs it sends: 0 for a switch, 1 for an end point (§3.2). */
  readonly role: 'switch' | 'endpoint';
  /**
   * Occupancy above which the buffer is congested (compared packet by packet, A.1). An XOFF goes
   * out when an arriving packet leaves occupancy > highWatermark.
   */
  readonly highWatermark: number;
  /** Default restart level of controlled flows; < highWatermark (hysteresis, A.1 a). */
  readonly lowWatermark: number;
  /** Occupancy unit: `packets` (default) or `bytes` (each packet's `size`). */
  readonly unit?: 'packets' | 'bytes';
  /**
   * Buffer capacity in the same unit. When set and the buffer is full (occupancy >= capacity), a
   * switch drops the CCPs it would send (§2.4.6 rule 2 "If a switch runs out of packet buffer
   * space, it is permitted to drop CCPs"), counted as `ccpDropped`. End points never drop.
   */
  readonly capacity?: number;
  /** Default `{ kind: 'histogram', flows: 1 }`. */
  readonly policy?: SelectionPolicy;
  readonly responses?: ResponsePolicy;
  /** Controlled flow list entries (§2.4.2.2), >= 1. Default 16. */
  readonly listCapacity?: number;
  /** Restart order among entries whose level is reached at the same time: `fifo` (default, oldest first) or `lifo`. */
  readonly restartOrder?: 'fifo' | 'lifo';
  /**
   * Staggered restart levels (§2.4.2.2 may "modify the flow restart ordering or expected XON
   * watermark level"; A.2 warns of "burstyness due to uncontrolled simultaneous multi-flow
   * restart"): the k-th entry in restart order (k = 0, 1, …) restarts at
   * max(0, lowWatermark − k·restartStagger). Re-evaluated whenever the list changes. Default 0.
   */
  readonly restartStagger?: number;
  /** DECISIONS §3 system setting. Default true. */
  readonly crfSupported?: boolean;
  /** VC1–VC8 channels on the link (Part 6 Table 2-2); 0 (default) = single VC mode. */
  readonly vcCount?: VcCount;
  /** prio/CRF of the CCPs. Default prio 3, CRF 1 when CRF is supported (§2.4.2). */
  readonly ccpFlow?: MessageFlow;
  /**
   * Switch: the port a CCP to each destinationID leaves by. `default` for IDs not listed; an ID
   * with no route cannot be sent a CCP (event `no-route`). End point: ignored, port 0.
   */
  readonly routes?: { readonly table?: Readonly<Record<number, number>>; readonly default?: number };
  /**
   * Ports whose Port n Control CSR Flow Control Participant bit is set (§4.3 "Do not route or
   * issue flow control transactions to this port" when clear). Default: every port.
   */
  readonly participants?: readonly number[];
}

/** The header fields of a buffered packet that the congestion point looks at. */
export interface BufferedPacket {
  readonly sourceID: number;
  readonly destinationID: number;
  /** Transport size of the packet; CCPs go out with the same tt. */
  readonly tt: number;
  readonly prio: number;
  readonly crf: number;
  /** The header VC bit (Part 6 Table 2-2). Default 0. */
  readonly vc?: number;
  readonly ftype: number;
  /** Overrides the ftype rule (ftype 13 and Type 8 responses are responses, everything else a request). */
  readonly response?: boolean;
  /** Bytes, when unit is `bytes`. */
  readonly size?: number;
}

/** What `CongestionPoint.handle` takes: the buffer's enqueues and dequeues, and register writes. */
export type CongestionPointInput =
  /** A packet entered the buffer. */
  | { readonly kind: 'enqueue'; readonly packet: BufferedPacket }
  /** A packet left the buffer (same fields as when it entered). */
  | { readonly kind: 'dequeue'; readonly packet: BufferedPacket }
  /** §2.4.2.2 re-evaluation: a new restart level for one controlled flow. */
  | { readonly kind: 'set-restart-level'; readonly destinationID: number; readonly tgtdestinationID: number; readonly flowID: FlowIdLabel; readonly level: number }
  /** Port n Control CSR Flow Control Participant bit written. */
  | { readonly kind: 'set-participant'; readonly port: number; readonly enabled: boolean };

/** The events a `CongestionPoint` reports. */
export type CongestionPointEventName =
  /** Occupancy rose above the high watermark. */
  | 'congested'
  /** Occupancy fell to the low watermark. */
  | 'decongested'
  /** §2.4.6 rule 2: a CCP dropped because the buffer is full. */
  | 'ccp-dropped'
  /** The CCP's port is not a flow control participant (§4.3): not sent, flow not controlled. */
  | 'ccp-suppressed'
  | 'no-route'
  /** §2.4.2.2: list full, a less important entry was XON'd early to make room. */
  | 'early-xon'
  /** List full and the new flow is not more important than any entry: not XOFF'd. */
  | 'list-full'
  /** A packet Table 2-1 calls illegal (request at prio 3, response at prio 0): never selected. */
  | 'unmappable'
  /** A dequeue for a packet that is not in the buffer: ignored. */
  | 'unknown-dequeue';

/** An entry of the controlled flow list (§2.4.2.2): a flow this congestion point sent XOFF for. */
export interface ControlledFlowEntry {
  /** CCP destinationID: the sourceID of the offending packets. */
  readonly destinationID: number;
  /** CCP tgtdestinationID: their destinationID. */
  readonly tgtdestinationID: number;
  readonly flowID: FlowIdLabel;
  readonly tt: number;
  /** Shut-off order: a sequence number, smaller = XOFF'd earlier. */
  readonly order: number;
  readonly restartLevel: number;
  readonly port: number;
}

/** What `CongestionPoint.handle` returns: CCPs to send (on `port`) and events. */
export type CongestionPointOutput =
  | { readonly kind: 'send'; readonly port: number; readonly packet: Type7Packet }
  | {
    readonly kind: 'event';
    readonly name: CongestionPointEventName;
    readonly destinationID?: number;
    readonly tgtdestinationID?: number;
    readonly flowID?: FlowIdLabel;
    readonly occupancy?: number;
    readonly port?: number;
    /** Which CCP a `ccp-dropped` or `ccp-suppressed` event is about. */
    readonly command?: 'XOFF' | 'XON';
  };

/** The counters of a `CongestionPoint`. */
export type CongestionPointCounterName =
  | 'enqueued' | 'dequeued' | 'xoffSent' | 'xonSent' | 'ccpDropped' | 'ccpSuppressed' | 'noRoute' | 'earlyXon' | 'listFull' | 'unmappable' | 'unknownDequeue';

/** Buffered packets of one flow a CCP can name (Annex A.1 histogram), as `snapshot()` lists them. */
export interface BufferedFlow {
  readonly destinationID: number;
  readonly tgtdestinationID: number;
  readonly flowID: FlowIdLabel;
  readonly tt: number;
  readonly requests: number;
  readonly responses: number;
}

/** `CongestionPoint.snapshot()`. */
export interface CongestionPointSnapshot {
  readonly role: 'switch' | 'endpoint';
  readonly unit: 'packets' | 'bytes';
  readonly occupancy: number;
  readonly congested: boolean;
  /** The controlled flow list (§2.4.2.2), in restart order. */
  readonly controlled: readonly ControlledFlowEntry[];
  readonly histogram: readonly BufferedFlow[];
  /** Buffered packets no CCP may name (ftype 7/8, Table 2-1 "Illegal"), by source/destination pair. */
  readonly otherPackets: Readonly<Record<string, number>>;
  /** §4.3 Flow Control Participant bits: every port but those cleared, or only those set. */
  readonly participants: { readonly all: true; readonly cleared: readonly number[] } | { readonly all: false; readonly set: readonly number[] };
  readonly counters: Counters<CongestionPointCounterName>;
  readonly lastInputAt: Time | null;
}
