import type { TmDesignation } from './tm-operand-match.ts';
import type { TmEgressCreditState } from './tm-snapshot-types.ts';

/**
 * The egress side of credit based traffic management (Part 10 §3.4.4, §3.4.5 rule 7): the
 * allocation units issued to one designation (<Q>), in rotation, and what the ingress's CREDIT
 * STATUS messages and PDUs say about them.
 *
 * AU states: `allocated` (ALLOCATE sent, not opened yet), `open` (CREDIT STATUS <AU> <n> seen or
 * assumed), `retiring` (ALLOCATE <AU> <0> sent, CREDIT STATUS <AU> <0> awaited). A closed AU is
 * forgotten, and its number is free again.
 */
export type EgressAuState = 'allocated' | 'open' | 'retiring';

/** An allocation unit the egress issued (§3.4.4) and what it knows of its use. */
export interface EgressAu {
  readonly allocationUnit: number;
  readonly credits: number;
  state: EgressAuState;
  /** Whether the ingress opened it (a retiring AU may have been opened before the retire arrived). */
  opened: boolean;
  /** PDUs counted against it ("The egress may also track the number of incoming PDUs"). */
  received: number;
  /** The last credit count the ingress reported for it. */
  reported: number | null;
}

export type StatusResult =
  /**
   * `lost`: AUs allocated before this one and never opened. The ingress uses AUs in the order the
   * ALLOCATEs arrive, and they travel in one flow, so those ALLOCATEs were lost.
   */
  | { readonly kind: 'opened'; readonly assumedClosed: readonly number[]; readonly lost: readonly number[] }
  | { readonly kind: 'low' }
  | { readonly kind: 'closed' }
  | { readonly kind: 'unknown' };

export type PduResult =
  | { readonly kind: 'counted'; readonly allocationUnit: number; readonly assumedOpen: boolean; readonly assumedClosed: readonly number[] }
  | { readonly kind: 'no-credit' };

export class EgressCreditContext {
  readonly key: string;
  readonly designation: TmDesignation;
  readonly #auCount: number;
  #next = 0;
  /** By AU number, in the order issued. */
  readonly #aus = new Map<number, EgressAu>();

  constructor(key: string, designation: TmDesignation, auCount: number) {
    this.key = key;
    this.designation = designation;
    this.#auCount = auCount;
  }

  get nextAllocationUnit(): number {
    return this.#next;
  }

  au(n: number): Readonly<EgressAu> | undefined {
    return this.#aus.get(n);
  }

  /** AUs allocated or open, not being retired: what the credit policy bounds. */
  outstanding(): number {
    let n = 0;
    for (const a of this.#aus.values()) if (a.state !== 'retiring') n++;
    return n;
  }

  /**
   * The next AU of the rotation with `credits`, or null when that number is still in use ("It is
   * up to the egress to be sure an AU is unused before reusing that number").
   */
  allocate(credits: number): number | null {
    const au = this.#next;
    if (this.#aus.has(au)) return null;
    this.#aus.set(au, { allocationUnit: au, credits, state: 'allocated', opened: false, received: 0, reported: null });
    this.#next = (au + 1) % this.#auCount;
    return au;
  }

  /**
   * ALLOCATE <AU> <0> is being sent. An AU the egress no longer tracks is tracked as retiring too:
   * rule 7 "the egress may recover it with a <Q> ALLOCATE <AU><0> message, insuring it is
   * de-allocated before reusing it".
   */
  retire(au: number): void {
    const a = this.#aus.get(au);
    if (a === undefined) this.#aus.set(au, { allocationUnit: au, credits: 0, state: 'retiring', opened: false, received: 0, reported: null });
    else a.state = 'retiring';
  }

  /**
   * CREDIT STATUS <AU> <n>. n = 0 closes the AU ("The egress can close out that chunk of
   * buffering, even if its notion of the number of PDUs received does not agree"). n > 0 opens an
   * AU not yet opened and closes any other open AU (rule 7: "If the <Q> CREDIT STATUS <AU> <0>
   * message is lost, the allocation unit will be assumed closed when the <Q> CREDIT STATUS
   * <AU+1> <N> is received"); on an open AU it reports the credits left.
   */
  status(au: number, credits: number): StatusResult {
    const a = this.#aus.get(au);
    if (a === undefined) return { kind: 'unknown' };
    if (credits === 0) {
      this.#aus.delete(au);
      return { kind: 'closed' };
    }
    if (a.opened) {
      // Credits only go down within an AU: a higher count is a repeated message (rule 6), not news.
      if (a.reported === null || credits < a.reported) a.reported = credits;
      return { kind: 'low' };
    }
    a.reported = credits;
    const lost: number[] = [];
    for (const b of this.#aus.values()) {
      if (b === a) break;
      if (b.state === 'allocated') lost.push(b.allocationUnit);
    }
    a.opened = true;
    if (a.state === 'allocated') a.state = 'open';
    return { kind: 'opened', assumedClosed: this.#closeOthers(au), lost };
  }

  /**
   * One received PDU, counted against the open AU while it has credits left; otherwise rule 7:
   * "If the <Q> CREDIT STATUS <AU+1> <N> message is lost, the next allocation unit is assumed to
   * be opened when the next PDU for that stream is received" (the oldest allocated AU).
   */
  pdu(): PduResult {
    const open = this.#open();
    if (open !== undefined && open.received < open.credits) {
      open.received++;
      return { kind: 'counted', allocationUnit: open.allocationUnit, assumedOpen: false, assumedClosed: [] };
    }
    const next = [...this.#aus.values()].find((a) => a.state === 'allocated');
    if (next === undefined) return { kind: 'no-credit' };
    next.state = 'open';
    next.opened = true;
    next.received = 1;
    return { kind: 'counted', allocationUnit: next.allocationUnit, assumedOpen: true, assumedClosed: this.#closeOthers(next.allocationUnit) };
  }

  /** The open AU most recently opened (there is one unless a message was lost). */
  #open(): EgressAu | undefined {
    let found: EgressAu | undefined;
    for (const a of this.#aus.values()) if (a.opened && a.state !== 'allocated') found = a;
    return found;
  }

  #closeOthers(au: number): number[] {
    const closed: number[] = [];
    for (const a of [...this.#aus.values()]) {
      if (a.allocationUnit !== au && a.opened && a.state === 'open') {
        this.#aus.delete(a.allocationUnit);
        closed.push(a.allocationUnit);
      }
    }
    return closed;
  }

  toJSON(): TmEgressCreditState {
    return { designation: this.designation, nextAllocationUnit: this.#next, aus: [...this.#aus.values()].map((a) => ({ ...a })) };
  }
}
