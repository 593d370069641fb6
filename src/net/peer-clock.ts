/**
 * The clock a fabric process hands its engines: the monotonic clock without the time in which the
 * process could not have heard its peers (issue 16: "Judge timeouts by what the peer did, not by
 * wall time the local process spent stopped").
 *
 * Two kinds of time are left out (decision FF2, docs/conformance.md):
 *
 * - **Stops of this process.** A process stopped (SIGSTOP, a VM paused, the event loop blocked)
 *   reads no input meanwhile; on resume its timers would all be due before the input that waited
 *   in its sockets is read, and a peer would be judged silent for the time this process slept. A
 *   tick looks at the clock every `tickNs`; a gap longer than `stallNs` between two looks (of the
 *   tick or of any caller) is a stop, and all of it but one tick is left out. The engines then see
 *   the input read after the stop at about the time they stopped, and their timers run from there.
 * - **Silence of a watched link.** A link partner that keeps its link alive with status symbols
 *   (keepalive.ts, Part 6 §6.5.3.2) and then sends nothing for `silenceNs` is stopped, or its link
 *   is: every peer behind it is silent because of the path, not by its own doing. The clock then
 *   stands still until the link is heard again, so that no timeout judges a peer by the path's
 *   stall. The host watches a link only while it is open, not paused by the host itself (a paused
 *   link is silent by the host's choice) and its partner has sent a status symbol (a partner
 *   without keepalives would freeze the clock whenever it is idle).
 *
 * Time is integer nanoseconds, non-decreasing. `heard()` runs per frame received and reads no
 * clock: it marks the link heard, and the next look (the engine's `now()`, which follows a packet at
 * once, or the tick) takes the time, so a frame with no `now()` after it (a keepalive) is taken
 * at most one tick late.
 */
import type { Time } from '../engine/contract.ts';
import { MonotonicClock } from './clock.ts';
import type { Clock } from './clock.ts';

export interface PeerClockOptions {
  /** The clock underneath; default a MonotonicClock. */
  readonly raw?: Clock;
  /** The look's period. Default 50 ms. */
  readonly tickNs?: number;
  /** A gap between two looks longer than this is a stop. Default 500 ms. */
  readonly stallNs?: number;
  /** A watched link silent this long freezes the clock; null never freezes. Default 500 ms. */
  readonly silenceNs?: number | null;
}

/** What a process clock has left out of its time so far: host stops and silences of the watched link. */
export interface PeerClockCounters {
  /** Stops found, and the time left out for them. */
  readonly stops: number;
  readonly stoppedNs: number;
  /** Silences of the watched link that froze the clock, and the time left out for them. */
  readonly silences: number;
  readonly silentNs: number;
}

const MS = 1_000_000;

export class PeerClock implements Clock {
  readonly #raw: Clock;
  readonly #tick: number;
  readonly #stall: number;
  readonly #silence: number | null;
  #excluded = 0;
  #lastLook: number;
  #lastOut = 0;
  #watching = false;
  /** Engine time at which the watched link was last heard. */
  #heard = 0;
  /** The watched link delivered something since the last look, which takes its time. */
  #heardSinceLook = false;
  #timer: NodeJS.Timeout | null = null;
  #stops = 0;
  #stoppedNs = 0;
  #silences = 0;
  #silentNs = 0;

  constructor(opts: PeerClockOptions = {}) {
    this.#raw = opts.raw ?? new MonotonicClock();
    this.#tick = opts.tickNs ?? 50 * MS;
    this.#stall = opts.stallNs ?? 500 * MS;
    this.#silence = opts.silenceNs === undefined ? 500 * MS : opts.silenceNs;
    if (!(this.#stall > this.#tick)) throw new RangeError('stallNs must be longer than tickNs');
    this.#lastLook = this.#raw.now();
  }

  now(): Time {
    let e = this.#look() - this.#excluded;
    if (this.#watching && this.#silence !== null && e > this.#heard + this.#silence) e = this.#heard + this.#silence;
    if (e < this.#lastOut) e = this.#lastOut;
    this.#lastOut = e;
    return e;
  }

  /** Starts the tick (unref'd: it keeps no process alive). */
  start(): void {
    this.#timer ??= setInterval(() => {
      this.#look();
    }, Math.max(1, Math.round(this.#tick / MS))).unref();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Whether the host watches its link now (open, not paused by the host, partner keeps it alive). */
  watch(on: boolean): void {
    if (on === this.#watching) return;
    if (on) {
      this.#watching = true;
      this.#heard = this.#look() - this.#excluded;
    } else {
      this.#heardSinceLook = true;
      this.#look();
      this.#watching = false;
    }
  }

  get watching(): boolean {
    return this.#watching;
  }

  /**
   * The watched link delivered something: a frozen clock goes on from where it stood. Per frame,
   * so only a mark; the next look takes the time.
   */
  heard(): void {
    if (this.#watching) this.#heardSinceLook = true;
  }

  counters(): PeerClockCounters {
    return { stops: this.#stops, stoppedNs: this.#stoppedNs, silences: this.#silences, silentNs: this.#silentNs };
  }

  #look(): number {
    const r = this.#raw.now();
    const gap = r - this.#lastLook;
    if (gap > this.#stall) {
      this.#excluded += gap - this.#tick;
      this.#stops++;
      this.#stoppedNs += gap - this.#tick;
    }
    this.#lastLook = r;
    if (this.#heardSinceLook) {
      this.#heardSinceLook = false;
      if (this.#watching) this.#heardAt(r);
    }
    return r;
  }

  /** The watched link was heard at raw time `r`: the silence beyond `silenceNs` before it is left out. */
  #heardAt(r: number): void {
    const e = r - this.#excluded;
    if (this.#silence !== null) {
      const limit = this.#heard + this.#silence;
      if (e > limit) {
        this.#excluded += e - limit;
        this.#silences++;
        this.#silentNs += e - limit;
      }
    }
    this.#heard = r - this.#excluded;
  }
}
