/**
 * A deterministic discrete-event harness for flow arbitration end to end (Part 9 §2.2): one
 * `ArbTx` (end point A, localID 1) and one `ArbRx` (end point B, localID 2) joined by a link.
 *
 * - Latency: Type 7 messages take `ctrlLatency`, data segments `dataLatency`. RELEASE takes the
 *   data latency: §2.4.7 rule 12 "RELEASE messages shall be sent in the same flow that the context
 *   is allocated for", so it queues behind the data it follows. Within each class the link is
 *   FIFO (fixed latency, ties by send order).
 * - Loss: `lose` decides per message (after it is traced as sent) whether it is dropped.
 * - Timers: one pending expiry per (engine, name); a new request replaces, null cancels, and the
 *   engine gets `{ kind: 'timer', name }` at the requested time (src/engine/contract.ts).
 * - Events run in (time, sequence) order; no real time, no Math.random.
 *
 * The trace lists what each side put on the link (Type 7 messages and data segments, with
 * `lost` when dropped), B's allocations and frees, A's grants and both engines' events, so a test
 * can compare the whole exchange with a figure of the spec.
 */
import { ArbRx } from '../../src/flow/arb-rx.ts';
import { ArbTx } from '../../src/flow/arb-tx.ts';
import type {
  ArbRxConfig, ArbRxInput, ArbRxOutput, ArbTxConfig, ArbTxInput, ArbTxOutput, GrantPolicy, SegmentKind,
} from '../../src/flow/arbitration-types.ts';
import type { TimerOutput } from '../../src/engine/contract.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import type { Type7Packet } from '../../src/wire/type7.ts';
import { SEGMENT_NAMES, eventName, messageName, pduSegments } from './arb-trace.ts';
import type { LossFn, Side, TraceEntry, TraceKind } from './arb-trace.ts';

export const A_ID = 1;
export const B_ID = 2;

export interface LinkConfig {
  readonly tx?: Omit<ArbTxConfig, 'localID'>;
  readonly rx?: Omit<ArbRxConfig, 'localID' | 'resources'> & { readonly resources?: number };
  readonly policy?: GrantPolicy;
  /** One-way latency of REQUEST, XON(ARB), XOFF(ARB). Default 10. */
  readonly ctrlLatency?: number;
  /** One-way latency of data segments and RELEASE. Default 10. */
  readonly dataLatency?: number;
  /** Time between two segments the PDU driver offers. Default 10. */
  readonly segmentTime?: number;
  readonly lose?: LossFn;
}

/** What observers see: every output of either engine, and every message the link delivers. */
export type LinkEvent =
  | { readonly kind: 'output'; readonly side: 'A'; readonly t: number; readonly output: ArbTxOutput }
  | { readonly kind: 'output'; readonly side: 'B'; readonly t: number; readonly output: ArbRxOutput }
  | { readonly kind: 'deliver'; readonly to: 'A'; readonly t: number; readonly input: ArbTxInput }
  | { readonly kind: 'deliver'; readonly to: 'B'; readonly t: number; readonly input: ArbRxInput };

/** A data segment that reached B, and whether B then held a resource for its flow. */
export interface Delivery {
  readonly t: number;
  readonly flowID: FlowIdLabel;
  readonly segment: SegmentKind;
  readonly accepted: boolean;
}

export interface PduOptions {
  /** How the PDU ends: `end` (default) or `abort` (Part 10: end segment with no payload). */
  readonly last?: 'end' | 'abort';
  /** Feed `release` to A right after the PDU's last segment went (rule 7). */
  readonly thenRelease?: boolean;
}

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly run: () => void;
}

interface PduJob {
  readonly segments: readonly SegmentKind[];
  readonly thenRelease: boolean;
}

interface Driver {
  readonly jobs: PduJob[];
  /** Index of the next segment of jobs[0] to offer. */
  next: number;
  state: 'idle' | 'scheduled' | 'waiting';
}

export class ArbLink {
  readonly tx: ArbTx;
  readonly rx: ArbRx;
  readonly trace: TraceEntry[] = [];
  readonly ctrlLatency: number;
  readonly dataLatency: number;
  readonly segmentTime: number;
  /** Segments the PDU driver had refused (it retries on the next grant). */
  readonly refusals: { readonly t: number; readonly flowID: FlowIdLabel; readonly segment: SegmentKind; readonly reason: string }[] = [];
  /** Data segments delivered to B, in order. */
  readonly deliveries: Delivery[] = [];
  #now = 0;
  #order = 0;
  #timerSeq = 0;
  #queue: Pending[] = [];
  readonly #timerTokens = new Map<string, number>();
  readonly #sentCounts = new Map<string, number>();
  readonly #observers: ((e: LinkEvent) => void)[] = [];
  readonly #drivers = new Map<FlowIdLabel, Driver>();
  readonly #lose: LossFn;

