/**
 * The real clock and the host's timers, behind two small interfaces so that the timer driver
 * (timer-driver.ts) runs the same on Node's clock and on a manual one (manual-time.ts).
 *
 * Time is integer nanoseconds: the unit riodp's engines are configured in outside the simulator
 * (src/engine/contract.ts: "riodp's model CLI and TCP fabric: nanoseconds").
 */
import type { Time } from '../engine/contract.ts';

/** The timer driver's clock. */
export interface Clock {
  /** Non-decreasing integer nanoseconds. */
  now(): Time;
}

/** A pending host callback, as `HostScheduler.set` returned it. */
export interface HostTimer {
  /** Whether this callback alone keeps the process alive. */
  hasRef(): boolean;
}

/** The host timers the timer driver runs on (Node's, or a manual one in tests). */
export interface HostScheduler {
  /** Runs `callback` once, `delay` nanoseconds from now or later; a delay of 0 or less runs it as soon as the event loop turns. */
  set(callback: () => void, delay: Time): HostTimer;
  /** Cancels a pending callback. */
  clear(timer: HostTimer): void;
}

/**
 * process.hrtime.bigint() relative to the clock's creation: monotonic, not affected by changes
 * of the wall clock. A Number holds integer nanoseconds exactly for 2^53 ns (104 days); past that
 * the reading rounds, which keeps it non-decreasing.
 */
export class MonotonicClock implements Clock {
  readonly #start = process.hrtime.bigint();

  now(): Time {
    return Number(process.hrtime.bigint() - this.#start);
  }
}

/** Node's setTimeout takes at most 2^31 - 1 ms; a longer delay is cut to it and the driver re-arms. */
export const MAX_HOST_DELAY_MS = 2 ** 31 - 1;

/**
 * The setTimeout delay for `ns` nanoseconds: rounded up to whole milliseconds (Node's timer
 * granularity) so that a callback never comes before its time, and at most MAX_HOST_DELAY_MS.
 */
export function hostDelayMs(ns: Time): number {
  return Math.min(MAX_HOST_DELAY_MS, Math.max(1, Math.ceil(ns / 1e6)));
}

class NodeTimer implements HostTimer {
  constructor(readonly handle: NodeJS.Timeout | NodeJS.Immediate) {}

  hasRef(): boolean {
    return this.handle.hasRef();
  }
}

export interface NodeSchedulerOptions {
  /** Let the process exit while callbacks are pending (Node's `unref`). */
  readonly unref?: boolean;
}

/** Node's timers: setImmediate for a callback due now, setTimeout otherwise. */
export function nodeScheduler(opts: NodeSchedulerOptions = {}): HostScheduler {
  const unref = opts.unref === true;
  return {
    set(callback, delay) {
      const handle = delay <= 0 ? setImmediate(callback) : setTimeout(callback, hostDelayMs(delay));
      if (unref) handle.unref();
      return new NodeTimer(handle);
    },
    clear(timer) {
      if (!(timer instanceof NodeTimer)) return;
      const h = timer.handle;
      if ('refresh' in h) clearTimeout(h);
      else clearImmediate(h);
    },
  };
}
