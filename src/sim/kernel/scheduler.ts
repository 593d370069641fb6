/**
 * The simulator's discrete-event scheduler (issue 7 §1: "Integer time, an event heap ordered by
 * (time, sequence), cancellable timers, ... stop conditions (time, events, steady state)").
 *
 * API
 *   const s = new Scheduler();
 *   const id = s.schedule(at, target, kind, data);   // at: integer ps, not before s.now
 *   s.after(delay, target, kind, data);               // at = s.now + delay
 *   s.cancel(id);                                     // true if it was still pending
 *   s.run({ until, events, when, every, steady });    // → { reason, now, events }
 *   s.stop();                                         // from a handler: end the run after it
 * An event calls `target.onEvent(kind, data, now)`. `kind` is a 32-bit integer the target
 * switches on and `data` is whatever the caller passed (undefined when omitted): the scheduler
 * allocates nothing per event, so a model that passes no data, or reuses its data objects,
 * schedules without garbage.
 *
 * Determinism. Time is an integer number of picoseconds (a safe integer: up to ~2.5 hours of
 * simulated time). Events run in (time, sequence) order, where the sequence number is the order
 * of the `schedule`/`after` calls, so events at equal times run in the order they were
 * scheduled, whatever the heap's shape. Nothing depends on wall-clock time or on object
 * identity, so a model that takes its randomness from `RandomStreams` replays exactly.
 *
 * Stop conditions (`run`), any combination; the first met ends the run:
 *   until T   — simulates [now, T): every event before T runs, events at T stay pending, and the
 *               run ends with now = T (also when the queue runs empty before T: nothing else
 *               can happen before T). Reason 'time'.
 *   events E  — after E events of this run. Reason 'events'.
 *   when, every K — `when(now, events)` after every K events of this run (K defaults to 1).
 *               Reason 'predicate'.
 *   steady    — a `SteadyCheck` sampled every `interval` ps (steady-state.ts). Reason 'steady'.
 *   stop()    — called by a handler. Reason 'stopped'.
 *   otherwise — no pending event and no `until`. Reason 'empty'.
 *
 * Implementation: a 4-ary min-heap in three typed arrays (time, sequence, slot), and a slot
 * table for what an event carries (target, kind, data). An `EventId` is the slot and the slot's
 * generation; `cancel` marks the slot dead (lazy deletion) and the dead entry is dropped when it
 * reaches the root, or all at once when dead entries outnumber live ones. A slot whose generation
 * reaches `generationLimit` is retired, so an old id can never cancel a newer event.
 */
import { nonNegativeInteger, positiveInteger } from '../../engine/config-checks.ts';
import type { SteadyCheck } from './steady-state.ts';
import type { EventId, RunResult, SchedulerOptions, StopCondition, StopReason, Target } from './scheduler-types.ts';

export type { EventId, RunResult, SchedulerOptions, StopCondition, StopReason, Target } from './scheduler-types.ts';

const SLOT_LIMIT = 2 ** 24;
const GENERATION_LIMIT = 2 ** 29;
// Dropping dead entries one at a time at the root is free; rebuilding pays off only when they
// dominate the heap (a timer re-armed far ahead on every packet, say).
const COMPACT_MIN = 1024;

/**
 * The discrete-event scheduler: integer picosecond time, events in (time, sequence) order,
 * cancellable, with the stop conditions of `run` (see the top of this file).
 *
 * @example
 * ```ts
 * import { RandomStreams, Scheduler } from 'riodp/sim';
 * import type { Target } from 'riodp/sim';
 *
 * // A Poisson source: a packet every 100 ns on average (simulated time is integer picoseconds).
 * const s = new Scheduler();
 * const rng = new RandomStreams(1).stream('source/1');
 * let sent = 0;
 * const source: Target = {
 *   onEvent() {
 *     sent++;
 *     s.after(Math.round(rng.exponential(100_000)), source, 0); // the next arrival
 *   },
 * };
 * s.schedule(0, source, 0);
 * console.log(s.run({ until: 1_000_000_000 }), sent); // { reason: 'time', now: 1000000000, events: 9994 } 9994: 1 ms simulated
 * ```
 */
