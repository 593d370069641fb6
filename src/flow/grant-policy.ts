import type { GrantPolicy, QueuedRequest } from './arbitration-types.ts';

/**
 * Grant policies of the arbitration receiver. §2.4.7 rule 9: "The receiver may delay sending
 * responses to the REQUEST commands to consider which REQUESTs to grant or reject. There is no
 * ordering requirement for processing requests from different flows." §2.2.2: pending requests
 * give "the destination an opportunity to use the pending requests to get a look at the incoming
 * traffic and make better allocation decisions should there be limited resources".
 *
 * The engine hands a policy only the requests it may grant now (flows holding no resource,
 * rule 10) and calls it only while a resource is free; a policy returns the index of the request
 * to grant, or undefined to keep every request waiting.
 */

/** Index of the earliest request (by arrival order) that satisfies `want`. */
function earliest(queue: readonly QueuedRequest[], want: (q: QueuedRequest) => boolean): number | undefined {
  let best: number | undefined;
  let bestOrder = Infinity;
  queue.forEach((q, i) => {
    if (want(q) && q.order < bestOrder) {
      best = i;
      bestOrder = q.order;
    }
  });
  return best;
}

const any = (): boolean => true;

/** First come, first served: the request that arrived first. */
export const fifoPolicy: GrantPolicy = (queue, freeResources) => (freeResources > 0 ? earliest(queue, any) : undefined);

/**
 * Single-PDU requests first (oldest first), then multi-PDU ones. A single-PDU resource comes back
 * by itself at the PDU's last segment (rule 5), a multi-PDU one only at RELEASE (rule 7), so
 * serving short holders first keeps more requests moving through a small pool.
 */
export const singleBeforeMulti: GrantPolicy = (queue, freeResources) => {
  if (freeResources <= 0) return undefined;
  return earliest(queue, (q) => q.mode === 'single') ?? earliest(queue, any);
};

/**
 * FIFO, except that a multi-PDU request is granted only while more than `reserve` resources are
 * free: the last `reserve` resources stay for single-PDU transfers, so long-lived multi-PDU
 * holders cannot starve them. Waiting multi-PDU requests are passed over, not blocking.
 */
export function reserveForSingle(reserve: number): GrantPolicy {
  if (!Number.isSafeInteger(reserve) || reserve < 0) throw new RangeError('reserve must be a non-negative integer');
  return (queue, freeResources) => {
    if (freeResources <= 0) return undefined;
    return earliest(queue, (q) => q.mode === 'single' || freeResources > reserve);
  };
}
