import type { Counters, PendingTimer, Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { FlowIdLabel, VcCount } from '../wire/flow-id.ts';
import type { Type9Packet } from '../wire/type9-types.ts';
import type { Vsid } from './vsid.ts';

/**
 * The destination side of Part 10 segmentation and reassembly (§3.2.4, §3.2.5 reassembly rules
 * 1–9, §4.2, Chapter 5): engine `reassembler`. It takes received Type 9 data segments and
 * delivers whole PDUs with their VSID and flow, or reports why a PDU was discarded.
 *
 * Terms. A *segmentation context* is where the segments of one PDU meet: §3.2.5 rule 1 "the
 * segmentation context consisting of the source ID, the destination ID, and the physical channel
 * ID. (The destination ID is only required for devices supporting multicast and/or multiple
 * destination IDs.)". riodp keys it by (tt, sourceID, VC, prio, CRF), plus destinationID when
 * `destinationInContext` is set: the packet bits that select the transaction request flow (§3.2.4
 * "all packets making up an individual PDU … must be in the same transaction request flow"). A
 * context is *open* from a start segment to the segment that ends its PDU, else *closed*.
 *
 * One outcome per opened PDU. Every PDU whose start segment opened a context ends in exactly one
 * of: a `pdu` output, a `defective-pdu` event (rules 4–7, 9), an `aborted` event or an
 * `idle-timeout` event. A defect found before the PDU's end (rules 4, 5) leaves the context open
 * in the `discarding` state until the PDU's end, so the rest of that PDU is dropped quietly
 * (counter `discardedSegments`) instead of being reported again segment by segment.
 */

/** The context key of a segment: `Dev8/src5/vc0/prio1/crf0`, with `/dst<id>` after the source when destinationID is part of it. */
export type ContextKey = string;

/** Timer of one context: "idle:" + its key. */
export type IdleTimerName = `idle:${ContextKey}`;

/** The configuration of a `Reassembler` (durations in the driver's time unit). */
export interface ReassemblerConfig {
  /**
   * MTU in bytes, 32..256 in steps of 4 (§5.5.1 Table 5-6 "0b0000_1000 - 32 byte block size" to
   * "0b0100_0000 - 256 byte block size"): "Only single segment PDUs and end segments are permitted
   * to have a data payload that is less this value". Default 256. `set-mtu` changes it later.
   */
  readonly mtu?: number;
  /**
   * SegSupport of the Data Streaming Information CAR (§5.4.3 Table 5-5), the number of
   * segmentation contexts: "0x0000 - 64k segmentation contexts", 0x0001–0xFFFF that many; 65536
   * is accepted as well. Default 0 (65536 contexts).
   */
  readonly segSupport?: number;
  /**
   * The end point "can be a multicast target and/or supports multiple destination device IDs"
   * (§3.2.4): destinationID becomes part of the context key. Default false.
   */
  readonly destinationInContext?: boolean;
  /**
   * "It may be desirable for a destination to have a time-out as part of the lost packet detection
   * mechanism" (§3.2.5): a context with no segment for this long is closed and its PDU discarded
   * (`idle-timeout`). In the driver's time unit; null switches it off. Default null.
   */
  readonly idleTimeout?: number | null;
  /** VC1–VC8 channels the link runs (Part 6 §6.4.2): 0 single VC mode. For the delivered flowID only. Default 0. */
  readonly vcCount?: VcCount;
  /** Whether the system supports CRF (Part 6 Table 6-7) or not (Table 6-6). For the delivered flowID only. Default true. */
  readonly crfSupported?: boolean;
  /**
   * Buffers kept for reuse, 0..1024 (riodp API, not the spec). 0, the default: recycling is off, a
   * `recycle` input is an `invalid-input`, and every multi-segment PDU gets a newly allocated
   * buffer. Above 0: a receiver may give a delivered payload back with `recycle`, and later PDUs
   * are reassembled into recycled buffers before new ones are allocated; recycled buffers beyond
   * this many are let go.
   */
  readonly bufferPool?: number;
}

/**
 * What `Reassembler.handle` takes: received Type 9 packets, an MTU change, buffers given back, timer
 * expiries.
 */
export type ReassemblerInput =
  /**
   * A received Type 9 packet. Data segments are reassembled; TM and other extended packets
   * (xh = 1) belong to traffic management and are ignored (`not-data`).
   */
  | { readonly kind: 'packet'; readonly packet: Type9Packet }
  | TimerInput<IdleTimerName>
  /**
   * A write of the MTU field (§5.5.1). PDUs that start afterwards, and single segments, are judged
   * with it; an open PDU keeps the MTU it started with. A value that is not an MTU is ignored
   * (`invalid-input`).
   */
  | { readonly kind: 'set-mtu'; readonly mtu: number }
  /**
   * With `bufferPool` above 0: the receiver is done with a delivered PDU and gives its buffer back
   * for reuse. Ownership rule: `payload` must be the very `payload` of a `pdu` output of this
   * reassembler, and from this input on the caller must not read, write or keep it or any other
   * view of its memory: a later PDU is written into that memory and delivered to someone else.
   * Only multi-segment PDUs delivered in a buffer of their own can come back (a single segment's
   * PDU is a view of its packet, which the engine never owned). A payload the engine did not lend
   * or that came back already is ignored as an `invalid-input` (counter `invalidInputs`); the
   * engine cannot detect use after recycling, which is the caller's to avoid.
   */
  | { readonly kind: 'recycle'; readonly payload: Uint8Array };

/** The rules of §3.2.5 that find a PDU defective. */
export type ReassemblyRule = 3 | 4 | 5 | 6 | 7 | 8 | 9;

/**
 * The Part 8 Logical/Transport Layer Error Detect CSR bit each defect sets (Part 10 rev 4.1 §5.4
 * Table 5-3, "end point device only").
 */
export type DsErrorName =
  /** Bit 10: "A continuation or end data streaming segment was received for a closed or non-existent segmentation context". */
  | 'MISSING_DATA_STREAMING_CONTEXT'
  /** Bit 11: "A start or single data streaming segment was received for an already open segmentation context". */
  | 'OPEN_EXISTING_DATA_STREAMING_CONTEXT'
  /** Bit 12: "Received a data streaming segment with a payload size greater than the MTU". */
  | 'LONG_DATA_STREAMING_SEGMENT'
  /** Bit 13: "Received a start or continuation data streaming segment with a payload size less than the MTU". */
  | 'SHORT_DATA_STREAMING_SEGMENT'
  /** Bit 14: "The length of a reassembled PDU differs from the PDU length carried in the end data streaming segment packet header". */
  | 'DATA_STREAMING_PDU_LENGTH_ERROR';

/** The data segments the reassembler handles (type9Segment without `tm`/`extended`). */
export type DataSegment = 'single' | 'start' | 'continuation' | 'end' | 'abort';

/** A PDU reassembled from its segments, in the order its end (or single) segment arrived. */
export interface ReassembledPdu {
  readonly kind: 'pdu';
  readonly context: ContextKey;
  /** sourceID and destinationID of the start or single segment, its cos and streamID (§3.2.2). */
  readonly vsid: Vsid;
  /** tt of the start or single segment: the width of the IDs in `vsid`. */
  readonly tt: number;
  /**
   * The transaction request flow: VC1–VC8 packets "Flow nA" (Part 9 Table 3-1, Part 6 Table 2-2),
   * VC0 packets the flow of their prio/CRF (Part 6 Tables 6-6/6-7); null for a VC0 packet at prio
   * 3, which Part 9 Table 2-1 calls "Illegal" for a request.
   */
  readonly flowID: FlowIdLabel | null;
  /** Virtual channel: 0 for VC0, 1–8 for VC1–VC8. */
  readonly channel: number;
  /**
   * The PDU. A single segment's is the packet's own payload view, no copy: it stays valid while
   * the packet's bytes do. A multi-segment PDU's is a view of a buffer allocated for that PDU only,
   * which the engine never touches again, unless the receiver gives it back with `recycle`
   * (`bufferPool`).
   */
  readonly payload: Uint8Array;
  /** Segments the PDU arrived in. */
  readonly segments: number;
}

/** A PDU found defective by a §3.2.5 rule and discarded ("a defective PDU results in discarding the entire PDU"). */
export interface DefectEvent {
  readonly kind: 'event';
  readonly name: 'defective-pdu';
  readonly rule: ReassemblyRule;
  /** e.g. 'Part 10 §3.2.5 reassembly rule 7'. */
  readonly clause: string;
  readonly error: DsErrorName;
  /** The Logical/Transport Layer Error Detect CSR bit of `error` (10–14). */
  readonly errorBit: number;
  readonly context: ContextKey;
  /** The segment that revealed the defect (for rule 9 the new start or single segment). */
  readonly segment: DataSegment;
  /** The discarded PDU's VSID; null for rule 8, whose start segment (which carries it) was lost. */
  readonly vsid: Vsid | null;
  /**
   * The discarded PDU's data count (rule 2): its payload bytes up to and including the segment
   * that revealed the defect; for rule 9 the old PDU's count (the revealing segment is the new PDU's).
   */
  readonly received: number;
  /** Payload bytes of the revealing segment. */
  readonly payloadLength: number;
  /** The MTU the segment was judged with. */
  readonly mtu: number;
  /** Rule 7: the PDU length the end segment carries ("0x0000 - 64kbytes" as 65536). */
  readonly length?: number;
}

/**
 * The events a `Reassembler` reports: a defective PDU (§3.2.5, Part 8), an aborted PDU, an idle timeout, no
 * free context, a packet that is not data, an input it does not understand.
 */
export type ReassemblerEvent =
  | DefectEvent
  /** "If the source wishes to abort a PDU transmission, it sends an end segment with no data payload and with the length field set to zero" (§3.2.5 segmentation rule 9): the open PDU is discarded, not a defect. */
  | { readonly kind: 'event'; readonly name: 'aborted'; readonly context: ContextKey; readonly vsid: Vsid; readonly received: number }
  /** The context's idle timeout elapsed with its PDU open; the PDU was discarded. `lastSegmentAt`: when its last segment came. */
  | { readonly kind: 'event'; readonly name: 'idle-timeout'; readonly context: ContextKey; readonly vsid: Vsid; readonly received: number; readonly lastSegmentAt: Time }
  /**
   * A start segment needed a context and all SegSupport contexts were open (§3.2.4 "The number
   * of contexts that can be supported by a particular destination end point is specified in a
   * CAR"): its PDU is discarded. `contexts` is the limit.
   */
  | { readonly kind: 'event'; readonly name: 'no-context'; readonly context: ContextKey; readonly vsid: Vsid; readonly contexts: number }
  /** A TM (xtype 000) or other extended (xh = 1) packet: not a data segment, left to traffic management. */
  | { readonly kind: 'event'; readonly name: 'not-data'; readonly segment: 'tm' | 'extended'; readonly sourceID: number; readonly destinationID: number }
  /** An input the engine does not understand (unknown kind, `set-mtu` with a value that is not an MTU). */
  | { readonly kind: 'event'; readonly name: 'invalid-input'; readonly detail: string };

/** The names of `ReassemblerEvent`. */
export type ReassemblerEventName = ReassemblerEvent['name'];

/** What `Reassembler.handle` returns: reassembled PDUs, events and idle timer requests. */
export type ReassemblerOutput = ReassembledPdu | ReassemblerEvent | TimerOutput<IdleTimerName>;

/** An open context, as `openContexts()` and `snapshot()` show it. */
export interface OpenContextInfo {
  readonly context: ContextKey;
  /** `discarding`: the PDU was already reported defective (rules 4, 5); the rest of it is dropped until its end. */
  readonly state: 'assembling' | 'discarding';
  readonly vsid: Vsid;
  readonly tt: number;
  readonly flowID: FlowIdLabel | null;
  readonly channel: number;
  /** The MTU the PDU is judged with (the MTU when its start segment came). */
  readonly mtu: number;
  /** Data count (rule 2). */
  readonly received: number;
  readonly segments: number;
  readonly openedAt: Time;
  readonly lastSegmentAt: Time;
}

/** The counters of a `Reassembler`. */
export type ReassemblerCounterName =
  /** Data segments received (single, start, continuation, end, abort). */
  | 'segments'
  | 'pdus'
  /** Payload bytes of delivered PDUs. */
  | 'pduBytes'
  /** `defective-pdu` events, and per Part 8 error: */
  | 'defects'
  | 'missingContext'
  | 'openExistingContext'
  | 'longSegment'
  | 'shortSegment'
  | 'pduLengthError'
  | 'aborted'
  | 'idleTimeouts'
  | 'noContext'
  /** Segments of a PDU already reported defective, dropped without a new report. */
  | 'discardedSegments'
  | 'notData'
  | 'invalidInputs';

/** `Reassembler.snapshot()`. */
export interface ReassemblerSnapshot {
  readonly mtu: number;
  /** SegSupport as a count of contexts. */
  readonly contextLimit: number;
  readonly destinationInContext: boolean;
  readonly idleTimeout: number | null;
  readonly vcCount: VcCount;
  readonly crfSupported: boolean;
  readonly openContexts: readonly OpenContextInfo[];
  readonly timers: readonly PendingTimer<IdleTimerName>[];
  /** With buffer recycling on (`bufferPool` > 0): the pool's size and the buffers it holds now. */
  readonly bufferPool?: number;
  readonly pooledBuffers?: number;
  readonly stats: Counters<ReassemblerCounterName>;
}
