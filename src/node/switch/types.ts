import type { CongestionPointOutput } from '../../flow/congestion-point-types.ts';
import type { VoqGeneratorEventName } from '../../voq/generator-types.ts';
import type { FlowIdName } from '../../wire/flow-id.ts';
import type { Packet } from '../../wire/packet.ts';
import type { ControlSymbol } from '../../wire/symbol.ts';
import type { ControlSymbol64 } from '../../wire/symbol64.ts';
import type { Untagged } from '../session-endpoint-types.ts';
import type { SwitchPacket } from './packet.ts';

/**
 * What the switch element (`SwitchCore`, core.ts) asks of its host. The element holds every bit of
 * the switch's protocol logic and no clock: the host decides when things happen (a crossbar
 * transfer's duration, when a link can take a packet, when a decision is taken) and moves packets
 * on its links. The simulator (src/sim/fabric/switch.ts) and the software fabric's engine
 * (element.ts, driven by src/net/switch-process.ts) are its two hosts.
 */
export interface SwitchHost<P extends SwitchPacket> {
  /** Output `o` may have something to send now: offer its link (`pull`) when it can take a packet. */
  kick(o: number, now: number): void;
  /** The crossbar should decide (call `decide`) once the events of this instant are in. */
  requestDecide(now: number): void;
  /** A transfer from input `i` to output `o` began; call `transferDone(i)` when it ends. */
  transfer(i: number, o: number, p: P, now: number): void;
  /** `p` left input `i`'s buffer (crossed, or dropped on arrival): the link may use the buffer again. */
  released(i: number, p: P, now: number): void;
  /** Output buffer 0: whether `o`'s link can take a packet of priority `prio` now (`atSlot`: at a slot boundary). */
  linkAccepts(o: number, prio: number, atSlot: boolean): boolean;
  /** A VoQ backpressure message became due on `port`'s link: send `voqNext(port)` when the link can. */
  voqWanted(port: number, now: number): void;
  /** The VoQ generator's refresh timer: call `timer` at `at`; null cancels. */
  voqTimer(at: number | null, now: number): void;
  /**
   * A packet the switch makes: a CCP, a maintenance response, a Type 8 packet forwarded with its
   * hop_count decremented (`from`: the packet received). `bytes`: its octets on the link.
   */
  make(wire: Packet, bytes: number, now: number, from: P | null): P;
  /** Report and log; absent, the element builds no event objects. */
  event?(event: SwitchEvent, now: number): void;
}

/** The occupancy reports of one buffer (`SwitchProbe.buffer`). */
export interface BufferProbe {
  occupancy(now: number, packets: number, bytes: number): void;
}

/** Occupancy and named counts, for the simulator's results (src/sim/results/). */
export interface SwitchProbe {
  occupancy(component: string, now: number, packets: number, bytes: number): void;
  /**
   * The reports of buffer `component`, resolved once when the switch is built: a probe that keeps
   * a record per buffer then finds it without a lookup by name per report (issue 20: thousands of
   * buffers). Absent: the reports go to `occupancy` with the name.
   */
  buffer?(component: string): BufferProbe;
  count(name: string, by?: number): void;
}

export const NO_PROBE: SwitchProbe = { occupancy() {}, count() {} };

/** `probe.buffer(component)`, or reports to `probe.occupancy` under the name when the probe has none. */
export function bufferProbe(probe: Pick<SwitchProbe, 'occupancy' | 'buffer'>, component: string): BufferProbe {
  return probe.buffer?.(component) ?? { occupancy: (now, packets, bytes) => { probe.occupancy(component, now, packets, bytes); } };
}

/** Names under which a switch reports to `SwitchProbe.count` (summed over the fabric by the results). */
export const SWITCH_PROBE_COUNTS = {
  noRoute: 'switch.noRoute',
  ccpSent: 'ccp.sent',
  ccpDropped: 'ccp.dropped',
  voqSymbolsSent: 'voq.symbolsSent',
  voqSymbolsReceived: 'voq.symbolsReceived',
  voqBlocked: 'voq.blocked',
} as const;

/** A VoQ backpressure symbol: a CS48 Status symbol carrying the message in stype2, or a CS64 VoQ symbol. */
export type SwitchSymbol =
  | { readonly form: 'cs48'; readonly stype2: number; readonly symbol: ControlSymbol }
  | { readonly form: 'cs64'; readonly symbol: ControlSymbol64 };

/** An event of one of the switch's congestion points (`CongestionPointOutput`), without its kind. */
export type CongestionEvent = Untagged<Extract<CongestionPointOutput, { kind: 'event' }>>;

