import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type7Packet } from '../wire/type7.ts';
import { refusesToQueue, resolveArbRxConfig } from './arb-rx-config.ts';
import type { ResolvedArbRxConfig } from './arb-rx-config.ts';
import { arbResponse, readArbCcp } from './arb-rx-messages.ts';
import type { ArbRxEventDetail } from './arb-rx-messages.ts';
import type {
  ArbAllocation, ArbMode, ArbRxConfig, ArbRxCounterName, ArbRxEventName, ArbRxInput, ArbRxOutput, ArbRxSnapshot, FreeReason, GrantPolicy, QueuedRequest, SegmentKind,
} from './arbitration-types.ts';
import { flowKey } from './flows.ts';
import { fifoPolicy } from './grant-policy.ts';

/**
 * The receiving end point of flow arbitration (Part 9 §2.2, §2.4.7, §2.4.8, Annex A.3): it owns a
 * pool of resources (e.g. reassembly contexts) and hands them to flows that ask with REQUEST.
 * A flow is (sourceID, flowID), the sourceID being the REQUEST's tgtdestinationID (addressing
 * decision in arbitration-types.ts). §2.4.2.2 "Arbitrated resources must also be associated with a
 * flow list to keep track of the flow the resources are allocated to": `#allocations`.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export const ARB_RX_COUNTERS: readonly ArbRxCounterName[] = [
  'requests', 'granted', 'rejected', 'queued', 'regranted', 'duplicates', 'released', 'idleFreed', 'asyncFreed', 'unexpectedSegments', 'staleReleases', 'ignored',
];

const IDLE = 'idle:';

/**
 * The receiving end point of flow arbitration: it grants its resources to the flows that ask (see the top of this file).
 *
 * @example
 * ```ts
 * import { ArbRx } from 'riodp/engines';
 * import { makeCcp } from 'riodp/wire';
 *
 * const rx = new ArbRx({ localID: 2, resources: 1, idleTimeout: 1_000_000 });
 * // End point 1 asks end point 2 for a resource on flow 0A (tgtdestinationID names the asker):
 * const request = makeCcp({ destinationID: 2, tgtdestinationID: 1, tt: 0, command: 'REQUEST_SINGLE_PDU', seq: 0, flowID: '0A', soc: 1 });
 * rx.handle({ kind: 'ccp', packet: request }, 0);
 * // → send XON_ARB (seq 0) to 1, { kind: 'allocated', sourceID: 1, flowID: '0A', mode: 'single', seq: 0 }, timer idle:1/0A at 1000000
 * rx.handle({ kind: 'segment', sourceID: 1, flowID: '0A', segment: 'single' }, 50);
 * // → the idle timer cancelled, { kind: 'freed', sourceID: 1, flowID: '0A', reason: 'last-segment' }
 * ```
 */
export class ArbRx implements ObservableEngine<ArbRxInput, ArbRxOutput, ArbRxSnapshot, ArbRxCounterName> {
  readonly #cfg: ResolvedArbRxConfig;
  readonly #policy: GrantPolicy;
  readonly #counters: Counters<ArbRxCounterName> = zeroCounters(ARB_RX_COUNTERS);
  readonly #timers = new Timers();
  readonly #allocations = new Map<string, Mutable<ArbAllocation>>();
  /** REQUESTs waiting for a resource, in arrival order; at most one per flow (§2.2.2). */
  #queue: QueuedRequest[] = [];
  /**
   * Y of a flow's last REQUEST that has been answered and is over: its allocation ended with
   * nothing queued behind it, or its reissue was answered XOFF(ARB). Rule 4: "The sequence number
   * shall advance for any new REQUESTs on a given flow", so until a REQUEST with the other Y comes,
   * a REQUEST carrying it is a late copy (or a reissue whose answer was lost), not a new one.
   */
  readonly #served = new Map<string, { readonly sourceID: number; readonly flowID: FlowIdLabel; readonly seq: number }>();
  #order = 0;

