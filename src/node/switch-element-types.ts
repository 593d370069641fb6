import type { Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import type { CongestionPointConfig, CongestionPointOutput } from '../flow/congestion-point-types.ts';
import type { VoqGeneratorEventName } from '../voq/generator-types.ts';
import type { FlowIdName } from '../wire/flow-id.ts';
import type { Packet } from '../wire/packet.ts';
import type { ControlSymbol } from '../wire/symbol.ts';
import type { ControlSymbol64 } from '../wire/symbol64.ts';
import type { VoqSymbolForm } from '../wire/voq-cs64.ts';
import type { VoqFormat } from '../wire/voq-stype2.ts';
import type { Untagged } from './session-endpoint-types.ts';

/**
 * `SwitchElement` (src/node/switch-element.ts): the switch processing element of issue 8's
 * software fabric, sans-IO. A driver hands it received packets and control symbols, transmit
 * opportunities (`pull`), link state and timer expiries; it answers with the frames to send, the
 * inputs to stop and restart reading (backpressure), events and timer requests. Durations are in
 * the driver's time unit (ns over TCP, ps in the simulator); the element defaults none.
 */

export interface SwitchPortConfig {
  /**
   * issue 8 §3 "A switch port accepts only the source IDs configured for it and drops (and
   * counts) packets with any other sourceID": the IDs an end point's port accepts, or 'any'
   * (default) for a port to another switch. Type 7 packets carry no sourceID: their
   * tgtdestinationID, which names the sender in every Type 7 an end point sends, is checked.
   */
  readonly accept?: 'any' | readonly number[];
}

/** One output's Part 9 congestion point (src/flow/congestion-point-types.ts); the element is its switch and router. */
export type SwitchCongestionSettings = Omit<CongestionPointConfig, 'role' | 'routes' | 'participants'>;

export interface SwitchVoqSettings {
  /** Output-queue detector (VoQ §2.5): congested at `high` queued packets, clear again at `low`. */
  readonly high: number;
  readonly low: number;
  /** Default 'seed' (DECISIONS §5). */
  readonly format?: VoqFormat;
  /** Default 'cs48'. */
  readonly symbol?: VoqSymbolForm;
  /** §4.2 f refresh timer; null (default) = none. */
  readonly refreshPeriod?: number | null;
  /** Ports whose Port n VoQ Control CSR enables generation (§4.2 a). Default every port. */
  readonly generate?: readonly number[];
}

/** Identity CARs (Part 1 §5.4.1–5.4.4) and the Component Tag CSR (Part 3 §3.5.4). */
export interface SwitchIdentity {
  readonly deviceIdentity?: number;
  readonly deviceVendorIdentity?: number;
  readonly deviceRev?: number;
  readonly assyIdentity?: number;
  readonly assyVendorIdentity?: number;
  readonly assyRev?: number;
  readonly componentTag?: number;
}

export interface SwitchElementConfig {
  /** Base Device ID CSR; a MAINTENANCE read or write request to this ID is for the switch. */
  readonly deviceId: number;
  /** 0 (Dev8) or 1 (Dev16, default): the width of the route table and of the route CSRs. */
  readonly tt?: 0 | 1;
  /** External ports, 2–255 (Part 1 Table 5-8 PortTotal). */
  readonly ports: number;
  /** destinationID → output port. */
  readonly routes: Readonly<Record<number, number>>;
  /** Where IDs without an entry and IDs above `routeLimit` go; none by default (dropped, counted). */
  readonly defaultPort?: number;
  /** Max_destID (Part 3 Table 3-4). Default 0xFF (Dev8) or 0xFFFF (Dev16). */
  readonly routeLimit?: number;
  /** Per port, index = port number; missing entries accept any source. */
  readonly portConfig?: readonly SwitchPortConfig[];
  /**
   * Every output queue: `packets` (default 32) shared by the priorities, of which a packet of
   * priority p may take only those leaving (3 − p) × `reservePerPriority` (default 1) free.
   */
  readonly outputBuffer?: { readonly packets: number; readonly reservePerPriority?: number };
  /** Packets an input holds after `input-paused` (frames the driver had already read). Default 8. */
  readonly inputHold?: number;
  /** The switch's own CCPs waiting per output (Part 9 §2.4.6 rule 2: beyond them CCPs are dropped). Default 4. */
  readonly ccpQueue?: number;
  /** Part 9 congestion points: one setting for every output, one per output (null = none), or none. */
  readonly congestion?: SwitchCongestionSettings | readonly (SwitchCongestionSettings | null)[] | null;
  /** VoQ backpressure generation (downstream role); none by default. */
  readonly voq?: SwitchVoqSettings | null;
  readonly identity?: SwitchIdentity;
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** A packet received on `port`, decoded; `octets` is its length on the link (the congestion points' `bytes` unit). */
export interface SwitchPacketInput {
  readonly kind: 'packet';
  readonly port: number;
  readonly packet: Packet;
  readonly octets: number;
  /**
   * The driver's own handle on the bytes the packet arrived in, opaque to the element: handed
   * back with the packet's `packet` output when the packet leaves unchanged (not with a Type 8
   * request forwarded with hop_count decremented, which is a new packet), so that a driver can
   * send those bytes instead of encoding the packet again (src/net/packet-bytes.ts).
   */
  readonly wire?: unknown;
}

/** The link of `port` can take one frame now. */
export interface SwitchPullInput {
  readonly kind: 'pull';
  readonly port: number;
}

/** A control symbol received on `port` (CS48 or CS64, decoded). */
export interface SwitchSymbolInput {
  readonly kind: 'symbol';
  readonly port: number;
  readonly symbol: unknown;
}

export interface SwitchLinkInput {
  readonly kind: 'link-up' | 'link-down';
  readonly port: number;
}

export type SwitchTimerName = 'voq:refresh';

export type SwitchInput = SwitchPacketInput | SwitchPullInput | SwitchSymbolInput | SwitchLinkInput | TimerInput<SwitchTimerName>;

// ---------------------------------------------------------------------------------------------
// Outputs

/** A VoQ backpressure symbol: a CS48 Status symbol carrying the message in stype2, or a CS64 VoQ symbol. */
export type SwitchSymbol =
  | { readonly form: 'cs48'; readonly stype2: number; readonly symbol: ControlSymbol }
  | { readonly form: 'cs64'; readonly symbol: ControlSymbol64 };

type CongestionEvent = Untagged<Extract<CongestionPointOutput, { kind: 'event' }>>;

export type CcpDropReason = 'ccp-queue-full' | 'no-route' | 'port-down' | 'not-participant';

export type SwitchEvent =
  /** issue 8 §3: a packet whose sourceID (Type 7: tgtdestinationID) the port does not accept. */
  | { readonly name: 'source-rejected'; readonly port: number; readonly ftype: number; readonly id: number }
  /** No route for the destinationID (no entry, no default, or a port the switch lacks). */
  | { readonly name: 'no-route'; readonly port: number; readonly ftype: number; readonly destinationID: number }
  /** Packets dropped because their output's link is down (`port`: the output). */
  | { readonly name: 'port-down'; readonly port: number; readonly packets: number }
  /** A packet arrived on a port whose hold was full: the driver kept reading after `input-paused`. */
  | { readonly name: 'hold-overrun'; readonly port: number; readonly ftype: number; readonly destinationID: number }
  | {
    readonly name: 'maintenance-answered';
    readonly port: number;
    readonly sourceID: number;
    readonly transaction: 'MAINTENANCE_READ_REQUEST' | 'MAINTENANCE_WRITE_REQUEST';
    readonly offset: number;
    readonly status: 'DONE' | 'ERROR';
    readonly reason?: string;
  }
  /** A maintenance packet for the switch that it has no function for (port-write, reserved transaction). */
  | { readonly name: 'maintenance-unsupported'; readonly port: number; readonly sourceID: number; readonly transaction: string }
  | {
    readonly name: 'ccp-sent' | 'ccp-dropped';
    /** The port the CCP leaves by; null when there is none. */
    readonly port: number | null;
    /** The output whose congestion point made it. */
    readonly congestedPort: number;
    readonly command: string;
    readonly destinationID: number;
    readonly tgtdestinationID: number;
    readonly flowID: FlowIdName;
    readonly reason?: CcpDropReason;
  }
  /** An event of output `port`'s congestion point. */
  | { readonly name: 'congestion'; readonly port: number; readonly detail: CongestionEvent }
  | { readonly name: 'voq'; readonly voqEvent: VoqGeneratorEventName; readonly port?: number; readonly detail?: string }
  | { readonly name: 'invalid-input'; readonly detail: string };

export type SwitchOutput =
  /** The answer to a pull: the packet to send on `port`. */
  | { readonly kind: 'packet'; readonly port: number; readonly packet: Packet; readonly wire?: unknown }
  /** The answer to a pull: a control symbol to send on `port`. */
  | { readonly kind: 'symbol'; readonly port: number; readonly symbol: SwitchSymbol }
  /** The answer to a pull with nothing to send. */
  | { readonly kind: 'idle'; readonly port: number }
  /** `port` has something to send: pull it until `idle`. */
  | { readonly kind: 'ready'; readonly port: number }
  /** Stop reading `port`'s link: its head packet cannot be queued. */
  | { readonly kind: 'input-paused'; readonly port: number }
  | { readonly kind: 'input-resumed'; readonly port: number }
  | { readonly kind: 'event'; readonly at: Time; readonly event: SwitchEvent }
  | TimerOutput<SwitchTimerName>;

export const SWITCH_COUNTERS = [
  'packetsIn',
  /** Packets from the inputs sent on an output. */
  'forwarded',
  /** Every packet sent: forwarded, maintenance responses and CCPs of the switch. */
  'packetsOut',
  'sourceRejected',
  'noRoute',
  'portDownDrops',
  'holdOverruns',
  'maintenanceReads',
  'maintenanceWrites',
  'maintenanceErrors',
  'maintenanceUnsupported',
  /** MAINTENANCE packets forwarded with hop_count decremented. */
  'maintenanceForwarded',
  'ccpSent',
  'ccpDropped',
  'voqSymbolsSent',
  'symbolsReceived',
  'pauses',
  'resumes',
  'pulls',
  'idlePulls',
  'invalidInputs',
] as const;
export type SwitchCounter = (typeof SWITCH_COUNTERS)[number];
