import type { Counters, PendingTimer, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { ControlSymbol } from '../wire/symbol.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';
import type { CongestionDetector, DetectorConfig } from './detectors.ts';

/**
 * The downstream device's side of VoQ backpressure (VoQ Backpressure Chapter 4 §4.2, Table 5-3,
 * Table 5-4; Part 12 §4.2 for the `part12-rev4.1` format): engine `voq-generator`.
 *
 * Every port of the device is both an egress port whose congestion is reported and a link to an
 * upstream device over which reports travel. "Port" in an input or output is the link; the
 * ports a message reports on are named `congestedPorts`.
 */

/**
 * One port's Port n VoQ Control CSR fields the generator obeys (Table 5-3). Every field defaults
 * to its reset value (0b0, group size 0x0), as a register space read after reset gives.
 */
export interface VoqPortSettings {
  /** Bit 8 "Enable VoQ Symbol Generation": "0b0 = No VoQ symbols will be transmitted" on this link. */
  readonly generation?: boolean;
  /** Bit 9 "Enable VoQ Participation" of this port as an egress port (Table 5-4). */
  readonly participation?: boolean;
  /** Bit 10 "Port XOFF": "Port status will always reflect congested". */
  readonly portXoff?: boolean;
  /**
   * Bit 11: seed "Enable VC linking"; Part 12 "Enable VoQ Backpressure per VC Transmission". On
   * this link the message then rides only in a Status (VC0) or VC_Status symbol (§4.2 c).
   */
  readonly vcLinking?: boolean;
  /** Part 12 bits 26–28 "TX Port Group Size", 0–6 bits; ignored by the seed format (always 5). */
  readonly txPortGroupSize?: number;
}

/** The configuration of a `VoqGenerator` (durations in the driver's time unit). */
export interface VoqGeneratorConfig {
  /** stype2 format (DECISIONS §5). Default 'seed'. */
  readonly format?: VoqFormat;
  /**
   * Ports of the device, 1–192 (seed, Table 5-1) or 1–256 (Part 12). "Single port end points
   * implement the port 0 register only" (§5.1.2): an end point is `ports: 1`.
   */
  readonly ports: number;
  /** One entry for every port, or a list (missing entries take the reset values). */
  readonly portSettings?: VoqPortSettings | readonly VoqPortSettings[];
  /** How a port's congestion is decided (§2.5); a config object or a detector instance. */
  readonly detector: DetectorConfig | CongestionDetector;
  /**
   * §4.2 f "The backpressure symbol may be generated at arbitrary intervals, based on a timer":
   * every group of every generating link is resent each period. null (default) = no timer.
   */
  readonly refreshPeriod?: number | null;
  /** §4.2 g: resend every group of a link after its recovery. Default true. */
  readonly resendOnLinkRecovery?: boolean;
  /**
   * VCs besides VC0 in use (Part 6: 0, 1, 2, 4 or 8). Only linked links use it: VC_Status VCIDs
   * map to VC1–VC8 by Part 6 Table 3-12 and congestion is tracked per VC0 and each VC that table
   * names (2 active VCs: VC1, VC5; 4: VC1, VC3, VC5, VC7). Default 0.
   */
  readonly activeVcs?: 0 | 1 | 2 | 4 | 8;
  /**
   * The control symbol the links send (Part 12 Chapter 3, §4.1 d). 'cs48' (default): the message
   * rides in the stype2 field of a CS48 ('next-stype2', 'fill'). 'cs64', only with format
   * 'part12-rev4.1': the message is its own CS64 stype0 0b1101 symbol ('next-cs64', §3.2), with
   * TX Port Group Size bits of its 20 status‖group bits for the group and a VC_IND naming the VC
   * on a per-VC link, 0b1111 (all VCs) otherwise (§3.3).
   */
  readonly symbol?: VoqSymbolForm;
}

/** The carrier fields of the control symbol the link layer is about to send (CS48, stype2 excluded). */
export interface CarrierFields {
  readonly stype0: number;
  readonly parameter0: number;
  readonly parameter1: number;
  readonly stype1: number;
  readonly cmd: number;
}

/**
 * What `VoqGenerator.handle` takes: queue depth observations, link and register changes, requests for the
 * next stype2 or CS64 symbol, timer expiries.
 */
export type VoqGeneratorInput =
  /** Output-queue detector: the depth of egress port `port`'s queue (of VC `vc`, default 0). */
  | { readonly kind: 'queue-depth'; readonly port: number; readonly depth: number; readonly vc?: number }
  /** Input-VoQ detector: depth of the VoQ at ingress `input` holding traffic for egress `output`. */
  | { readonly kind: 'voq-depth'; readonly input: number; readonly output: number; readonly depth: number; readonly vc?: number }
  /** A write to Port `port`'s VoQ Control CSR: the fields given change, the others keep their value. */
  | { readonly kind: 'port-control'; readonly port: number; readonly settings: VoqPortSettings }
  /** Link `port` recovered (Part 6 link recovery completed, or the link came up). */
  | { readonly kind: 'link-recovered'; readonly port: number }
  /**
   * The link layer of `port` is about to send a CS48 symbol with this stype0 (and, for VC_Status,
   * parameter0's VCID) and asks what stype2 goes with it.
   */
  | { readonly kind: 'next-stype2'; readonly port: number; readonly stype0: number; readonly vcid?: number }
  /** As 'next-stype2', and the engine returns the whole CS48 symbol built with `buildSymbol`. */
  | { readonly kind: 'fill'; readonly port: number; readonly symbol: CarrierFields }
  /**
   * CS64 links (`symbol: 'cs64'`): the link layer of `port` has an stype0 slot and asks for a VoQ
   * backpressure symbol. `stype1` (Part 6 Table 3-18, default NOP 0x38) is the stype1 function the
   * symbol carries alongside. Answered by a 'cs64' output.
   */
  | { readonly kind: 'next-cs64'; readonly port: number; readonly stype1?: number }
  | TimerInput<'refresh'>;

/**
 * Why a group was sent: a status change (§4.2 e), the timer (f), link recovery (g), or `restart`:
 * the link enabled generation or switched VC linking or TX Port Group Size (Table 5-3 bits 8, 11,
 * 26–28), after which every group of it is resent.
 */
export type SendReason = 'change' | 'timer' | 'link-recovery' | 'restart';

/** A backpressure message (one port group's status) as the generator sends it. */
export interface VoqMessage {
  readonly group: number;
  /** The VC the message is linked to (§3.2), null when the link does not link VCs. */
  readonly vc: number | null;
  /** Status bits, bit k = port offset k (1 = congested). */
  readonly portStatus: number;
  readonly congestedPorts: readonly number[];
  readonly reason: SendReason;
}

/** The events a `VoqGenerator` reports. */
export type VoqGeneratorEventName =
  /** An input named a port, input or output the device does not have. */
  | 'unknown-port'
  /** A VC that is not VC0 or an active VC (Part 6 Table 3-12), or a VC_Status carrier on a device with no VCs but VC0. */
  | 'unknown-vc'
  /** A depth that is not a non-negative integer, or an observation the configured detector does not take. */
  | 'detector-input-ignored'
  /** §4.2 c: a linked link offered a carrier other than Status or VC_Status while a message waited. */
  | 'carrier-refused'
  /** 'fill' carrier fields out of range for a CS48 symbol, or a 'next-cs64' stype1 that is not 8 bits: nothing is sent, nothing consumed. */
  | 'invalid-symbol'
  /** 'port-control' with a field of the wrong type or range (e.g. TX Port Group Size 7, "Reserved"). */
  | 'invalid-control'
  /** Part 12 Table 5-3: "This field shall be changed only when Enable VoQ Symbol Generation is cleared." */
  | 'group-size-change-refused'
  /** A CS48 input ('next-stype2', 'fill') to a `symbol: 'cs64'` generator, or 'next-cs64' to a CS48 one: nothing is sent or consumed. */
  | 'symbol-form-mismatch';

/** What `VoqGenerator.handle` returns. */
export type VoqGeneratorOutput =
  /**
   * The stype2 for the symbol asked for: a backpressure message, or 0 (seed NOP; Part 12 "set to
   * logic 0s") with `message` null. `symbol` is present for a 'fill' input.
   */
  | {
    readonly kind: 'stype2';
    readonly port: number;
    readonly stype2: number;
    readonly message: VoqMessage | null;
    readonly symbol?: ControlSymbol;
  }
  /**
   * A group became due on a link: the link layer should send a control symbol soon (on a linked
   * link a Status symbol for VC0, or a VC_Status symbol for `vc`).
   */
  | { readonly kind: 'symbol-wanted'; readonly port: number; readonly group: number; readonly vc: number | null }
  /**
   * The answer to 'next-cs64': the oldest due group as a CS64 VoQ-backpressure symbol built with
   * `buildSymbol64`, or `message` and `symbol` null when nothing is due (the link layer then
   * sends its own stype0).
   */
  | { readonly kind: 'cs64'; readonly port: number; readonly message: VoqMessage | null; readonly symbol: ControlSymbol64 | null }
  | TimerOutput<'refresh'>
  | {
    readonly kind: 'event';
    readonly name: VoqGeneratorEventName;
    readonly port?: number;
    readonly detail?: string;
  };

/** The counters of a `VoqGenerator`. */
export type VoqGeneratorCounterName =
  | 'messages' | 'nops' | 'changeTriggers' | 'timerRefreshes' | 'linkRecoveries'
  | 'unknownPort' | 'unknownVc' | 'detectorIgnored' | 'carrierRefused' | 'invalidSymbol' | 'invalidControl' | 'groupSizeChangeRefused'
  | 'symbolFormMismatch';

/** One link of the generator, as `VoqGenerator.snapshot()` shows it. */
export interface VoqLinkSnapshot {
  readonly port: number;
  /** Table 5-3 bit 8 "Enable VoQ Symbol Generation". */
  readonly enabled: boolean;
  /** VC linking (§3.2): messages per VC. */
  readonly linking: boolean;
  readonly portsPerGroup: number;
  readonly groups: number;
  /** Ports this link can report on: 0..reach-1. */
  readonly reach: number;
  /** The status last sent for each (VC, group) that reported congestion; vc null without linking. */
  readonly sent: readonly { readonly vc: number | null; readonly group: number; readonly portStatus: number }[];
  /** Groups waiting for a symbol, oldest first. */
  readonly pending: readonly { readonly group: number; readonly vc: number | null; readonly reason: SendReason }[];
}

/** `VoqGenerator.snapshot()`. */
export interface VoqGeneratorSnapshot {
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly ports: number;
  readonly refreshPeriod: number | null;
  readonly resendOnLinkRecovery: boolean;
  readonly activeVcs: 0 | 1 | 2 | 4 | 8;
  /** Each port's Port n VoQ Control CSR fields in force (Table 5-3). */
  readonly portSettings: readonly Required<VoqPortSettings>[];
  readonly links: readonly VoqLinkSnapshot[];
  /** The detector's own `snapshot()`: a `DetectorSnapshot` for the built-in detectors. */
  readonly detector: unknown;
  readonly timers: readonly PendingTimer<'refresh'>[];
  readonly stats: Counters<VoqGeneratorCounterName>;
}
