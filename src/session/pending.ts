import type { Time, TimerOutput } from '../engine/contract.ts';
import type { Timers } from '../engine/timers.ts';
import { toHex } from '../wire/hex.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import type { PendingRequestSnapshot } from './snapshot-types.ts';
import type { Contact, SmpPriority, StreamRef } from './types.ts';

/**
 * Requests waiting for their answer (Annex 2 §3.7.1): "Message loss for the Session Management
 * Protocol REQUEST, OPEN, CLOSE and STATUS request messages is detectable through timeouts on
 * ADVERTISE, ACCEPT, REFUSE, and STATUS responses." Each is resent every retry period and judged
 * failed after the timeout period (§3.5.3.4 "after which an REQUEST, OPEN, CLOSE, or STATUS
 * request which has not received a response should be sent again"; §3.5.3.5 "should be judged to
 * have failed"). With the defaults that is a send at 0, 250, 500 and 750 ms and failure at 1 s.
 */
export type PendingCommand = 'REQUEST' | 'OPEN' | 'CLOSE' | 'STATUS';

/** One OPEN attempt of an application `open` command or of the conduit procedure (§3.4.3). */
export interface OpenJob {
  readonly ref: string;
  /** Whether the application asked for it (false: the conduit procedure's own OPEN). */
  readonly byApplication: boolean;
  readonly protoID: number;
  readonly openMessageNumber: number;
  /** §3.8.2 attempt lists (planOpenAttempts); `attempt` indexes the one sent. */
  readonly attempts: readonly (readonly AttributeLike[])[];
  readonly attempt: number;
  readonly conduitId?: number;
  /** `${node}/${protoID}` when attempt 0 tries an intermediate value of that node's ranges (§3.8.2). */
  readonly intermediate?: string;
}

export type PendingWhat =
  | { readonly command: 'REQUEST'; readonly protoID: number }
  | { readonly command: 'OPEN'; readonly open: OpenJob }
  | { readonly command: 'CLOSE'; readonly stream: StreamRef }
  /** `reverify`: sent to re-verify the streams to a node after a Stream_Unknown (§3.8.3). */
  | { readonly command: 'STATUS'; readonly stream: StreamRef; readonly reverify: boolean };

export interface Pending {
  readonly key: string;
  readonly to: number;
  readonly contact: Contact;
  readonly priority: SmpPriority;
  readonly message: SmpMessage;
  readonly bytes: Uint8Array;
  readonly started: Time;
  readonly retry: number;
  readonly timeout: number;
  readonly what: PendingWhat;
  sends: number;
}

const PREFIX = 'retry:';

export function pendingTimer(key: string): string {
  return PREFIX + key;
}

/** The pending key a timer name belongs to, or undefined for another timer. */
export function pendingOfTimer(name: string): string | undefined {
  return name.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined;
}

export class PendingTable {
  readonly #timers: Timers;
  readonly #entries = new Map<string, Pending>();

  constructor(timers: Timers) {
    this.#timers = timers;
  }

  /** Records a request just sent and arms its first retry. */
  add(p: Pending, out: { push(o: TimerOutput): unknown }): void {
    this.#entries.set(p.key, p);
    this.#timers.arm(pendingTimer(p.key), Math.min(p.started + p.retry, p.started + p.timeout), out);
  }

  get(key: string): Pending | undefined {
    return this.#entries.get(key);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The answer came: forget the request. */
  resolve(key: string, out: { push(o: TimerOutput): unknown }): Pending | undefined {
    const p = this.#entries.get(key);
    if (p === undefined) return undefined;
    this.#entries.delete(key);
    this.#timers.cancel(pendingTimer(key), out);
    return p;
  }

  /**
   * The retry timer of `key` fired (the caller checked it with `Timers.expire`): 'retry' (the
   * caller resends; the next retry is armed) or 'timeout' (the request is forgotten).
   */
  fire(key: string, now: Time, out: { push(o: TimerOutput): unknown }): { readonly outcome: 'retry' | 'timeout'; readonly pending: Pending } | undefined {
    const p = this.#entries.get(key);
    if (p === undefined) return undefined;
    const deadline = p.started + p.timeout;
    if (now >= deadline) {
      this.#entries.delete(key);
      return { outcome: 'timeout', pending: p };
    }
    p.sends++;
    this.#timers.arm(pendingTimer(key), Math.min(now + p.retry, deadline), out);
    return { outcome: 'retry', pending: p };
  }

  find(pred: (p: Pending) => boolean): Pending | undefined {
    for (const p of this.#entries.values()) if (pred(p)) return p;
    return undefined;
  }

  all(): Pending[] {
    return [...this.#entries.values()];
  }

  snapshot(): PendingRequestSnapshot[] {
    return this.all().map((p) => ({
      key: p.key,
      command: p.what.command,
      to: p.to,
      started: p.started,
      deadline: p.started + p.timeout,
      sends: p.sends,
      bytes: toHex(p.bytes),
      ...(p.what.command === 'OPEN' && { ref: p.what.open.ref, attempt: p.what.open.attempt }),
    }));
  }
}
