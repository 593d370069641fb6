/**
 * Liveness of the peers this end point has open streams with (decision EA18). Annex 2 verifies a
 * peer when something goes wrong: a STATUS query to each open stream of a node (§3.8.3 "check all
 * other open VSIDs to verify that they are functional"), and a query that goes unanswered closes
 * the stream and makes the node suspect (§3.7.1). The session engine has no timer that starts
 * this on its own, so a peer that dies between two PDUs (issue 8 §3 "its streams reported
 * closed") would leave its streams open for ever. Here: a node with open streams from which
 * nothing has been heard for `api.verifyIdleMs` is verified (the engine's `verify` command); its
 * answers are heard, so a live peer costs one STATUS round trip per stream and period of silence.
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
  readonly #heard = new Map<number, Time>();
  #armed = false;

  /** `periodMs` null: no liveness check. */
  constructor(host: LivenessHost, periodMs: number | null) {
    this.#host = host;
    this.#period = periodMs === null ? null : periodMs * MS;
  }

  /** A packet came from `node`. */
  heard(node: number): void {
    if (this.#period === null) return;
    const now = this.#host.now();
    this.#heard.set(node, now);
    if (!this.#armed) {
      this.#armed = true;
      this.#host.setTimer(LIVENESS_TIMER, now + this.#period);
    }
  }

  /** A timer fell due; true when it was this one. */
  timer(name: string): boolean {
    if (name !== LIVENESS_TIMER) return false;
    this.#armed = false;
    const period = this.#period;
    if (period === null) return true;
    const now = this.#host.now();
    const remotes = this.#host.remotes();
    for (const node of [...this.#heard.keys()]) if (!remotes.has(node)) this.#heard.delete(node);
    for (const node of remotes) {
      const last = this.#heard.get(node);
      if (last !== undefined && now - last < period) continue;
      // Counted as heard now, so that one silent period starts one verification.
      this.#heard.set(node, now);
      this.#host.post({ kind: 'verify', node });
    }
    if (remotes.size > 0) {
      this.#armed = true;
      const next = Math.min(...[...this.#heard.values()]) + period;
      this.#host.setTimer(LIVENESS_TIMER, Math.max(next, now + 1));
    }
    return true;
  }

  stop(): void {
    this.#host.setTimer(LIVENESS_TIMER, null);
    this.#armed = false;
  }
}
