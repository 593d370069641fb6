/**
 * Steady-state detection for `Scheduler.run({ steady })` (issue 7 §1: "stop conditions (time,
 * events, steady state)").
 *
 * The scheduler knows nothing about what is being measured: it calls `sample(now)` of a
 * `SteadyCheck` every `interval` picoseconds of simulated time, at the interval boundary, once
 * every event before the boundary has run, and ends the run with reason `'steady'` as soon as
 * `sample` returns true. `SteadyState` is the stock check for one scalar metric (a throughput
 * estimate, a mean queue length, ...): it is steady once the relative change between successive
 * samples has stayed below `epsilon` for `windows` consecutive intervals.
 *
 *   const ss = new SteadyState({ interval: 1_000_000, epsilon: 0.01, windows: 5,
 *                                metric: (now) => sink.delivered / now });
 *   scheduler.run({ steady: ss, until: 10_000_000_000 });
 *
 * `add(value)` feeds a sample directly, for callers that sample on their own schedule.
 */
import { positiveInteger } from '../../engine/config-checks.ts';

/** What `Scheduler.run` calls at every `interval` boundary; `true` ends the run. */
export interface SteadyCheck {
  /** Simulated time between samples, in picoseconds (a positive integer). */
  readonly interval: number;
  /** Called at each `interval` boundary; true ends the run with reason `steady`. */
  sample(now: number): boolean;
}

/** Options of a `SteadyState` check. */
export interface SteadyStateOptions {
  /** Picoseconds of simulated time between samples. */
  readonly interval: number;
  /** Bound on |x − previous| / |previous| for a window to count as calm; > 0. */
  readonly epsilon: number;
  /** Consecutive calm windows needed; a positive integer. */
  readonly windows: number;
  /** The scalar metric, read at each boundary. */
  readonly metric: (now: number) => number;
}

/**
 * The stock steady-state check for one scalar metric: steady once its relative change between
 * successive samples has stayed below `epsilon` for `windows` consecutive intervals.
 *
 * @example
 * ```ts
 * import { RandomStreams, Scheduler, SteadyState } from 'riodp/sim';
 * import type { Target } from 'riodp/sim';
 *
 * // Run a Poisson source (mean gap 100 ns) until its measured rate settles: < 1 % change for 5 samples of 10 µs.
 * const s = new Scheduler();
 * const rng = new RandomStreams(7).stream('source/1');
 * let sent = 0;
 * const source: Target = { onEvent() { sent++; s.after(Math.round(rng.exponential(100_000)), source, 0); } };
 * s.schedule(0, source, 0);
 * const rate = new SteadyState({ interval: 10_000_000, epsilon: 0.01, windows: 5, metric: (now) => sent / (now / 1e6) }); // packets per µs
 * console.log(s.run({ steady: rate, until: 1e12 }), rate.value); // { reason: 'steady', now: 150000000, events: 1507 } 10.046666666666667
 * ```
 */
export class SteadyState implements SteadyCheck {
  readonly interval: number;
  readonly epsilon: number;
  readonly windows: number;
  readonly #metric: (now: number) => number;
  #last = NaN;
  #calm = 0;
  #samples = 0;

  constructor(options: SteadyStateOptions) {
    this.interval = positiveInteger(options.interval, 'interval');
    const eps: unknown = options.epsilon;
    if (typeof eps !== 'number' || !(eps > 0 && eps < Infinity)) throw new RangeError('epsilon must be a positive finite number');
    this.epsilon = eps;
    this.windows = positiveInteger(options.windows, 'windows');
    if (typeof options.metric !== 'function') throw new RangeError('metric must be a function');
    this.#metric = options.metric;
  }

  /**
   * Records one sample and says whether the metric is now steady. The first sample has nothing to
   * compare with and is never calm. A change from 0 is relative to nothing: 0 → 0 counts as calm
   * (an idle metric that stays idle), 0 → anything else as not calm. A NaN sample (a rate before
   * any time has passed, say) is never calm and restarts the count.
   */
  add(value: number): boolean {
    if (this.#samples > 0) {
      const prev = this.#last;
      const change = prev === 0 ? (value === 0 ? 0 : Infinity) : Math.abs(value - prev) / Math.abs(prev);
      this.#calm = change < this.epsilon ? this.#calm + 1 : 0;
    }
    this.#last = value;
    this.#samples++;
    return this.#calm >= this.windows;
  }

  /** Reads the metric at `now` and records it (`add`). */
  sample(now: number): boolean {
    return this.add(this.#metric(now));
  }

  /** Whether the last `windows` samples were calm. */
  get steady(): boolean {
    return this.#calm >= this.windows;
  }

  /** Samples taken since construction or the last `reset`. */
  get samples(): number {
    return this.#samples;
  }

  /** The last sample (NaN before the first). */
  get value(): number {
    return this.#last;
  }

  /** Forgets every sample, e.g. after a change of offered load. */
  reset(): void {
    this.#last = NaN;
    this.#calm = 0;
    this.#samples = 0;
  }
}
