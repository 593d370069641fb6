/**
 * The simulator's discrete-event kernel: `Scheduler` (scheduler.ts), `SteadyState`
 * (steady-state.ts), `RandomStreams` / `Rng` (random.ts). docs/simulator.md describes the API
 * and the determinism rules.
 */
export { Scheduler } from './scheduler.ts';
export type { EventId, RunResult, SchedulerOptions, StopCondition, StopReason, Target } from './scheduler.ts';
export { SteadyState } from './steady-state.ts';
export type { SteadyCheck, SteadyStateOptions } from './steady-state.ts';
export { RandomStreams, Rng } from './random.ts';
