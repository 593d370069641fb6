import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';
import type { StreamTarget } from './classifier.ts';
import { IngressCreditBook } from './tm-ingress-credit.ts';
import type { StatusBatch } from './tm-ingress-credit.ts';
import { resolveTmIngressConfig } from './tm-ingress-config.ts';
import type { ResolvedTmIngressConfig } from './tm-ingress-config.ts';
import { receiveTm } from './tm-ingress-directives.ts';
import type { DirectiveContext } from './tm-ingress-directives.ts';
import { gateBlocker, refreshGates } from './tm-ingress-gates.ts';
import { IngressQueue } from './tm-ingress-queue.ts';
import { checkUserCommand, validTarget } from './tm-ingress-rules.ts';
import { currentMode, modeSourceJson, onOffOp, setModeSource, usesCredit, usesRate } from './tm-mode.ts';
import type { TmModeSetting, TmModeSource } from './tm-mode.ts';
import { rawTmPacket, tmPacket } from './tm-packet.ts';
import type {
  TmEvent, TmIngressCommand, TmIngressConfig, TmIngressCounterName, TmIngressEventName, TmIngressInput, TmIngressOutput, TmRateTimerName, TmStreamRef,
} from './tm-types.ts';
import type { TmIngressCreditSnapshot, TmIngressQueueSnapshot, TmIngressSnapshot } from './tm-snapshot-types.ts';

const COUNTER_NAMES: readonly TmIngressCounterName[] = [
  'tmReceived', 'tmSent', 'xoff', 'xon', 'duplicateXoff', 'duplicateXon', 'rateChanges', 'rateClamped', 'rateWhileOff', 'allocations',
  'retires', 'allocateDuplicate', 'retireUnknown', 'creditStatusSent', 'qStatusSent', 'userDefined', 'applicationDefined', 'tmDisabled',
  'opNotInMode', 'invalidOperand', 'reserved', 'wrongDirection', 'notTm', 'noQueue', 'unclassified', 'discarded', 'gateViolations',
  'nothingReady', 'badCommand', 'pdusReady', 'pdusSent',
];

type Out = TmIngressOutput[];

/**
 * The ingress end of data streaming traffic management (Part 10 §3.4): it classifies the
 * application's PDUs into queues (classifier.ts), obeys the egress's directives per queue
 * (XOFF/XON, rate, credit) and reports with Q_STATUS and CREDIT STATUS. "An ingress shall not
 * overrule a TM directive from the egress" (§3.4.5 rule 4): the `gate` of a queue says whether
 * its oldest ready PDU may go now; the application sends and reports `pdu-sent`.
 *
 * Outputs of one input: TM packets and events in the order they arise, then the CREDIT STATUS
 * of AUs opened for queues with ready PDUs, then the Q_STATUS of queues that came to need credit,
 * then gate changes by queue key, then timer requests. A queue's gate starts as it is when the
 * queue is created (`mayTransmit` answers); `gate` outputs report later changes.
 *
 * @example
 * ```ts
 * import { TmEgress, TmIngress } from 'riodp/engines';
 *
 * const target = { destinationID: 2, cos: 0, streamID: 7, flowID: '0A' } as const;
 * const ingress = new TmIngress({ localID: 1, classifier: { rules: [{ match: { app: 'video' }, target }] } });
 * const egress = new TmEgress({ localID: 2 });
 * ingress.handle({ kind: 'pdu-ready', stream: { app: { app: 'video' } }, bytes: 1000 }, 0);
 * const to = { peer: 1, cos: 0, streamID: 7, wildcard: 0, mask: 0 };
 * for (const o of egress.handle({ kind: 'command', to, command: { message: 'XOFF' } }, 1)) {
 *   if (o.kind === 'tm') ingress.handle({ kind: 'tm', packet: o.packet }, 2); // → { kind: 'gate', open: false, reason: 'on-off' }
 * }
 * ```
 */