  constructor(c: LinkConfig = {}) {
    this.tx = new ArbTx({ localID: A_ID, ...c.tx });
    this.rx = new ArbRx({ localID: B_ID, resources: 1, ...c.rx }, c.policy);
    this.ctrlLatency = c.ctrlLatency ?? 10;
    this.dataLatency = c.dataLatency ?? 10;
    this.segmentTime = c.segmentTime ?? 10;
    this.#lose = c.lose ?? (() => false);
  }

  get now(): number {
    return this.#now;
  }

  /** Whether any event (delivery, timer, script) is still pending. */
  get idle(): boolean {
    return this.#queue.length === 0;
  }

  /** Calls `fn` synchronously for every output and delivery; it must not feed the engines (use `at`). */
  observe(fn: (e: LinkEvent) => void): this {
    this.#observers.push(fn);
    return this;
  }

  /** Runs `fn` at time t (never earlier than now). */
  at(t: number, fn: () => void): this {
    const at = Math.max(t, this.#now);
    const p: Pending = { at, order: this.#order++, run: fn };
    let lo = 0;
    let hi = this.#queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const q = this.#queue[mid] as Pending;
      if (q.at < at || (q.at === at && q.order < p.order)) lo = mid + 1;
      else hi = mid;
    }
    this.#queue.splice(lo, 0, p);
    return this;
  }

  /** The application at A: feed `input` to the transmitter at time t. */
  inputA(t: number, input: ArbTxInput): this {
    return this.at(t, () => this.feedA(input));
  }

  /** The application at B (e.g. `reclaim`): feed `input` to the receiver at time t. */
  inputB(t: number, input: ArbRxInput): this {
    return this.at(t, () => this.feedB(input));
  }

  /** A script of application inputs for A. */
  script(steps: readonly { readonly t: number; readonly input: ArbTxInput }[]): this {
    for (const s of steps) this.inputA(s.t, s.input);
    return this;
  }

  /**
   * From time t, sends a PDU of n segments on `flowID` as soon as the grant permits: one segment
   * every `segmentTime`; a refused segment is offered again when A next reports a grant on the
   * flow. PDUs of one flow go in the order they were given.
   */
  pdu(t: number, flowID: FlowIdLabel, n: number, opts: PduOptions = {}): this {
    return this.at(t, () => {
      const d = this.#driver(flowID);
      d.jobs.push({ segments: pduSegments(n, opts.last), thenRelease: opts.thenRelease ?? false });
      if (d.state === 'idle') this.#offer(flowID);
    });
  }

  /** Runs events up to and including time `until`; throws after `maxEvents` events (a run that never goes quiet). */
  run(until = Number.POSITIVE_INFINITY, maxEvents = 1_000_000): this {
    for (let i = 0; ; i++) {
      const p = this.#queue[0];
      if (p === undefined || p.at > until) break;
      if (i >= maxEvents) throw new Error(`arb-link: more than ${maxEvents} events by t=${this.#now}`);
      this.#queue.shift();
      this.#now = p.at;
      p.run();
    }
    if (until !== Number.POSITIVE_INFINITY) this.#now = Math.max(this.#now, until);
    return this;
  }

  /** Feeds A now and routes its outputs. */
  feedA(input: ArbTxInput): ArbTxOutput[] {
    const out = this.tx.handle(input, this.#now);
    for (const o of out) this.#fromA(o);
    return out;
  }

  /** Feeds B now and routes its outputs. */
  feedB(input: ArbRxInput): ArbRxOutput[] {
    const out = this.rx.handle(input, this.#now);
    for (const o of out) this.#fromB(o);
    return out;
  }

  #deliverA(input: ArbTxInput): void {
    for (const fn of this.#observers) fn({ kind: 'deliver', to: 'A', t: this.#now, input });
    this.feedA(input);
  }

  #deliverB(input: ArbRxInput): void {
    for (const fn of this.#observers) fn({ kind: 'deliver', to: 'B', t: this.#now, input });
    this.feedB(input);
  }

  #fromA(o: ArbTxOutput): void {
    for (const fn of this.#observers) fn({ kind: 'output', side: 'A', t: this.#now, output: o });
    switch (o.kind) {
      case 'send': {
        const p = o.packet;
        const latency = p.command === 'RELEASE' ? this.dataLatency : this.ctrlLatency;
        if (this.#put('A', messageName(p), flowOf(p), p)) this.at(this.#now + latency, () => { this.#deliverB({ kind: 'ccp', packet: p }); });
        break;
      }
      case 'transmit': {
        const { flowID, segment } = o;
        if (this.#put('A', SEGMENT_NAMES[segment], flowID)) {
          this.at(this.#now + this.dataLatency, () => {
            this.deliveries.push({ t: this.#now, flowID, segment, accepted: this.rx.allocation(A_ID, flowID) !== undefined });
            this.#deliverB({ kind: 'segment', sourceID: A_ID, flowID, segment });
          });
        }
        break;
      }
      case 'refused':
        this.refusals.push({ t: this.#now, flowID: o.flowID, segment: o.segment, reason: o.reason });
        break;
      case 'grant':
        this.#record('A', 'grant', `grant(${o.mode}, seq ${o.seq})`, o.flowID);
        this.#granted(o.flowID);
        break;
      case 'grant-ended':
        this.#record('A', 'grant', `grant-ended(${o.reason})`, o.flowID);
        break;
      case 'timer':
        this.#timer('A', o);
        break;
      case 'event':
        this.#record('A', 'event', eventName(o.name, o.seq), asFlow(o.flowID));
        break;
    }
  }

  #fromB(o: ArbRxOutput): void {
    for (const fn of this.#observers) fn({ kind: 'output', side: 'B', t: this.#now, output: o });
    switch (o.kind) {
      case 'send': {
        const p = o.packet;
        if (this.#put('B', messageName(p), flowOf(p), p)) this.at(this.#now + this.ctrlLatency, () => { this.#deliverA({ kind: 'ccp', packet: p }); });
        break;
      }
      case 'allocated':
        this.#record('B', 'resource', `allocated(${o.mode}, seq ${o.seq})`, o.flowID);
        break;
      case 'freed':
        this.#record('B', 'resource', `freed(${o.reason})`, o.flowID);
        break;
      case 'timer':
        this.#timer('B', o);
        break;
      case 'event':
        this.#record('B', 'event', eventName(o.name, o.seq), asFlow(o.flowID));
        break;
    }
  }

  /** Traces a message put on the link and decides its loss; true when it is delivered. */
  #put(from: Side, what: string, flowID: FlowIdLabel, packet?: Type7Packet): boolean {
    const key = `${from}/${flowID}/${what}`;
    const n = (this.#sentCounts.get(key) ?? 0) + 1;
    this.#sentCounts.set(key, n);
    const type7 = packet !== undefined;
    const lost = this.#lose({ t: this.#now, from, what, flowID, type7, n });
    this.trace.push({
      t: this.#now, from, what, kind: type7 ? 'message' : 'segment', flowID, ...(lost ? { lost: true as const } : {}), ...(type7 ? { packet } : {}),
    });
    return !lost;
  }

  #record(from: Side, kind: TraceKind, what: string, flowID: FlowIdLabel | null): void {
    this.trace.push({ t: this.#now, from, what, kind, flowID });
  }

  #timer(side: Side, o: TimerOutput): void {
    const key = `${side}:${o.name}`;
    const token = ++this.#timerSeq;
    this.#timerTokens.set(key, token);
    if (o.at === null) return;
    const at = o.at;
    this.at(at, () => {
      if (this.#timerTokens.get(key) !== token) return;
      this.#timerTokens.delete(key);
      if (side === 'A') this.feedA({ kind: 'timer', name: o.name });
      else this.feedB({ kind: 'timer', name: o.name });
    });
  }

  #driver(flowID: FlowIdLabel): Driver {
    let d = this.#drivers.get(flowID);
    if (d === undefined) {
      d = { jobs: [], next: 0, state: 'idle' };
      this.#drivers.set(flowID, d);
    }
    return d;
  }

  #granted(flowID: FlowIdLabel): void {
    const d = this.#drivers.get(flowID);
    if (d?.state !== 'waiting') return;
    d.state = 'scheduled';
    this.at(this.#now, () => { this.#offer(flowID); });
  }

  #offer(flowID: FlowIdLabel): void {
    const d = this.#driver(flowID);
    const job = d.jobs[0];
    const segment = job?.segments[d.next];
    if (job === undefined || segment === undefined) {
      d.state = 'idle';
      return;
    }
    const out = this.feedA({ kind: 'segment', destinationID: B_ID, flowID, segment });
    if (!out.some((o) => o.kind === 'transmit')) {
      d.state = 'waiting';
      return;
    }
    d.next++;
    if (d.next === job.segments.length) {
      d.jobs.shift();
      d.next = 0;
      if (job.thenRelease) this.feedA({ kind: 'release', destinationID: B_ID, flowID });
      if (d.jobs.length === 0) {
        d.state = 'idle';
        return;
      }
    }
    d.state = 'scheduled';
    this.at(this.#now + this.segmentTime, () => { this.#offer(flowID); });
  }
}

/** The engines only send defined flowIDs; a reserved one would be a harness bug. */
function flowOf(p: Type7Packet): FlowIdLabel {
  if (p.flowID === 'RESERVED') throw new Error('arb-link: an engine sent a reserved flowID');
  return p.flowID;
}

function asFlow(flowID: string | undefined): FlowIdLabel | null {
  return flowID === undefined ? null : (flowID as FlowIdLabel);
}
