/**
 * The queue levels an end point's traffic management reports (Part 10 §3.4.2 Table 4-4 "Source
 * queue is n/255 full (where n is parameter 2). 0 = empty, 0xFF = full"), and what a sent TM
 * packet is counted as.
 */
import { tmMessage } from '../../wire/type9-tm.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';

/**
 * The buffers data of priority `prio` can fill: Part 6 §5 deadlock avoidance accepts it only
 * while more than (3 − prio) × reservePerPriority buffers are free, so the rest is never its room.
 */
export function dataCapacity(capacity: number, reservePerPriority: number, prio: number): number {
  return Math.max(1, capacity - (3 - prio) * reservePerPriority);
}

/**
 * The level n/255 of a receive queue holding `packets` where data can fill `room` buffers,
 * rounded up as Table 4-5's notes round reduced-precision levels ("Q_STATUS values should be
 * rounded UP to the nearest precision"): any packet waiting is a level above 0, and 0xFF is a
 * queue that takes no more of the data.
 */
export function receiveQueueLevel(packets: number, room: number): number {
  if (packets <= 0 || room <= 0) return 0;
  return Math.min(0xff, Math.ceil((0xff * packets) / room));
}

/** What a sent TM packet counts as (feature counters and `tm.<kind>` probe counters). */
export type TmSentKind = 'xoff' | 'xon' | 'rate' | 'allocate' | 'retire' | 'qStatus' | 'creditStatus' | 'other';

export function sentKind(p: Pick<Type9TmPacket, 'tmOp' | 'parameter1' | 'parameter2'>): TmSentKind {
  const m = tmMessage(p.tmOp, p.parameter1, p.parameter2);
  switch (m.message) {
    case 'XOFF':
      return 'xoff';
    case 'XON':
      return 'xon';
    case 'REDUCE':
    case 'INCREASE':
    case 'DOUBLE':
    case 'MAINTAIN':
      return 'rate';
    case 'ALLOCATE':
      // §3.4.4 "<Q> ALLOCATE <AU> <0> is used to retire an allocation".
      return m.credits === 0 ? 'retire' : 'allocate';
    case 'Q_STATUS':
      return 'qStatus';
    case 'CREDIT_STATUS':
      return 'creditStatus';
    default:
      return 'other';
  }
}
