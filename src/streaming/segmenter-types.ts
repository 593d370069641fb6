import type { Counters, Time } from '../engine/contract.ts';
import type { RegisterSpace } from '../registers/space.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9DataPacket } from '../wire/type9-types.ts';

/**
 * The source side of Part 10 segmentation (§3.2.3–§3.2.5, Figures 3-3/3-4, §4.2, Chapter 5):
 * engine `segmenter`. It turns queued PDUs into Type 9 segments, one segment per `pull`, so
 * that the link, flow arbitration and traffic management decide when each segment goes.
 *
 * Terms. A *stream* is "destination ID+cos+streamID" (§3.2.2, the source's viewpoint); a *flow*
 * is the RapidIO transaction request flow (destinationID, flowID) (§2.4). §3.2.5 segmentation
 * rule 1: "No more than one PDU from a given stream shall be segmented at a time", "No more than
 * one PDU from a given RapidIO flow shall be segmented at a time", "PDUs associated with different
 * RapidIO flows may be segmented concurrently".
 *
 * Queueing. Accepted PDUs wait in arrival order. A PDU starts (its start or single segment is
 * pulled) when its flow and its stream are free and no earlier waiting PDU shares its flow or its
 * stream, so PDUs leave in arrival order within a flow and within a stream (§3.2.3 "A stream of
 * PDUs is transmitted one PDU at a time to preserve the required ordering") while PDUs of other
 * flows go on.
 */

export interface SegmenterConfig {
  /** This end point's device ID, the sourceID of every segment. Default 0. */
  readonly sourceID?: number;
  /** tt of the segments sent: 0 Dev8, 1 Dev16, 2 Dev32 (Part 3 §2.4). Default 0. */
  readonly tt?: number;
  /**
   * MTU in bytes, 32..256 in steps of 4 (§5.5.1 Table 5-6: "0b0000_1000 - 32 byte block size" to
   * "0b0100_0000 - 256 byte block size"). Give `mtu` or `registers`, not both; neither: 256.
   */
  readonly mtu?: number;
  /**
   * The element's register space: the MTU is read from the Data Streaming Logical Layer Control
   * CSR (0x48) each time a PDU starts, so a MAINTENANCE write takes effect from the next PDU and a
   * PDU keeps one MTU from its start to its end (§3.2.4 "The MTU is a system-wide parameter agreed
   * to by all processing elements participating in the SAR process"). The space must define the
   * CSR. While it holds a reserved MTU encoding no PDU starts (`idle` with reason `mtu-reserved`).
   */
  readonly registers?: RegisterSpace;
  /**
   * MaxPDU of each destination in bytes, 1..65536 (§5.4.3 Table 5-5 "The maximum PDU size in bytes
   * supported by the destination end point"; "0x0000 - 64kbytes" is 65536 here). A JSON mapping
   * keys destination IDs as decimal strings. Destinations not listed take `defaultMaxPdu`.
   */
  readonly maxPdu?: ReadonlyMap<number, number> | Readonly<Record<string, number>>;
  /** MaxPDU of destinations `maxPdu` does not list, 1..65536. Default 65536. */
  readonly defaultMaxPdu?: number;
  /**
   * Whether the system supports CRF (Part 6 Table 6-7) or not (Table 6-6): the prio/CRF of VC0
   * flows 0A–0F (src/wire/flow-id.ts packetForFlowId). Default true.
   */
  readonly crfSupported?: boolean;
}

/** A caller's label for a PDU, echoed in the PDU's outputs. */
export type PduId = string | number;

