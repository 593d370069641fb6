/**
 * The public face of `riodp switch` without the command line (switch-process.ts): its options,
 * counters and state.
 */
import type { SwitchElementCounter as SwitchCounter } from '../node/switch/element.ts';
import type { SwitchElementSnapshot } from '../node/switch/element-types.ts';
import type { Counters, PendingTimer } from '../engine/contract.ts';
import type { LinkCounters, LinkOptions, LinkState } from './link.ts';
import type { Logger } from './log.ts';
import type { PeerClockCounters } from './peer-clock.ts';
import type { CaptureSettings } from './link-capture.ts';
import type { LogLimitOptions } from './log-limit.ts';
import type { PortRefusals, RefusalCounter } from './switch-refusals.ts';
import type { TimerDriverOptions } from './timer-driver.ts';

/**
 * The names of the switch process's own counters (links, connections), besides the element's.
 *
 * @example
 * ```ts
 * import { SWITCH_PROCESS_COUNTERS, endpointConfig, parseSwitchConfig, startEndpoint, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], routes: { 1: 0 }, log: 'silent' }));
 * const ep = await startEndpoint(endpointConfig({ nodeId: 1, switch: { port: sw.addresses[0]!.tcpPort }, log: 'silent' }));
 * await ep.readRegister(0x50, 0, 0x00); // answered by the switch: its link to node 1 is open at both ends
 * const c = sw.counters(); // the element's, the process's and the refusals' counters in one record
 * console.log(SWITCH_PROCESS_COUNTERS.map((n) => `${n}=${c[n]}`).join(' ')); // connections=1 linksOpened=1 linksClosed=0 linksLost=0 malformedFrames=0 sendErrors=0 shareStops=0
 * await ep.close();
 * await sw.close();
 * ```
 */
export const SWITCH_PROCESS_COUNTERS = [
  /** Connections accepted on the ports' listeners (refused ones are counted per reason: switch-refusals.ts). */
  'connections',
  'linksOpened',
  /** Links that ended with a CLOSE (either side). */
  'linksClosed',
  /** Links that ended without a CLOSE (a peer killed, a reset). */
  'linksLost',
  /** Frames a link counted as malformed or oversize (riodp link §4.2). */
  'malformedFrames',
  /** Frames the element answered a pull with that the link could not take or encode. */
  'sendErrors',
  /** Times a port's link was stopped at the end of its quantum, until the next round (fair share). */
  'shareStops',
] as const;
/** A counter of the switch process. */
export type SwitchProcessCounter = (typeof SWITCH_PROCESS_COUNTERS)[number];

/** Options of `startSwitch`. */
export interface StartSwitchOptions {
  /** Default: `makeLogger({ level: config.log, name: 'switch' })`, JSON lines on stderr. */
  readonly logger?: Logger;
  /** The timer driver's clock and host timers (tests); default the monotonic clock and Node's timers. */
  readonly timers?: Pick<TimerDriverOptions, 'clock' | 'host'>;
  /** Link settings besides maxFrameSize (which the configuration gives). */
  readonly link?: Pick<LinkOptions, 'helloTimeoutMs' | 'closeTimeoutMs' | 'sendBatchBytes'>;
  /** Bounds of the per-message log lines (log-limit.ts); default 10 lines a second per key. */
  readonly logLimit?: LogLimitOptions;
  /**
   * Capture every frame of every port into one pcapng file (docs/pcapng.md; `riodp switch
   * --pcap`): interfaces `<name>.p<port>.tx|rx`, `name` default `sw<deviceId>` (decimal). Links
   * are then read frame by frame (no fast lane), so that each record says what became of it.
   */
  readonly capture?: CaptureSettings & { readonly name?: string };
}

/** Where a port listens, once bound (`tcpPort` is the real port when the configuration said 0). */
export interface SwitchAddress {
  readonly port: number;
  readonly host: string;
  readonly tcpPort: number;
}

/** One port of a running switch: its listener, its link and its backpressure state. */
export interface SwitchPortState {
  readonly port: number;
  /** Null for a port of the element without a listener. */
  readonly address: SwitchAddress | null;
  /** The state of the port's link, 'none' without one. */
  readonly link: LinkState | 'none';
  /** The peer's address:port. */
  readonly peer: string | null;
  /** Reading of the link stopped by the element (backpressure). */
  readonly paused: boolean;
  /** Reading of the link stopped until the next round: it delivered its quantum (fair share). */
  readonly yielded: boolean;
  /** Times the port's links were stopped at the end of their quantum (fair share). */
  readonly shareStops: number;
  /** The element has frames for this port that wait for the link to drain. */
  readonly waiting: boolean;
  readonly counters: LinkCounters | null;
  /** Connections refused on this port per reason, and packets with a sourceID it does not accept. */
  readonly refused: PortRefusals;
}

/** The counters of a running switch: the element's, the process's and the refusals'. */
export type RunningSwitchCounters = Counters<SwitchCounter | SwitchProcessCounter | RefusalCounter>;

/**
 * `RunningSwitch.snapshot()`: the switch processing element's snapshot and what the process adds
 * around it (its ports' listeners and links, its timers, its clock), as plain JSON data
 * (`JSON.parse(JSON.stringify(s))` deep-equals `s`), a copy.
 */
export interface SwitchProcessSnapshot {
  /** The element's state (`SwitchElement.snapshot()`): routes, ports, buffers, congestion, VoQ, maintenance. */
  readonly element: SwitchElementSnapshot;
  /** Each port's listener, link and backpressure state, as `ports()` gives it. */
  readonly ports: readonly SwitchPortState[];
  /** The element's timers the process has armed, earliest first (absolute times on the process clock, ns). */
  readonly timers: readonly PendingTimer[];
  /** The process clock's exclusions: host stops and silences of the watched link left out of its time (peer-clock.ts). */
  readonly clock: PeerClockCounters;
  /** As `counters()`. */
  readonly counters: RunningSwitchCounters;
}

/** A running switch of the software fabric, as `startSwitch` resolves with it. */
export interface RunningSwitch {
  readonly addresses: readonly SwitchAddress[];
  /** Each port's state now. */
  ports(): SwitchPortState[];
  /** The element's, the process's and the refusals' counters, a copy. */
  counters(): RunningSwitchCounters;
  /** The element's snapshot, the ports, the pending timers, the clock and the counters, as plain JSON (a copy). */
  snapshot(): SwitchProcessSnapshot;
  /** CLOSE `normal` "shutdown" on every link, listeners closed, timers stopped; resolves once every socket is closed. */
  close(): Promise<void>;
}
