import type { PacketFlow } from './classifier.ts';
import { IngressCreditContext } from './tm-credit.ts';
import type { CreditStatus, RetireResult } from './tm-credit.ts';
import { coversQueue, specificity } from './tm-operand-match.ts';
import type { QueueScope, TmDesignation } from './tm-operand-match.ts';
import type { TmIngressCreditSnapshot } from './tm-snapshot-types.ts';

/** CREDIT STATUS messages to send about one designation, in the flow of its data. */
export interface StatusBatch {
  readonly designation: TmDesignation;
  readonly flow: PacketFlow;
  readonly status: readonly CreditStatus[];
}

/**
 * The ingress's credit contexts, one per designation an ALLOCATE named ("The allocation unit value
 * has local scope to the <Q> designation", Part 10 §3.4.4). A queue draws from the narrowest
 * designation that covers it, ties by key (riodp decision: the protocol lets an egress allocate
 * to a stream, a class, a class group, a destination or all traffic, and a PDU takes exactly one
 * credit). A context that holds no AU any more is forgotten.
 */
export class IngressCreditBook {
  readonly #low: number;
  readonly #contexts = new Map<string, IngressCreditContext>();
  readonly #flows = new Map<string, PacketFlow>();

  constructor(lowCredits: number) {
    this.#low = lowCredits;
  }

  contextFor(q: QueueScope): IngressCreditContext | undefined {
    let best: IngressCreditContext | undefined;
    let bestRank = Infinity;
    for (const c of this.#contexts.values()) {
      if (!coversQueue(c.designation, 'ingress', q)) continue;
      const rank = specificity(c.designation);
      if (best === undefined || rank < bestRank || (rank === bestRank && c.key < best.key)) {
        best = c;
        bestRank = rank;
      }
    }
    return best;
  }

  hasCredit(q: QueueScope): boolean {
    return this.contextFor(q)?.hasCredit() === true;
  }

  /** ALLOCATE <AU> <n>, n > 0; `flow` is the flow of the designation's data, kept for the context's CREDIT STATUS. */
  allocate(d: TmDesignation, key: string, au: number, credits: number, flow: PacketFlow): 'held' | 'duplicate' {
    let ctx = this.#contexts.get(key);
    if (ctx === undefined) {
      ctx = new IngressCreditContext(key, d, this.#low);
      this.#contexts.set(key, ctx);
      this.#flows.set(key, flow);
    }
    return ctx.allocate(au, credits);
  }

  /** ALLOCATE <AU> <0>: always answered with CREDIT STATUS <AU> <0>, about the designation of the message when nothing is held. */
  retire(d: TmDesignation, key: string, au: number, flow: PacketFlow): { readonly result: RetireResult; readonly batch: StatusBatch } {
    const ctx = this.#contexts.get(key);
    if (ctx === undefined) return { result: 'unknown', batch: { designation: d, flow, status: [{ allocationUnit: au, credits: 0 }] } };
    const r = ctx.retire(au);
    const batch = this.#batch(ctx, r.status);
    this.#forgetIfEmpty(ctx);
    return { result: r.result, batch };
  }

  /** One PDU of queue `q` takes a credit; null when the queue has no credit at all. */
  consume(q: QueueScope): StatusBatch | null {
    const ctx = this.contextFor(q);
    const status = ctx?.consume() ?? null;
    if (ctx === undefined || status === null) return null;
    const batch = this.#batch(ctx, status);
    this.#forgetIfEmpty(ctx);
    return batch;
  }

  relinquish(q: QueueScope): StatusBatch | null {
    const ctx = this.contextFor(q);
    if (ctx === undefined) return null;
    const batch = this.#batch(ctx, ctx.relinquish());
    this.#forgetIfEmpty(ctx);
    return batch;
  }

  /** Opens the next AU of the queue's context when none is in use. */
  open(q: QueueScope): StatusBatch | null {
    const ctx = this.contextFor(q);
    if (ctx === undefined || ctx.current !== null) return null;
    const status = ctx.open();
    return status.length === 0 ? null : this.#batch(ctx, status);
  }

  toJSON(): TmIngressCreditSnapshot[] {
    return [...this.#contexts.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((c) => ({ key: c.key, ...c.toJSON(), flow: this.#flows.get(c.key) as PacketFlow }));
  }

  #batch(ctx: IngressCreditContext, status: readonly CreditStatus[]): StatusBatch {
    return { designation: ctx.designation, flow: this.#flows.get(ctx.key) as PacketFlow, status };
  }

  #forgetIfEmpty(ctx: IngressCreditContext): void {
    if (!ctx.isEmpty()) return;
    this.#contexts.delete(ctx.key);
    this.#flows.delete(ctx.key);
  }
}
