import type { Counters, Time } from '../engine/contract.ts';
import type { TmMessage } from '../wire/type9-tm.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';
import type { PacketFlow } from './classifier.ts';
import type { IngressCreditBook, StatusBatch } from './tm-ingress-credit.ts';
import type { ResolvedTmIngressConfig } from './tm-ingress-config.ts';
import type { IngressQueue } from './tm-ingress-queue.ts';
import { applyRate, flowForDesignation } from './tm-ingress-rules.ts';
import type { TmModeSetting } from './tm-mode.ts';
import { matchQueues } from './tm-operand-match.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { REJECTION_COUNTER, packetFlow, rejectionEvent, screenTm } from './tm-packet.ts';
import type { TmEvent, TmIngressCounterName, TmIngressEventName, TmIngressOutput } from './tm-types.ts';

type Out = TmIngressOutput[];

/** The parts of the ingress (tm-ingress.ts) a received TM message acts on. */
export interface DirectiveContext {
  readonly config: ResolvedTmIngressConfig;
  readonly counters: Counters<TmIngressCounterName>;
  readonly queues: ReadonlyMap<string, IngressQueue>;
  readonly credit: IngressCreditBook;
  /** The TM Mode in force. */
  mode(): TmModeSetting;
  /** The time of the input being handled. */
  now(): Time;
  /** Sends the CREDIT STATUS messages of a batch. */
  sendStatus(batch: StatusBatch | null, out: Out): void;
  event(out: Out, name: TmIngressEventName, fields: Omit<TmEvent<TmIngressEventName>, 'kind' | 'name'>): void;
}

/**
 * A TM packet received by the ingress (Part 10 §3.4): screened for the mode and the direction
 * (tm-packet.ts), then an ALLOCATE goes to the credit book and any other directive to each of
 * the ingress's queues it addresses.
 */
export function receiveTm(c: DirectiveContext, p: Type9TmPacket, out: Out): void {
  c.counters.tmReceived++;
  const s = screenTm(p, c.mode(), 'ingress');
  if (!s.ok) {
    c.counters[REJECTION_COUNTER[s.rejection]]++;
    out.push(rejectionEvent(s.rejection, p));
    return;
  }
  const m = s.message;
  if (m.message === 'ALLOCATE') {
    allocate(c, s.designation, s.key, m.allocationUnit, m.credits, packetFlow(p), out);
    return;
  }
  const keys = matchQueues(s.designation, 'ingress', [...c.queues.values()].map((q) => q.scope));
  if (keys.length === 0) {
    c.counters.noQueue++;
    c.event(out, 'no-queue', { designation: s.key, tmOp: p.tmOp, parameter1: p.parameter1, parameter2: p.parameter2 });
    return;
  }
  for (const key of keys) direct(c, c.queues.get(key) as IngressQueue, m, out);
}

/** One directive applied to one addressed queue (§3.4.5 rule 6 duplicates are per queue). */
function direct(c: DirectiveContext, q: IngressQueue, m: TmMessage, out: Out): void {
  if (m.message === 'XOFF' || m.message === 'XON') {
    const off = m.message === 'XOFF';
    if (q.on !== off) {
      c.counters[off ? 'duplicateXoff' : 'duplicateXon']++;
      c.event(out, off ? 'duplicate-xoff' : 'duplicate-xon', { queue: q.key });
      return;
    }
    c.counters[off ? 'xoff' : 'xon']++;
    q.on = !off;
    return;
  }
  if (!q.on) {
    // Table 4-5 XON: "Start transmitting at the rate prior to receiving the XOFF".
    c.counters.rateWhileOff++;
    c.event(out, 'rate-while-off', { queue: q.key, detail: m.message });
    return;
  }
  const r = applyRate(q, m, c.config, c.now());
  if (r.changed) c.counters.rateChanges++;
  if (r.clamped) {
    c.counters.rateClamped++;
    c.event(out, 'rate-clamped', { queue: q.key, detail: `${m.message} stopped at ${q.bucket(r.rate).rate}` });
  }
}

function allocate(c: DirectiveContext, d: TmDesignation, key: string, au: number, credits: number, flow: PacketFlow, out: Out): void {
  if (credits === 0) {
    c.counters.retires++;
    const r = c.credit.retire(d, key, au, flowFor(c, d, flow));
    if (r.result === 'unknown') {
      c.counters.retireUnknown++;
      c.event(out, 'retire-unknown', { designation: key, allocationUnit: au });
    }
    c.sendStatus(r.batch, out);
    return;
  }
  if (c.credit.allocate(d, key, au, credits, flowFor(c, d, flow)) === 'duplicate') {
    c.counters.allocateDuplicate++;
    c.event(out, 'allocate-duplicate', { designation: key, allocationUnit: au, credits });
    return;
  }
  c.counters.allocations++;
}

function flowFor(c: DirectiveContext, d: TmDesignation, fallback: PacketFlow): PacketFlow {
  return flowForDesignation(d, c.queues, c.config.classifier, fallback);
}