/**
 * Why the switch dropped a CCP it made: its CCP queue was full (§2.4.6 rule 2), no route, the port is down,
 * or it is not a flow control participant (§4.3).
 */
export type CcpDropReason = 'ccp-queue-full' | 'no-route' | 'port-down' | 'not-participant';

/**
 * What a switch reports: packets dropped and why, CCPs, congestion, maintenance, VoQ backpressure, inputs it
 * does not understand.
 */
export type SwitchEvent =
  /** issue 8 §3: a packet whose sourceID (Type 7: tgtdestinationID) the port does not accept. */
  | { readonly name: 'source-rejected'; readonly port: number; readonly ftype: number; readonly id: number }
  /** No route for the destinationID (no entry, no default, or a port the switch lacks). */
  | { readonly name: 'no-route'; readonly port: number; readonly ftype: number; readonly destinationID: number }
  /** Packets dropped because their output's link is down (`port`: the output). */
  | { readonly name: 'port-down'; readonly port: number; readonly packets: number }
  /** A packet arrived on a port whose input buffer was full: the host kept sending after it was told to stop. */
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
  /** A read or write request for the switch beyond its port's maintenance budget: not performed, no response (decision SW9). */
  | { readonly name: 'maintenance-dropped'; readonly port: number; readonly sourceID: number; readonly transaction: 'MAINTENANCE_READ_REQUEST' | 'MAINTENANCE_WRITE_REQUEST' }
  /** A maintenance packet for the switch that it has no function for (port-write, reserved transaction). */
  | { readonly name: 'maintenance-unsupported'; readonly port: number; readonly sourceID: number; readonly transaction: string }
  | {
    readonly name: 'ccp-sent' | 'ccp-dropped';
    /** The port the CCP leaves by; null when there is none. */
    readonly port: number | null;
    /** The port whose congestion point made it. */
    readonly congestedPort: number;
    readonly command: string;
    readonly destinationID: number;
    readonly tgtdestinationID: number;
    readonly flowID: FlowIdName;
    readonly reason?: CcpDropReason;
  }
  /** An event of port `port`'s congestion point. */
  | { readonly name: 'congestion'; readonly port: number; readonly detail: CongestionEvent }
  | { readonly name: 'voq'; readonly voqEvent: VoqGeneratorEventName; readonly port?: number; readonly detail?: string }
  | { readonly name: 'invalid-input'; readonly detail: string };

/**
 * The names of a switch's counters.
 *
 * @example
 * ```ts
 * import { SWITCH_COUNTERS, SwitchElement } from 'riodp/node';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const sw = new SwitchElement({ deviceId: 0x50, ports: 2, routes: { 1: 0, 2: 1 } });
 * sw.handle({ kind: 'link-up', port: 0 }, 0);
 * sw.handle({ kind: 'link-up', port: 1 }, 0);
 * // Doorbells from node 1 to node 2 (routed to port 1) and to node 9 (no route: event no-route, discarded).
 * for (const destinationID of [2, 9]) {
 *   const doorbell: Type10Packet = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID, sourceID: 1, rsrv: 0, srcTID: 0, info: 1 };
 *   sw.handle({ kind: 'packet', port: 0, packet: doorbell, octets: 12 }, 10);
 * }
 * sw.handle({ kind: 'pull', port: 1 }, 20); // → { kind: 'packet', port: 1, packet: the doorbell to node 2 }
 * const c = sw.counters();
 * console.log(SWITCH_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // packetsIn=2 forwarded=1 packetsOut=1 noRoute=1 transfers=1
 * ```
 */
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
  /** Crossbar transfers started. */
  'transfers',
  'maintenanceReads',
  'maintenanceWrites',
  'maintenanceErrors',
  'maintenanceUnsupported',
  /** Read and write requests for the switch dropped beyond their port's `maintenanceBudget` (per port in the snapshot). */
  'maintenanceDropped',
  /** MAINTENANCE packets forwarded with hop_count decremented. */
  'maintenanceForwarded',
  'ccpSent',
  'ccpDropped',
  /** Events of the congestion points (CCPs they could not send, full controlled flow lists …). */
  'congestionEvents',
  'voqSymbolsSent',
  /** Control symbols received (any); of them, VoQ backpressure messages taken by staging, blocking and unblocking queues, and ignored. */
  'symbolsReceived',
  'voqSymbolsReceived',
  'voqBlocked',
  'voqUnblocked',
  'voqIgnored',
  'voqEvents',
  /** Inputs a host handed over that the element cannot take. */
  'invalidInputs',
] as const;
/** A counter of a switch. */
export type SwitchCounter = (typeof SWITCH_COUNTERS)[number];