export class Scheduler {
  private time = 0;
  private seq = 0;
  private size = 0;
  private live = 0;
  private dead = 0;
  private total = 0;
  private running = false;
  private stopping = false;
  private capacity: number;
  private readonly generationLimit: number;
  private hTime: Float64Array;
  private hSeq: Float64Array;
  private hSlot: Int32Array;
  private sKind: Int32Array;
  private sGen: Uint32Array;
  private sLive: Uint8Array;
  private readonly sTarget: (Target | undefined)[] = [];
  private readonly sData: unknown[] = [];
  private free: Int32Array;
  private freeTop = 0;
  private slotsUsed = 0;

  constructor(options: SchedulerOptions = {}) {
    const cap = positiveInteger(options.capacity ?? 1024, 'capacity');
    if (cap > SLOT_LIMIT) throw new RangeError(`capacity must be at most ${SLOT_LIMIT}`);
    const gl = positiveInteger(options.generationLimit ?? GENERATION_LIMIT, 'generationLimit');
    if (gl > GENERATION_LIMIT) throw new RangeError(`generationLimit must be at most ${GENERATION_LIMIT}`);
    this.generationLimit = gl;
    this.capacity = cap;
    this.hTime = new Float64Array(cap);
    this.hSeq = new Float64Array(cap);
    this.hSlot = new Int32Array(cap);
    this.sKind = new Int32Array(cap);
    this.sGen = new Uint32Array(cap);
    this.sLive = new Uint8Array(cap);
    this.free = new Int32Array(cap);
    for (let i = 0; i < cap; i++) {
      this.sTarget.push(undefined);
      this.sData.push(undefined);
    }
  }

  /** Simulated time, integer ps: the time of the event running, or where the last run ended. */
  get now(): number {
    return this.time;
  }

  /** Events scheduled and neither run nor cancelled. */
  get pending(): number {
    return this.live;
  }

  /** Events run since construction. */
  get dispatched(): number {
    return this.total;
  }

  /** Time of the next pending event, or undefined when none is pending. */
  nextTime(): number | undefined {
    this.dropDeadRoots();
    return this.size > 0 ? this.hTime[0] : undefined;
  }

  /**
   * Schedules event `kind` (with `data`) for `target` at time `at` (an integer, not before now); events at
   * one time run in the order they were scheduled.
   */
  schedule(at: number, target: Target, kind: number, data?: unknown): EventId {
    if (!(at >= this.time && Number.isSafeInteger(at))) throw new RangeError(`at must be an integer time in ps not before now (${this.time}): got ${at}`);
    return this.push(at, target, kind, data);
  }

  /** Schedules event `kind` (with `data`) for `target` `delay` after now. */
  after(delay: number, target: Target, kind: number, data?: unknown): EventId {
    const at = this.time + delay;
    if (!(delay >= 0 && Number.isSafeInteger(delay) && Number.isSafeInteger(at))) throw new RangeError(`delay must be a non-negative integer in ps with now + delay a safe integer: got ${delay}`);
    return this.push(at, target, kind, data);
  }

  /**
   * Cancels a pending event. False, and no effect, for an event that already ran, was cancelled,
   * or was never issued by this scheduler: a stale timer id is normal input.
   */
  cancel(id: EventId): boolean {
    const slot = id % SLOT_LIMIT;
    if (!(slot >= 0 && slot < this.slotsUsed) || Math.floor(slot) !== slot) return false;
    if (this.sGen[slot] !== (id - slot) / SLOT_LIMIT || this.sLive[slot] === 0) return false;
    this.sLive[slot] = 0;
    this.sTarget[slot] = undefined;
    this.sData[slot] = undefined;
    this.live--;
    this.dead++;
    if (this.dead > COMPACT_MIN && this.dead > this.live) this.compact();
    return true;
  }

