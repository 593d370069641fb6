import type { Counters, PendingTimer, Time, TimerInput, TimerOutput } from '../../engine/contract.ts';
import type { CongestionPointSnapshot } from '../../flow/congestion-point-types.ts';
import type { VoqGeneratorSnapshot } from '../../voq/generator-types.ts';
import type { VoqReceiverSnapshot } from '../../voq/receiver-types.ts';
import type { Packet } from '../../wire/packet.ts';
import type { Arbitration } from './arbiters.ts';
import type { Queueing, SwitchConfig } from './config-types.ts';
import type { SwitchCounter, SwitchEvent, SwitchSymbol } from './types.ts';
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

/** The link of `port` came up or went down. */
export interface SwitchLinkInput {
  readonly kind: 'link-up' | 'link-down';
  readonly port: number;
}

/** The one timer of a `SwitchElement`: the VoQ generator's refresh (§4.2 f). */
export type SwitchTimerName = 'voq:refresh';

/** What `SwitchElement.handle` takes. */
export type SwitchInput = SwitchPacketInput | SwitchPullInput | SwitchSymbolInput | SwitchLinkInput | TimerInput<SwitchTimerName>;

// ---------------------------------------------------------------------------------------------
// Outputs

/** What `SwitchElement.handle` returns. */
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

/**
 * The element's own counters, besides the switch's (types.ts SWITCH_COUNTERS).
 *
 * @example
 * ```ts
 * import { ELEMENT_COUNTERS, SwitchElement } from 'riodp/node';
 * import type { Type10Packet } from 'riodp/wire';
 *
 * const sw = new SwitchElement({ deviceId: 0x50, ports: 2, routes: { 1: 0, 2: 1 } });
 * sw.handle({ kind: 'link-up', port: 0 }, 0);
 * sw.handle({ kind: 'link-up', port: 1 }, 0);
 * const doorbell: Type10Packet = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 2, sourceID: 1, rsrv: 0, srcTID: 0, info: 1 };
 * sw.handle({ kind: 'packet', port: 0, packet: doorbell, octets: 12 }, 10); // → { kind: 'ready', port: 1 }
 * while (sw.handle({ kind: 'pull', port: 1 }, 20).some((o) => o.kind === 'packet')); // pull until idle
 * const c = sw.counters();
 * console.log(ELEMENT_COUNTERS.map((n) => `${n}=${c[n]}`).join(' ')); // pauses=0 resumes=0 pulls=2 idlePulls=1
 * ```
 */
export const ELEMENT_COUNTERS = ['pauses', 'resumes', 'pulls', 'idlePulls'] as const;
/** A counter of the element itself (pauses, resumes, pulls). */
export type ElementCounter = (typeof ELEMENT_COUNTERS)[number];
/** A counter of a `SwitchElement`: the switch's and the element's own. */
export type SwitchElementCounter = SwitchCounter | ElementCounter;

/** One port of the switch, as `snapshot()` shows it: its input buffer and its output buffer. */
export interface SwitchPortSnapshot {
  readonly port: number;
  readonly up: boolean;
  /** The source IDs the port accepts, or `any`. */
  readonly accept: 'any' | readonly number[];
  /** Packets and bytes held, packets waiting for room at their outputs, one crossing the crossbar. */
  readonly input: { readonly packets: number; readonly bytes: number; readonly waiting: number; readonly crossing: boolean };
  readonly output: {
    /** Forwarded packets and responses queued, and the switch's own packets (CCPs, maintenance responses). */
    readonly queued: number;
    readonly own: number;
    readonly flowControl: number;
    readonly bytes: number;
    /** A transfer across the crossbar is arriving. */
    readonly receiving: boolean;
    /** Output buffer 0 holds a register's packet. */
    readonly register: boolean;
    /** Queued packets by class (prio × 2 + CRF when the switch arbitrates by class). */
    readonly byClass: readonly number[];
    /** Downstream ports VoQ backpressure reported congested behind this output. */
    readonly congestedDownstream: readonly number[];
  };
}

/** The switch's state besides what the element itself adds (`SwitchElementSnapshot`). */
export interface SwitchCoreSnapshot {
  readonly name: string;
  /** The Base Device ID CSR's value. */
  readonly deviceId: number;
  readonly tt: 0 | 1;
  readonly queueing: Queueing;
  readonly outputBuffer: { readonly packets: number; readonly reservePerPriority: number };
  readonly ports: readonly SwitchPortSnapshot[];
  /** The routing table: output port by destination ID (as a string key). */
  readonly routes: { readonly entries: Readonly<Record<string, number>>; readonly defaultPort: number | null; readonly limit: number };
  /** Output arbitration pointers, and iSLIP's grant and accept pointers for `input-voq`. */
  readonly crossbar: {
    readonly arbiter: { readonly policy: Arbitration; readonly pointers: readonly number[] } | null;
    readonly islip: { readonly grant: readonly (readonly number[])[]; readonly accept: readonly (readonly number[])[] } | null;
  };
  /** Each output's Part 9 congestion point; null where it has none. */
  readonly congestion: readonly (CongestionPointSnapshot | null)[];
  /** VoQ staging (`cioq-voq-backpressure`, one receiver per class) and generation; null without VoQ. */
  readonly voq: { readonly staging: { readonly classes: readonly VoqReceiverSnapshot[] } | null; readonly generator: VoqGeneratorSnapshot | null } | null;
  /** The maintenance budget (its settings and the requests each port had dropped); null without one. */
  readonly maintenanceBudget: { readonly burst: number; readonly interval: number; readonly dropped: readonly number[] } | null;
  readonly counters: Counters<SwitchCounter>;
}

/** `SwitchElement.snapshot()`: the switch's, with each port's backpressure state, the timers and the element's counters. */
export interface SwitchElementSnapshot extends Omit<SwitchCoreSnapshot, 'ports' | 'counters'> {
  /** `paused`: an `input-paused` is in force; `announced`: `ready` was said and not pulled to `idle`. */
  readonly ports: readonly (SwitchPortSnapshot & { readonly paused: boolean; readonly announced: boolean })[];
  readonly timers: readonly PendingTimer<SwitchTimerName>[];
  readonly counters: Counters<SwitchElementCounter>;
}
