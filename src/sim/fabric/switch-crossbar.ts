import type { SwitchCore } from '../../node/switch/core.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import type { SimPacket } from './types.ts';

/** The simulator's crossbar timing settings (the element's decisions are src/node/switch/matcher.ts). */
export interface CrossbarTiming {
  readonly speedup: number;
  readonly slot: number | null;
  /** slot / speedup: the crossbar's decision period in slotted operation. */
  readonly crossbarSlot: number | null;
}

/** What the clock needs of its switch host besides the element. */
/** `CrossbarClock.snapshot()`: its timing and the outputs that wait for the next crossbar slot. */
export interface CrossbarSnapshot extends CrossbarTiming {
  /** Outputs waiting for a slot boundary to transmit, ascending. */
  readonly wantsSlot: readonly number[];
}

export interface CrossbarClockHost {
  /** At a slot boundary, after the outputs have started their packets: the credits held since the last boundary go back. */
  releaseCredits(now: number): void;
  hasPendingCredits(): boolean;
  /** Output o asked for a slot: offer its link a packet now. */
  kickAtSlot(o: number, now: number): void;
}

const XFER_DONE = 0;
const TICK = 1;
const DECIDE = 2;

/**
 * When the switch element's crossbar decides and how long its transfers take (issue 7 §2
 * "crossbar speedup S (a transfer from input to output takes packetTime/S of the output link; an
 * input sends one packet at a time and an output receives one at a time)").
 *
 * Decisions are taken in a DECIDE event that runs after the other events of its instant, so that
 * every arrival and every completed transfer of that instant is seen together:
 * - unslotted: as soon as something changes (an arrival, a transfer's end, room in a full output
 *   queue, an idle output link with no output queue);
 * - slotted (`slot`): at multiples of the crossbar slot slot / S only (Karol et al. 1987 and
 *   McKeown 1999 analyse cell switches whose decisions happen once per cell time, S times with
 *   speedup S); a transfer occupies whole crossbar slots, and output links start packets at
 *   multiples of `slot` only. A TICK at the boundary schedules the DECIDE for the same instant.
 *
 * With no output queue (input-queued modes) the crossbar connects an input to an idle output link
 * whose receiver has a buffer for the packet's priority, and the packet crosses as it is sent (the
 * input is busy for the packet's wire time; speedup does not apply).
 */
export class CrossbarClock implements Target {
  readonly timing: CrossbarTiming;
  readonly slotted: boolean;
  readonly #sched: Scheduler;
  readonly #name: string;
  readonly #core: SwitchCore<SimPacket>;
  readonly #host: CrossbarClockHost;
  readonly #slot: number;
  readonly #xslot: number;
  readonly #queued: boolean;
  /** Outputs whose link asked for a packet between slot boundaries; kicked at the next one. */
  readonly #wantsSlot: Uint8Array;
  /** Outputs marked in #wantsSlot: unslotted, always 0, and a decision does not visit every port. */
  #wanting = 0;
  #decidePending = false;
  #tickPending = false;
  #lastDecideAt = -1;

  constructor(sched: Scheduler, name: string, t: { readonly speedup: number | undefined; readonly slot: number | null | undefined }, core: SwitchCore<SimPacket>, host: CrossbarClockHost) {
    const speedup = t.speedup ?? 1;
    if (typeof speedup !== 'number' || !Number.isFinite(speedup) || speedup < 1) throw new RangeError(`${name}.speedup must be a number >= 1`);
    const slot = t.slot ?? null;
    if (slot !== null && (!Number.isSafeInteger(slot) || slot < 1)) throw new RangeError(`${name}.slot must be a positive integer or null`);
    let crossbarSlot: number | null = null;
    if (slot !== null) {
      crossbarSlot = slot / speedup;
      if (!Number.isSafeInteger(crossbarSlot)) throw new RangeError(`${name}.slot must be a multiple of the speedup (the crossbar slot is slot / speedup ps)`);
    }
    this.timing = { speedup, slot, crossbarSlot };
    this.slotted = slot !== null;
    this.#sched = sched;
    this.#name = name;
    this.#core = core;
    this.#host = host;
    this.#slot = slot ?? 0;
    this.#queued = core.config.outputPackets > 0;
    // With no output queue a packet crosses as it goes on the link, at a slot boundary.
    this.#xslot = this.#queued ? (crossbarSlot ?? 0) : this.#slot;
    this.#wantsSlot = new Uint8Array(core.config.ports);
  }

  /** Whether an output link may start a packet now (slotted: only at multiples of the slot). */
  mayTransmit(now: number): boolean {
    return this.#slot === 0 || now % this.#slot === 0;
  }

  /** Output o's link asked for a packet between slot boundaries. */
  wantSlot(o: number, now: number): void {
    if (this.#wantsSlot[o] === 0) this.#wanting++;
    this.#wantsSlot[o] = 1;
    this.requestDecide(now);
  }

  requestDecide(now: number): void {
    if (this.#decidePending || this.#tickPending) return;
    if (this.#xslot === 0) {
      this.#decidePending = true;
      this.#sched.schedule(now, this, DECIDE);
      return;
    }
    let at = Math.ceil(now / this.#xslot) * this.#xslot;
    if (at <= this.#lastDecideAt) at = this.#lastDecideAt + this.#xslot;
    this.#tickPending = true;
    this.#sched.schedule(at, this, TICK);
  }

  /** A transfer from input i started, of a packet whose wire time on the output link is `wire`. */
  transfer(i: number, wire: number, now: number): void {
    let duration = wire;
    if (this.#queued) duration = this.#slot === 0 ? Math.ceil(wire / this.timing.speedup) : Math.ceil(wire / this.#slot) * this.#xslot;
    this.#sched.schedule(now + duration, this, XFER_DONE, i);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    switch (kind) {
      case XFER_DONE:
        this.#core.transferDone(data as number, now);
        return;
      case TICK:
        // Scheduled now, the DECIDE runs after every event already due at this instant.
        this.#tickPending = false;
        this.#decidePending = true;
        this.#sched.schedule(now, this, DECIDE);
        return;
      case DECIDE:
        this.#decide(now);
        return;
      default:
        throw new RangeError(`crossbar ${this.#name}: unknown event kind ${kind}`);
    }
  }

  snapshot(): CrossbarSnapshot {
    return { ...this.timing, wantsSlot: [...this.#wantsSlot].flatMap((w, o) => (w === 1 ? [o] : [])) };
  }

  #decide(now: number): void {
    this.#decidePending = false;
    this.#lastDecideAt = now;
    const atSlot = this.mayTransmit(now);
    let wanting = false;
    for (let o = 0; o < this.#wantsSlot.length && this.#wanting > 0; o++) {
      if (this.#wantsSlot[o] === 0) continue;
      if (atSlot) {
        this.#wantsSlot[o] = 0;
        this.#wanting--;
        this.#host.kickAtSlot(o, now);
      } else wanting = true;
    }
    // iSLIP can leave an input and an output that want each other unmatched (its iterations ran
    // out): they try again at the next decision, the next crossbar slot or, unslotted, at once.
    // Every other wait ends with an event that asks for a decision (a transfer's end, room in a
    // queue, an idle link, a credit).
    const leftover = this.#core.decide(now, atSlot);
    if (atSlot) this.#host.releaseCredits(now);
    if (leftover || (this.slotted && (wanting || this.#host.hasPendingCredits()))) this.requestDecide(now);
  }
}
