import type { Counters, PendingTimer, Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { Type11Packet } from '../wire/type11.ts';
import type { Type13MessageResponse, Type13Packet } from '../wire/type13.ts';
import type { SendMessageOutput, SmpPriority } from './types.ts';
import type { ResolvedType11Config } from './type11-conveyance-config.ts';

/**
 * The Type 11 conveyance of Annex 2 session management (§3.3 "If the conveyance is Type 11
 * (messaging)", §4.3.1–§4.3.3): engine `type11-conveyance`. It carries the session engine's
 * `send` outputs (types.ts SendMessageOutput) to other nodes as Part 2 data messages and hands
 * received messages back as `message` outputs shaped like the session engine's MessageInput.
 *
 * Sender (Part 2 §2.3.1, §3.3.2, §4.2.5): a message of n octets (zero-padded to whole
 * double-words, Annex 2 §4.3.2 "If padding is used, the data must contain zeros") is one segment
 * when n ≤ `segmentSize`, else ⌈n / segmentSize⌉ ≤ 16 segments whose ssize is `segmentSize`, the
 * last one carrying the rest. Up to `letters` messages per (destination, mbox) are in flight, each
 * with its own letter; further messages wait, 'high' ones ahead of 'normal' ones (Annex 2 §3.7.2).
 * Every segment is answered by a Type 13 MESSAGE RESPONSE: DONE completes it, RETRY sends it again
 * (after `retryDelay`, at most `maxRetries` times), any other status fails the message, and so
 * does a segment left unanswered for `responseTimeout`.
 *
 * Receiver (Part 2 §2.4.2 "It is possible for these transactions to arrive at a target mailbox
 * in an arbitrary order"): segments of a multi-segment message are collected per (source, letter,
 * mbox) in any order and the message is delivered once all are in; a single-segment message is
 * delivered at once. Every segment is answered: DONE, RETRY when `maxReassemblies` messages are
 * already being collected (Part 2 §3.1 "A RETRY response shall be generated for a message
 * transaction that attempts to access a mailbox that is busy"), ERROR for a segment no receiver
 * could place (§3.1 "An ERROR response means that the target of the transaction encountered an
 * unrecoverable error").
 *
 * Packets leave only when pulled (`pull`, one per transmit opportunity of the link): responses
 * first (Part 6 §6.12 "end point processing elements must have the ability to issue outbound
 * response packets even if outbound request packets awaiting transmission are congestion
 * blocked"), then segments of 'high' messages, then of 'normal' ones, each in message order.
 *
 * Mailbox numbers are Part 2's (Table 4-4): 0–63, written xmbox‖mbox in a single-segment message;
 * a multi-segment message has only mbox, so mailboxes 4–63 take single-segment messages only
 * (docs/conformance.md, Annex 2 section, decision T2).
 */

/** The configuration of a `Type11Conveyance` (durations in the driver's time unit). */
export interface Type11ConveyanceConfig {
  /** This end point's device ID: the sourceID of its packets; packets for other IDs are dropped. */
  readonly nodeId: number;
  /** tt of the packets sent (Part 3 §2.4). Default 1 (Dev16, as Annex 2's 2-octet IDs, §3.5.2.2). */
  readonly tt?: number;
  /** ssize of multi-segment messages in bytes: 8, 16, 32, 64, 128 or 256 (Table 4-4). Default 256. */
  readonly segmentSize?: number;
  /** Letters per (destination, mbox), 1–4 (Part 2 §2.3.1 "up to four data message operations"). Default 4. */
  readonly letters?: number;
  /** Time a sent segment waits for its response before its message fails. Default 100 ms (100_000_000 ns). */
  readonly responseTimeout?: number;
  /** Delay before a segment answered RETRY is sent again; 0: at the next pull. Default 0. */
  readonly retryDelay?: number;
  /** RETRY responses one segment may get; the next one fails its message. Default 16. */
  readonly maxRetries?: number;
  /** Multi-segment messages the receiver collects at once, over all sources and mailboxes. Default 16. */
  readonly maxReassemblies?: number;
  /** A partly received message with no new segment for this long is dropped; null: never. Default 100 ms. */
  readonly reassemblyTimeout?: number | null;
  /** Mailboxes (0–63) that receive messages; segments for others are answered ERROR. Default all. */
  readonly mailboxes?: readonly number[];
}

/** A caller's label for a message, echoed in its events. */
export type MessageId = string | number;

/**
 * A message to send: the session engine's SendMessageOutput (its `message` field is not used) with
 * an optional `id`. `contact` must be a Type 11 contact; its mailbox is the target mailbox.
 */
export interface Type11SendInput extends Omit<SendMessageOutput, 'message'> {
  /** Not copied when it is whole double-words: segments are views of it until the message is `sent` or `failed`. */
  readonly bytes: Uint8Array;
  readonly id?: MessageId;
}

/** Timers: `msg:<to>/<mbox>/<letter>` per message being sent, `rx:<from>/<letter>/<mbox>` per message being received. */
export type Type11TimerName = `msg:${string}` | `rx:${string}`;

/**
 * What `Type11Conveyance.handle` takes: messages to send, received MESSAGE and RESPONSE packets, pulls, timer
 * expiries.
 */
export type Type11ConveyanceInput =
  | Type11SendInput
  /** A received packet: a MESSAGE (Type 11) or a RESPONSE (Type 13); any other packet is ignored. */
  | { readonly kind: 'packet'; readonly packet: Type11Packet | Type13Packet }
  /** A transmit opportunity: up to `max` packets (a positive integer, default 1). */
  | { readonly kind: 'pull'; readonly max?: number }
  | TimerInput<Type11TimerName>;

/** A received message, shaped like the session engine's MessageInput; `bytes` is a copy, pad included. */
export interface Type11MessageOutput {
  readonly kind: 'message';
  readonly from: number;
  readonly mailbox: number;
  readonly bytes: Uint8Array;
}

/** Why a message was not queued. */
export type Type11Refusal =
  /** The contact is not a Type 11 contact. */
  | 'wrong-conveyance'
  /** `to` is not a device ID of the configured tt (Part 3 §2.4). */
  | 'invalid-destination'
  /** The mailbox is not 0–63 (Part 2 Table 4-4 "1111 11 - mailbox 63"). */
  | 'invalid-mailbox'
  | 'invalid-priority'
  | 'invalid-payload'
  /** Part 2 §4.2.5 "Type 11 packets always have a data payload". */
  | 'empty'
  /** More than 16 segments (Part 2 §2.3.1 "up to 16 individual packets"). */
  | 'too-long'
  /** Mailboxes 4–63 exist in single-segment messages only (Table 4-4 xmbox). */
  | 'mailbox-single-segment';

/** Why a sent message failed. */
export type Type11Failure =
  /** An ERROR response, or a status that is neither DONE nor RETRY (Part 2 Table 4-6). */
  | 'error'
  /** A segment had no response within `responseTimeout`. */
  | 'timeout'
  /** A segment was answered RETRY more than `maxRetries` times. */
  | 'retry-limit';

/**
 * What a `Type11Conveyance` reports: messages sent, refused or failed, reassemblies timed out or refused,
 * packets it drops, inputs it does not understand.
 */
export type Type11Event =
  /** Every segment of the message was answered DONE. */
  | { readonly name: 'sent'; readonly to: number; readonly mailbox: number; readonly letter: number; readonly segments: number; readonly id?: MessageId }
  /** The message was not queued. */
  | { readonly name: 'refused'; readonly reason: Type11Refusal; readonly to: number; readonly length: number; readonly id?: MessageId }
  | {
    readonly name: 'failed';
    readonly reason: Type11Failure;
    readonly to: number;
    readonly mailbox: number;
    readonly letter: number;
    /** The segment (msgseg; 0 in a single-segment message) whose response or silence failed it. */
    readonly segment: number;
    /** The response status, for 'error'. */
    readonly status?: number;
    readonly id?: MessageId;
  }
  /** A MESSAGE RESPONSE that matches no segment waiting for one (already answered, or never sent). */
  | { readonly name: 'stale-response'; readonly from: number; readonly letter: number; readonly mbox: number; readonly msgseg: number; readonly status: number }
  /** A received segment answered ERROR; `dropped`: octets of its message collected so far and discarded. */
  | {
    readonly name: 'segment-rejected';
    readonly from: number;
    readonly letter: number;
    readonly mailbox: number;
    readonly reason: string;
    readonly clause: string;
    readonly dropped: number;
  }
  /** A received segment answered RETRY: `maxReassemblies` messages are being collected. */
  | { readonly name: 'busy'; readonly from: number; readonly letter: number; readonly mailbox: number; readonly msgseg: number }
  /** A segment received again with the same octets: answered DONE and not stored twice. */
  | { readonly name: 'duplicate-segment'; readonly from: number; readonly letter: number; readonly mailbox: number; readonly msgseg: number }
  /**
   * A segment that cannot belong to the message being collected under its (source, letter, mbox)
   * (another msglen or ssize, or other octets for a segment already held): the sender gave that
   * message up, so what was collected is dropped and a new message starts with this segment.
   */
  | { readonly name: 'stale-reassembly'; readonly from: number; readonly letter: number; readonly mailbox: number; readonly dropped: number }
  /** A partly received message had no new segment for `reassemblyTimeout`; dropped. */
  | { readonly name: 'reassembly-timeout'; readonly from: number; readonly letter: number; readonly mailbox: number; readonly dropped: number }
  /** A packet whose destinationID is not this node's: dropped, unanswered. */
  | { readonly name: 'not-for-us'; readonly ftype: number; readonly destinationID: number; readonly sourceID: number }
  /** A packet that is neither a MESSAGE nor a MESSAGE RESPONSE (e.g. a maintenance response): not this engine's. */
  | { readonly name: 'ignored-packet'; readonly ftype: number; readonly sourceID: number }
  /** An input the engine does not understand. */
  | { readonly name: 'invalid-input'; readonly detail: string };

/** The names of `Type11Event`. */
export type Type11EventName = Type11Event['name'];
/** A `Type11Event` as an output. */
export type Type11EventOutput = { readonly kind: 'event' } & Type11Event;

/** What `Type11Conveyance.handle` returns: packets to send, messages received, events, timer requests. */
export type Type11ConveyanceOutput =
  /** A packet to transmit. */
  | { readonly kind: 'packet'; readonly packet: Type11Packet | Type13MessageResponse }
  | Type11MessageOutput
  /** A pull found nothing to send. */
  | { readonly kind: 'idle' }
  | Type11EventOutput
  | TimerOutput<Type11TimerName>;

/** The counters of a `Type11Conveyance`. */
export type Type11CounterName =
  | 'messagesQueued'
  | 'messagesRefused'
  /** Messages padded with zeros to whole double-words. */
  | 'messagesPadded'
  | 'messagesSent'
  | 'messagesFailed'
  /** Segments sent, resent ones included. */
  | 'segmentsSent'
  | 'segmentsResent'
  | 'doneReceived'
  | 'retriesReceived'
  | 'errorsReceived'
  | 'responseTimeouts'
  | 'staleResponses'
  /** Responses to segments of a message that had already failed. */
  | 'lateResponses'
  | 'segmentsReceived'
  | 'messagesDelivered'
  | 'duplicateSegments'
  | 'rejectedSegments'
  /** RETRY responses sent. */
  | 'busySegments'
  | 'staleReassemblies'
  | 'reassemblyTimeouts'
  | 'responsesSent'
  | 'notForUs'
  | 'ignoredPackets'
  | 'pulls'
  | 'idlePulls'
  | 'invalidInputs';

/** A message being sent, as `Type11Conveyance.snapshot()` shows it. */
export interface Type11MessageSnapshot {
  readonly seq: number;
  readonly id?: MessageId;
  readonly to: number;
  readonly mailbox: number;
  readonly priority: SmpPriority;
  /** -1 while the message waits for a letter. */
  readonly letter: number;
  /** Segment size in octets. */
  readonly ssize: number;
  readonly failed: boolean;
  readonly queuedAt: Time;
  /** Each segment's state; `at` (when it was sent, or may be retried) while sent or waiting to retry. */
  readonly segments: readonly { readonly state: 'ready' | 'sent' | 'retry-wait' | 'done'; readonly at?: Time; readonly retries: number }[];
}

/** A message being reassembled (Part 2 §4.2), as `Type11Conveyance.snapshot()` shows it. */
export interface Type11ReassemblySnapshot {
  readonly from: number;
  readonly letter: number;
  readonly mailbox: number;
  /** Segments of the message (msglen). */
  readonly segments: number;
  /** The ssize field of its packets. */
  readonly ssize: number;
  /** The msgseg numbers received. */
  readonly received: readonly number[];
  readonly octets: number;
  readonly openedAt: Time;
  readonly lastAt: Time;
}

/** `Type11Conveyance.snapshot()`: its resolved settings, then its state. */
export interface Type11ConveyanceSnapshot extends Omit<ResolvedType11Config, 'mailboxes'> {
  /** The mailboxes that receive. */
  readonly mailboxes: readonly number[];
  /** Messages holding a letter, and those waiting for one by queueing order. */
  readonly active: readonly Type11MessageSnapshot[];
  readonly waiting: readonly Type11MessageSnapshot[];
  readonly reassemblies: readonly Type11ReassemblySnapshot[];
  /** MESSAGE RESPONSEs waiting to be pulled. */
  readonly responsesQueued: number;
  readonly timers: readonly PendingTimer<Type11TimerName>[];
  readonly stats: Counters<Type11CounterName>;
}
