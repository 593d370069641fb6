import type { TimerInput, TimerOutput } from '../engine/contract.ts';
import type { RegisterSpace } from '../registers/space.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { TmRate } from '../wire/type9-tm.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';
import type { AppKey, ClassifierConfig, PacketFlow, QueueGranularity, StreamTarget } from './classifier.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import type { TmModeSetting, TmTypesSetting } from './tm-mode.ts';

/**
 * Data streaming traffic management (Part 10 §2.6, §3.4, §4.3, §5.5.1): engines `tm-ingress`
 * (the data's source end: it queues, classifies, obeys) and `tm-egress` (the data's destination
 * end: it directs). TM packets are Type 9 with xh = 1 (`Type9TmPacket`).
 *
 * Addressing: "the operand is always based on a VSID that is the target (intended destination)
 * of the data" (§3.4.1). A TM packet from the egress has the egress as sourceID, so its VSID
 * names the data (destination = the packet's source, cos, streamID); a TM packet from the
 * ingress has the egress as destinationID, like the data. Every TM packet travels in the flow
 * (prio, CRF, VC) of the data it concerns (§3.4.5 protocol rule 1).
 *
 * Rates are integers: bytes per `rate.unit` time units (default: bytes per second with the
 * model CLI's nanoseconds).
 */

/** Fields common to both engines' configurations. */
export interface TmCommonConfig {
  /** This end point's device ID (the sourceID of the TM packets it sends). Default 0. */
  readonly localID?: number;
  /** tt of the TM packets sent. Default 0 (Dev8). */
  readonly tt?: number;
  /**
   * TM Mode (Table 5-6). Default 'BASIC'. Absent when `registers` is given.
   * DISABLED: every TM packet is ignored (event `tm-disabled`).
   */
  readonly mode?: TmModeSetting;
  /** TM Types Supported; must support `mode` (§3.4.5 rule 4). Default: the fewest types that do. */
  readonly types?: TmTypesSetting;
  /**
   * Read TM Types Supported and TM Mode from the Data Streaming Logical Layer Control CSR (0x48)
   * at every input, and the TM bit of the Source (ingress) or Destination (egress) Operations
   * CAR when that CAR is defined. A reserved, user-defined or unsupported mode acts as DISABLED.
   */
  readonly registers?: RegisterSpace;
}

// ---- ingress -------------------------------------------------------------------------------

/** Rate based traffic management at the ingress (§3.4.3): the token buckets of each queue. */
export interface TmRateConfig {
  /** Time units per rate period: rates are bytes per `unit` time units. Default 1_000_000_000. */
  readonly unit?: number;
  /** Initial average rate of every queue. Default 125_000_000 (1 Gbit/s with the default unit). */
  readonly average?: number;
  /** Initial peak rate of every queue. Default 250_000_000. */
  readonly peak?: number;
  /** Depth of the average-rate token bucket in bytes. Default 65536. */
  readonly burst?: number;
  /** Depth of the peak-rate token bucket in bytes. Default 4096. */
  readonly peakBurst?: number;
  /**
   * The rate a decrease stops at, > 0 (Table 4-5 notes: "a decrease must never reduce the rate
   * completely to zero. The egress must use XOFF to stop the flow completely"). Default 1.
   */
  readonly minRate?: number;
  /** The rate an increase stops at. Default 2^40. */
  readonly maxRate?: number;
}

/**
 * §3.4.5 protocol rule 4 "The ingress may discard traffic should the egress not adequately permit
 * that traffic onto the fabric". `none` (default): never. `bound`: a `pdu-ready` that finds its
 * queue holding `maxQueued` PDUs while the gate is closed is discarded (event `pdu-discarded`).
 */
export type TmDiscardPolicy = { readonly mode: 'none' } | { readonly mode: 'bound'; readonly maxQueued: number };

export interface TmIngressConfig extends TmCommonConfig {
  /** Rule table and queue granularity (classifier.ts). */
  readonly classifier?: ClassifierConfig;
  /** Queues that exist before their first PDU, so that TM messages can address them. Default none. */
  readonly queues?: readonly StreamTarget[];
  /**
   * Precision of received REDUCE/INCREASE amounts in bits, 1..8 (§3.4.5 rule 3, Table 4-5 notes):
   * REDUCE rounds up, INCREASE rounds down to a multiple of 2^(8 − bits). Default 8 (full).
   */
  readonly amountBits?: number;
  readonly rate?: TmRateConfig;
  /**
   * Credit modes: send CREDIT STATUS <AU> <n> when the credits left in the AU fall to `lowCredits`
   * or below (§3.4.4 "to indicate a low level of credit allocation as a trigger to request more
   * credits"), once per AU; 0 never. Default 2 (Figure 3-6).
   */
  readonly lowCredits?: number;
  /** Default `{ mode: 'none' }`. */
  readonly discard?: TmDiscardPolicy;
}

