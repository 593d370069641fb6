import type { Time, TimerInput, TimerOutput } from '../../engine/contract.ts';
import type { Packet } from '../../wire/packet.ts';
import type { SwitchConfig } from './config-types.ts';
import type { SwitchEvent, SwitchSymbol } from './types.ts';
import type { BatchPacket } from './batch-packet.ts';

/**
 * `SwitchElement` (element.ts): the switch element as a sans-IO engine, the way the software
 * fabric's TCP driver (src/net/switch-process.ts), `riodp model`-style tests and the equivalence
 * tests drive it. A driver hands it decoded packets, control symbols, transmit opportunities
 * (`pull`), link state and timer expiries; it answers with the frames to send, the inputs to stop
 * and restart reading (backpressure), events and timer requests. Its crossbar takes no time.
 * Durations are in the driver's time unit (ns over TCP).
 */
export type SwitchElementConfig = SwitchConfig;

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
   * send those bytes instead of encoding the packet again (src/wire/received-bytes.ts).
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

export type SwitchOutput =
  /** The answer to a pull: the packet to send on `port`. */
  | { readonly kind: 'packet'; readonly port: number; readonly packet: Packet; readonly wire?: unknown }
  /**
   * The answer to a pull: a packet taken from a frame batch (`handleFrames`), to send on `port` in
   * the bytes it arrived in, `packet.chunk[packet.start, packet.end)` (the serial packet, no frame header).
   */
  | { readonly kind: 'forward'; readonly port: number; readonly packet: BatchPacket }
  /** The answer to a pull: a control symbol to send on `port`. */
  | { readonly kind: 'symbol'; readonly port: number; readonly symbol: SwitchSymbol }
  /** The answer to a pull with nothing to send. */
  | { readonly kind: 'idle'; readonly port: number }
  /** `port` has something to send: pull it until `idle`. */
  | { readonly kind: 'ready'; readonly port: number }
  /** Stop reading `port`'s link: a packet from it waits for room. */
  | { readonly kind: 'input-paused'; readonly port: number }
  | { readonly kind: 'input-resumed'; readonly port: number }
  | { readonly kind: 'event'; readonly at: Time; readonly event: SwitchEvent }
  | TimerOutput<SwitchTimerName>;

/** The element's own counters, besides the switch's (types.ts SWITCH_COUNTERS). */
export const ELEMENT_COUNTERS = ['pauses', 'resumes', 'pulls', 'idlePulls'] as const;
export type ElementCounter = (typeof ELEMENT_COUNTERS)[number];
