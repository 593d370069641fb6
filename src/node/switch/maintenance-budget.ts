import type { SwitchMaintenanceBudget } from './config-types.ts';

/**
 * The per-port budget of MAINTENANCE requests the switch performs itself (issue 16 item 3: "a
 * per-port budget for maintenance requests"): the read and write requests Part 3 §2.5 makes "for
 * that switch" (hop_count 0, or its own device ID), which cost it a register access and a
 * response, unlike the packets it only forwards. A port may have `burst` of them performed at
 * once and one more every `interval` (the host's time unit); a request beyond that is not
 * performed and gets no response (decision SW9): its requester's response timeout ends it (Part 6
 * §7.6.3 "This timeout is for sending a request packet to receiving the corresponding response
 * packet"), as it ends a request lost on the way.
 *
 * The bucket is the virtual scheduling form of the generic cell rate algorithm (ITU-T I.371): per
 * port, the theoretical time `tat` at which its next request would be on schedule. A request at
 * `now` conforms when `tat − now ≤ (burst − 1) × interval`, and then moves `tat` one interval on
 * from `max(tat, now)`. Integer arithmetic on the host's time, so runs are reproducible, and the
 * ports are independent: one port over its budget takes nothing from another's.
 */
export class MaintenanceBudget {
  readonly burst: number;
  readonly interval: number;
  readonly #slack: number;
  readonly #tat: number[];
  readonly #dropped: number[];

  constructor(ports: number, budget: SwitchMaintenanceBudget) {
    this.burst = budget.burst;
    this.interval = budget.interval;
    this.#slack = (budget.burst - 1) * budget.interval;
    this.#tat = Array.from({ length: ports }, () => 0);
    this.#dropped = Array.from({ length: ports }, () => 0);
  }

  /** Whether a request for the switch received on `port` at `now` is within the port's budget; counted against it when it is, as a drop when not. */
  admit(port: number, now: number): boolean {
    const tat = Math.max(this.#tat[port] ?? 0, now);
    if (tat - now > this.#slack) {
      this.#dropped[port] = (this.#dropped[port] ?? 0) + 1;
      return false;
    }
    this.#tat[port] = tat + this.interval;
    return true;
  }

  /** Requests of `port` dropped over its budget. */
  dropped(port: number): number {
    return this.#dropped[port] ?? 0;
  }

  snapshot(): { readonly burst: number; readonly interval: number; readonly dropped: readonly number[] } {
    return { burst: this.burst, interval: this.interval, dropped: [...this.#dropped] };
  }
}
