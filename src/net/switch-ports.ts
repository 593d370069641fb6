/**
 * The ports of `riodp switch` (switch-process.ts): the link on each, whether the element holds it
 * (backpressure) or its fair share stopped it (input-share.ts), and the turns of the ports that
 * have frames to send. A link is read only while neither the element nor its share stops it;
 * each resumes it only when the other does not stop it.
 */
import type { Counters } from '../engine/contract.ts';
import { InputShare } from './input-share.ts';
import type { Link } from './link.ts';
import type { Listener } from './listen.ts';
import type { SwitchProcessCounter } from './switch-process-types.ts';

/** One port of the switch process. */
export interface Slot {
  readonly port: number;
  listener: Listener | null;
  link: Link | null;
  /** The element said `ready` and has not answered a pull with `idle` since. */
  wanting: boolean;
  /** The element said `input-paused` and not `input-resumed` since (backpressure). */
  held: boolean;
  /** This port's pull input, made once. */
  readonly pull: { readonly kind: 'pull'; readonly port: number };
}

export class SwitchPorts {
  readonly slots: readonly Slot[];
  /** The fair share between the input ports; null when the configuration turns it off. */
  readonly #share: InputShare | null;
  /** `shareStops` is counted here. */
  readonly #counters: Counters<SwitchProcessCounter>;
  /** Port the next pull starts looking from: ports with frames to send take turns. */
  #rr = 0;
  #roundDue = false;
  readonly #round = (): void => { this.#nextRound(); };

  constructor(ports: number, fairShare: { readonly quantum: number } | null, counters: Counters<SwitchProcessCounter>) {
    this.slots = Array.from({ length: ports }, (_, port) => ({ port, listener: null, link: null, wanting: false, held: false, pull: { kind: 'pull', port } as const }));
    this.#share = fairShare === null ? null : new InputShare(ports, fairShare.quantum);
    this.#counters = counters;
  }

  /** A link came to the port or left it: neither held by the element nor stopped by its share. */
  clear(slot: Slot): void {
    slot.held = false;
    this.#share?.reset(slot.port);
  }

  /** Whether the port's link waits for the next round of the fair share. */
  yielded(port: number): boolean {
    return this.#share?.isStopped(port) ?? false;
  }

  /** Times the port's link was stopped at its quantum. */
  shareStops(port: number): number {
    return this.#share?.stops(port) ?? 0;
  }

  // ---- Fair share -------------------------------------------------------------------------------

  /** A frame `slot`'s link read: at the end of its quantum the link stops, after this frame, until the next round. */
  took(slot: Slot): void {
    if (this.#share === null || !this.#share.took(slot.port)) return;
    this.#shareStop(slot);
  }

  /** How many of a run of `count` frames from the port its share lets the element take. */
  allowance(port: number, count: number): number {
    return this.#share === null ? count : Math.min(count, this.#share.left(port));
  }

  /** The element took `taken` frames of a run from `slot`'s link (the fast lane). */
  tookMany(slot: Slot, taken: number): void {
    if (this.#share !== null && this.#share.tookMany(slot.port, taken)) this.#shareStop(slot);
  }

  #shareStop(slot: Slot): void {
    this.#counters.shareStops++;
    slot.link?.pause();
    if (this.#roundDue) return;
    this.#roundDue = true;
    // After the poll phase of this turn of the event loop: the other sockets are read first.
    setImmediate(this.#round);
  }

  /** A new round: the links stopped at their quantum read again, in turn, unless the element holds them. */
  #nextRound(): void {
    this.#roundDue = false;
    for (const port of (this.#share as InputShare).round()) {
      const s = this.slots[port] as Slot;
      if (!s.held) s.link?.resume();
    }
  }

  // ---- Backpressure and pulls -------------------------------------------------------------------

  /** `input-paused`: the port's link stops at once. */
  pause(port: number): void {
    const s = this.slots[port];
    if (s === undefined) return;
    s.held = true;
    s.link?.pause();
  }

  /** `input-resumed`: the port's link reads again, unless its share stopped it. */
  resume(port: number): void {
    const s = this.slots[port];
    if (s === undefined) return;
    s.held = false;
    // A link stopped at its quantum waits for the next round (#nextRound) all the same.
    if (this.#share?.isStopped(port) !== true) s.link?.resume();
  }

  /** The next port, in turn, whose element output wants to send and whose link can take it. */
  nextPull(): number | undefined {
    const n = this.slots.length;
    for (let k = 0; k < n; k++) {
      const p = (this.#rr + k) % n;
      const s = this.slots[p] as Slot;
      if (s.wanting && s.link?.state === 'open' && s.link.writable) {
        this.#rr = (p + 1) % n;
        return p;
      }
    }
    return undefined;
  }
}