  constructor(config: ArbRxConfig, policy: GrantPolicy = fifoPolicy) {
    this.#cfg = resolveArbRxConfig(config);
    this.#policy = policy;
  }

  handle(input: ArbRxInput, now: Time): ArbRxOutput[] {
    const out: ArbRxOutput[] = [];
    switch (input.kind) {
      case 'ccp':
        this.#onCcp(input.packet, now, out);
        break;
      case 'segment':
        this.#onSegment(input.sourceID, input.flowID, input.segment, now, out);
        break;
      case 'reclaim':
        this.#onReclaim(input.sourceID, input.flowID, now, out);
        break;
      case 'timer':
        this.#onTimer(input.name, now, out);
        break;
    }
    return out;
  }

  /** Resources not allocated to any flow. */
  free(): number {
    return this.#cfg.resources - this.#allocations.size;
  }

  /** The resource the flow holds, a copy; undefined when it holds none. */
  allocation(sourceID: number, flowID: FlowIdLabel): ArbAllocation | undefined {
    const a = this.#allocations.get(flowKey(sourceID, flowID));
    return a === undefined ? undefined : { ...a };
  }

  /** Queued REQUESTs in arrival order. */
  queue(): QueuedRequest[] {
    return this.#queue.map((q) => ({ ...q }));
  }

