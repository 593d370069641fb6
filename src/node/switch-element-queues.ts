import type { Packet } from '../wire/packet.ts';
import { FTYPE_FLOW_CONTROL } from '../wire/type7.ts';
import { FTYPE_MAINTENANCE } from '../wire/type8.ts';
import { Fifo } from '../engine/fifo.ts';

/**
 * The output side of a switch port: the packets queued for its link and the order they leave in.
 *
 * - Forwarded packets and the switch's maintenance responses share one buffer of `capacity`
 *   packets. A packet of priority p is admitted while more than (3 − p) × `reserve` places are
 *   free, the Part 6 §6.12 rule 4 idea ("a minimum of one maximum length packet input buffer must
 *   be reserved for each priority level") applied to the output buffer: higher priorities always
 *   find room that lower ones cannot take. A packet that does not fit waits at its input.
 * - The switch's own CCPs wait in their own FIFO of `ccpQueue` places (Part 9 §2.4.6 rule 2
 *   "If a switch runs out of packet buffer space, it is permitted to drop CCPs").
 *
 * Order of service: classes prio‖CRF from 7 (prio 3, CRF 1) down to 0 (the sim's Part 6
 * priorities); within a class, the switch's own CCP first, then the oldest of the class.
 *
 * - Maintenance packets take the class of their priority with CRF 0, whatever their CRF: Part 6
 *   §6.11 packet delivery rule 6 "A switch processing element shall not allow a priority N
 *   maintenance packet (ftype = 8) to pass another maintenance packet of priority N or greater
 *   that takes the same path", so two of one priority stay in arrival order.
 * - Forwarded Type 7 packets wait in one FIFO whose head is served in its class: Part 9 §2.4.4
 *   rule 3 "A switch processing element must pass through flow control transactions between an
 *   input and output port pair in the order they are received", whatever their priorities.
 * - Own CCPs keep the order the congestion point made them in (an XON never passes its XOFF).
 */

export interface Queued {
  readonly packet: Packet;
  readonly octets: number;
  /** Arrival order at the switch, for the oldest-first choice within a class. */
  readonly seq: number;
  readonly cls: number;
  /** The input it came from; -1 for the switch's own packets. */
  readonly input: number;
  /** Whether it occupies the output buffer (everything but the switch's own CCPs). */
  readonly counted: boolean;
  /** SwitchPacketInput.wire of a packet forwarded unchanged; undefined otherwise. */
  readonly wire: unknown;
}

export const CLASSES = 8;

/** prio‖CRF, with CRF ignored for maintenance packets (Part 6 §6.11 rule 6). */
export function queueClass(p: Pick<Packet, 'prio' | 'crf' | 'ftype'>): number {
  return p.prio * 2 + (p.ftype === FTYPE_MAINTENANCE ? 0 : p.crf & 1);
}

export class OutputQueue {
  readonly capacity: number;
  readonly reserve: number;
  readonly ccpQueue: number;
  readonly #data: Fifo<Queued>[] = Array.from({ length: CLASSES }, () => new Fifo<Queued>());
  readonly #flowControl = new Fifo<Queued>();
  readonly #own = new Fifo<Queued>();
  /** Packets in the buffer (forwarded and maintenance responses). */
  #count = 0;

  constructor(capacity: number, reserve: number, ccpQueue: number) {
    this.capacity = capacity;
    this.reserve = reserve;
    this.ccpQueue = ccpQueue;
  }

  get count(): number {
    return this.#count;
  }

  get ownCount(): number {
    return this.#own.length;
  }

  get empty(): boolean {
    return this.#count === 0 && this.#own.length === 0;
  }

  /** Whether a packet of priority `prio` fits: more than (3 − prio) × reserve places free. */
  admits(prio: number): boolean {
    return this.capacity - this.#count > (3 - prio) * this.reserve;
  }

  /** Queues a packet the caller has checked with `admits` (counted) or found room for in the CCP FIFO (own). */
  add(q: Queued): void {
    if (!q.counted) {
      this.#own.push(q);
      return;
    }
    this.#count++;
    if (q.packet.ftype === FTYPE_FLOW_CONTROL) this.#flowControl.push(q);
    else (this.#data[q.cls] as Fifo<Queued>).push(q);
  }

  hasOwnRoom(): boolean {
    return this.#own.length < this.ccpQueue;
  }

  /** The next packet to send, removed. */
  next(): Queued | undefined {
    const own = this.#own.peek();
    const fc = this.#flowControl.peek();
    for (let c = CLASSES - 1; c >= 0; c--) {
      if (own?.cls === c) return this.#own.shift();
      const data = (this.#data[c] as Fifo<Queued>).peek();
      const transit = fc?.cls === c ? fc : undefined;
      if (data === undefined && transit === undefined) continue;
      this.#count--;
      if (transit !== undefined && (data === undefined || transit.seq < data.seq)) return this.#flowControl.shift();
      return (this.#data[c] as Fifo<Queued>).shift();
    }
    return undefined;
  }

  /** Everything queued, removed (the link went down). */
  flush(): Queued[] {
    const all = [...this.#own.clear(), ...this.#flowControl.clear()];
    for (const f of this.#data) all.push(...f.clear());
    this.#count = 0;
    return all;
  }

  snapshot(): { readonly count: number; readonly own: number; readonly flowControl: number; readonly byClass: readonly number[] } {
    return { count: this.#count, own: this.#own.length, flowControl: this.#flowControl.length, byClass: this.#data.map((f) => f.length) };
  }
}
