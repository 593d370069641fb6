/**
 * The sans-IO contract shared by every protocol engine (flow/, voq/, streaming/, session/).
 *
 * An engine is a state machine: `handle(input, now)` takes one input (a decoded packet, an
 * application command or a timer expiry) and the current time, and returns the outputs it
 * causes, in order. Engines never read a clock, open a socket, set a real timer or draw an
 * unseeded random number, so the same engine runs in the simulator, in `riodp model` and over
 * TCP, and a trace replays bit for bit.
 *
 * Time is a non-negative safe integer; the driver chooses the unit and every duration in an
 * engine's configuration uses the same unit (riodp's model CLI and TCP fabric: nanoseconds; the
 * simulator: picoseconds). Inputs arrive with non-decreasing `now`.
 *
 * Timers: an engine asks for a timer with a `TimerOutput` (`at` = absolute expiry time, or
 * `null` to cancel). A driver keeps at most one pending expiry per (engine, name): a new request
 * replaces the old. When the time comes the driver calls `handle({ kind: 'timer', name }, at)`.
 * Engines also check their own deadline (see `Timers`), so an expiry a driver delivers late, twice
 * or after a cancel is ignored rather than acted upon.
 */
export type Time = number;

export interface TimerOutput<N extends string = string> {
  readonly kind: 'timer';
  readonly name: N;
  /** Absolute expiry time; null cancels the timer. */
  readonly at: Time | null;
}

export interface TimerInput<N extends string = string> {
  readonly kind: 'timer';
  readonly name: N;
}

export interface Engine<I, O> {
  handle(input: I, now: Time): O[];
}

/** Engines keep plain counters of what they saw and did (drops, ignored messages, retries). */
export type Counters<K extends string> = Record<K, number>;

export function zeroCounters<K extends string>(names: readonly K[]): Counters<K> {
  const c = {} as Counters<K>;
  for (const n of names) c[n] = 0;
  return c;
}
