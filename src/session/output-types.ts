import type { Time, TimerOutput } from '../engine/contract.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import type { Contact, StreamInfo, StreamRef } from './types.ts';

// What the session management engine (`SessionEngine`) returns: messages and PDUs to send, PDUs
// to deliver, events, and the names of its counters. Its configuration and inputs are types.ts,
// which re-exports all of these.


/**
 * §3.7.2: "ACCEPT, CLOSE, FLOW_CONTROL and STATUS messages to be sent and received with higher
 * priority than messages containing commands OPEN, REQUEST, ADVERTISE, REFUSE, DATA and
 * USERDEFINED."
 */
export type SmpPriority = 'high' | 'normal';

/** A management or DATA message for node `to`, through `contact` (the conveyance's address). */
export interface SendMessageOutput {
  readonly kind: 'send';
  readonly to: number;
  readonly contact: Contact;
  readonly priority: SmpPriority;
  readonly message: SmpMessage;
  readonly bytes: Uint8Array;
}

/** A Type 9 data PDU (DATA3, no header: §4.3.4–§4.3.5) for the Part 10 segmenter. */
export interface SendPduOutput {
  readonly kind: 'send-pdu';
  readonly to: number;
  readonly streamID: number;
  readonly cos: number;
  readonly pdu: Uint8Array;
}

/** A PDU received on an rx stream, for the application. */
export interface DeliverOutput {
  readonly kind: 'deliver';
  readonly stream: StreamRef;
  readonly protoID: number;
  readonly pdu: Uint8Array;
}

/** Why an incoming OPEN is not accepted, as the receiver's judgement of it says (negotiate.ts). */
export type RefuseReason =
  | 'protocol-unsupported' | 'not-accepted' | 'missing-open-message-number' | 'unknown-attribute'
  | 'attribute-order' | 'missing-required' | 'value-not-offered' | 'reserved-attribute';

/**
 * Why this end point refused an OPEN (event `open-refused`): its judgement of the OPEN, validation
 * mode's rejection (§3.8.5), no receive streamID or DATA2 mailbox left, or the conduit procedure
 * (§3.4.1 "the master may respond with REFUSE").
 */
export type OpenRefusalReason = RefuseReason | 'validation' | 'no-stream-ids' | 'no-data-mailbox' | 'master-without-record' | 'slave-without-record';

/**
 * What a `SessionEngine` reports to the application: streams opened, refused and closed, flow control,
 * STATUS, suspects, timeouts, dropped and malformed messages.
 */
export type SessionEvent =
  | { readonly event: 'advertised'; readonly node: number; readonly message: SmpMessage }
  | { readonly event: 'opened'; readonly stream: StreamInfo; readonly ref?: string }
  /** Our OPEN `ref` to `node` was refused. */
  | { readonly event: 'refused'; readonly ref: string; readonly node: number; readonly protoID: number }
  /**
   * We refused an OPEN from `node`: `answer` REFUSE (carrying its OPEN_MESSAGE_NUMBER first,
   * §4.2.5), or STATUS Command_Unknown when no well-formed REFUSE can answer it (§3.8.5).
   */
  | {
    readonly event: 'open-refused';
    readonly node: number;
    readonly protoID: number;
    readonly openMessageNumber?: number;
    readonly reason: OpenRefusalReason;
    readonly detail: string;
    readonly answer: 'REFUSE' | 'STATUS';
  }
  | { readonly event: 'closed'; readonly stream: StreamRef; readonly cause: 'local' | 'remote' | 'status-timeout' | 'stream-unknown' | 'conduit' | 'peer-lost' }
  | { readonly event: 'conduit'; readonly tx: StreamRef; readonly rx: StreamRef; readonly protoID: number }
  | { readonly event: 'xoff' | 'xon' | 'xon-timeout' | 'rts'; readonly stream: StreamRef }
  | { readonly event: 'status'; readonly node: number; readonly message: SmpMessage }
  | { readonly event: 'suspect'; readonly node: number; readonly reason: string }
  | { readonly event: 'timeout'; readonly node: number; readonly command: string; readonly ref?: string }
  | { readonly event: 'dropped'; readonly reason: string; readonly node?: number; readonly stream?: StreamRef }
  | { readonly event: 'malformed'; readonly node: number; readonly reason: string }
  | { readonly event: 'userdefined'; readonly node: number; readonly message: SmpMessage }
  /** A broadcast asked for multicast but goes by unicast on StreamID 0xF000: this end point's conveyance is Type 11. */
  | { readonly event: 'multicast-unavailable'; readonly reason: string };

/** A `SessionEvent` at time `at`. */
export interface EventOutput {
  readonly kind: 'event';
  readonly at: Time;
  readonly detail: SessionEvent;
}

/**
 * What `SessionEngine.handle` returns: messages and PDUs to send, PDUs to deliver, events, timer requests.
 */
export type SessionOutput = SendMessageOutput | SendPduOutput | DeliverOutput | EventOutput | TimerOutput;

/**
 * The names of a `SessionEngine`'s counters, in `counters()` order.
 *
 * @example
 * ```ts
 * import { SessionEngine } from 'riodp/engines';
 * import type { SessionCounter } from 'riodp/engines';
 *
 * // A monitor lists the counters by name, in the order counters() gives them.
 * const e = new SessionEngine({ nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [{ protoID: 0x1234, attributes: [] }] });
 * const names = Object.keys(e.counters()) as SessionCounter[];
 * console.log(names.length, names[0], e.counters().messagesIn); // 13 messagesIn 0
 * ```
 */
export const SESSION_COUNTERS = [
  'messagesIn',
  'messagesOut',
  'malformed',
  'statusCommandUnknown',
  'statusStreamUnknown',
  'retries',
  'timeouts',
  'dataDiscarded',
  'pdusDelivered',
  'pdusSent',
  'pdusDropped',
  'suspects',
  /** ACCEPT or REFUSE that no outstanding OPEN was waiting for (a duplicate or a late answer, §3.5.3.7). */
  'staleResponses',
] as const;
/** A counter of a `SessionEngine`. */
export type SessionCounter = (typeof SESSION_COUNTERS)[number];
