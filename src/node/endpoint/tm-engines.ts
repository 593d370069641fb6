/**
 * Part 10 traffic management at an end point, the part every host shares: the ingress and egress
 * engines (src/streaming/), what a received TM packet is and which engine takes it, the order in
 * which an engine's answer is carried out, and the queue levels reported with Q_STATUS. What a TM
 * queue is differs with the end point's data path, so it is a port's:
 * - the flow queues (tm.ts `TmFeature`, the simulator): one queue per source flow, its gate a bit
 *   of the flow;
 * - the session streams (src/node/endpoint/tm-streams.ts, the software fabric): one queue per
 *   DATA3 transmit stream, its PDUs held before the session stack.
 *
 * An ingress answer is carried out in three passes: gates that close at once (so that no PDU
 * starts through a gate the same answer closes), then its TM packets (so that a CREDIT STATUS
 * goes before the PDUs it opens), then the gates that open (§3.4.5 rule 4 "An ingress shall not
 * overrule a TM directive from the egress").
 */
import type { TmEgress } from '../../streaming/tm-egress.ts';
import type { TmIngress } from '../../streaming/tm-ingress.ts';
import { tmDirection } from '../../streaming/tm-packet.ts';
import { queueStep, reportStep, stepLevel } from '../../streaming/tm-queue-steps.ts';
import type { TmModeSetting } from '../../streaming/tm-mode.ts';
import type { TmEgressInput, TmEgressOutput, TmIngressInput, TmIngressOutput, TmStreamRef } from '../../streaming/tm-types.ts';
import { tmMessage } from '../../wire/type9-tm.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import { MALFORMED_REJECTIONS, malformedTm } from './tm-check.ts';
import type { EndpointTmEngines } from './tm-config.ts';

export type TmGateOutput = Extract<TmIngressOutput, { readonly kind: 'gate' }>;
export type TmEventOutput = Extract<TmIngressOutput, { readonly kind: 'event' }> | Extract<TmEgressOutput, { readonly kind: 'event' }>;

/** What the engines ask of their port. */
export interface TmEnginesHost {
  /** A TM packet to send: from the ingress (`fromIngress`: it follows the data already on its way) or the egress. */
  send(packet: Type9TmPacket, fromIngress: boolean, now: number): void;
  /** A gate output of the ingress, in the answer's first pass: a closing gate applies now. */
  gate(o: TmGateOutput, now: number): void;
  /** The queues whose gates the answer opened, after its packets. */
  opened(queues: readonly string[], now: number): void;
  /** Arm (at, in the host's time unit) or cancel (null) an engine timer; when due, call `timer`. */
  timer(name: string, at: number | null): void;
  /** Something an engine reports; `malformed` when it refused a received packet as breaking Part 10 §4.3. */
  event(side: 'ingress' | 'egress', o: TmEventOutput, malformed: boolean, now: number): void;
}

/** A received TM packet the engines cannot take. */
export type TmRefusal = { readonly why: 'malformed'; readonly reason: string } | { readonly why: 'not-for-us' };

/** One TM queue of the port's as far as level reports go. */
export interface TmQueueLevel {
  readonly stream: TmStreamRef;
  /** The step of the last level given to the ingress. */
  step: number;
}

export class TmEngines {
  readonly ingress: TmIngress;
  readonly egress: TmEgress;
  readonly queueLevelBits: number;
  readonly #levelPeriod: (mode: TmModeSetting) => number;
  readonly #tick: number;
  readonly #host: TmEnginesHost;

  /** `tick`: host time units per engine tick (tm-config.ts `TmClock`). */
  constructor(e: EndpointTmEngines, tick: number, host: TmEnginesHost) {
    this.ingress = e.ingress;
    this.egress = e.egress;
    this.queueLevelBits = e.queueLevelBits;
    this.#levelPeriod = e.levelPeriod;
    this.#tick = tick;
    this.#host = host;
  }

  /** Host time units between the levels given to the egress in the mode the engines run now (tm-config.ts, decision R3). */
  get levelPeriod(): number {
    return this.#levelPeriod(this.ingress.mode());
  }

  /**
   * A received TM packet goes to the engine its message is for (§3.4.2–§3.4.4 list "Egress to
   * Ingress" and "Ingress to Egress" messages); messages either end may receive (user and
   * application defined, reserved) go to the ingress. Undefined when taken.
   */
  receive(p: Type9TmPacket, nodeId: number, now: number): TmRefusal | undefined {
    const malformed = malformedTm(p);
    if (malformed !== undefined) return { why: 'malformed', reason: malformed };
    if (p.destinationID !== nodeId) return { why: 'not-for-us' };
    if (tmDirection(tmMessage(p.tmOp, p.parameter1, p.parameter2)) === 'to-egress') this.toEgress({ kind: 'tm', packet: p }, now);
    else this.toIngress({ kind: 'tm', packet: p }, now);
    return undefined;
  }

  /** Whether the ingress lets `queue` start a PDU now. */
  mayTransmit(queue: string, now: number): boolean {
    return this.ingress.mayTransmit(queue, this.#engineTime(now));
  }

  toIngress(input: TmIngressInput, now: number): void {
    const out = this.ingress.handle(input, this.#engineTime(now));
    let opened: string[] | null = null;
    for (const o of out) {
      if (o.kind === 'gate') {
        this.#host.gate(o, now);
        if (o.open) (opened ??= []).push(o.queue);
      } else if (o.kind === 'timer') {
        this.#host.timer(o.name, o.at === null ? null : o.at * this.#tick);
      } else if (o.kind === 'event') {
        this.#host.event('ingress', o, input.kind === 'tm' && MALFORMED_REJECTIONS.has(o.name), now);
      }
    }
    for (const o of out) if (o.kind === 'tm') this.#host.send(o.packet, true, now);
    if (opened !== null) this.#host.opened(opened, now);
  }

  toEgress(input: TmEgressInput, now: number): void {
    for (const o of this.egress.handle(input, this.#engineTime(now))) {
      if (o.kind === 'tm') this.#host.send(o.packet, false, now);
      else this.#host.event('egress', o, input.kind === 'tm' && MALFORMED_REJECTIONS.has(o.name), now);
    }
  }

  /** Q_STATUS: the fill `length / limit` of a queue goes to the ingress when it crossed a step (tm-queue-steps.ts). */
  reportLevel(q: TmQueueLevel, length: number, limit: number, now: number): void {
    const step = queueStep(length, limit, this.queueLevelBits);
    if (!reportStep(q.step, step)) return;
    q.step = step;
    this.toIngress({ kind: 'queue-level', stream: q.stream, level: stepLevel(step, this.queueLevelBits) }, now);
  }

  #engineTime(now: number): number {
    return this.#tick === 1 ? now : Math.floor(now / this.#tick);
  }
}