/** A stream named by the application: by its key (classified by the rule table) or by its target. */
export type TmStreamRef = { readonly app: AppKey } | { readonly target: StreamTarget };

/** What the application may ask the ingress to send about a queue. */
export type TmIngressCommand =
  /** §3.4.5 rule 5 "An ingress may "insist" by sending repeated Q_STATUS messages": re-sends the queue's level. */
  | { readonly message: 'Q_STATUS' }
  /**
   * §3.4.4 "An ingress may use the credit status <0> to asynchronously relinquish credits":
   * closes the AU in use with CREDIT STATUS <AU> <0>.
   */
  | { readonly message: 'RELINQUISH' }
  | TmUserCommand;

/** User and application messages, which both ends may send ("use of user defined fields is optional", §3.4.5 rule 4). */
export type TmUserCommand =
  /** Parameter 1 = 0, parameter 2 = `value` (0x01–0xFE) under TM OP basic, rate or credit (Tables 4-4..4-6). */
  | { readonly message: 'USER_DEFINED'; readonly tmOp: number; readonly value: number }
  /** TM OP 0b0011 with raw parameters (Table 4-3). */
  | { readonly message: 'APPLICATION_DEFINED'; readonly parameter1: number; readonly parameter2: number };

/** Timer names of a `TmIngress`: `rate:<queue>`, when a rate-limited queue may send again. */
export type TmRateTimerName = `rate:${string}`;

/**
 * What `TmIngress.handle` takes: received TM packets, the application's PDUs and commands, timer expiries.
 */
export type TmIngressInput =
  /** A received TM packet addressed to this end point. */
  | { readonly kind: 'tm'; readonly packet: Type9TmPacket }
  /** A PDU of `bytes` (1..65536) joined the stream's queue. */
  | { readonly kind: 'pdu-ready'; readonly stream: TmStreamRef; readonly bytes: number }
  /** The application sent the oldest ready PDU of the stream's queue (one credit, `bytes` tokens). */
  | { readonly kind: 'pdu-sent'; readonly stream: TmStreamRef; readonly bytes: number }
  /** The queue is now `level`/255 full (0..255); a change is reported with Q_STATUS. */
  | { readonly kind: 'queue-level'; readonly stream: TmStreamRef; readonly level: number }
  | { readonly kind: 'command'; readonly stream: TmStreamRef; readonly command: TmIngressCommand }
  | TmSetModeInput
  | TimerInput<TmRateTimerName>;

/**
 * A new TM Mode (Part 10 §5.5.1 Table 5-6), as a write of the TM Mode field gives it to an engine
 * configured with `mode`: it must be supported by the configured `types`, else it is refused with a
 * `bad-command` event; an engine configured with `registers` reads the field itself and refuses it
 * likewise. The engine keeps its state (queues and their PDUs, on/off, rates, credit allocations);
 * the new mode decides which of it applies from this input on, and a gate it changes is reported
 * with reason `mode` (docs/conformance.md, Part 10 engines, decision 26).
 */
export interface TmSetModeInput {
  readonly kind: 'set-mode';
  readonly mode: TmModeSetting;
}

/** The mechanism that opened or closed a gate. */
export type TmGateReason = 'on-off' | 'credit' | 'rate' | 'mode';

/** The events a `TmIngress` reports. */
export type TmIngressEventName =
  /** TM packet while the mode is DISABLED. */
  | 'tm-disabled'
  /** A TM OP the mode does not use (e.g. RATE in BASIC mode). */
  | 'op-not-in-mode'
  /** §4.3.1 "No other combinations of these fields is permitted". */
  | 'invalid-operand'
  /** A reserved TM OP, parameter 1 or parameter 2 value. */
  | 'reserved-message'
  /** A message only the ingress sends (Q_STATUS, CREDIT STATUS). */
  | 'wrong-direction'
  /** The input packet is not a TM packet. */
  | 'not-tm'
  /** The operand addresses no queue this ingress has. */
  | 'no-queue'
  /** §3.4.5 rule 6 "An XOFF to a <Q> already in the off state is ignored" (per queue). */
  | 'duplicate-xoff'
  /** §3.4.5 rule 6 "An XON to a <Q> already in the on state is ignored" (per queue). */
  | 'duplicate-xon'
  /** A rate message for an XOFF'd queue: ignored, XON restarts at the rate held before the XOFF. */
  | 'rate-while-off'
  /** A decrease stopped at minRate or an increase at maxRate. */
  | 'rate-clamped'
  /** ALLOCATE for an AU already held (§3.4.5 rule 7 "ALLOCATE messages are never duplicated"): ignored. */
  | 'allocate-duplicate'
  /** ALLOCATE <AU> <0> for an AU not held (a lost ALLOCATE, rule 7): still answered with CREDIT STATUS <AU> <0>. */
  | 'retire-unknown'
  /** Parameter 1 = 0 with parameter 2 0x01–0xFE: surfaced with its raw parameters. */
  | 'user-defined'
  /** TM OP 0b0011: surfaced with its raw fields. */
  | 'application-defined'
  /** A key no rule and no default classifies. */
  | 'unclassified'
  | 'pdu-discarded'
  /** `pdu-sent` while the gate was closed: counted (the application overruled the egress, rule 4). */
  | 'gate-violation'
  /** `pdu-sent` for a queue with no ready PDU. */
  | 'nothing-ready'
  /** A command or input field out of range. */
  | 'bad-command';

