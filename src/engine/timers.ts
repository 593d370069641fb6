import type { PendingTimer, Time, TimerOutput } from './contract.ts';

/**
 * An engine's own record of the timers it asked for. `arm`/`cancel` push the request for the
 * driver onto `out`; `expire` is what an engine calls on a `{ kind: 'timer' }` input: it returns
 * true only when the timer is armed and due at `now`, and disarms it. A stale expiry (cancelled,
 * re-armed later, delivered twice) returns false and the engine ignores it.
 */
export class Timers<N extends string = string> {
  readonly #deadlines = new Map<N, Time>();

  arm(name: N, at: Time, out: { push(o: TimerOutput<N>): unknown }): void {
    this.#deadlines.set(name, at);
    out.push({ kind: 'timer', name, at });
  }

  cancel(name: N, out: { push(o: TimerOutput<N>): unknown }): void {
    if (this.#deadlines.delete(name)) out.push({ kind: 'timer', name, at: null });
  }

  expire(name: N, now: Time): boolean {
    const at = this.#deadlines.get(name);
    if (at === undefined || at > now) return false;
    this.#deadlines.delete(name);
    return true;
  }

  deadline(name: N): Time | undefined {
    return this.#deadlines.get(name);
  }

  isArmed(name: N): boolean {
    return this.#deadlines.has(name);
  }

  /** Pending timers, earliest first (ties by name), for snapshots. */
  pending(): PendingTimer<N>[] {
    return [...this.#deadlines].map(([name, at]) => ({ name, at })).sort((a, b) => a.at - b.at || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
