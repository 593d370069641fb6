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

/** A timer request an engine outputs: the driver calls `handle({ kind: 'timer', name }, at)` at `at`. */
export interface TimerOutput<N extends string = string> {
  readonly kind: 'timer';
  readonly name: N;
  /** Absolute expiry time; null cancels the timer. */
  readonly at: Time | null;
}

/** The input a driver gives an engine when a timer it asked for (`TimerOutput`) is due. */
export interface TimerInput<N extends string = string> {
  readonly kind: 'timer';
  readonly name: N;
}

/** A sans-IO protocol engine (see the top of this file). */
export interface Engine<I, O> {
  /**
   * Takes one input at time `now` (non-decreasing from one call to the next) and returns the
   * outputs it causes, in order. Never throws on what a peer sent: a violation is answered as the
   * specification says (discarded and counted, a STATUS, an event).
   */
  handle(input: I, now: Time): O[];
}

/** Engines keep plain counters of what they saw and did (drops, ignored messages, retries). */
export type Counters<K extends string> = Record<K, number>;

/** A timer an engine has asked for and not seen expire, as its snapshot lists it. */
export interface PendingTimer<N extends string = string> {
  readonly name: N;
  /** Absolute expiry time. */
  readonly at: Time;
}

/**
 * What a host may read of an engine between inputs (`riodp model`, status views, reports, tests).
 * Both are copies: changing them changes nothing in the engine.
 */
export interface Observable<S, K> {
  /** The counters of what the engine saw and did, a copy. */
  counters(): K;
  /**
   * The engine's state (configuration in force, queues, timers, counters) as plain JSON data:
   * `JSON.parse(JSON.stringify(s))` deep-equals `s`.
   */
  snapshot(): S;
}

/**
 * The engine contract with its observation side: every engine that riodp exports implements it,
 * with its own snapshot type `S` and counter names `C`.
 */
export interface ObservableEngine<I, O, S, C extends string> extends Engine<I, O>, Observable<S, Counters<C>> {}

export function zeroCounters<K extends string>(names: readonly K[]): Counters<K> {
  const c = {} as Counters<K>;
  for (const n of names) c[n] = 0;
  return c;
}