/** An event of a `TmIngress` or `TmEgress`, with the fields of the packet or command it is about. */
export interface TmEvent<N extends string> {
  readonly kind: 'event';
  readonly name: N;
  readonly queue?: string;
  /** The designation key (tm-operand-match.ts designationKey). */
  readonly designation?: string;
  readonly tmOp?: number;
  readonly wildcard?: number;
  readonly mask?: number;
  readonly parameter1?: number;
  readonly parameter2?: number;
  readonly allocationUnit?: number;
  readonly credits?: number;
  readonly level?: number;
  readonly detail?: string;
}

/** What `TmIngress.handle` returns: TM packets to send, gate changes, timer requests, events. */
export type TmIngressOutput =
  | { readonly kind: 'tm'; readonly packet: Type9TmPacket }
  /** Whether the queue may send its oldest ready PDU now (`mayTransmit`), and what changed it. */
  | { readonly kind: 'gate'; readonly queue: string; readonly open: boolean; readonly reason: TmGateReason }
  | TimerOutput<TmRateTimerName>
  | TmEvent<TmIngressEventName>;

/** The counters of a `TmIngress`. */
export type TmIngressCounterName =
  | 'tmReceived' | 'tmSent' | 'xoff' | 'xon' | 'duplicateXoff' | 'duplicateXon' | 'rateChanges' | 'rateClamped' | 'rateWhileOff'
  | 'allocations' | 'retires' | 'allocateDuplicate' | 'retireUnknown' | 'creditStatusSent' | 'qStatusSent' | 'userDefined'
  | 'applicationDefined' | 'tmDisabled' | 'opNotInMode' | 'invalidOperand' | 'reserved' | 'wrongDirection' | 'notTm' | 'noQueue'
  | 'unclassified' | 'discarded' | 'gateViolations' | 'nothingReady' | 'badCommand' | 'pdusReady' | 'pdusSent';

// ---- egress --------------------------------------------------------------------------------

/** XOFF at or above `high`, XON at or below `low` (levels n/255 of the egress's own queues), high > low. */
export interface TmOnOffPolicy {
  readonly high: number;
  readonly low: number;
}

/**
 * Rate modes: at or above `high` REDUCE by `reduce`/256, doubled on each further report still
 * above (§3.4.5 rule 6 "A lost Rate DECREASE message results in the egress sending a second
 * DECREASE with a larger requested decrease amount"); at or below `low` INCREASE by `increase`/256.
 */
export interface TmRatePolicy {
  readonly high: number;
  readonly low: number;
  /** 1..255. */
  readonly reduce: number;
  /** 1..254. */
  readonly increase: number;
  /** Which rate the messages change (the Y bit). Default 'average'. */
  readonly rate?: TmRate;
}

/**
 * Credit modes: ALLOCATE `credits` (1..255) in the next AU when the ingress asks (Q_STATUS above
 * 0, or CREDIT STATUS <AU> <n> with 0 < n ≤ `lowCredits`) and fewer than `maxOutstanding` AUs are
 * allocated or open. AU numbers rotate 0, 1, … `auCount` − 1, 0 (§3.4.4 "The egress may issue any
 * number of allocation units (starting with 0) and rolling over at whatever limit it supports";
 * "The minimum implementation is 2").
 */
export interface TmCreditPolicy {
  readonly credits: number;
  /** 2..16. */
  readonly auCount: number;
  /** 1..auCount. */
  readonly maxOutstanding: number;
  /** 0..255. */
  readonly lowCredits: number;
}

/**
 * When a `TmEgress` sends TM messages of its own accord, from its queues' levels (§3.4.2–§3.4.4); each policy
 * off when null.
 */
export interface TmEgressPolicy {
  /** null: no automatic XOFF/XON. Default { high: 240, low: 128 }. */
  readonly onOff?: TmOnOffPolicy | null;
  /** null: no automatic rate messages. Default { high: 160, low: 64, reduce: 32, increase: 16 }. */
  readonly rate?: TmRatePolicy | null;
  /** null: allocate only on command. Default { credits: 16, auCount: 16, maxOutstanding: 2, lowCredits: 2 }. */
  readonly credit?: TmCreditPolicy | null;
}

