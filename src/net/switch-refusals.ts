/**
 * What a switch's ports turn away, counted per port and per reason and logged (docs/fabric-switch.md
 * "Refusals"; issue 8 §3 "unauthenticated peers are refused", "no endpoint can pose as another").
 *
 * A connection is refused by its port's listener (docs/net-framing.md §5.1: `tls`, the handshake
 * failed; `tooMany`, over the connection limit), by the switch (`busy`: the port has its link, or
 * the switch is stopping), or by the link at its opening (riodp link §4.1: `helloTimeout`, no
 * HELLO in time; `helloProtocol`, another first frame; `helloVersion`, another version). None of
 * them is a link of the switch: they are not counted in `linksClosed`, nor logged `link-down`.
 * A packet whose sourceID its port does not accept is dropped by the element, which counts it
 * (`sourceRejected`) and logs it (`source-rejected`); it is counted here per port too (`source`).
 *
 * Each refused connection is one `connection-refused` line at warn, bounded per port and reason
 * by the switch's LogLimiter (log-limit.ts): a peer that floods handshakes, or reconnects without
 * end, fills neither memory nor the disk, and one reason's flood does not hide another's lines.
 * What is left out is told by the next line of the key (`suppressed`) or by `log-suppressed`.
 */
import { zeroCounters } from '../engine/contract.ts';
import type { Counters } from '../engine/contract.ts';
import type { HelloFailure } from './link.ts';
import type { LogLimiter } from './log-limit.ts';
import type { Logger } from './log.ts';

/**
 * Why a switch port refused a connection: the TLS handshake failed, over the listener's connection
 * limit, the port busy (it has its link, or the switch is stopping), or the link's HELLO did not
 * come in time, was another frame, or another version.
 *
 * @example
 * ```ts
 * import { once } from 'node:events';
 * import { connect } from 'node:net';
 * import { REFUSAL_REASONS, parseSwitchConfig, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], log: 'silent' }));
 * // A peer that does not speak the riodp link protocol (an HTTP client): its first frame is no HELLO (riodp link §4.1).
 * const peer = connect(sw.addresses[0]!.tcpPort, '127.0.0.1').end('GET / HTTP/1.1\r\n\r\n').resume(); // resume: read the switch's HELLO and CLOSE
 * await once(peer, 'close');
 * const refused = sw.ports()[0]!.refused;
 * console.log(REFUSAL_REASONS.filter((r) => refused[r] > 0)); // [ 'helloProtocol' ]
 * await sw.close();
 * ```
 */
export const REFUSAL_REASONS = ['tls', 'tooMany', 'busy', 'helloTimeout', 'helloProtocol', 'helloVersion'] as const;
/** A reason a connection was refused. */
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/**
 * The switch's totals, one per reason: `<reason>Refused`.
 *
 * @example
 * ```ts
 * import { once } from 'node:events';
 * import { connect } from 'node:net';
 * import { REFUSAL_COUNTERS, parseSwitchConfig, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }], log: 'silent' }));
 * // A peer whose HELLO announces version 2 (riodp link §3.4: length 6, kind 0x10, "RIOD", version):
 * const peer = connect(sw.addresses[0]!.tcpPort, '127.0.0.1').end(Uint8Array.of(0x00, 0x06, 0x10, 0x52, 0x49, 0x4f, 0x44, 0x02)).resume();
 * await once(peer, 'close'); // the switch answered CLOSE version and ended the connection
 * const c = sw.counters();
 * console.log(REFUSAL_COUNTERS.filter((n) => c[n] > 0).map((n) => `${n}=${c[n]}`).join(' ')); // helloVersionRefused=1
 * await sw.close();
 * ```
 */
export const REFUSAL_COUNTERS = ['tlsRefused', 'tooManyRefused', 'busyRefused', 'helloTimeoutRefused', 'helloProtocolRefused', 'helloVersionRefused'] as const;
/** A switch-wide refusal counter. */
export type RefusalCounter = (typeof REFUSAL_COUNTERS)[number];

/**
 * A port's refusals: connections per reason, and packets with a sourceID it does not accept.
 *
 * @example
 * ```ts
 * import { once } from 'node:events';
 * import { connect } from 'node:net';
 * import { PORT_REFUSALS, parseSwitchConfig, startSwitch } from 'riodp/net';
 *
 * const sw = await startSwitch(parseSwitchConfig({ deviceId: 0x50, ports: [{ port: 0, listen: { port: 0 } }, { port: 1, listen: { port: 0 } }], log: 'silent' }));
 * // An HTTP client on port 1: its first frame is no HELLO (riodp link §4.1).
 * const peer = connect(sw.addresses[1]!.tcpPort, '127.0.0.1').end('GET / HTTP/1.1\r\n\r\n').resume();
 * await once(peer, 'close');
 * // What each port turned away, one column per reason (as a status page shows it):
 * console.log('port', ...PORT_REFUSALS);                                             // port tls tooMany busy helloTimeout helloProtocol helloVersion source
 * for (const p of sw.ports()) console.log(p.port, ...PORT_REFUSALS.map((r) => p.refused[r])); // 0 0 0 0 0 0 0 0, then 1 0 0 0 0 1 0 0
 * await sw.close();
 * ```
 */
export const PORT_REFUSALS = [...REFUSAL_REASONS, 'source'] as const;
/** A port's refusals by reason, and its packets refused for their sourceID. */
export type PortRefusals = Counters<(typeof PORT_REFUSALS)[number]>;

const HELLO_REASON: Readonly<Record<HelloFailure, RefusalReason>> = { timeout: 'helloTimeout', protocol: 'helloProtocol', version: 'helloVersion' };

/** The refusal a link's failed opening is (LinkClosed.hello). */
export function helloRefusal(failure: HelloFailure): RefusalReason {
  return HELLO_REASON[failure];
}

export class Refusals {
  readonly #ports: PortRefusals[];
  readonly #log: Logger;
  readonly #limit: LogLimiter;
  readonly #nowMs: () => number;

  constructor(ports: number, log: Logger, limit: LogLimiter, nowMs: () => number) {
    this.#ports = Array.from({ length: ports }, () => zeroCounters(PORT_REFUSALS));
    this.#log = log;
    this.#limit = limit;
    this.#nowMs = nowMs;
  }

  /** A connection to `port` refused: counted, and logged unless its key is over its burst. */
  connection(port: number, reason: RefusalReason, peer: string, error: string): void {
    const counts = this.#ports[port];
    if (counts !== undefined) counts[reason]++;
    const suppressed = this.#limit.admit(`connection-refused:${port}:${reason}`, this.#nowMs());
    if (suppressed === null) return;
    this.#log.warn({ port, peer, reason, error, ...(suppressed > 0 ? { suppressed } : {}) }, 'connection-refused');
  }

  /** A packet on `port` with a sourceID the port does not accept (the element's `source-rejected`). */
  source(port: number): void {
    const counts = this.#ports[port];
    if (counts !== undefined) counts.source++;
  }

  /** A copy of one port's counts (all zero for a port out of range). */
  port(port: number): PortRefusals {
    return { ...(this.#ports[port] ?? zeroCounters(PORT_REFUSALS)) };
  }

  /** The connections refused on every port, per reason. */
  totals(): Counters<RefusalCounter> {
    const t = zeroCounters(REFUSAL_COUNTERS);
    for (const p of this.#ports) for (const r of REFUSAL_REASONS) t[`${r}Refused`] += p[r];
    return t;
  }
}
