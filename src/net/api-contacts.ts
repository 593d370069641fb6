/**
 * Who this end point knows how to reach, and the packets of nodes it does not know yet.
 *
 * Annex 2 §3.3: management messages go to a node through the contact its registers advertise,
 * found by discovery; Figure 3-1 shows the destination of an OPEN reading the "Session Mgmt CSR
 * of <SOURCE>" before it answers. The session engine answers an unknown node through its own kind
 * of contact (decision E1) but cannot send it a request of its own, such as the OPEN that completes
 * a conduit (§3.4.1). So the process holds the Type 9 and Type 11 packets of a node it has not
 * discovered, discovers it, and hands them on, in order, once discovery has reported the node
 * (participant or not). MAINTENANCE (Type 8), Type 13 responses and Type 7 pass at once: they
 * are answered by address, and the other node's discovery of this one runs on them.
 *
 * The hold is bounded (issue 8 §3 "a flood does not grow memory without bound"): at most
 * `perNode` packets for one node and `total` for all; a packet beyond passes at once (counted).
 */
import type { Packet } from '../wire/packet.ts';

export interface GateLimits {
  readonly perNode: number;
  readonly total: number;
}

export const DEFAULT_GATE_LIMITS: GateLimits = { perNode: 256, total: 1024 };

export type GateVerdict =
  /** Hand it to the engine now. */
  | { readonly action: 'pass'; readonly overflow: boolean }
  /** Held; `discover` names the node to discover when this is its first held packet. */
  | { readonly action: 'hold'; readonly discover: number | null };

export class ContactGate<P extends Packet = Packet> {
  readonly #self: number;
  readonly #limits: GateLimits;
  /** Nodes discovery has reported (any outcome): their packets pass. */
  readonly #reported = new Set<number>();
  readonly #held = new Map<number, P[]>();
  #total = 0;

  constructor(self: number, limits: GateLimits = DEFAULT_GATE_LIMITS) {
    this.#self = self;
    this.#limits = limits;
  }

  get held(): number {
    return this.#total;
  }

  /** Whether discovery has reported `node`. */
  known(node: number): boolean {
    return this.#reported.has(node);
  }

  /** A received packet. */
  admit(p: P): GateVerdict {
    if (p.ftype !== 9 && p.ftype !== 11) return { action: 'pass', overflow: false };
    const from = p.sourceID;
    if (from === this.#self || this.#reported.has(from)) return { action: 'pass', overflow: false };
    const list = this.#held.get(from);
    if ((list?.length ?? 0) >= this.#limits.perNode || this.#total >= this.#limits.total) return { action: 'pass', overflow: true };
    this.#total++;
    if (list === undefined) {
      this.#held.set(from, [p]);
      return { action: 'hold', discover: from };
    }
    list.push(p);
    return { action: 'hold', discover: null };
  }

  /** Discovery reported `node`: its held packets, oldest first, to hand to the engine. */
  reported(node: number): P[] {
    this.#reported.add(node);
    const list = this.#held.get(node) ?? [];
    this.#held.delete(node);
    this.#total -= list.length;
    return list;
  }

  /** The node must be discovered again before its packets pass (it was lost, or came back). */
  forget(node: number): void {
    this.#reported.delete(node);
  }

  /** Nodes with packets held, for status. */
  waiting(): number[] {
    return [...this.#held.keys()].sort((a, b) => a - b);
  }
}