  counters(): Counters<ArbRxCounterName> {
    return { ...this.#counters };
  }

  snapshot(): ArbRxSnapshot {
    const c = this.#cfg;
    return {
      config: { ...c, responseFlow: { ...c.responseFlow } },
      free: this.free(),
      allocations: [...this.#allocations.values()].map((a) => ({ ...a })),
      queue: this.queue(),
      served: [...this.#served.values()].map((s) => ({ ...s })),
      timers: this.#timers.pending(),
      counters: this.counters(),
    };
  }

  #onCcp(p: Type7Packet, now: Time, out: ArbRxOutput[]): void {
    const m = readArbCcp(p, this.#cfg);
    if (m.kind === 'ignore') this.#ignore(out, m.name, m.detail);
    else if (m.kind === 'request') this.#onRequest(m.sourceID, m.flowID, m.mode, m.seq, now, out);
    else this.#onRelease(m.sourceID, m.flowID, m.seq, now, out);
  }

  #onRequest(sourceID: number, flowID: FlowIdLabel, mode: ArbMode, seq: number, now: Time, out: ArbRxOutput[]): void {
    this.#counters.requests++;
    const key = flowKey(sourceID, flowID);
    const held = this.#allocations.get(key);
    const served = this.#served.get(key);
    if (served !== undefined && served.seq !== seq) this.#served.delete(key);
    if (held?.seq === seq && held.mode !== mode) {
      // Not a reissue (rule 4: a reissue is the same REQUEST), yet it carries the Y of the flow's
      // allocation, so an XON(ARB) or XOFF(ARB) for one could not be told from one for the other
      // (they carry only flowID and Y). Typically the allocation is one whose XON(ARB) the
      // transmitter never heard. Rule 2 wants an answer: XOFF(ARB), and rule 3 2) lets the
      // transmitter ask again with the next Y, which waits behind the allocation.
      this.#reject(out, sourceID, flowID, seq);
      return;
    }
    if (held?.seq === seq) {
      // Rule 4 "The sequence number shall remain the same for REQUESTs reissued for a given flow,
      // without having received a response": our XON(ARB) was lost. Rule 10 forbids a second
      // resource, so the same one is granted again.
      this.#counters.regranted++;
      this.#event(out, 'regrant', { sourceID, flowID, seq });
      this.#send(out, 'XON_ARB', sourceID, flowID, seq);
      this.#armIdle(held, now, out);
      // Rule 8: the transmitter never heard of this grant, so neither of a reclaim sent before it.
      if (held.reclaiming) this.#send(out, 'XOFF_ARB', sourceID, flowID, seq);
      return;
    }
    if (served?.seq === seq) {
      // A copy of a REQUEST already answered. Rule 2 asks for an answer; XOFF(ARB) gives one
      // without handing a resource to a transmitter that is not waiting (if it is, its answer was
      // lost and it asks again with the next Y, rule 3 2)).
      this.#counters.duplicates++;
      this.#event(out, 'duplicate-request', { sourceID, flowID, seq });
      this.#reject(out, sourceID, flowID, seq);
      return;
    }
    const waiting = this.#queue.find((q) => q.sourceID === sourceID && q.flowID === flowID);
    if (waiting !== undefined) {
      if (waiting.seq === seq) {
        this.#onReissue(waiting, held, now, out);
        return;
      }
      // A new Y means the transmitter gave up on the queued REQUEST (rule 4 "shall advance for
      // any new REQUESTs"); rule 2 still wants it answered.
      this.#queue = this.#queue.filter((q) => q !== waiting);
      this.#reject(out, sourceID, flowID, waiting.seq);
    }
    const request: QueuedRequest = { sourceID, flowID, mode, seq, at: now, order: this.#order++ };
    this.#queue.push(request);
    this.#grantQueued(now, out);
    if (!this.#queue.includes(request)) return;
    // A pipelined REQUEST (its flow still holds a resource) is always queued: §2.2.2 "the
    // destination only has to queue up one outstanding request per flow". Rejecting it would let
    // the transmitter's next new REQUEST carry the Y of the resource still held, which reads as a
    // reissue of that grant (rule 4) and is regranted while the old PDU's end is still in flight.
    const pipelined = held !== undefined;
    if (!pipelined && refusesToQueue(this.#cfg, this.#queue.length)) {
      this.#queue = this.#queue.filter((q) => q !== request);
      this.#reject(out, sourceID, flowID, seq);
      return;
    }
    // Rule 9 "The receiver may delay sending responses to the REQUEST commands".
    this.#counters.queued++;
    this.#event(out, 'queued', { sourceID, flowID, seq });
  }

  /**
   * A queued REQUEST sent again. Rule 3 1): the transmitter reissues only when "it did not receive
   * a response to the previous REQUEST message and timed out"; rule 2 "The receiver shall respond
   * to all REQUEST messages with a XOFF(ARB) or XON(ARB) depending on the availability of
   * resources and the arbitration policy at the receiver".
   */
  #onReissue(waiting: QueuedRequest, held: Mutable<ArbAllocation> | undefined, now: Time, out: ArbRxOutput[]): void {
    const { sourceID, flowID, seq } = waiting;
    this.#counters.duplicates++;
    this.#event(out, 'duplicate-request', { sourceID, flowID, seq });
    if (held === undefined) {
      // §2.2.1 "The receiving endpoint will respond with either a XON(ARB) or XOFF(ARB) message
      // depending on whether it has buffer and context resources available": it is still queued,
      // so none is (none free, or the policy chose others). XOFF(ARB); it leaves the queue, and
      // copies of it still in flight are answered XOFF(ARB) too (`#served`).
      this.#queue = this.#queue.filter((q) => q !== waiting);
      this.#served.set(flowKey(sourceID, flowID), { sourceID, flowID, seq });
      this.#reject(out, sourceID, flowID, seq);
      return;
    }
    // Pipelined: §2.2.2 "The destination only acknowledges the next request when the current
    // request has completed" (an XOFF(ARB) now would let the next new REQUEST carry the Y still
    // held, see #onRequest). A single-PDU transaction completes by itself (rule 5); a multi-PDU
    // one only with RELEASE, so rule 8: "The receiver may send a XOFF(ARB) message during the
    // multi-PDU transfer to indicate its desire to deallocate resources". Re-sent at each reissue
    // (it may be lost) without moving the §2.4.8 2 deadline.
    if (held.mode !== 'multi') return;
    if (!held.reclaiming) {
      held.reclaiming = true;
      this.#armIdle(held, now, out);
    }
    this.#send(out, 'XOFF_ARB', sourceID, flowID, held.seq);
  }

  #onRelease(sourceID: number, flowID: FlowIdLabel, seq: number, now: Time, out: ArbRxOutput[]): void {
    const held = this.#allocations.get(flowKey(sourceID, flowID));
    if (held?.mode !== 'multi' || held.seq !== seq) {
      this.#counters.staleReleases++;
      this.#event(out, 'stale-release', { sourceID, flowID, seq });
      return;
    }
    // Rule 8 "The receiver may not deallocate the resources until the RELEASE message is received".
    this.#counters.released++;
    this.#free(held, 'release', now, out);
  }

  #onSegment(sourceID: number, flowID: FlowIdLabel, segment: SegmentKind, now: Time, out: ArbRxOutput[]): void {
    // Without arbitration at this end the flow is not arbitrated and its segments need no grant.
    if (!this.#cfg.enabled) return;
    const held = this.#allocations.get(flowKey(sourceID, flowID));
    if (held === undefined) {
      // §2.4.7 "Transmitters shall not transmit on an arbitrated flow unless a resource is
      // available for reception of the PDU".
      this.#counters.unexpectedSegments++;
      this.#event(out, 'unexpected-segment', { sourceID, flowID });
      return;
    }
    if (segment === 'start' || segment === 'continuation') {
      held.pduOpen = true;
      this.#armIdle(held, now, out);
      return;
    }
    held.pduOpen = false;
    held.pdus++;
    if (held.mode === 'single') {
      // Rule 5 "the receiver may deallocate the resources at any time after: 1) it receives the
      // last segment for the PDU"; §2.4.8 1 "An aborted PDU results in the de-allocation of the
      // resources".
      this.#free(held, segment === 'abort' ? 'abort' : 'last-segment', now, out);
      return;
    }
    // Rule 6 "the transmitter may transmit PDUs continuously on that flow until the resource is
    // de-allocated"; §2.4.8 2 "A PDU may be aborted ... The resources will still not be
    // de-allocated until a RELEASE message is received."
    this.#armIdle(held, now, out);
  }

  #onReclaim(sourceID: number, flowID: FlowIdLabel, now: Time, out: ArbRxOutput[]): void {
    if (!this.#cfg.enabled) {
      this.#ignore(out, 'arbitration-disabled', { sourceID, flowID });
      return;
    }
    const held = this.#allocations.get(flowKey(sourceID, flowID));
    // Rule 8 is about "the multi-PDU transfer"; a single-PDU resource comes back by itself (rule 5).
    if (held?.mode !== 'multi') {
      this.#ignore(out, 'ignored', { sourceID, flowID });
      return;
    }
    // Rule 8 "The receiver may send a XOFF(ARB) message during the multi-PDU transfer to indicate
    // its desire to deallocate resources". A repeated reclaim re-sends it (the first may be lost).
    held.reclaiming = true;
    this.#send(out, 'XOFF_ARB', sourceID, flowID, held.seq);
    // §2.4.2.2 "Care should be taken to account for fabric latencies": the transmitter gets a
    // whole idle period to finish its PDU and answer before §2.4.8 2's fallback applies.
    this.#armIdle(held, now, out);
  }

  #onTimer(name: string, now: Time, out: ArbRxOutput[]): void {
    if (!this.#timers.expire(name, now)) return;
    const held = name.startsWith(IDLE) ? this.#allocations.get(name.slice(IDLE.length)) : undefined;
    if (held === undefined) return;
    const { sourceID, flowID, seq } = held;
    if (held.mode === 'single') {
      // Rule 5 "2) it does not receive a packet and an idle counter for the session times out".
      this.#counters.idleFreed++;
      this.#free(held, 'idle-timeout', now, out);
      return;
    }
    if (!held.reclaiming) {
      // §2.4.8 2 "the receiver shall first attempt to use the XOFF(ARB) / RELEASE handshake to
      // deallocate the context".
      held.reclaiming = true;
      this.#send(out, 'XOFF_ARB', sourceID, flowID, seq);
      this.#armIdle(held, now, out);
      return;
    }
    // §2.4.8 2 "If a subsequent timeout is encountered, the SAR resources are asynchronously
    // de-allocated"; §2.4.2.2 "with the understanding that packet loss could result".
    this.#counters.asyncFreed++;
    this.#event(out, 'possible-loss', { sourceID, flowID, seq });
    this.#free(held, 'async', now, out);
  }

  #free(held: ArbAllocation, reason: FreeReason, now: Time, out: ArbRxOutput[]): void {
    const { sourceID, flowID, seq } = held;
    const key = flowKey(sourceID, flowID);
    this.#allocations.delete(key);
    this.#timers.cancel(IDLE + key, out);
    out.push({ kind: 'freed', sourceID, flowID, reason });
    if (!this.#queue.some((q) => q.sourceID === sourceID && q.flowID === flowID)) this.#served.set(key, { sourceID, flowID, seq });
    this.#grantQueued(now, out);
  }

  /**
   * §2.2.2 "The pipelined request shall not be honored until the current transaction has been
   * completely received and resources are available for the next transaction"; rule 10 "Only a
   * single instance of resources shall be allocated to a flow at any point in time": the policy
   * sees only requests of flows that hold nothing, and is asked only while a resource is free.
   */
  #grantQueued(now: Time, out: ArbRxOutput[]): void {
    for (let free = this.free(); free > 0; free--) {
      const eligible = this.#queue.filter((q) => !this.#allocations.has(flowKey(q.sourceID, q.flowID)));
      if (eligible.length === 0) return;
      const index = this.#policy(eligible, free);
      const pick = index === undefined ? undefined : eligible[index];
      if (pick === undefined) return;
      this.#queue = this.#queue.filter((q) => q !== pick);
      this.#grant(pick, now, out);
    }
  }

  #grant(r: QueuedRequest, now: Time, out: ArbRxOutput[]): void {
    const { sourceID, flowID, mode, seq } = r;
    const key = flowKey(sourceID, flowID);
    const held: Mutable<ArbAllocation> = { sourceID, flowID, mode, seq, since: now, pduOpen: false, pdus: 0, reclaiming: false };
    this.#allocations.set(key, held);
    this.#served.delete(key);
    this.#counters.granted++;
    // Rule 2 "The receiver shall respond to all REQUEST messages with a XOFF(ARB) or XON(ARB)".
    this.#send(out, 'XON_ARB', sourceID, flowID, seq);
    out.push({ kind: 'allocated', sourceID, flowID, mode, seq });
    this.#armIdle(held, now, out);
  }

