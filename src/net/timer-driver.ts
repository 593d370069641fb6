/**
 * Engines' timers on the real clock through one driver (issue 8 §1: "Engines' timers run on the
 * real clock through one driver"), the real-time counterpart of the simulator's EngineTimers.
 *
 * The contract is src/engine/contract.ts: "A driver keeps at most one pending expiry per
 * (engine, name): a new request replaces the old. When the time comes the driver calls
 * `handle({ kind: 'timer', name }, at)`". On a real clock the call comes at `now >= at` (the
 * host is never exact), and the engine's own `Timers.expire(name, now)` accepts it.
 *
 * One host timer serves every engine: it is set for the earliest expiry and moved only when an
 * earlier one is requested. When it fires, every timer due at that moment expires in (at,
 * request) order with the same `now`; a timer requested during those callbacks for a time
 * already past waits for the next turn of the event loop, so an engine that keeps re-arming at
 * `now` cannot starve sockets.
 */
import type { Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import { MonotonicClock, nodeScheduler } from './clock.ts';
import type { Clock, HostScheduler, HostTimer } from './clock.ts';
import { TimerHeap } from './timer-heap.ts';

export type ExpireCallback<K> = (key: K, input: TimerInput, now: Time) => void;

/** The clock and host timers of a process's timer driver. */
export interface TimerDriverOptions {
  /** Default: a MonotonicClock started with the driver. */
  readonly clock?: Clock;
  /** Default: Node's timers (nodeScheduler), unref'd when `unref` is set. */
  readonly host?: HostScheduler;
  /** With Node's timers: let the process exit while timers are pending. */
  readonly unref?: boolean;
}

export interface PendingTimer<K> {
  readonly key: K;
  readonly name: string;
  readonly at: Time;
}

interface Entry<K> {
  readonly key: K;
  readonly name: string;
  readonly at: Time;
  readonly seq: number;
  index: number;
}

export class TimerDriver<K = unknown> {
  readonly #onExpire: ExpireCallback<K>;
  readonly #clock: Clock;
  readonly #host: HostScheduler;
  readonly #heap = new TimerHeap<Entry<K>>();
  readonly #byKey = new Map<K, Map<string, Entry<K>>>();
  #seq = 0;
  #armed: HostTimer | null = null;
  #armedAt = 0;
  #closed = false;
  readonly #fire = (): void => {
    this.#fired();
  };

  constructor(onExpire: ExpireCallback<K>, opts: TimerDriverOptions = {}) {
    this.#onExpire = onExpire;
    this.#clock = opts.clock ?? new MonotonicClock();
    this.#host = opts.host ?? nodeScheduler(opts.unref === true ? { unref: true } : {});
  }

  /** The driver's clock: what engines are handed as `now` for their other inputs. */
  now(): Time {
    return this.#clock.now();
  }

  /**
   * An engine's timer request: arm (replacing a pending expiry of the same name) or, with
   * `at: null`, cancel. Ignored after close(). `at` must be a non-negative safe integer.
   */
  apply(key: K, t: TimerOutput): void {
    if (this.#closed) return;
    const { name, at } = t;
    if (at !== null && (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0)) {
      throw new RangeError(`timer ${name}: at must be a non-negative integer or null`);
    }
    let timers = this.#byKey.get(key);
    const old = timers?.get(name);
    if (old !== undefined) {
      this.#heap.remove(old);
      timers?.delete(name);
    }
    if (at !== null) {
      if (timers === undefined) {
        timers = new Map();
        this.#byKey.set(key, timers);
      }
      const e: Entry<K> = { key, name, at, seq: this.#seq++, index: -1 };
      timers.set(name, e);
      this.#heap.push(e);
    } else if (timers?.size === 0) {
      this.#byKey.delete(key);
    }
    this.#rearm();
  }

  /** Applies the timer requests among an engine's outputs, in order; the others are left alone. */
  applyAll(key: K, outputs: readonly { readonly kind: string }[]): void {
    for (const o of outputs) if (o.kind === 'timer') this.apply(key, o as TimerOutput);
  }

  /** Cancels every timer of `key` (an engine taken down, a peer gone). */
  cancelAll(key: K): void {
    const timers = this.#byKey.get(key);
    if (timers === undefined) return;
    for (const e of timers.values()) this.#heap.remove(e);
    this.#byKey.delete(key);
    this.#rearm();
  }

  /** Pending timers, earliest first (ties in request order); of one key when given. */
  pending(key?: K): PendingTimer<K>[] {
    return this.#heap
      .sorted()
      .filter((e) => key === undefined || e.key === key)
      .map((e) => ({ key: e.key, name: e.name, at: e.at }));
  }

  get size(): number {
    return this.#heap.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Cancels everything; no callback runs afterwards and requests are ignored. */
  close(): void {
    this.#closed = true;
    this.#heap.clear();
    this.#byKey.clear();
    if (this.#armed !== null) this.#host.clear(this.#armed);
    this.#armed = null;
  }

  #fired(): void {
    this.#armed = null;
    if (this.#closed) return;
    const now = this.#clock.now();
    const limit = this.#seq;
    try {
      for (;;) {
        const top = this.#heap.peek();
        if (top === undefined || top.at > now || top.seq >= limit) break;
        this.#heap.remove(top);
        const timers = this.#byKey.get(top.key);
        timers?.delete(top.name);
        if (timers?.size === 0) this.#byKey.delete(top.key);
        this.#onExpire(top.key, { kind: 'timer', name: top.name }, now);
        // The callback may have closed the driver.
        if (this.closed) return;
      }
    } finally {
      this.#rearm();
    }
  }

  /**
   * Keeps one host timer set no later than the earliest expiry. A host timer set earlier than
   * needed is left to fire (it finds nothing due and re-arms), which spares a clear/set pair on
   * every re-arm to a later time, the common case of a timer pushed back on each packet.
   */
  #rearm(): void {
    if (this.#closed) return;
    const top = this.#heap.peek();
    if (top === undefined) {
      if (this.#armed !== null) this.#host.clear(this.#armed);
      this.#armed = null;
      return;
    }
    if (this.#armed !== null) {
      if (this.#armedAt <= top.at) return;
      this.#host.clear(this.#armed);
    }
    this.#armedAt = top.at;
    this.#armed = this.#host.set(this.#fire, top.at - this.#clock.now());
  }
}