  /** Ends the current run once the running handler returns. Outside a run it has no effect. */
  stop(): void {
    this.stopping = this.running;
  }

  /** Runs events in time order until a stop condition holds; may be called again to continue. */
  run(stop: StopCondition = {}): RunResult {
    if (this.running) throw new Error('Scheduler.run called from an event handler');
    const until = stop.until === undefined ? Infinity : this.checkUntil(stop.until);
    const maxEvents = stop.events === undefined ? Infinity : nonNegativeInteger(stop.events, 'events');
    const when = stop.when;
    const every = when === undefined ? Infinity : positiveInteger(stop.every ?? 1, 'every');
    if (when === undefined && stop.every !== undefined) throw new RangeError('every needs when');
    const steady = stop.steady;
    const interval = steady === undefined ? Infinity : positiveInteger(steady.interval, 'steady.interval');
    let nextSample = this.time + interval;
    let nextCheck = every;
    let count = 0;
    let reason: StopReason;
    this.begin();
    try {
      for (;;) {
        if (this.stopping) {
          reason = 'stopped';
          break;
        }
        if (count >= maxEvents) {
          reason = 'events';
          break;
        }
        if (this.live === 0 && until === Infinity) {
          this.dropDeadRoots();
          reason = 'empty';
          break;
        }
        const slot = this.hSlot[0] as number;
        if (this.size > 0 && this.sLive[slot] === 0) {
          this.removeRoot();
          this.release(slot);
          this.dead--;
          continue;
        }
        const t = this.size > 0 ? (this.hTime[0] as number) : Infinity;
        if (nextSample <= t && nextSample <= until) {
          this.time = nextSample;
          nextSample += interval;
          if ((steady as SteadyCheck).sample(this.time)) {
            reason = 'steady';
            break;
          }
          continue;
        }
        if (t >= until) {
          this.time = until;
          reason = 'time';
          break;
        }
        this.removeRoot();
        const target = this.sTarget[slot] as Target;
        const data = this.sData[slot];
        const kind = this.sKind[slot] as number;
        this.sTarget[slot] = undefined;
        this.sData[slot] = undefined;
        this.sLive[slot] = 0;
        this.release(slot);
        this.live--;
        this.total++;
        this.time = t;
        count++;
        target.onEvent(kind, data, t);
        if (count === nextCheck) {
          nextCheck += every;
          if ((when as (now: number, events: number) => boolean)(this.time, count)) {
            reason = 'predicate';
            break;
          }
        }
      }
    } finally {
      this.running = false;
      this.stopping = false;
    }
    return { reason, now: this.time, events: count };
  }

  private begin(): void {
    this.running = true;
    this.stopping = false;
  }

  private checkUntil(until: number): number {
    if (!(until >= this.time && Number.isSafeInteger(until))) throw new RangeError(`until must be an integer time in ps not before now (${this.time}): got ${until}`);
    return until;
  }

