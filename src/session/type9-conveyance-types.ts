import type { Counters, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { IdleTimerName, ReassemblerEvent, ReassemblerSnapshot } from '../streaming/reassembler-types.ts';
import type { SegmenterRefusal, SegmenterSnapshot } from '../streaming/segmenter-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9DataPacket, Type9Packet } from '../wire/type9-types.ts';
import type { SendMessageOutput, SendPduOutput } from './types.ts';

/**
 * The Type 9 conveyance of Annex 2 session management: engine `type9-conveyance`. Management
 * messages for a node whose contact is Type 9 travel as PDUs on the stream it advertised (§3.3
 * "<StreamID> identifies a stream dedicated for the reception of management messages. <COS>
 * identifies the class of service"), and DATA3 data PDUs (§4.3.4–§4.3.5 "When the data is carried
 * by the Data Streaming Protocol ... no additional header needs to be used") on their own stream.
 * Both are cut into Part 10 segments by a `Segmenter` and received Type 9 segments are put back
 * together by a `Reassembler` (src/streaming/): this engine adds the routing between the session
 * engine's outputs and inputs and those two, and the transmit order.
 *
 * Flows. Annex 2 §3.7.2 asks that ACCEPT, CLOSE, FLOW_CONTROL and STATUS "be sent and received with
 * higher priority" than the other messages: 'high' messages go on `highFlow`, 'normal' messages and
 * data PDUs on `normalFlow`. Part 10 §3.2.5 segmentation rule 1 lets PDUs of different flows be
 * segmented concurrently, so a high message need not wait for a long data PDU to end.
 *
 * Transmit order. Segments leave only when pulled (`pull`, one per transmit opportunity of the
 * link, as the segmenter itself works): the next segment of a flow that is `highFlow` first, then
 * of any flow in the segmenter's round-robin (`pull-any`). Flows a `gate` input stopped are passed
 * over by both.
 */

/** The configuration of a `Type9Conveyance` (durations in the driver's time unit). */
export interface Type9ConveyanceConfig {
  /** This end point's device ID: the sourceID of its segments; segments for other IDs are dropped. */
  readonly nodeId: number;
  /** tt of the segments sent (Part 3 §2.4). Default 1 (Dev16, as Annex 2's 2-octet IDs, §3.5.2.2). */
  readonly tt?: number;
  /**
   * MTU in bytes, 32..256 in steps of 4, for segmenting and reassembling: "The MTU is a system-wide
   * parameter agreed to by all processing elements participating in the SAR process" (Part 10
   * §3.2.4). Default 256.
   */
  readonly mtu?: number;
  /** Whether the system supports CRF (Part 6 Table 6-7) or not (Table 6-6). Default true. */
  readonly crfSupported?: boolean;
  /**
   * Flow of 'high' messages. Default the flow whose requests carry prio 1 and CRF 0 (0C with CRF,
   * 0B without), the prio the Type 11 conveyance gives them.
   */
  readonly highFlow?: FlowIdLabel;
  /** Flow of 'normal' messages and data PDUs. Default 0A (prio 0). */
  readonly normalFlow?: FlowIdLabel;
  /** MaxPDU of destinations, bytes 1..65536, as the segmenter takes it (Part 10 §5.4.3). Default 65536 for all. */
  readonly defaultMaxPdu?: number;
  readonly maxPdu?: ReadonlyMap<number, number> | Readonly<Record<string, number>>;
  /** SegSupport of this end point (Part 10 §5.4.3 Table 5-5), as the reassembler takes it. Default 0 (65536 contexts). */
  readonly segSupport?: number;
  /** Reassembly idle timeout (Part 10 §3.2.5 "a time-out as part of the lost packet detection mechanism"); null off. Default null. */
  readonly idleTimeout?: number | null;
  /**
   * Buffers of delivered multi-segment PDUs kept for reuse once their receiver gives them back
   * (`recycle`), as the reassembler's `bufferPool` (0..1024). Default 0: every PDU gets new memory.
   */
  readonly bufferPool?: number;
  /**
   * Other destination IDs this end point receives on, e.g. the broadcast ID of Annex 2 §7.3.2.1
   * ("0xFE for 8-bit IDs or 0xFFFE for 16-bit IDs"). The reassembler then keys contexts by
   * destinationID as well (Part 10 §3.2.4 "can be a multicast target"). Default none.
   */
  readonly multicastIds?: readonly number[];
}

/** A caller's label for a message or PDU, echoed in its events. */
export type Type9Id = string | number;

/** A management message: the session engine's SendMessageOutput (`message` unused); `contact` must be Type 9. */
export interface Type9SendInput extends Omit<SendMessageOutput, 'message'> {
  /** Not copied: segments are views of it (as the segmenter's), so it must not change before its `sent` event. */
  readonly bytes: Uint8Array;
  readonly id?: Type9Id;
}

/** A data PDU: the session engine's SendPduOutput. */
export interface Type9SendPduInput extends SendPduOutput {
  /** Not copied, as `bytes` of a message. */
  readonly pdu: Uint8Array;
  readonly id?: Type9Id;
}

/**
 * Stops or restarts the segments of one flow towards one destination (the segmenter's `gate`, its
 * types describe it): e.g. the end point's reaction to a Part 9 XOFF, §2.4.5 rule 1 "stops all
 * transaction request flows of the specified priority and lower targeted to the specified
 * destination". `flowID` is the flow as this conveyance sends it (`highFlow`, `normalFlow`). A
 * stopped flow's units stay queued, a unit being segmented pauses mid-PDU, and pulls go on with
 * the other flows, the high flows to other destinations first as before.
 */
export interface Type9GateInput {
  readonly kind: 'gate';
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly stopped: boolean;
}

/**
 * What `Type9Conveyance.handle` takes: messages and PDUs to send, gates, received Type 9 packets, pulls,
 * buffers given back, timer expiries.
 */
export type Type9ConveyanceInput =
  | Type9SendInput
  | Type9SendPduInput
  | Type9GateInput
  /** A received Type 9 packet. */
  | { readonly kind: 'packet'; readonly packet: Type9Packet }
  /** A transmit opportunity: up to `max` segments (a positive integer, default 1); stopped flows send none. */
  | { readonly kind: 'pull'; readonly max?: number }
  | Type9RecycleInput
  | Type9SetMtuInput
  | TimerInput<IdleTimerName>;

/**
 * The receiver is done with a delivered PDU (`pdu` of a `pdu` output): its memory may hold a later
 * PDU. The receiver cannot tell which PDUs came in a reusable buffer (a multi-segment PDU while
 * `bufferPool` > 0), so any other PDU, or one given back twice, is passed over and counted
 * (`recyclesIgnored`), not an invalid input. The receiver must not touch `pdu` afterwards.
 */
export interface Type9RecycleInput {
  readonly kind: 'recycle';
  readonly pdu: Uint8Array;
}

/**
 * The end point's MTU field was written (Part 10 §5.5.1 Table 5-6), bytes 32..256 in steps of 4:
 * the segmenter and the reassembler both take it (their `set-mtu` inputs). A PDU already being
 * segmented finishes with its MTU, and an open reassembly context keeps the MTU of its start
 * segment; PDUs and single segments after it use the new one. A value that is not an MTU is an
 * `invalid-input` event and changes nothing.
 */
export interface Type9SetMtuInput {
  readonly kind: 'set-mtu';
  readonly mtu: number;
}

/** A reassembled PDU, shaped like the session engine's PduInput. */
export interface Type9PduOutput {
  readonly kind: 'pdu';
  readonly from: number;
  readonly streamID: number;
  readonly cos: number;
  /** The PDU: a buffer of its own (a single segment's payload is copied out of its packet). */
  readonly pdu: Uint8Array;
}

/** What a sent unit was: a management message ('send') or a data PDU ('send-pdu'). */
export type Type9Unit = 'message' | 'pdu';

/**
 * What a `Type9Conveyance` reports: units sent or refused, PDUs the reassembler found defective, segments for
 * another node, inputs it does not understand.
 */
export type Type9Event =
  /** The unit's last segment was pulled. */
  | { readonly name: 'sent'; readonly unit: Type9Unit; readonly to: number; readonly streamID: number; readonly cos: number; readonly length: number; readonly id?: Type9Id }
  /** The unit was not queued: the contact is not Type 9, or the segmenter refused it (`clause` names the rule). */
  | {
    readonly name: 'refused';
    readonly unit: Type9Unit;
    readonly reason: SegmenterRefusal | 'wrong-conveyance' | 'invalid-priority';
    readonly clause?: string;
    readonly to: number;
    readonly length: number;
    readonly id?: Type9Id;
  }
  /** A segment whose destinationID is neither this node's nor one of `multicastIds`: dropped. */
  | { readonly name: 'not-for-us'; readonly destinationID: number; readonly sourceID: number }
  | { readonly name: 'invalid-input'; readonly detail: string };

/** A `Type9Event` as an output. */
export type Type9EventOutput = { readonly kind: 'event' } & Type9Event;

/** What `Type9Conveyance.handle` returns: segments to send, PDUs received, events, timer requests. */
export type Type9ConveyanceOutput =
  /** A segment to transmit (payload without the P pad byte, which encodeType9 appends). */
  | { readonly kind: 'packet'; readonly packet: Type9DataPacket }
  | Type9PduOutput
  /** A pull found no segment to send. */
  | { readonly kind: 'idle' }
  | Type9EventOutput
  /** What the reassembler reports about received segments (defective PDUs, aborts, time-outs, TM packets), as it reports it. */
  | ReassemblerEvent
  | TimerOutput<IdleTimerName>;

/** The counters of a `Type9Conveyance`. */
export type Type9CounterName =
  | 'messagesQueued'
  | 'pdusQueued'
  | 'refused'
  | 'sent'
  | 'segmentsSent'
  | 'segmentsReceived'
  | 'pdusDelivered'
  | 'reassemblyEvents'
  | 'notForUs'
  | 'pulls'
  | 'idlePulls'
  | 'recycled'
  | 'recyclesIgnored'
  | 'invalidInputs';

/** One flow's PDUs in the conveyance's segmenter (`Type9Conveyance.backlog`). */
export interface Type9Backlog {
  /** A PDU is being segmented (its start segment has been pulled). */
  readonly active: boolean;
  /** Payload bytes of the active PDU already pulled. */
  readonly headSent: number;
  /** PDUs waiting to start. */
  readonly waiting: number;
  /** Payload bytes not yet pulled, the active PDU's rest and every waiting PDU. */
  readonly queuedBytes: number;
  /** The segmenter's number (`PduRef.seq`, increasing) of the newest PDU held, 0 when none. */
  readonly newest: number;
}

/** What a fast-lane pull (`Type9Conveyance.pullInto`, issue 17) did. */
export interface FastPull {
  /** Bytes of whole frames written. */
  readonly bytes: number;
  /** Frames written: one Type 9 segment each. */
  readonly frames: number;
  /** Whether a pull now would send more (false: the pull's idle step was counted). */
  readonly more: boolean;
}

/** `Type9Conveyance.snapshot()`: its configuration and the inner segmenter's and reassembler's snapshots. */
export interface Type9ConveyanceSnapshot {
  readonly nodeId: number;
  readonly tt: number;
  readonly highFlow: FlowIdLabel;
  readonly normalFlow: FlowIdLabel;
  /** Destination IDs besides `nodeId` this end point accepts (multicast groups). */
  readonly multicastIds: readonly number[];
  readonly segmenter: SegmenterSnapshot;
  readonly reassembler: ReassemblerSnapshot;
  readonly stats: Counters<Type9CounterName>;
}
