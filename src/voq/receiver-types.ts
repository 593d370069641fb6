import type { Counters } from '../engine/contract.ts';
import type { ControlSymbol } from '../wire/symbol.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';

/**
 * The upstream device's side of VoQ backpressure (voq-backpressure.txt §2.2–§2.4, §3.2, §4.3;
 * Part 12 §3.1, §3.3 for the `part12-rev4.1` format): engine `voq-receiver`.
 *
 * Traffic is staged per local egress port in a configurable number of staging queues; a forward
 * lookup gives each destination ID its local egress port and the downstream device's egress port,
 * and a reverse map takes a downstream port to the staging queue the forward lookup used (§2.3
 * "it is reverse mapped to the same queue that the forward lookup used to stage the data").
 */

/**
 * How downstream ports map onto the staging queues of one local port (§2.3 "the mapping can be RAM
 * based for maximum flexibility ... or a straight decoder. This specification does not prescribe a
 * specific method").
 * - `decoder` (default): downstream port p is staged in queue `p % queues`.
 * - `table`: queue `table[p]`; a port past the end of the table has no queue, so congestion of it
 *   is recorded but stops nothing, and no route may name it.
 */
export type ReverseMap = { readonly mode: 'decoder' } | { readonly mode: 'table'; readonly table: readonly number[] };

/** One local egress port; `ports[n]` of the config is local port n. */
export interface VoqReceiverPortConfig {
  /** Staging queues of this port (per VC with `perVcStaging`), 1..256. Default 4 (§2.3 Figure 2-3's example). */
  readonly queues?: number;
  /** Default `{ mode: 'decoder' }`. */
  readonly reverseMap?: ReverseMap;
  /**
   * "VoQ Backpressure Symbol Reception Supported" (Table 5-3 bit 1). §4.1 b/c: a port may honour
   * messages or not; when false, every backpressure symbol on the port is ignored (counted,
   * event `reception-unsupported`). Default true.
   */
  readonly reception?: boolean;
  /**
   * Whether "each VC may have a set of staging queues" (§2.4), i.e. "Linking with VCs supported"
   * (Table 5-3 bit 2). When false the staging queues sit before the VC sort and serve every VC.
   * Default false.
   */
  readonly perVcStaging?: boolean;
  /**
   * "Enable VC linking" (Table 5-3 bit 11; Part 12 "Enable VoQ Backpressure Per VC
   * Transmission"), reset 0b0. Requires `perVcStaging` (§3.2 "Linking only works if both upstream
   * and downstream devices use port staging within VC structures").
   */
  readonly enableVcLinking?: boolean;
  /** Part 12 only: RX Port Group Size in bits, 0–6 (Table 5-3 bits 29–31, reset 0x0). */
  readonly rxPortGroupSize?: number;
}

/** One forward-table entry (§2.2 "that lookup must produce the egress port for the current device as well as the egress port for the next device"). */
export interface VoqRoute {
  readonly destID: number;
  readonly localPort: number;
  /** The downstream device's egress port for destID (0..447, the widest Part 12 layout). */
  readonly downstreamPort: number;
}

/** The configuration of a `VoqReceiver`. */
export interface VoqReceiverConfig {
  /** stype2 format (DECISIONS §5). Default 'seed'. */
  readonly format?: VoqFormat;
  /** Local egress ports, at least one; a single-port end point has `ports: [{...}]`. */
  readonly ports: readonly VoqReceiverPortConfig[];
  /**
   * The forward lookup; destination IDs are unique. End points use it too: §2.2 "the end point
   * would need a method to associate a destination ID with the downstream egress port".
   */
  readonly routes: readonly VoqRoute[];
  /**
   * VCs among VC1–VC8 the links run (Part 6: 0, 1, 2, 4 or 8); VC0 always exists. Packets carry
   * a VC 0..vcs and a VC_Status VCID is read with Part 6 Table 3-12's rule for this count.
   * Default 0.
   */
  readonly vcs?: 0 | 1 | 2 | 4 | 8;
  /**
   * §4.2 g "The backpressure symbol may be generated after link recovery to avoid orphaned
   * congestion states": the generator need not refresh, so by default a link-up clears the port's
   * recorded congestion (every queue of it unblocks, cause `link-up`). False keeps it. Default true.
   */
  readonly clearOnLinkUp?: boolean;
  /**
   * The control symbol the links carry VoQ messages in (Part 12 Chapter 3, §4.1 d): 'cs48'
   * (default; 'symbol' and 'stype2' inputs) or 'cs64', only with format 'part12-rev4.1' ('cs64'
   * inputs, §3.2: 20 status‖group bits split by the RX Port Group Size, and a VC_IND).
   */
  readonly symbol?: VoqSymbolForm;
}

