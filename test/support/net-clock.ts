/**
 * The clock the test fabrics of the session tests share (endpoint-net.ts, session-pair.ts): things
 * scheduled to happen at a time, and each node's armed timers. Earliest first; at equal times the
 * scheduled things (in the order they were scheduled) before timers.
 */
import type { StreamRef } from '../../src/session/types.ts';

/** A PDU an end point delivered to its application. */
export interface NetDelivery {
  readonly node: number;
  readonly at: number;
  readonly stream: StreamRef;
  readonly protoID: number;
  readonly pdu: Uint8Array;
}

interface Scheduled {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

export abstract class NetClock {
  now = 0;
  #queue: Scheduled[] = [];
  #seq = 0;
  readonly #timers = new Map<number, Map<string, number>>();

  /** Runs everything due up to `until` (inclusive), then sets the clock to it. */
  run(until: number): void {
    this.settle(until);
    this.now = Math.max(this.now, until);
  }

  /** Runs until nothing is in flight and no timer is armed, or the next thing is after `limit`. */
  settle(limit = Number.MAX_SAFE_INTEGER): void {
    for (;;) {
      const n = this.#next();
      if (n === undefined || n.at > limit) return;
      this.now = Math.max(this.now, n.at);
      n.run();
    }
  }

  /** Things scheduled and not yet run. */
  inFlight(): number {
    return this.#queue.length;
  }

  /** A timer of `node` expired: the fabric hands it to the node. */
  protected abstract fire(node: number, name: string): void;

  /** A node with no timers armed (a new one, or one that restarts). */
  protected clearTimers(node: number): void {
    this.#timers.set(node, new Map());
  }

  /** A timer output of `node`: armed for `at`, or cancelled when `at` is null. */
  protected setTimer(node: number, name: string, at: number | null): void {
    const t = this.#timers.get(node);
    if (at === null) t?.delete(name);
    else t?.set(name, at);
  }

  protected schedule(at: number, run: () => void): void {
    this.#queue.push({ at, seq: this.#seq++, run });
  }

  #next(): { readonly at: number; readonly run: () => void } | undefined {
    let first: Scheduled | undefined;
    for (const f of this.#queue) if (first === undefined || f.at < first.at || (f.at === first.at && f.seq < first.seq)) first = f;
    let timer: { node: number; name: string; at: number } | undefined;
    for (const [node, timers] of this.#timers) {
      for (const [name, at] of timers) if (timer === undefined || at < timer.at) timer = { node, name, at };
    }
    if (first !== undefined && (timer === undefined || first.at <= timer.at)) {
      const f = first;
      return {
        at: f.at,
        run: () => {
          this.#queue = this.#queue.filter((q) => q !== f);
          f.run();
        },
      };
    }
    if (timer === undefined) return undefined;
    const t = timer;
    return {
      at: t.at,
      run: () => {
        this.#timers.get(t.node)?.delete(t.name);
        this.fire(t.node, t.name);
      },
    };
  }
}