/** What `Segmenter.handle` takes: PDUs to send, pulls for the next segment, aborts, gates, MaxPDU changes. */
export type SegmenterInput =
  /**
   * Queues a PDU. `payload` is not copied: the segments are `subarray` views of it, so the caller
   * must not change it before `pdu-done` or `aborted`.
   */
  | {
    readonly kind: 'pdu';
    readonly destinationID: number;
    readonly cos: number;
    readonly streamID: number;
    readonly flowID: FlowIdLabel;
    readonly payload: Uint8Array;
    readonly id?: PduId;
  }
  /**
   * The next segment of one flow: `send`, or `idle` saying why there is none. With `max` (a
   * positive integer, default 1) up to `max` segments, as `max` pulls in a row would give them,
   * without the `idle` of the pull that finds nothing once a segment was sent.
   */
  | { readonly kind: 'pull'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly max?: number }
  /**
   * The next segment of any flow: flows take turns segment by segment, in ascending
   * (destinationID, Part 9 Table 3-1 flowID code) order, starting after the flow served last and
   * wrapping around; a flow with nothing it may send, or stopped by `gate`, is skipped. `max` as for
   * `pull`.
   */
  | { readonly kind: 'pull-any'; readonly max?: number }
  /**
   * Stops (`stopped: true`) or restarts a flow for `pull` and `pull-any`: the caller's transmit
   * gating, e.g. the end point's reaction to a Part 9 XOFF (§2.4.5 rule 1 "A XOFF flow control
   * transaction stops all transaction request flows of the specified priority and lower targeted to
   * the specified destination"). A stopped flow keeps its PDUs and takes new ones; a PDU it is
   * segmenting pauses mid-PDU and goes on from the next segment once restarted (§3.2.5 rule 1
   * "PDUs associated with different RapidIO flows may be segmented concurrently": other flows'
   * segments may come between; within the flow the order is kept). `pull-any` passes over a stopped
   * flow as over one with nothing to send, so the others keep their turns. The state is per
   * (destinationID, flowID), whether or not the flow has PDUs; every flow starts restarted.
   */
  | { readonly kind: 'gate'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly stopped: boolean }
  /**
   * Aborts the oldest PDU of the flow not yet aborted, or the PDU `id` names. A PDU whose start
   * segment was sent ends with an abort segment (rule 9: "an end segment with no data payload and
   * with the length field set to zero"), which is the flow's next segment to pull; a PDU that has
   * not started is dropped from the queue without a segment.
   */
  | { readonly kind: 'abort'; readonly destinationID: number; readonly flowID: FlowIdLabel; readonly id?: PduId }
  /**
   * Sets a destination's MaxPDU (bytes, 1..65536), e.g. after reading its Data Streaming Information
   * CAR. Applies to PDUs queued from now on.
   */
  | { readonly kind: 'set-max-pdu'; readonly destinationID: number; readonly maxPdu: number }
  /**
   * A write of the MTU field (§5.5.1 Table 5-6), bytes 32..256 in steps of 4: PDUs that start from
   * now on are cut with it; a PDU already started finishes with the MTU it started with (its
   * `pdu-started` output names it). Without `registers` only (with them the MTU is the register's);
   * otherwise, or with a value that is not an MTU, an `invalid-input` event and nothing changes.
   */
  | { readonly kind: 'set-mtu'; readonly mtu: number };

/** The PDU an output is about. */
export interface PduRef {
  /** The engine's number for the PDU, 1, 2, … in `pdu` input order (refused PDUs take none). */
  readonly seq: number;
  readonly id?: PduId;
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly cos: number;
  readonly streamID: number;
  /** PDU length in bytes. */
  readonly length: number;
}

/** Why a PDU was not queued (the `refused` output). */
export type SegmenterRefusal =
  /** Table 4-1 length: "0x0001 - 1 byte" is the smallest PDU; an empty end segment is an abort (rule 9). */
  | 'empty-pdu'
  /** Table 4-1 length: "0x0000 - 64kbytes" is the largest PDU a length field describes. */
  | 'pdu-too-long'
  /** §3.2.4 "The maximum size of a PDU that a particular destination can accept is specified in a CAR". */
  | 'above-max-pdu'
  /** destinationID is not a device ID of the configured tt (Part 3 §2.4). */
  | 'invalid-destination-id'
  /** cos is not 8 bits (Table 4-1). */
  | 'invalid-cos'
  /** streamID is not 16 bits (Table 4-1). */
  | 'invalid-stream-id'
  /** flowID is not a Part 9 Table 3-1 flow (0A–0F, 1A–8A). */
  | 'invalid-flow-id'
  /** payload is not a Uint8Array. */
  | 'invalid-payload';

/** Why a pull found no segment to send (the `idle` output). */
export type SegmenterIdleReason =
  /** Nothing is queued (on the flow, for `pull`; anywhere, for `pull-any`). */
  | 'empty'
  /**
   * The flow's next PDU waits for its stream: an earlier PDU of the stream, on another flow, is
   * being segmented or waits itself (rule 1, one PDU per stream, in order).
   */
  | 'stream-busy'
  /** The next PDU cannot start: the MTU register holds a reserved encoding (§5.5.1 Table 5-6). */
  | 'mtu-reserved'
  /** The flow has a segment to send but a `gate` input stopped it (for `pull-any`: every flow with one is stopped). */
  | 'flow-stopped';

/** The events a `Segmenter` reports. */
export type SegmenterEventName =
  /** `abort` found no PDU of the flow to abort (none queued, or the one named by `id` is not there). */
  | 'nothing-to-abort'
  /**
   * A `pull`, `pull-any`, `abort`, `gate`, `set-max-pdu` or `set-mtu` whose fields are not a flow, a
   * `max`, a boolean, a MaxPDU or an MTU, or a `set-mtu` with `registers`; ignored.
   */
  | 'invalid-input';

