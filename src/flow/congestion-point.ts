import { zeroCounters } from '../engine/contract.ts';
import type { Counters, ObservableEngine, Time } from '../engine/contract.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { makeCcp } from '../wire/type7.ts';
import { resolveCongestionPointConfig } from './congestion-point-config.ts';
import type { ResolvedCongestionPointConfig } from './congestion-point-config.ts';
import type {
  BufferedPacket,
  CongestionPointConfig,
  CongestionPointCounterName,
  CongestionPointEventName,
  CongestionPointInput,
  CongestionPointOutput,
  CongestionPointSnapshot,
  ControlledFlowEntry,
} from './congestion-point-types.ts';
import { ControlledFlowList } from './controlled-flow-list.ts';
import { FlowHistogram } from './flow-selection.ts';
import { ccpFlowKey, classifyPacket } from './offending-flow.ts';
import type { CcpFlow } from './offending-flow.ts';

const COUNTER_NAMES: readonly CongestionPointCounterName[] = [
  'enqueued', 'dequeued', 'xoffSent', 'xonSent', 'ccpDropped', 'ccpSuppressed', 'noRoute', 'earlyXon', 'listFull', 'unmappable', 'unknownDequeue',
];

type Out = CongestionPointOutput;
type EventOutput = Extract<Out, { kind: 'event' }>;
type EventFields = Omit<EventOutput, 'kind' | 'name'>;

/**
 * A congestion point: a switch output port buffer or a destination end point's receive buffer
 * (Part 9 §2.1 "logical layer flow control methods shall be employed within a fabric or
 * destination end point … at the point in time and location at which excessive congestion is
 * detected"). Detection is Annex A.1's: "monitor their internal packet buffer levels, comparing
 * them on a packet by packet basis to pre-established, locally-defined watermark levels", with a
 * lower watermark for XON (A.1 a "sufficient hysteresis").
 *
 * @example
 * ```ts
 * import { CongestionPoint } from 'riodp/engines';
 *
 * const cp = new CongestionPoint({ role: 'endpoint', highWatermark: 2, lowWatermark: 1 });
 * const packet = { sourceID: 1, destinationID: 2, tt: 0, prio: 0, crf: 0, ftype: 9 };
 * for (let now = 0; now < 3; now++) {
 *   for (const o of cp.handle({ kind: 'enqueue', packet }, now)) {
 *     if (o.kind === 'send') console.log('XOFF to', o.packet.destinationID); // the third packet: XOFF to 1
 *   }
 * }
 * ```
 */
export class CongestionPoint implements ObservableEngine<CongestionPointInput, CongestionPointOutput, CongestionPointSnapshot, CongestionPointCounterName> {
  readonly #cfg: ResolvedCongestionPointConfig;
  readonly #histogram = new FlowHistogram();
  readonly #list: ControlledFlowList;
  /** Buffered packets no CCP may name (ftype 7/8, Table 2-1 "Illegal"), by source/destination pair. */
  readonly #others = new Map<string, number>();
  readonly #counters = zeroCounters(COUNTER_NAMES);
  /** §4.3 Flow Control Participant bits: with `#allPorts`, the ports cleared; otherwise the ports set. */
  readonly #allPorts: boolean;
  readonly #portExceptions: Set<number>;
  #occupancy = 0;
  #congested = false;
  #lastInputAt: Time | null = null;

