/**
 * Runs a sans-IO engine's timers on the kernel's Scheduler (src/engine/contract.ts: "A driver
 * keeps at most one pending expiry per (engine, name): a new request replaces the old").
 *
 * A `TimerOutput` with `at` schedules an event of kind `kind` on `target` whose data is the timer
 * name, cancelling the previous event of that name; `at: null` cancels. When the event runs, the
 * target calls `fired(name)` and hands the engine `{ kind: 'timer', name }`; the engine's own
 * `Timers.expire` ignores an expiry that is no longer due.
 */
import type { TimerOutput } from '../../engine/contract.ts';
import type { EventId, Scheduler, Target } from '../kernel/scheduler.ts';

export class EngineTimers {
  readonly #pending = new Map<string, EventId>();

  constructor(
    private readonly sched: Scheduler,
    private readonly target: Target,
    private readonly kind: number,
  ) {}

  apply(t: TimerOutput): void {
    const previous = this.#pending.get(t.name);
    if (previous !== undefined) {
      this.sched.cancel(previous);
      this.#pending.delete(t.name);
    }
    if (t.at === null) return;
    // An engine may ask for a time already past (a zero period): it runs at once.
    const at = Math.max(t.at, this.sched.now);
    this.#pending.set(t.name, this.sched.schedule(at, this.target, this.kind, t.name));
  }

  /** The event of `name` ran: it is no longer pending. */
  fired(name: string): void {
    this.#pending.delete(name);
  }

  /** Pending timers, by name. */
  pending(): string[] {
    return [...this.#pending.keys()].sort();
  }
}
