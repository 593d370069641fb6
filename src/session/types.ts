import type { Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { AttributeLike, SmpAttribute } from '../wire/smp/attributes.ts';
import type { SmpMessage } from '../wire/smp/index.ts';

/**
 * The Annex 2 session management engine (`SessionEngine`, src/session/engine.ts): one end point's
 * management process. Sans-IO: it is handed received management messages and Type 9 PDUs,
 * application commands, timer expiries and the time, and returns messages to send, deliveries,
 * events and timer requests. Conveyances (Type 11 segmentation, Type 9 segmentation) and remote
 * register reads (discovery) are separate engines the driver connects (src/session/*-conveyance.ts,
 * src/session/discovery.ts).
 *
 * Durations in the config are in the driver's time unit (ns in `riodp model` and over TCP);
 * attribute periods on the wire are in microseconds (§3.5.3.4–§3.5.3.6) and are converted with
 * `unitsPerMicrosecond`.
 */

/**
 * How management messages reach a node (§3.3, Table 5-3 Conveyance_Info, Table 5-6). A Type 11
 * mailbox is a Part 2 mailbox, 0–63 (decision T2).
 */
export type Contact =
  | { readonly conveyance: 'type11'; readonly mailbox: number }
  | { readonly conveyance: 'type9'; readonly streamID: number; readonly cos: number };

/** A protocol this end point can receive (§3.5.1.2, §3.5.3, Chapters 6–7). */
export interface ProtocolSupport {
  readonly protoID: number;
  /**
   * The attributes advertised for the protocol, in the order ADVERTISE lists them (§3.8.2 "OPEN
   * commands should maintain the order of Attributes that was used in the ADVERTISE command").
   * Exactly two copies of one attribute ID advertise a range [first, second] (§3.8.2).
   */
  readonly attributes: readonly AttributeLike[];
  /**
   * Optional and vendor-specific attribute IDs this end point understands besides the standard
   * ones (§3.5.3 "In the event that an optional or vendor specific attribute is not understood by
   * an implementation, the session must not be opened"). Default none.
   */
  readonly understood?: readonly number[];
  /**
   * §3.5.1.4 "A target may optionally support only a single session for a given protocol and
   * source, in which case attempts to OPEN multiple sessions will result in ACCEPT responses which
   * all specify the same stream" (followed by a STATUS, §3.8.3). Default false: a new stream.
   */
  readonly singleSession?: boolean;
  /** When false every OPEN for the protocol is refused (REFUSE). Default true. */
  readonly acceptOpen?: boolean;
  /** COS given to streams of this protocol in ACCEPT (§3.5.2.4). Default 0. */
  readonly cos?: number;
  /** DATA_HEADER_FORMAT put in ACCEPT (§3.5.3.9); absent means DATA (0x06) is used. */
  readonly dataHeaderFormat?: 'DATA' | 'DATA1' | 'DATA2' | 'DATA3';
  /** The DATA2 implementation-specific octet (§4.3.3). Default 0. */
  readonly data2Octet?: number;
}

/**
 * How this end point establishes conduits: as peers (§3.4.2), or as the master or the slave of a master/slave
 * configuration (§3.4.1).
 */
export type ConduitRole = 'peers' | 'master' | 'slave';

/** The configuration of a `SessionEngine` (periods in the driver's time unit). */
export interface SessionConfig {
  /** This end point's device ID (SourceID/DestID fields, §3.5.2.2). */
  readonly nodeId: number;
  /** 8- or 16-bit device IDs (multicast broadcast ID 0xFE / 0xFFFE, §7.3.2.1). Default 16. */
  readonly deviceIdBits?: 8 | 16;
  /** Where this end point receives management messages (its own advertisement). */
  readonly contact: Contact;
  /** Protocols this end point can receive. */
  readonly protocols: readonly ProtocolSupport[];
  /** REQUEST/ADVERTISE are optional (§3.8.1, §3.9.2); false answers REQUEST with STATUS Command_Unknown. Default true. */
  readonly requestAdvertise?: boolean;
  /** Validation mode (§3.7, §3.8.5): reserved fields checked, violators suspect. Default false. */
  readonly validation?: boolean;
  /** REQUEST_RETRY_PERIOD default (§3.5.3.4: 250 ms), in time units. */
  readonly retryPeriod?: number;
  /** REQUEST_TIMEOUT_PERIOD default (§3.5.3.5: 1 s), in time units. */
  readonly timeoutPeriod?: number;
  /** FLOW_CONTROL_XON_TIMEOUT_PERIOD default (§3.5.3.6: 1 s), in time units. */
  readonly xonTimeout?: number;
  /** RTS retry interval and limit (§4.2.6 "may retry the message at 250 msec intervals, until 1 second has elapsed"). */
  readonly rtsRetry?: number;
  readonly rtsLimit?: number;
  /** Time units per microsecond (attribute periods are in µs). Default 1000 (ns). */
  readonly unitsPerMicrosecond?: number;
  /** Conduit configuration (§3.4.1–§3.4.2). Default 'peers'. */
  readonly conduitRole?: ConduitRole;
  /** USERDEFINED command values (0xF0–0xFF) this end point understands (§3.8.4). Default none. */
  readonly userDefined?: readonly number[];
  /** §3.8.3: after a Stream_Unknown STATUS, query the other streams to that node. Default true. */
  readonly reverifyOnStreamUnknown?: boolean;
  /** Largest PDU queued per transmit stream while XOFF'd (non-Ethernet). Default 64 PDUs. */
  readonly maxPendingPdus?: number;
  /**
   * Mailboxes this end point can dedicate to one DATA2 stream each (named to the sender with a
   * CONVEYANCE attribute in ACCEPT, §3.5.3.10). Default none: DATA2 is not offered. Part 2
   * mailboxes 0–63; DATA2 messages to 4–63 are single-segment (decision T2).
   */
  readonly dataMailboxes?: readonly number[];
  /**
   * Multicast available for Ethernet broadcast (§7.3.2.1). Default false (unicast to members,
   * §7.3.2.2). Used only when this end point's own contact is Type 9: Type 11 takes no multicast,
   * so a Type 11 end point broadcasts by unicast and says so (event 'multicast-unavailable').
   */
  readonly multicast?: boolean;
  /**
   * The segment size of the Type 11 conveyance this end point sends through (Part 2 ssize: 8, 16,
   * 32, 64, 128 or 256 octets; default 256). With it the engine sizes DATA messages and bounds
   * management messages for a Type 11 contact: 16 segments for mailboxes 0–3, one for 4–63.
   */
  readonly type11SegmentSize?: number;
}

/** Which end of a stream this end point is (§1.2 "A stream, is a unidirectional connection"). */
export type StreamDirection = 'tx' | 'rx';

/** A stream as the application names it: the remote node, the direction and the streamID. */
export interface StreamRef {
  readonly remote: number;
  readonly direction: StreamDirection;
  readonly streamID: number;
}

/** Values negotiated for a stream (§3.5.3), in time units where they are periods. */
export interface StreamSettings {
  readonly retryPeriod: number;
  readonly timeoutPeriod: number;
  readonly xonTimeout: number;
  readonly dataHeaderFormat: 'DATA' | 'DATA1' | 'DATA2' | 'DATA3';
  readonly data2Octet: number;
  /** DATA_OFFSET octets appended to each DATA header (§3.5.3.3); default 0. */
  readonly dataOffset: number;
  /** CONVEYANCE for DATA/FLOW_CONTROL (§3.5.3.10); absent: the management conveyance. */
  readonly conveyance?: Contact;
  /** Ethernet MTU (§7.2.1), when the protocol carries it. */
  readonly mtu?: number;
}

export interface StreamInfo extends StreamRef {
  readonly protoID: number;
  readonly cos: number;
  readonly attributes: readonly SmpAttribute[];
  readonly settings: StreamSettings;
  /** The other stream of its conduit, when it belongs to one. */
  readonly conduitPeer?: StreamRef;
  /** tx: XOFF received and not yet released; rx: XOFF sent. */
  readonly xoff: boolean;
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** A management message received (bytes of the message, no RapidIO header), from node `from`. */
export interface MessageInput {
  readonly kind: 'message';
  readonly from: number;
  readonly bytes: Uint8Array;
  /**
   * The Type 11 mailbox the message arrived in (Part 2 mailbox ID as in Table 5-3's
   * Conveyance_Info), when it came over Type 11. DATA2 carries no StreamID (Table 4-14), so its
   * stream is known by (source, mailbox).
   */
  readonly mailbox?: number;
}

/** A Type 9 PDU received (Part 10 reassembly done by the conveyance): management stream or data. */
export interface PduInput {
  readonly kind: 'pdu';
  readonly from: number;
  readonly streamID: number;
  readonly cos: number;
  readonly pdu: Uint8Array;
}

/** The contact of a remote node, from discovery or configuration (§3.3). */
export interface ContactInput {
  readonly kind: 'contact';
  readonly node: number;
  readonly contact: Contact;
}

/** Send REQUEST to `to` (§4.2.1): ask which protocols it supports, or a protocol's attributes. */
export interface RequestCommand {
  readonly kind: 'request';
  readonly to: number;
  /** 0xFFFF (default) asks for the protocol list (§4.2.1). */
  readonly protoID?: number;
  /** Attributes the ADVERTISE should be limited to (§4.2.1 <NumAttrib>). */
  readonly attributes?: readonly AttributeLike[];
}

/**
 * Open a stream to `to` for `protoID` (§3.5.3, OPEN §4.2.3); the outcome is an `opened`, `refused` or
 * `timeout` event naming `ref`.
 */
export interface OpenCommand {
  readonly kind: 'open';
  readonly to: number;
  readonly protoID: number;
  /** Application handle reported back with the outcome. */
  readonly ref: string;
  /** Attributes besides OPEN_MESSAGE_NUMBER (which the engine puts first, §4.2.3). */
  readonly attributes?: readonly AttributeLike[];
  /** Open the transmit stream of a conduit (§3.4.3 create_conduit). */
  readonly conduit?: boolean;
}

/** Close the stream (CLOSE, §4.2.7). */
export interface CloseCommand {
  readonly kind: 'close';
  readonly stream: StreamRef;
}

/** STATUS with Request_Status_of_Remote (§3.5.1.9, §3.6.4). */
export interface StatusQueryCommand {
  readonly kind: 'status-query';
  readonly stream: StreamRef;
}

/** §3.8.3: query every open stream to `node`. */
export interface VerifyCommand {
  readonly kind: 'verify';
  readonly node: number;
}

/**
 * The node is gone (its link is down, decision FF4): every stream to it is closed here with cause
 * 'peer-lost', without CLOSE, and the node is suspect with `reason` (§3.7.1 as for an unanswered
 * query, close.ts `peerLost`).
 */
export interface PeerLostCommand {
  readonly kind: 'peer-lost';
  readonly node: number;
  readonly reason: string;
}

/** Send a PDU on an open tx stream (DATA messages or a Type 9 PDU, §4.3). */
export interface SendCommand {
  readonly kind: 'send';
  readonly stream: StreamRef;
  readonly pdu: Uint8Array;
}

/** Ethernet broadcast (§7.3.2): multicast ID, or unicast on stream 0xF000 to every member. */
export interface BroadcastCommand {
  readonly kind: 'broadcast';
  readonly frame: Uint8Array;
  /** Members for unicast broadcast (§7.3.2.2). */
  readonly members?: readonly number[];
}

/** Receiver-side flow control of an rx stream (§4.2.6): XOFF or XON. */
export interface FlowCommand {
  readonly kind: 'xoff' | 'xon';
  readonly stream: StreamRef;
}

/** Send a user-defined message (<CMD> 0xF0–0xFF, §4.2.9) to `to`. */
export interface UserDefinedCommand {
  readonly kind: 'userdefined';
  readonly to: number;
  readonly cmd: number;
  readonly streamID: number;
  readonly data: Uint8Array;
}

/** Timer names of a `SessionEngine` (pending requests, flow control, RTS); opaque to the driver. */
export type SessionTimerName = string;

/**
 * What `SessionEngine.handle` takes: received messages and PDUs, contacts found by discovery, the
 * application's commands, timer expiries.
 */
export type SessionInput =
  | MessageInput
  | PduInput
  | ContactInput
  | RequestCommand
  | OpenCommand
  | CloseCommand
  | StatusQueryCommand
  | VerifyCommand
  | PeerLostCommand
  | SendCommand
  | BroadcastCommand
  | FlowCommand
  | UserDefinedCommand
  | TimerInput;

// ---------------------------------------------------------------------------------------------
// Outputs

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

/** The names of a `SessionEngine`'s counters, in `counters()` order. */
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
