/**
 * Liveness of the peers this end point has open streams with (decision EA18). Annex 2 verifies a
 * peer when something goes wrong: a STATUS query to each open stream of a node (§3.8.3 "check all
 * other open VSIDs to verify that they are functional"), and a query that goes unanswered closes
 * the stream and makes the node suspect (§3.7.1). The session engine has no timer that starts
 * this on its own, so a peer that dies between two PDUs (issue 8 §3 "its streams reported
 * closed") would leave its streams open for ever. Here: every `api.verifyIdleMs` a node with open
 * streams from which nothing was heard during that whole period is verified (the engine's
 * `verify` command), so after one to two periods of silence; its answers are heard, so a live
 * peer costs one STATUS round trip per stream and period of silence.
 */
import type { Time } from '../engine/contract.ts';
import type { FabricEndpointInput } from './endpoint-engine.ts';

export interface LivenessHost {
  post(input: FabricEndpointInput): void;
  setTimer(name: string, at: Time | null): void;
  now(): Time;
  /** The nodes this end point has open streams with. */
  remotes(): ReadonlySet<number>;
}

export const LIVENESS_TIMER = 'liveness';
const MS = 1_000_000;

export class PeerLiveness {
  readonly #host: LivenessHost;
  readonly #period: number | null;
  /**
   * Nodes heard since the last check. A set, not a time per node: `heard` runs for every packet
   * received, and a clock reading there costs more than the check needs (silence is judged per
   * whole period, so a silent node is verified after one to two periods).
   */
  readonly #heard = new Set<number>();
  #armed = false;

  /** `periodMs` null: no liveness check. */
  constructor(host: LivenessHost, periodMs: number | null) {
    this.#host = host;
    this.#period = periodMs === null ? null : periodMs * MS;
  }

  /** A packet came from `node`. */
  heard(node: number): void {
    if (this.#period === null) return;
    this.#heard.add(node);
    if (!this.#armed) this.#arm(this.#period);
  }

  /** A timer fell due; true when it was this one. */
  timer(name: string): boolean {
    if (name !== LIVENESS_TIMER) return false;
    this.#armed = false;
    const period = this.#period;
    if (period === null) return true;
    const remotes = this.#host.remotes();
    for (const node of remotes) if (!this.#heard.has(node)) this.#host.post({ kind: 'verify', node });
    this.#heard.clear();
    if (remotes.size > 0) this.#arm(period);
    return true;
  }

  stop(): void {
    this.#host.setTimer(LIVENESS_TIMER, null);
    this.#armed = false;
  }

  #arm(period: number): void {
    this.#armed = true;
    this.#host.setTimer(LIVENESS_TIMER, this.#host.now() + period);
  }
}