  #reject(out: ArbRxOutput[], sourceID: number, flowID: FlowIdLabel, seq: number): void {
    this.#counters.rejected++;
    this.#send(out, 'XOFF_ARB', sourceID, flowID, seq);
  }

  /** §2.4.8 NOTE "Use of timers with the arbitration protocol is optional": idleTimeout null arms nothing. */
  #armIdle(held: ArbAllocation, now: Time, out: ArbRxOutput[]): void {
    const idle = this.#cfg.idleTimeout;
    if (idle !== null) this.#timers.arm(IDLE + flowKey(held.sourceID, held.flowID), now + idle, out);
  }

  /** XON(ARB)/XOFF(ARB) back to the flow's source (arb-rx-messages.ts). */
  #send(out: ArbRxOutput[], command: 'XON_ARB' | 'XOFF_ARB', sourceID: number, flowID: FlowIdLabel, seq: number): void {
    out.push({ kind: 'send', packet: arbResponse(this.#cfg, command, sourceID, flowID, seq) });
  }

  #ignore(out: ArbRxOutput[], name: 'ignored' | 'arbitration-disabled', detail: ArbRxEventDetail): void {
    this.#counters.ignored++;
    this.#event(out, name, detail);
  }

  #event(out: ArbRxOutput[], name: ArbRxEventName, detail: ArbRxEventDetail): void {
    out.push({ kind: 'event', name, ...detail });
  }
}