export interface TmEgressConfig extends TmCommonConfig {
  /** The egress's own queues: source ID + cos (§3.3 "Egress queuing should be based on: source ID+cos"). Default class, 8 bits. */
  readonly granularity?: QueueGranularity;
  /** Precision of received Q_STATUS levels in bits, 1..8: rounded up (Table 4-5 notes). Default 8. */
  readonly levelBits?: number;
  /** Flow of TM messages for traffic whose data flow is not known yet. Default '0A'. */
  readonly defaultFlow?: FlowIdLabel;
  /** DECISIONS §3 system setting, for `defaultFlow`. Default true. */
  readonly crfSupported?: boolean;
  readonly policy?: TmEgressPolicy;
}

/** What the application may make the egress send to a designation. */
export type TmEgressCommand =
  | { readonly message: 'XOFF' }
  | { readonly message: 'XON' }
  | { readonly message: 'REDUCE' | 'INCREASE'; readonly rate: TmRate; readonly amount: number }
  | { readonly message: 'DOUBLE' | 'MAINTAIN'; readonly rate: TmRate }
  /** ALLOCATE `credits` (1..255) in the next AU of the rotation. */
  | { readonly message: 'ALLOCATE'; readonly credits: number }
  /** ALLOCATE <AU> <0> (§3.4.4 retire; rule 7 recovery of a lost ALLOCATE). */
  | { readonly message: 'RETIRE'; readonly allocationUnit: number }
  | TmUserCommand;

/**
 * What `TmEgress.handle` takes: received TM packets, data PDUs as they arrive, the levels of its own queues,
 * the application's commands.
 */
export type TmEgressInput =
  /** A received TM packet addressed to this end point. */
  | { readonly kind: 'tm'; readonly packet: Type9TmPacket }
  /** A received PDU (its first segment's VSID and flow); counted against its AU in the credit modes. */
  | { readonly kind: 'pdu'; readonly sourceID: number; readonly cos: number; readonly streamID: number; readonly flow?: PacketFlow }
  /** The egress's own queue for this traffic is now `level`/255 full. */
  | { readonly kind: 'queue-level'; readonly sourceID: number; readonly cos: number; readonly streamID: number; readonly level: number }
  /** `to.peer` is the ingress; the packet's VSID is `to`'s cos and streamID with its wildcard and mask. */
  | { readonly kind: 'command'; readonly to: TmDesignation; readonly command: TmEgressCommand }
  | TmSetModeInput;

/** The events a `TmEgress` reports. */
export type TmEgressEventName =
  | 'tm-disabled'
  | 'op-not-in-mode'
  | 'invalid-operand'
  | 'reserved-message'
  /** A message only the egress sends (XOFF, XON, rate messages, ALLOCATE). */
  | 'wrong-direction'
  | 'not-tm'
  /** A received Q_STATUS, with its level rounded to `levelBits`. */
  | 'q-status'
  /** §3.4.5 rule 7: "the allocation unit will be assumed closed when the <Q> CREDIT STATUS <AU+1> <N> is received". */
  | 'au-assumed-closed'
  /** §3.4.5 rule 7: "the next allocation unit is assumed to be opened when the next PDU for that stream is received". */
  | 'au-assumed-open'
  /**
   * A later AU opened while an earlier one was never opened: its ALLOCATE was lost (AUs are used in
   * order and travel in one flow). The egress retires it with ALLOCATE <AU> <0> (§3.4.5 rule 7).
   */
  | 'allocate-lost'
  /** CREDIT STATUS for an AU that is not allocated (a duplicate or stale message). */
  | 'cs-unknown-au'
  /** A PDU with no allocated credit left for it. */
  | 'pdu-without-credit'
  /** §3.4.4 "It is up to the egress to be sure an AU is unused before reusing that number": the next AU is still in use. */
  | 'au-busy'
  | 'user-defined'
  | 'application-defined'
  | 'bad-command';

/** What `TmEgress.handle` returns: TM packets to send and events. */
export type TmEgressOutput = { readonly kind: 'tm'; readonly packet: Type9TmPacket } | TmEvent<TmEgressEventName>;

/** The counters of a `TmEgress`. */
export type TmEgressCounterName =
  | 'tmReceived' | 'tmSent' | 'qStatus' | 'creditStatus' | 'pdus' | 'pdusWithoutCredit' | 'allocations' | 'retires' | 'auClosed'
  | 'auAssumedClosed' | 'auAssumedOpen' | 'allocateLost' | 'csUnknownAu' | 'auBusy' | 'xoffSent' | 'xonSent' | 'rateSent' | 'userDefined'
  | 'applicationDefined' | 'tmDisabled' | 'opNotInMode' | 'invalidOperand' | 'reserved' | 'wrongDirection' | 'notTm' | 'badCommand';