  private push(at: number, target: Target, kind: number, data: unknown): EventId {
    if ((kind | 0) !== kind) throw new RangeError(`kind must be a 32-bit integer: got ${kind}`);
    let slot: number;
    if (this.freeTop > 0) slot = this.free[--this.freeTop] as number;
    else {
      if (this.slotsUsed === this.capacity) this.grow();
      slot = this.slotsUsed++;
    }
    this.sKind[slot] = kind;
    this.sTarget[slot] = target;
    this.sData[slot] = data;
    this.sLive[slot] = 1;
    // Every earlier event has a smaller sequence number, so an entry moves up only past a parent
    // that is strictly later: ties stay in scheduling order.
    const ht = this.hTime;
    const hs = this.hSeq;
    const hl = this.hSlot;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 2;
      const pt = ht[p] as number;
      if (pt <= at) break;
      ht[i] = pt;
      hs[i] = hs[p] as number;
      hl[i] = hl[p] as number;
      i = p;
    }
    ht[i] = at;
    hs[i] = this.seq++;
    hl[i] = slot;
    this.live++;
    return (this.sGen[slot] as number) * SLOT_LIMIT + slot;
  }

  private removeRoot(): void {
    const n = --this.size;
    if (n > 0) this.siftDown(0, this.hTime[n] as number, this.hSeq[n] as number, this.hSlot[n] as number, n);
  }

  /** Places (t, s, slot) at hole `i` or below in a heap of `n` entries. */
  private siftDown(i: number, t: number, s: number, slot: number, n: number): void {
    const ht = this.hTime;
    const hs = this.hSeq;
    const hl = this.hSlot;
    for (;;) {
      const c = 4 * i + 1;
      if (c >= n) break;
      let m = c;
      let mt = ht[c] as number;
      let ms = hs[c] as number;
      const end = c + 4 < n ? c + 4 : n;
      for (let j = c + 1; j < end; j++) {
        const jt = ht[j] as number;
        if (jt < mt || (jt === mt && (hs[j] as number) < ms)) {
          m = j;
          mt = jt;
          ms = hs[j] as number;
        }
      }
      if (mt > t || (mt === t && ms > s)) break;
      ht[i] = mt;
      hs[i] = ms;
      hl[i] = hl[m] as number;
      i = m;
    }
    ht[i] = t;
    hs[i] = s;
    hl[i] = slot;
  }

  private release(slot: number): void {
    const g = (this.sGen[slot] as number) + 1;
    this.sGen[slot] = g;
    if (g < this.generationLimit) this.free[this.freeTop++] = slot;
  }

  private dropDeadRoots(): void {
    while (this.size > 0) {
      const slot = this.hSlot[0] as number;
      if (this.sLive[slot] === 1) return;
      this.removeRoot();
      this.release(slot);
      this.dead--;
    }
  }

  /** Rebuilds the heap without its dead entries (Floyd's heapify, O(n)). */
  private compact(): void {
    const ht = this.hTime;
    const hs = this.hSeq;
    const hl = this.hSlot;
    let j = 0;
    for (let i = 0; i < this.size; i++) {
      const slot = hl[i] as number;
      if (this.sLive[slot] === 0) {
        this.release(slot);
        continue;
      }
      ht[j] = ht[i] as number;
      hs[j] = hs[i] as number;
      hl[j] = slot;
      j++;
    }
    this.size = j;
    this.dead = 0;
    for (let i = (j - 2) >> 2; i >= 0; i--) this.siftDown(i, ht[i] as number, hs[i] as number, hl[i] as number, j);
  }

  private grow(): void {
    if (this.capacity >= SLOT_LIMIT) throw new RangeError(`Scheduler: more than ${SLOT_LIMIT} events pending`);
    const cap = Math.min(this.capacity * 2, SLOT_LIMIT);
    const widen = <A extends Float64Array | Int32Array | Uint32Array | Uint8Array>(a: A, make: (n: number) => A): A => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.hTime = widen(this.hTime, (n) => new Float64Array(n));
    this.hSeq = widen(this.hSeq, (n) => new Float64Array(n));
    this.hSlot = widen(this.hSlot, (n) => new Int32Array(n));
    this.sKind = widen(this.sKind, (n) => new Int32Array(n));
    this.sGen = widen(this.sGen, (n) => new Uint32Array(n));
    this.sLive = widen(this.sLive, (n) => new Uint8Array(n));
    this.free = widen(this.free, (n) => new Int32Array(n));
    for (let i = this.capacity; i < cap; i++) {
      this.sTarget.push(undefined);
      this.sData.push(undefined);
    }
    this.capacity = cap;
  }
}
