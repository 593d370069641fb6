import type { ResponsePolicy } from './congestion-point-types.ts';
import { flowOrder } from './offending-flow.ts';
import type { CcpFlow } from './offending-flow.ts';

/**
 * Annex A.1 method 1, histogram analysis: "The switch keeps track of packet quantities for the
 * different transaction request flows for which packets are stored in its output buffer", "sorts
 * the transaction request flows according to the number of packets" and "selects the 1 to 5
 * transaction request flows with the most packets stored in the buffers". Counts are packets in
 * either occupancy unit, as A.1 counts "packet quantities".
 */
export interface FlowBucket {
  readonly key: string;
  readonly flow: CcpFlow;
  /** §2.4.3 "A switch may select for shut off a packet with CRF=0 over a packet with CRF=1". */
  readonly crf: number;
  /** When the flow was first seen (a new sequence number each time its bucket is created). */
  readonly seen: number;
  requests: number;
  responses: number;
}

/**
 * §2.4.3 "the choice of which flow to XOFF is preferably made using request packets, not response
 * packets": under `fallback` and `ignore` a flow is weighed by its request packets, and a flow
 * holding only responses ranks after every flow holding requests (`fallback`) or not at all
 * (`ignore`). Under `equal` every packet counts.
 */
function rank(b: FlowBucket, policy: ResponsePolicy): { readonly tier: number; readonly count: number } | undefined {
  if (policy === 'equal') return { tier: 0, count: b.requests + b.responses };
  if (b.requests > 0) return { tier: 0, count: b.requests };
  if (policy === 'ignore' || b.responses === 0) return undefined;
  return { tier: 1, count: b.responses };
}

/**
 * Negative when `a` is chosen first: more packets; at equal counts CRF=0 before CRF=1 (§2.4.3),
 * then a flow holding requests before a response-only flow, then the lower flowID (the lower
 * priority flow, which an XOFF stops together with nothing below it), then the flow seen first.
 */
function compare(a: FlowBucket, ra: { tier: number; count: number }, b: FlowBucket, rb: { tier: number; count: number }): number {
  return ra.tier - rb.tier
    || rb.count - ra.count
    || a.crf - b.crf
    || Number(a.requests === 0) - Number(b.requests === 0)
    || flowOrder(a.flow.flowID) - flowOrder(b.flow.flowID)
    || a.seen - b.seen;
}

export class FlowHistogram {
  readonly #buckets = new Map<string, FlowBucket>();
  #seen = 0;
  #requests = 0;

  add(key: string, flow: CcpFlow, crf: number, response: boolean): void {
    let b = this.#buckets.get(key);
    if (b === undefined) {
      b = { key, flow, crf, seen: this.#seen++, requests: 0, responses: 0 };
      this.#buckets.set(key, b);
    }
    if (response) b.responses++;
    else {
      b.requests++;
      this.#requests++;
    }
  }

  /** False (and nothing changes) when no such packet is buffered. */
  remove(key: string, response: boolean): boolean {
    const b = this.#buckets.get(key);
    if (b === undefined || (response ? b.responses : b.requests) === 0) return false;
    if (response) b.responses--;
    else {
      b.requests--;
      this.#requests--;
    }
    if (b.requests + b.responses === 0) this.#buckets.delete(key);
    return true;
  }

  /** Packets currently buffered for a flow. */
  count(key: string): number {
    const b = this.#buckets.get(key);
    return b === undefined ? 0 : b.requests + b.responses;
  }

  /** Request packets buffered over all flows (the threshold method's `fallback` test). */
  requestPackets(): number {
    return this.#requests;
  }

  /** The `n` flows A.1 method 1 selects, best first, under a response policy. */
  top(n: number, policy: ResponsePolicy): FlowBucket[] {
    const best: { b: FlowBucket; r: { tier: number; count: number } }[] = [];
    for (const b of this.#buckets.values()) {
      const r = rank(b, policy);
      if (r === undefined) continue;
      let i = best.length;
      for (; i > 0; i--) {
        const prev = best[i - 1];
        if (prev === undefined || compare(b, r, prev.b, prev.r) >= 0) break;
      }
      if (i >= n) continue;
      best.splice(i, 0, { b, r });
      if (best.length > n) best.pop();
    }
    return best.map((e) => e.b);
  }

  buckets(): IterableIterator<FlowBucket> {
    return this.#buckets.values();
  }
}
