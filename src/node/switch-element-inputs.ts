import type { Packet } from '../wire/packet.ts';
import { FTYPE_FLOW_CONTROL } from '../wire/type7.ts';
import type { Type8ReadRequest, Type8WriteRequest } from '../wire/type8.ts';

/**
 * The input side of a switch port: packets received but not yet queued at an output because
 * their output has no room for them ("bounded buffers with backpressure (no loss)", issue 8 §1).
 * While an input holds a packet the driver is told to stop reading its link (`input-paused`);
 * when the hold empties it may read again (`input-resumed`).
 *
 * Which held packet may move on, Part 6 §6.11 packet delivery rules 4–6 and §6.12 rule 4: a
 * packet may leave before an older held packet for the same output only when its priority is
 * higher (rule 4: a transaction request flow has one priority and one output, so its packets never
 * reorder; rule 5 "shall not allow lower priority non-maintenance packets ... to pass higher
 * priority non-maintenance packets with the same sourceID and destinationID", which share an
 * output by rule 3; rule 6: a maintenance packet of priority N never passes one of priority N or
 * greater "that takes the same path through the switch"; §6.12 rule 4 lets the higher priority
 * through: "shall accept an error-free packet of priority N if there is no packet of priority
 * greater than or equal to N that was previously received by the port and is still waiting").
 * Packets for other outputs are not held back. A Type 7 packet never passes an older Type 7
 * packet for the same output, whatever the priorities (Part 9 §2.4.4 rule 3). A request for the
 * switch counts as bound for its response's output, so requests to the switch are answered in order.
 */

/** What a held packet does once it can: be queued at `out`, or be answered (its response queued at `out`). */
export type HeldAction =
  | { readonly kind: 'forward'; readonly packet: Packet; readonly hopDecremented: boolean; readonly wire: unknown }
  | { readonly kind: 'answer'; readonly request: Type8ReadRequest | Type8WriteRequest };

export interface Held {
  readonly action: HeldAction;
  /** The received packet's priority and ftype, which order it among the held packets. */
  readonly prio: number;
  readonly ftype: number;
  readonly octets: number;
  /** The output it needs room at; -1 when it needs none (an answer whose response has no route). */
  readonly out: number;
  /** The priority it is admitted at there (a response's, for an answer). */
  readonly need: number;
}

export class InputPort {
  readonly held: Held[] = [];
  /** Whether the driver was told to stop reading and not yet told to resume. */
  paused = false;
  up = false;

  /**
   * Offers every held packet the rules let go, oldest first, to `admit`, which queues it and
   * returns true, or returns false when its output has no room. Admitted packets leave the hold.
   */
  release(admit: (h: Held) => boolean): number {
    let kept = 0;
    let released = 0;
    /** Per output: the highest priority held before, and whether a Type 7 packet is among them. */
    const older = new Map<number, { prio: number; flowControl: boolean }>();
    for (const h of this.held) {
      const before = older.get(h.out);
      const blocked = before !== undefined && (h.prio <= before.prio || (h.ftype === FTYPE_FLOW_CONTROL && before.flowControl));
      if (!blocked && admit(h)) {
        released++;
        continue;
      }
      this.held[kept++] = h;
      older.set(h.out, { prio: Math.max(before?.prio ?? -1, h.prio), flowControl: (before?.flowControl ?? false) || h.ftype === FTYPE_FLOW_CONTROL });
    }
    this.held.length = kept;
    return released;
  }

  /** The backpressure output the hold now calls for, if its state changed: stop reading while anything is held. */
  pauseChange(): 'input-paused' | 'input-resumed' | null {
    if ((this.held.length > 0) === this.paused) return null;
    this.paused = !this.paused;
    return this.paused ? 'input-paused' : 'input-resumed';
  }

  /** Drops held packets bound for `out` (its link went down); how many. */
  dropFor(out: number): number {
    const before = this.held.length;
    const keep = this.held.filter((h) => h.out !== out || h.action.kind === 'answer');
    this.held.length = 0;
    this.held.push(...keep);
    return before - keep.length;
  }
}