/** What `Segmenter.handle` returns: segments to send and what happened to each PDU. */
export type SegmenterOutput =
  /**
   * A segment to transmit. `packet.payload` is a view of the PDU payload (no copy) and excludes
   * the P pad byte, which encodeType9 appends; O and P are set per Table 4-2.
   */
  | { readonly kind: 'send'; readonly seq: number; readonly flowID: FlowIdLabel; readonly packet: Type9DataPacket }
  /** The PDU was accepted and waits for its turn. */
  | ({ readonly kind: 'queued' } & PduRef)
  /** The PDU's start or single segment follows; `segments` includes it, `mtu` is the MTU it is cut with. */
  | ({ readonly kind: 'pdu-started'; readonly segments: number; readonly mtu: number } & PduRef)
  /** The PDU's end or single segment preceded this output. */
  | ({ readonly kind: 'pdu-done' } & PduRef)
  /** The PDU was not queued. `clause` names the rule; the fields are the input's as given. */
  | {
    readonly kind: 'refused';
    readonly reason: SegmenterRefusal;
    readonly clause: string;
    readonly id?: PduId;
    readonly destinationID: number;
    readonly flowID: string;
    readonly cos: number;
    readonly streamID: number;
    readonly length: number;
  }
  /**
   * The PDU was aborted. `started`: its start segment had been sent, so an abort segment is queued
   * as the flow's next segment; `bytesSent`: PDU bytes already sent in segments.
   */
  | ({ readonly kind: 'aborted'; readonly started: boolean; readonly bytesSent: number } & PduRef)
  /** A pull found no segment it may send. `destinationID`/`flowID` are those of a `pull`. */
  | { readonly kind: 'idle'; readonly reason: SegmenterIdleReason; readonly destinationID?: number; readonly flowID?: FlowIdLabel }
  | { readonly kind: 'event'; readonly name: SegmenterEventName; readonly destinationID?: number; readonly flowID?: string; readonly id?: PduId };

/** The counters of a `Segmenter`. */
export type SegmenterCounterName =
  | 'pdusQueued'
  | 'pdusRefused'
  | 'pdusStarted'
  | 'pdusDone'
  /** PDUs aborted after their start segment: each sends one abort segment. */
  | 'pdusAborted'
  /** PDUs aborted before they started: dropped without a segment. */
  | 'pdusDropped'
  /** Segments sent, abort segments included. */
  | 'segmentsSent'
  | 'abortSegmentsSent'
  /** PDU payload bytes sent in segments (pad bytes excluded). */
  | 'bytesSent'
  | 'pulls'
  | 'idlePulls'
  | 'nothingToAbort'
  | 'invalidInputs';

/** A PDU being segmented, as `activePdu` and `snapshot()` report it. */
export interface ActivePdu extends PduRef {
  readonly queuedAt: Time;
  readonly startedAt: Time;
  readonly mtu: number;
  readonly bytesSent: number;
  readonly aborting: boolean;
}

/** `Segmenter.snapshot()`. */
export interface SegmenterSnapshot {
  readonly sourceID: number;
  readonly tt: number;
  /** Where the MTU comes from: the configuration, or the Data Streaming Logical Layer Control CSR. */
  readonly mtuSource: 'config' | 'register';
  /** The MTU in force, in bytes; null when the register holds a reserved encoding. */
  readonly mtu: number | null;
  readonly defaultMaxPdu: number;
  /** MaxPDU per destination, where it differs from the default, by destinationID. */
  readonly maxPdu: readonly { readonly destinationID: number; readonly maxPdu: number }[];
  readonly crfSupported: boolean;
  /** The `seq` the next queued PDU takes. */
  readonly nextSeq: number;
  /** Flows with a PDU active or waiting, in `pull-any` order. */
  readonly flows: readonly {
    readonly destinationID: number;
    readonly flowID: FlowIdLabel;
    readonly active: ActivePdu | null;
    readonly waiting: readonly (PduRef & { readonly queuedAt: Time })[];
  }[];
  /** The flow `pull-any` served last. */
  readonly lastServed: { readonly destinationID: number; readonly flowID: FlowIdLabel } | null;
  /** Flows a `gate` input stopped. */
  readonly stopped: readonly { readonly destinationID: number; readonly flowID: FlowIdLabel }[];
  readonly stats: Counters<SegmenterCounterName>;
}
