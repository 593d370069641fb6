import type { Time } from '../engine/contract.ts';
import type { Timers } from '../engine/timers.ts';
import type { IngressCreditBook } from './tm-ingress-credit.ts';
import type { IngressQueue } from './tm-ingress-queue.ts';
import { usesCredit, usesRate } from './tm-mode.ts';
import type { TmModeSetting } from './tm-mode.ts';
import type { TmGateReason, TmIngressOutput, TmRateTimerName } from './tm-types.ts';

/**
 * The ingress scheduler gate of a queue (Part 10 §3.4.2–§3.4.4, §3.4.5 rule 4 "An ingress shall
 * not overrule a TM directive from the egress"): what keeps its oldest PDU from going at `now`,
 * checked in the order on/off, credit, rate; null when nothing does. With TM disabled nothing.
 */
export function gateBlocker(q: IngressQueue, mode: TmModeSetting, credit: IngressCreditBook, now: Time): 'on-off' | 'credit' | 'rate' | null {
  if (mode === 'DISABLED') return null;
  if (!q.on) return 'on-off';
  if (usesCredit(mode) && !credit.hasCredit(q.scope)) return 'credit';
  if (usesRate(mode) && q.rateReadyAt(now) > now) return 'rate';
  return null;
}

/**
 * Reports the gates that opened or closed, by queue key, then the timer requests: a queue held
 * back by its rate alone asks to be woken when its token buckets will let the PDU go. A gate
 * that opens gives as reason the mechanism that had closed it; any change in an input that
 * changed the mode (a register write) gives 'mode'.
 */
export function refreshGates(
  queues: Iterable<IngressQueue>, blocker: (q: IngressQueue) => 'on-off' | 'credit' | 'rate' | null,
  timers: Timers<TmRateTimerName>, now: Time, modeChanged: boolean, out: TmIngressOutput[],
): void {
  const requests: TmIngressOutput[] = [];
  for (const q of queues) {
    const b = blocker(q);
    const open = b === null;
    if (open !== q.gateOpen) {
      const reason: TmGateReason = modeChanged ? 'mode' : (open ? q.closedBy : b) ?? 'mode';
      out.push({ kind: 'gate', queue: q.key, open, reason });
      q.gateOpen = open;
    }
    q.closedBy = b;
    const name: TmRateTimerName = `rate:${q.key}`;
    if (b === 'rate') {
      const at = q.rateReadyAt(now);
      if (timers.deadline(name) !== at) timers.arm(name, at, requests);
    } else {
      timers.cancel(name, requests);
    }
  }
  out.push(...requests);
}
