/**
 * A clock and host scheduler that move only when told: the timer driver and the links' users run
 * on it in tests and replays exactly as on Node's clock, without sleeping. Callbacks due at the
 * same time run in the order they were set; a callback sees the clock at its own due time.
 */
import type { Time } from '../engine/contract.ts';
import type { Clock, HostScheduler, HostTimer } from './clock.ts';

class ManualTimer implements HostTimer {
  constructor(
    readonly at: Time,
    readonly seq: number,
    readonly callback: () => void,
    readonly ref: boolean,
  ) {}

  hasRef(): boolean {
    return this.ref;
  }
}

export class ManualTime implements Clock, HostScheduler {
  #now: Time;
  #seq = 0;
  readonly #pending = new Set<ManualTimer>();
  readonly #unref: boolean;

  constructor(start: Time = 0, opts: { readonly unref?: boolean } = {}) {
    this.#now = start;
    this.#unref = opts.unref === true;
  }

  now(): Time {
    return this.#now;
  }

  set(callback: () => void, delay: Time): HostTimer {
    const t = new ManualTimer(this.#now + Math.max(0, delay), this.#seq++, callback, !this.#unref);
    this.#pending.add(t);
    return t;
  }

  clear(timer: HostTimer): void {
    if (timer instanceof ManualTimer) this.#pending.delete(timer);
  }

  /** Host callbacks set and not yet run or cleared. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Due time of the earliest pending callback. */
  next(): Time | undefined {
    return this.#first()?.at;
  }

  /** Moves the clock forward by `ns`, running every callback that falls due on the way. */
  advance(ns: Time): void {
    this.advanceTo(this.#now + ns);
  }

  advanceTo(until: Time): void {
    for (;;) {
      const t = this.#first();
      if (t === undefined || t.at > until) break;
      this.#pending.delete(t);
      this.#now = Math.max(this.#now, t.at);
      t.callback();
    }
    this.#now = Math.max(this.#now, until);
  }

  /** Moves the clock without running anything: a host that is late to call back. */
  skip(ns: Time): void {
    this.#now += ns;
  }

  #first(): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const t of this.#pending) if (first === undefined || t.at < first.at || (t.at === first.at && t.seq < first.seq)) first = t;
    return first;
  }
}