/**
 * What `VoqReceiver.handle` takes: packets to stage, transmit opportunities, received control symbols, link
 * changes.
 */
export type VoqReceiverInput =
  /**
   * A control symbol received on a local port. The stype2 field is decoded here with the
   * engine's format and the port's RX Port Group Size (the symbol's own `voq` view is not used);
   * stype0 status / VC_status names the VC when VC linking is enabled (§3.2).
   */
  | { readonly kind: 'symbol'; readonly port: number; readonly symbol: ControlSymbol }
  /**
   * A bare 14-bit stype2 value received on a local port. `vc` is the VC of the Status (VC0) or
   * VC_Status symbol it came with; absent when it came with any other stype0.
   */
  | { readonly kind: 'stype2'; readonly port: number; readonly stype2: number; readonly vc?: number }
  /**
   * A Control Symbol 64 received on a local port (`symbol: 'cs64'`). A VoQ-backpressure symbol
   * (stype0 0b1101) is read here from its parameter0/parameter1 with the port's RX Port Group
   * Size (the symbol's own `voq` view is not used); its VC_IND names the VC (§3.2, §3.3).
   */
  | { readonly kind: 'cs64'; readonly port: number; readonly symbol: ControlSymbol64 }
  /** A packet to stage: the forward lookup of destID picks local port, downstream port and queue. */
  | { readonly kind: 'packet'; readonly destID: number; readonly vc?: number; readonly packetId: number | string }
  /** The link of a local port may take one packet now: the engine answers with `transmit` or event `idle`. */
  | { readonly kind: 'transmit-opportunity'; readonly port: number }
  | { readonly kind: 'link-down'; readonly port: number }
  | { readonly kind: 'link-up'; readonly port: number }
  /** A write of the port's VoQ Control CSR fields the receiver depends on (Table 5-3 bits 11, 29–31). */
  | { readonly kind: 'control'; readonly port: number; readonly enableVcLinking?: boolean; readonly rxPortGroupSize?: number };

/**
 * What unblocked or blocked a staging queue: a backpressure message, or a link-up that cleared the port's
 * congestion state (§4.2 g).
 */
export type QueueChangeCause = 'backpressure' | 'link-up';

/** The events a `VoqReceiver` reports. */
export type VoqReceiverEventName =
  /** stype2 CMD NOP (seed 0b000; Part 12 an all-zero field): no VoQ message. A 'cs64' symbol whose stype0 is not VoQ-backpressure carries none either. */
  | 'nop'
  /** Seed CMD 0b010–0b111, Part 12 CMD 0b0 with a non-zero parameter: "Reserved", ignored. */
  | 'reserved-cmd'
  /** A Control Symbol 24 has no stype2 (§4.1 d: the extended control symbol must be active). */
  | 'not-extended-symbol'
  /** An stype2 input that is not a 14-bit integer. */
  | 'invalid-stype2'
  /** A port number the configuration does not have. */
  | 'unknown-port'
  /** A backpressure symbol on a port without reception support (§4.1 b, c). */
  | 'reception-unsupported'
  /** VC linking on, but the message came with neither Status nor VC_Status (§3.2, §4.2 c): its VC is unknown, so it is ignored. */
  | 'unlinked-backpressure'
  /** A VC (from a packet or a VC_Status VCID) outside VC0..VC`vcs`. */
  | 'unknown-vc'
  /** A packet whose destID the forward lookup does not have: not staged. */
  | 'no-route'
  /** A transmit opportunity with nothing eligible: every staged packet is in a blocked queue, or none is staged. */
  | 'idle'
  /** A transmit opportunity on a port whose link is down: nothing is committed. */
  | 'link-down'
  /** A control write with a value the port cannot take (linking without per-VC staging, a group size outside 0–6 or in the seed format). */
  | 'control-rejected'
  /**
   * Part 12 §3.2 Table 3-3: "Reception of a reserved value in the VC_IND field shall cause the
   * receiving endpoint to ignore the VoQ Backpressure control symbol without error."
   */
  | 'reserved-vc-ind'
  /** A CS48 input ('symbol', 'stype2') to a `symbol: 'cs64'` receiver, or a 'cs64' input to a CS48 one: ignored. */
  | 'symbol-form-mismatch'
  /** A 'cs64' input whose symbol is not a Control Symbol 64 with 4-bit stype0 and 12-bit parameters. */
  | 'invalid-symbol';