  constructor(config: CongestionPointConfig) {
    this.#cfg = resolveCongestionPointConfig(config);
    this.#list = new ControlledFlowList({
      capacity: this.#cfg.listCapacity,
      restartOrder: this.#cfg.restartOrder,
      lowWatermark: this.#cfg.lowWatermark,
      restartStagger: this.#cfg.restartStagger,
    });
    this.#allPorts = this.#cfg.participants === undefined;
    this.#portExceptions = new Set(this.#cfg.participants ?? []);
  }

  /** No timers: `now` is only recorded, for the snapshot. */
  handle(input: CongestionPointInput, now: Time): Out[] {
    this.#lastInputAt = now;
    const out: Out[] = [];
    switch (input.kind) {
      case 'enqueue':
        this.#enqueue(input.packet, out);
        break;
      case 'dequeue':
        this.#dequeue(input.packet, out);
        break;
      case 'set-restart-level':
        // §2.4.2.2 "It shall be permissible in the time following the sending of a XOFF CCP … to
        // modify the flow restart ordering or expected XON watermark level". A level that is not a
        // non-negative number, or names no controlled flow, changes nothing.
        if (typeof input.level === 'number' && Number.isFinite(input.level) && input.level >= 0
          && this.#list.setLevel(input.destinationID, input.tgtdestinationID, input.flowID, input.level) > 0) {
          this.#restart(out);
        }
        break;
      case 'set-participant':
        if (Number.isSafeInteger(input.port) && input.port >= 0) {
          if (input.enabled !== this.#allPorts) this.#portExceptions.add(input.port);
          else this.#portExceptions.delete(input.port);
        }
        break;
    }
    return out;
  }

  /** Buffer occupancy now, in the configured unit (packets or bytes). */
  occupancy(): number {
    return this.#occupancy;
  }

  /**
   * Whether occupancy rose above the high watermark and has not fallen to the low one since (Annex A.1
   * hysteresis).
   */
  isCongested(): boolean {
    return this.#congested;
  }

  /** The controlled flow list in restart order. */
  controlledFlows(): ControlledFlowEntry[] {
    return this.#list.entries();
  }

  /** Packets buffered for a flow as a CCP names it (CCP destinationID = their sourceID), over every tt. */
  bufferedCount(destinationID: number, tgtdestinationID: number, flowID: FlowIdLabel): number {
    let n = 0;
    for (const b of this.#histogram.buckets()) {
      if (b.flow.destinationID === destinationID && b.flow.tgtdestinationID === tgtdestinationID && b.flow.flowID === flowID) {
        n += b.requests + b.responses;
      }
    }
    return n;
  }

  /** Whether `port`'s Flow Control Participant bit is set (§4.3): CCPs are routed to it. */
  isParticipant(port: number): boolean {
    return this.#allPorts !== this.#portExceptions.has(port);
  }

  counters(): Counters<CongestionPointCounterName> {
    return { ...this.#counters };
  }

  snapshot(): CongestionPointSnapshot {
    const exceptions = [...this.#portExceptions].sort((a, b) => a - b);
    return {
      role: this.#cfg.role,
      unit: this.#cfg.unit,
      occupancy: this.#occupancy,
      congested: this.#congested,
      controlled: this.#list.entries(),
      histogram: [...this.#histogram.buckets()].map((b) => ({ ...b.flow, requests: b.requests, responses: b.responses })),
      otherPackets: Object.fromEntries(this.#others),
      participants: this.#allPorts ? { all: true, cleared: exceptions } : { all: false, set: exceptions },
      counters: this.counters(),
      lastInputAt: this.#lastInputAt,
    };
  }

  /** Occupancy units of a packet; in bytes a packet without a valid size weighs nothing. */
  #weight(p: BufferedPacket): number {
    if (this.#cfg.unit === 'packets') return 1;
    const s = p.size;
    return typeof s === 'number' && Number.isSafeInteger(s) && s > 0 ? s : 0;
  }

  #enqueue(p: BufferedPacket, out: Out[]): void {
    const c = classifyPacket(p, this.#cfg);
    this.#occupancy += this.#weight(p);
    this.#counters.enqueued++;
    if (c.kind === 'flow') {
      this.#histogram.add(c.key, c.flow, c.crf, c.response);
    } else {
      this.#others.set(c.key, (this.#others.get(c.key) ?? 0) + 1);
      if (c.kind === 'unmappable') {
        this.#counters.unmappable++;
        this.#event(out, 'unmappable', { destinationID: p.sourceID, tgtdestinationID: p.destinationID, occupancy: this.#occupancy });
      }
    }
    if (this.#occupancy <= this.#cfg.highWatermark) return;
    if (!this.#congested) {
      this.#congested = true;
      this.#event(out, 'congested', { occupancy: this.#occupancy });
    }
    // §2.4.3 "Maintenance and flow control transaction request flows must never cause the
    // generation of a flow control transaction"; nor can a packet whose flow has no flowID.
    if (c.kind !== 'flow') return;
    const policy = this.#cfg.policy;
    if (policy.kind === 'histogram') {
      // A.1 method 1: "sends an XOFF flow control request to those transaction request flow
      // sources when the watermark threshold is exceeded".
      for (const b of this.#histogram.top(policy.flows, this.#cfg.responses)) {
        if (!this.#list.has(b.key)) this.#xoff(b.key, b.flow, b.crf, out);
      }
    } else if (!this.#list.has(c.key) && this.#thresholdSelects(c.response)) {
      // A.1 method 2: "sends an XOFF flow control to the source of every new transaction flow it
      // receives as long as the watermark is exceeded".
      this.#xoff(c.key, c.flow, c.crf, out);
    }
  }

  /** §2.4.3 "the choice of which flow to XOFF is preferably made using request packets, not response packets". */
  #thresholdSelects(response: boolean): boolean {
    if (!response) return true;
    const r = this.#cfg.responses;
    return r === 'equal' || (r === 'fallback' && this.#histogram.requestPackets() === 0);
  }

  #dequeue(p: BufferedPacket, out: Out[]): void {
    const c = classifyPacket(p, this.#cfg);
    const w = this.#weight(p);
    const held = w <= this.#occupancy && (c.kind === 'flow' ? this.#histogram.remove(c.key, c.response) : this.#takeOther(c.key));
    if (!held) {
      this.#counters.unknownDequeue++;
      this.#event(out, 'unknown-dequeue', { destinationID: p.sourceID, tgtdestinationID: p.destinationID, occupancy: this.#occupancy });
      return;
    }
    this.#occupancy -= w;
    this.#counters.dequeued++;
    if (this.#congested && this.#occupancy <= this.#cfg.lowWatermark) {
      this.#congested = false;
      this.#event(out, 'decongested', { occupancy: this.#occupancy });
    }
    this.#restart(out);
  }

  #takeOther(key: string): boolean {
    const n = this.#others.get(key) ?? 0;
    if (n === 0) return false;
    if (n === 1) this.#others.delete(key);
    else this.#others.set(key, n - 1);
    return true;
  }

  /**
   * §2.4.5 rule 4 / §2.4.6 rule 3 "must maintain the information necessary to restart the flow
   * with a XON flow control transaction when congestion abates": every entry whose restart level
   * the occupancy has reached, in restart order. The set is taken once, from the levels as they
   * stand at this dequeue: the levels the XONs re-evaluate apply from the next dequeue, otherwise
   * each XON would lift the next entry to lowWatermark and a staggered list would restart all at
   * once (A.2 "burstyness due to uncontrolled simultaneous multi-flow restart").
   */
  #restart(out: Out[]): void {
    for (const e of this.#list.due(this.#occupancy)) this.#xon(e, out);
  }

  /** The port a CCP to `destinationID` leaves by. */
  #route(destinationID: number): number | undefined {
    if (this.#cfg.role === 'endpoint') return 0;
    return this.#cfg.routeTable.get(destinationID) ?? this.#cfg.defaultRoute;
  }

  /** §2.4.6 rule 2 "If a switch runs out of packet buffer space, it is permitted to drop CCPs". */
  #dropsCcps(): boolean {
    return this.#cfg.role === 'switch' && this.#cfg.capacity !== undefined && this.#occupancy >= this.#cfg.capacity;
  }

  /**
   * §2.4.6 rule 1 "the switch shall send a CCP (XOFF) for each congested flow to their respective
   * end points"; §2.4.5 rule 5 "the destination end point shall send required CCP(s) as quickly as
   * possible". The flow is controlled only when its XOFF actually leaves.
   */
  #xoff(key: string, flow: CcpFlow, crf: number, out: Out[]): void {
    const port = this.#route(flow.destinationID);
    const fields = { ...flowFields(flow), occupancy: this.#occupancy };
    if (port === undefined) {
      this.#counters.noRoute++;
      this.#event(out, 'no-route', fields);
      return;
    }
    // §4.3 Flow Control Participant 0b0 "Do not route or issue flow control transactions to this port".
    if (!this.isParticipant(port)) {
      this.#counters.ccpSuppressed++;
      this.#event(out, 'ccp-suppressed', { ...fields, port, command: 'XOFF' });
      return;
    }
    let evict: ControlledFlowEntry | undefined;
    if (this.#list.full) {
      // §2.4.2.2 "In the event that limited controlled flow list resources cause the congested
      // element to have insufficient room to issue another XOFF CCP which is deemed more important
      // than a previously-XOFF'd controlled flow, then that previously-XOFF'd controlled flow may be
      // prematurely XON'd and removed … The new, more important flow may be XOFF'd and take its place".
      const least = this.#list.leastImportant((k) => this.#histogram.count(k));
      if (least === undefined || this.#histogram.count(key) <= least.buffered) {
        this.#counters.listFull++;
        this.#event(out, 'list-full', fields);
        return;
      }
      evict = least.entry;
    }
    if (this.#dropsCcps()) {
      // A dropped XOFF controls nothing, so no entry is given up for it.
      this.#counters.ccpDropped++;
      this.#event(out, 'ccp-dropped', { ...fields, port, command: 'XOFF' });
      return;
    }
    if (evict !== undefined) {
      this.#counters.earlyXon++;
      this.#event(out, 'early-xon', { ...flowFields(evict), occupancy: this.#occupancy, port: evict.port });
      this.#xon(evict, out);
    }
    out.push({ kind: 'send', port, packet: this.#ccp(flow, 'XOFF') });
    this.#counters.xoffSent++;
    this.#list.add(key, flow, crf, port);
  }

  /**
   * The entry leaves the list whatever happens to its XON: a dropped or suppressed XON leaves the
   * source to its orphaned XOFF mechanism (§2.4.2.1 "Due to the possibility of XON flow control
   * packets being lost in the fabric, there shall be an orphaned XOFF mechanism").
   */
  #xon(entry: ControlledFlowEntry, out: Out[]): void {
    this.#list.remove(ccpFlowKey(entry));
    const fields = { ...flowFields(entry), occupancy: this.#occupancy, port: entry.port, command: 'XON' as const };
    if (!this.isParticipant(entry.port)) {
      this.#counters.ccpSuppressed++;
      this.#event(out, 'ccp-suppressed', fields);
    } else if (this.#dropsCcps()) {
      this.#counters.ccpDropped++;
      this.#event(out, 'ccp-dropped', fields);
    } else {
      out.push({ kind: 'send', port: entry.port, packet: this.#ccp(entry, 'XON') });
      this.#counters.xonSent++;
    }
  }

  /** §3.2 "shall set the SOC … bit to (SOC=0) if it is a switch or (SOC=1) if it is an end point"; §2.4.2 prio 3, CRF 1. */
  #ccp(flow: CcpFlow, command: 'XOFF' | 'XON'): ReturnType<typeof makeCcp> {
    const { destinationID, tgtdestinationID, flowID, tt } = flow;
    const { prio, crf } = this.#cfg.ccpFlow;
    return makeCcp({
      destinationID, tgtdestinationID, flowID, tt, command, prio, crf,
      soc: this.#cfg.role === 'switch' ? 0 : 1,
      crfSupported: this.#cfg.crfSupported,
    });
  }

  #event(out: Out[], name: CongestionPointEventName, fields: EventFields): void {
    out.push({ kind: 'event', name, ...fields });
  }
}

function flowFields(f: CcpFlow): { destinationID: number; tgtdestinationID: number; flowID: FlowIdLabel } {
  return { destinationID: f.destinationID, tgtdestinationID: f.tgtdestinationID, flowID: f.flowID };
}
