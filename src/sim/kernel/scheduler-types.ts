/**
 * The types of the simulator's discrete-event scheduler's API (scheduler.ts): event ids, the
 * event target, stop conditions and what a run returns.
 */
import type { SteadyCheck } from './steady-state.ts';

/** Identifies a scheduled event for `cancel`: generation × 2^24 + slot, a safe integer. */
export type EventId = number;

/** Receives events. One object per component, not a closure per event. */
export interface Target {
  /** Handles event `kind` with its `data`, at simulated time `now`. */
  onEvent(kind: number, data: unknown, now: number): void;
}

/**
 * Why `Scheduler.run` returned: `until` reached, `events` run, the `when` predicate, steady state, `stop()`,
 * or no event left.
 */
export type StopReason = 'time' | 'events' | 'predicate' | 'steady' | 'stopped' | 'empty';

/** When `Scheduler.run` ends; with none given it runs until no event is left. */
export interface StopCondition {
  /** End of the simulated interval [now, until), integer ps. */
  readonly until?: number;
  /** Events to run at most. */
  readonly events?: number;
  /** Checked after every `every` events of the run; true ends it. */
  readonly when?: (now: number, events: number) => boolean;
  readonly every?: number;
  readonly steady?: SteadyCheck;
}

/** What `Scheduler.run` returns. */
export interface RunResult {
  readonly reason: StopReason;
  /** Simulated time when the run ended. */
  readonly now: number;
  /** Events run by this call. */
  readonly events: number;
}

/** Options of a `Scheduler`. */
export interface SchedulerOptions {
  /** Initial number of event slots (grown by doubling). */
  readonly capacity?: number;
  /** Reuses of a slot before it is retired; at most 2^29 (the id's generation field). */
  readonly generationLimit?: number;
}