/** What `VoqReceiver.handle` returns. */
export type VoqReceiverOutput =
  /** The packet the link may carry now: the oldest head of an unblocked queue of the port. */
  | {
    readonly kind: 'transmit';
    readonly port: number;
    readonly packetId: number | string;
    readonly destID: number;
    readonly vc: number;
    readonly queue: number;
    readonly downstreamPort: number;
  }
  /**
   * A staging queue stopped or restarted (§2.3 "the queue must be shut down when any of those
   * ports are congested"). `vc` is the VC of a per-VC queue, null for queues serving every VC.
   * Emitted per change, by VC then queue.
   */
  | { readonly kind: 'blocked' | 'unblocked'; readonly port: number; readonly vc: number | null; readonly queue: number; readonly cause: QueueChangeCause }
  | {
    readonly kind: 'event';
    readonly name: VoqReceiverEventName;
    readonly port?: number;
    readonly packetId?: number | string;
    readonly detail?: string;
  };

/** The counters of a `VoqReceiver`. */
export type VoqReceiverCounterName =
  | 'backpressure' | 'nop' | 'reservedCmd' | 'notExtended' | 'invalidStype2' | 'unknownPort' | 'receptionUnsupported'
  | 'unlinkedBackpressure' | 'unknownVc' | 'noRoute' | 'staged' | 'transmitted' | 'idle' | 'linkDownOpportunity'
  | 'controlRejected' | 'blocked' | 'unblocked' | 'linkUpClears' | 'reservedVcInd' | 'symbolFormMismatch' | 'invalidSymbol';

/** A staged packet, as `VoqReceiver.snapshot()` lists it. */
export interface VoqStagedPacketSnapshot {
  readonly packetId: number | string;
  readonly destID: number;
  readonly vc: number;
  readonly downstreamPort: number;
  readonly stagedAt: number;
}

/** One set of staging queues of a port: per VC with `perVcStaging` (§2.4), else one for every VC (`vc` null). */
export interface VoqLaneSnapshot {
  readonly vc: number | null;
  /** Downstream ports reported congested in this lane. */
  readonly congested: readonly number[];
  readonly queues: readonly {
    readonly queue: number;
    /** Stopped by backpressure: a congested downstream port maps to it (§4.3 e). */
    readonly blocked: boolean;
    readonly packets: readonly VoqStagedPacketSnapshot[];
  }[];
}

/** One local egress port, as `VoqReceiver.snapshot()` shows it. */
export interface VoqReceiverPortSnapshot {
  readonly port: number;
  readonly queues: number;
  readonly reverseMap: ReverseMap;
  readonly reception: boolean;
  readonly perVcStaging: boolean;
  readonly enableVcLinking: boolean;
  readonly rxPortGroupSize: number;
  readonly linkUp: boolean;
  readonly lanes: readonly VoqLaneSnapshot[];
}

/** `VoqReceiver.snapshot()`. */
export interface VoqReceiverSnapshot {
  readonly format: VoqFormat;
  readonly symbol: VoqSymbolForm;
  readonly vcs: 0 | 1 | 2 | 4 | 8;
  readonly clearOnLinkUp: boolean;
  /** The forward lookup, by destID. */
  readonly routes: readonly VoqRoute[];
  readonly ports: readonly VoqReceiverPortSnapshot[];
  readonly stats: Counters<VoqReceiverCounterName>;
}
