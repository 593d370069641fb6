/**
 * Bounds how many lines one kind of log line writes (issue 8 §3 "a flood does not grow memory
 * without bound": a peer that floods bad frames or spoofed source IDs must not fill the operator's
 * disk either). Per key (a message and the port it concerns) at most `burst` lines in an interval
 * of `intervalMs`; beyond that, lines are counted instead. The first line of the key in a later
 * interval carries how many were left out before it, and `flush` reports the counts of keys whose
 * interval ended with lines left out, so a flood that stops is still told. Keys are few (messages ×
 * ports), and a key with nothing left out is forgotten at the next flush.
 */
import type { Logger } from './log.ts';

/**
 * How many log lines of one key (a message and a port) a switch writes per interval; the rest are counted.
 */
export interface LogLimitOptions {
  /** Lines of one key logged per interval. Default 10. */
  readonly burst?: number;
  /** Default 1000 ms. */
  readonly intervalMs?: number;
}

export const DEFAULT_LOG_BURST = 10;
export const DEFAULT_LOG_INTERVAL_MS = 1000;

interface Window {
  start: number;
  count: number;
  suppressed: number;
}

export class LogLimiter {
  readonly burst: number;
  readonly intervalMs: number;
  readonly #windows = new Map<string, Window>();

  constructor(opts: LogLimitOptions = {}) {
    this.burst = opts.burst ?? DEFAULT_LOG_BURST;
    this.intervalMs = opts.intervalMs ?? DEFAULT_LOG_INTERVAL_MS;
    if (!Number.isInteger(this.burst) || this.burst < 1) throw new RangeError('burst must be an integer of at least 1');
    if (!Number.isInteger(this.intervalMs) || this.intervalMs < 1) throw new RangeError('intervalMs must be an integer of at least 1');
  }

  /**
   * Whether a line of `key` may be written at `nowMs`: null when it is to be left out (and
   * counted), else how many lines of the key were left out before it since last told.
   */
  admit(key: string, nowMs: number): number | null {
    const w = this.#windows.get(key);
    if (w === undefined) {
      this.#windows.set(key, { start: nowMs, count: 1, suppressed: 0 });
      return 0;
    }
    if (nowMs - w.start >= this.intervalMs) {
      const before = w.suppressed;
      w.start = nowMs;
      w.count = 1;
      w.suppressed = 0;
      return before;
    }
    if (w.count < this.burst) {
      w.count++;
      return 0;
    }
    w.suppressed++;
    return null;
  }

  /** Keys whose interval has ended with lines left out, and how many; those counts start again. */
  flush(nowMs: number, all = false): { readonly key: string; readonly suppressed: number }[] {
    const told: { key: string; suppressed: number }[] = [];
    for (const [key, w] of this.#windows) {
      if (!all && nowMs - w.start < this.intervalMs) continue;
      if (w.suppressed > 0) told.push({ key, suppressed: w.suppressed });
      this.#windows.delete(key);
    }
    return told;
  }

  /** Keys tracked now (for tests of the bound). */
  get size(): number {
    return this.#windows.size;
  }
}

/** The lines a limiter left out whose count no later line told (`log-suppressed`, warn); `all` at close. */
export function logSuppressed(log: Logger, limit: LogLimiter, nowMs: number, all = false): void {
  for (const t of limit.flush(nowMs, all)) log.warn({ lines: t.key, suppressed: t.suppressed }, 'log-suppressed');
}