export class TmIngress implements ObservableEngine<TmIngressInput, TmIngressOutput, TmIngressSnapshot, TmIngressCounterName> {
  readonly #config: ResolvedTmIngressConfig;
  readonly #queues = new Map<string, IngressQueue>();
  readonly #credit: IngressCreditBook;
  readonly #timers = new Timers<TmRateTimerName>();
  readonly #counters: Counters<TmIngressCounterName> = zeroCounters(COUNTER_NAMES);
  /** What received TM messages act on (tm-ingress-directives.ts). */
  readonly #received: DirectiveContext;
  /** The configuration's, until a `set-mode`. */
  #modeSource: TmModeSource;
  #mode: TmModeSetting;
  #now: Time = 0;

  constructor(config: TmIngressConfig = {}) {
    this.#config = resolveTmIngressConfig(config);
    this.#modeSource = this.#config.mode;
    this.#mode = currentMode(this.#modeSource);
    this.#credit = new IngressCreditBook(this.#config.lowCredits);
    this.#received = {
      config: this.#config, counters: this.#counters, queues: this.#queues, credit: this.#credit, mode: () => this.#mode, now: () => this.#now,
      sendStatus: (batch, out) => { this.#sendStatus(batch, out); },
      event: (out, name, fields) => { this.#event(out, name, fields); },
    };
    for (const t of this.#config.queues) this.#queueOf(t);
  }

  handle(input: TmIngressInput, now: Time): TmIngressOutput[] {
    const out: Out = [];
    this.#now = now;
    const before = this.#mode;
    this.#mode = currentMode(this.#modeSource);
    switch (input.kind) {
      case 'tm':
        receiveTm(this.#received, input.packet, out);
        break;
      case 'pdu-ready':
        this.#pduReady(input.stream, input.bytes, out);
        break;
      case 'pdu-sent':
        this.#pduSent(input.stream, input.bytes, out);
        break;
      case 'queue-level':
        this.#queueLevel(input.stream, input.level, out);
        break;
      case 'command':
        this.#command(input.stream, input.command, out);
        break;
      case 'set-mode':
        this.#setMode(input.mode, out);
        break;
      case 'timer':
        // The gates are recomputed below; a stale expiry changes nothing.
        this.#timers.expire(input.name, now);
        break;
    }
    this.#openAllocationUnits(out);
    this.#askForCredit(out);
    refreshGates(this.queueKeys().map((k) => this.#queues.get(k) as IngressQueue), (q) => this.#blocker(q, now), this.#timers, now, before !== this.#mode, out);
    return out;
  }

  /** Whether the queue may send its oldest ready PDU at `now` (default: the time of the last input). */
  mayTransmit(queue: string, now: Time = this.#now): boolean {
    const q = this.#queues.get(queue);
    return q === undefined ? false : this.#blocker(q, Math.max(now, this.#now)) === null;
  }

  /** The queue key a stream goes to; undefined when the key is unclassified. */
  queueOf(stream: TmStreamRef): string | undefined {
    const t = 'app' in stream ? this.#config.classifier.classify(stream.app) : stream.target;
    return t === undefined ? undefined : this.#config.classifier.queueOf(t).key;
  }

  /** The keys of the ingress queues created so far, sorted. */
  queueKeys(): string[] {
    return [...this.#queues.keys()].sort();
  }

  /** A queue's state (on/off, rates, ready PDUs, gate) as plain data. */
  queueState(queue: string): TmIngressQueueSnapshot | undefined {
    return this.#queues.get(queue)?.toJSON();
  }

  /** The current average or peak rate of a queue. */
  rate(queue: string, which: 'average' | 'peak' = 'average'): number | undefined {
    return this.#queues.get(queue)?.bucket(which).rate;
  }

  /** Whether the queue is on (no XOFF, or an XON since, §3.4.2); undefined for an unknown queue. */
  isOn(queue: string): boolean | undefined {
    return this.#queues.get(queue)?.on;
  }

  /** The credit contexts (one per designation of an ALLOCATE) with their AUs. */
  creditContexts(): TmIngressCreditSnapshot[] {
    return this.#credit.toJSON();
  }

  /** The TM Mode in force (from the configuration, or read from the registers at the last input). */
  mode(): TmModeSetting {
    return this.#mode;
  }

  counters(): Counters<TmIngressCounterName> {
    return { ...this.#counters };
  }

  snapshot(): TmIngressSnapshot {
    const c = this.#config;
    return {
      localID: c.localID,
      tt: c.tt,
      mode: modeSourceJson(this.#modeSource),
      classifier: c.classifier.toJSON(),
      amountBits: c.amountBits,
      rate: c.rate,
      lowCredits: c.lowCredits,
      discard: c.discard,
      queues: this.queueKeys().map((k) => (this.#queues.get(k) as IngressQueue).toJSON()),
      credit: this.creditContexts(),
      timers: this.#timers.pending(),
      stats: this.counters(),
    };
  }

  // ---- application -------------------------------------------------------------------------

  #pduReady(ref: TmStreamRef, bytes: number, out: Out): void {
    const q = this.#resolve(ref, out);
    if (q === undefined || !this.#checkBytes(bytes, out)) return;
    const d = this.#config.discard;
    if (d.mode === 'bound' && q.ready.length >= d.maxQueued && this.#blocker(q, this.#now) !== null) {
      this.#counters.discarded++;
      this.#event(out, 'pdu-discarded', { queue: q.key, detail: `${bytes} bytes, ${q.ready.length} PDUs queued` });
      return;
    }
    this.#counters.pdusReady++;
    q.ready.push(bytes);
  }

  #pduSent(ref: TmStreamRef, bytes: number, out: Out): void {
    const q = this.#resolve(ref, out);
    if (q === undefined || !this.#checkBytes(bytes, out)) return;
    const blocker = this.#blocker(q, this.#now);
    if (blocker !== null) {
      this.#counters.gateViolations++;
      this.#event(out, 'gate-violation', { queue: q.key, detail: blocker });
    }
    if (q.ready.shift() === undefined) {
      this.#counters.nothingReady++;
      this.#event(out, 'nothing-ready', { queue: q.key });
    }
    this.#counters.pdusSent++;
    if (usesRate(this.#mode)) {
      q.average.take(bytes, this.#now);
      q.peak.take(bytes, this.#now);
    }
    if (usesCredit(this.#mode)) this.#sendStatus(this.#credit.consume(q.scope), out);
  }

  #queueLevel(ref: TmStreamRef, level: number, out: Out): void {
    const q = this.#resolve(ref, out);
    if (q === undefined) return;
    if (!Number.isInteger(level) || level < 0 || level > 0xff) {
      this.#bad(out, `level ${String(level)} is not 0..255`);
      return;
    }
    q.level = level;
    if (q.lastSentLevel !== q.effectiveLevel()) this.#sendQStatus(q, out);
  }

  #command(ref: TmStreamRef, c: TmIngressCommand, out: Out): void {
    const q = this.#resolve(ref, out);
    if (q === undefined) return;
    if (c.message === 'Q_STATUS') {
      this.#sendQStatus(q, out);
      return;
    }
    if (c.message === 'RELINQUISH') {
      if (usesCredit(this.#mode)) this.#sendStatus(this.#credit.relinquish(q.scope), out);
      return;
    }
    const problem = checkUserCommand(c, this.#mode);
    if (problem !== undefined) {
      this.#bad(out, problem);
      return;
    }
    const p = c.message === 'USER_DEFINED'
      ? tmPacket(this.#config, q.designation(), q.flow, c.tmOp, { message: 'USER_DEFINED', value: c.value })
      : rawTmPacket(this.#config, q.designation(), q.flow, TM_OP.application, c.parameter1, c.parameter2);
    this.#send(p, out);
  }

  /** The state is kept; the gates, credit requests and AUs that follow the input go by the new mode (TmSetModeInput). */
  #setMode(mode: TmModeSetting, out: Out): void {
    const src = setModeSource(this.#modeSource, mode);
    if (typeof src === 'string') {
      this.#bad(out, src);
      return;
    }
    this.#modeSource = src;
    this.#mode = currentMode(src);
  }

  // ---- sending -----------------------------------------------------------------------------

  #sendQStatus(q: IngressQueue, out: Out): void {
    if (this.#mode === 'DISABLED') return;
    const level = q.effectiveLevel();
    q.lastSentLevel = level;
    this.#counters.qStatusSent++;
    this.#send(tmPacket(this.#config, q.designation(), q.flow, onOffOp(this.#mode), { message: 'Q_STATUS', level, fullness: level / 255 }), out);
  }

  #sendStatus(batch: StatusBatch | null, out: Out): void {
    if (batch === null) return;
    for (const s of batch.status) {
      this.#counters.creditStatusSent++;
      this.#send(tmPacket(this.#config, batch.designation, batch.flow, TM_OP.credit, { message: 'CREDIT_STATUS', ...s }), out);
    }
  }

  #send(packet: Type9TmPacket, out: Out): void {
    this.#counters.tmSent++;
    out.push({ kind: 'tm', packet });
  }

  // ---- queues, credit and gates ------------------------------------------------------------

  #resolve(ref: TmStreamRef, out: Out): IngressQueue | undefined {
    if ('app' in ref) {
      const t = this.#config.classifier.classify(ref.app);
      if (t === undefined) {
        this.#counters.unclassified++;
        this.#event(out, 'unclassified', { detail: JSON.stringify(ref.app) });
        return undefined;
      }
      return this.#queueOf(t);
    }
    const t = (ref as { target?: StreamTarget }).target;
    if (t === undefined || !validTarget(t, this.#config.tt)) {
      this.#bad(out, 'the stream is neither an application key nor a valid target');
      return undefined;
    }
    return this.#queueOf(t);
  }

  #queueOf(t: StreamTarget): IngressQueue {
    const id = this.#config.classifier.queueOf(t);
    let q = this.#queues.get(id.key);
    if (q === undefined) {
      q = new IngressQueue(id, t, this.#config.classifier.flowOf(t), this.#config.rate, this.#now);
      // A new queue's gate starts as it is (mayTransmit tells); outputs report later changes.
      q.closedBy = this.#blocker(q, this.#now);
      q.gateOpen = q.closedBy === null;
      this.#queues.set(id.key, q);
    }
    return q;
  }

  /** §3.4.4: the next AU is opened, with its CREDIT STATUS, once one of its queues has a PDU it may send. */
  #openAllocationUnits(out: Out): void {
    if (!usesCredit(this.#mode)) return;
    for (const key of this.queueKeys()) {
      const q = this.#queues.get(key) as IngressQueue;
      if (q.ready.length === 0 || !q.on) continue;
      this.#sendStatus(this.#credit.open(q.scope), out);
    }
  }

  /**
   * §3.4.4 Queue Status: "The source can use this message to get attention for a queue that has
   * become active, needing credits (transitioning from empty)"; "It can also be used to indicate
   * that the current rate of credits being issued is not keeping up with incoming traffic". One
   * Q_STATUS each time a queue with ready PDUs comes to have no credit (riodp decision); the
   * application may insist with the Q_STATUS command (rule 5).
   */
  #askForCredit(out: Out): void {
    if (!usesCredit(this.#mode)) return;
    for (const key of this.queueKeys()) {
      const q = this.#queues.get(key) as IngressQueue;
      const needs = q.ready.length > 0 && !this.#credit.hasCredit(q.scope);
      if (needs && !q.askedForCredit) this.#sendQStatus(q, out);
      q.askedForCredit = needs;
    }
  }

  #blocker(q: IngressQueue, now: Time): 'on-off' | 'credit' | 'rate' | null {
    return gateBlocker(q, this.#mode, this.#credit, now);
  }

  // ---- helpers -----------------------------------------------------------------------------

  #checkBytes(bytes: number, out: Out): boolean {
    if (Number.isInteger(bytes) && bytes >= 1 && bytes <= 0x10000) return true;
    this.#bad(out, `${String(bytes)} bytes is not a PDU size (1..65536)`);
    return false;
  }

  #bad(out: Out, detail: string): void {
    this.#counters.badCommand++;
    this.#event(out, 'bad-command', { detail });
  }

  #event(out: Out, name: TmIngressEventName, fields: Omit<TmEvent<TmIngressEventName>, 'kind' | 'name'>): void {
    out.push({ kind: 'event', name, ...fields });
  }
}
