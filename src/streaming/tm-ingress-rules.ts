import { fitsDeviceId } from '../engine/config-checks.ts';
import type { Time } from '../engine/contract.ts';
import { FLOW_IDS } from '../wire/flow-id.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import type { TmMessage, TmRate } from '../wire/type9-tm.ts';
import type { Classifier, PacketFlow, StreamTarget } from './classifier.ts';
import type { ResolvedTmIngressConfig } from './tm-ingress-config.ts';
import type { IngressQueue } from './tm-ingress-queue.ts';
import { modeTakesOp } from './tm-mode.ts';
import type { TmModeSetting } from './tm-mode.ts';
import { coversStream, matchQueues } from './tm-operand-match.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { doubledRate, increasedRate, reducedRate, roundIncrease, roundReduce } from './tm-rate.ts';
import type { RateResult } from './tm-rate.ts';
import type { TmUserCommand } from './tm-types.ts';

/** Helpers of the ingress engine (tm-ingress.ts): rate directives, flows of designations, command checks. */

/**
 * A rate message applied to one queue (Part 10 §3.4.3, Table 4-5). Amounts are first rounded to
 * the ingress's precision (§3.4.5 rule 3 "Receiving endpoints shall support the full range of
 * values by rounding to the desired precision"): REDUCE up, INCREASE down. An INCREASE that
 * rounds to 0 changes nothing.
 */
export function applyRate(q: IngressQueue, m: TmMessage, c: ResolvedTmIngressConfig, now: Time): { readonly rate: TmRate; readonly changed: boolean; readonly clamped: boolean } {
  if (m.message !== 'REDUCE' && m.message !== 'INCREASE' && m.message !== 'DOUBLE' && m.message !== 'MAINTAIN') {
    return { rate: 'average', changed: false, clamped: false };
  }
  const bucket = q.bucket(m.rate);
  const old = bucket.rate;
  let r: RateResult;
  switch (m.message) {
    case 'MAINTAIN':
      // "DECREASE<0> is a special message meaning MAINTAIN current rate" (§3.4.3).
      r = { rate: old, clamped: false };
      break;
    case 'REDUCE':
      r = reducedRate(old, roundReduce(m.amount, c.amountBits), c.rate.minRate);
      break;
    case 'INCREASE': {
      const amount = roundIncrease(m.amount, c.amountBits);
      r = amount === 0 ? { rate: old, clamped: false } : increasedRate(old, amount, c.rate.maxRate);
      break;
    }
    case 'DOUBLE':
      // "INCREASE<max> is a special message to DOUBLE the current rate" (§3.4.3).
      r = doubledRate(old, c.rate.maxRate);
      break;
  }
  bucket.setRate(r.rate, now);
  return { rate: m.rate, changed: r.rate !== old, clamped: r.clamped };
}

/** The flow of the data a designation addresses: its queues', else the classifier's targets', else the packet's (§3.4.5 rule 1). */
export function flowForDesignation(d: TmDesignation, queues: ReadonlyMap<string, IngressQueue>, c: Classifier, fallback: PacketFlow): PacketFlow {
  const [first] = matchQueues(d, 'ingress', [...queues.values()].map((q) => q.scope));
  const q = first === undefined ? undefined : queues.get(first);
  if (q !== undefined) return q.flow;
  const t = c.targets().find((x) => coversStream(d, 'ingress', x.destinationID, x.cos, x.streamID));
  return t === undefined ? fallback : c.flowOf(t);
}

/** Whether an application-given target can be put in a packet of transport type `tt`. */
export function validTarget(t: StreamTarget, tt: number): boolean {
  const int = (v: unknown, max: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
  return fitsDeviceId(t.destinationID, tt) && int(t.cos, 0xff) && int(t.streamID, 0xffff) && Object.hasOwn(FLOW_IDS, t.flowID);
}

/** Why a user or application command cannot be sent in this mode; undefined when it can. */
export function checkUserCommand(c: TmUserCommand, mode: TmModeSetting): string | undefined {
  const byte = (v: unknown, min: number, max: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  if (c.message === 'USER_DEFINED') {
    const op = c.tmOp;
    if (op !== TM_OP.basic && op !== TM_OP.rate && op !== TM_OP.credit) return `USER_DEFINED needs TM OP 0, 1 or 2, not ${String(op)}`;
    if (!modeTakesOp(mode, op)) return `TM OP ${op} is not used in mode ${mode}`;
    // Tables 4-4..4-6: parameter 2 0x01–0xFE with parameter 1 = 0 (0x00 is XOFF, 0xFF is XON).
    if (!byte(c.value, 1, 0xfe)) return `user defined value ${String(c.value)} is not 0x01..0xFE`;
    return undefined;
  }
  if (mode === 'DISABLED') return 'traffic management is disabled';
  if (!byte(c.parameter1, 0, 0xff) || !byte(c.parameter2, 0, 0xff)) return 'application defined parameters are bytes';
  return undefined;
}
