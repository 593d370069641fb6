/**
 * The transmitting half of a simulated end point: its traffic sources, and the pricing of a PDU on
 * the outbound link. The per-flow PDU queues, the choice of the next packet and the cutting of
 * PDUs into packets are the node element's (src/node/endpoint/flow-queues.ts); this host gives
 * them the simulation's flow table, packet ids, probes and link.
 *
 * Offered load: a PDU is offered when its traffic source generates it (`EndpointProbe.offered`),
 * whether its flow's queue takes it or, full, drops it at the source.
 */
import type { SegmenterSnapshot } from '../../streaming/segmenter-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import { makeDestinations } from '../traffic/destinations.ts';
import { TrafficGenerator } from '../traffic/generator.ts';
import type { Channel } from './channel.ts';
import type { ResolvedEndpointConfig } from './endpoint-config.ts';
import type { FlowQueues, FlowQueuesHost, QueuedFlow } from '../../node/endpoint/flow-queues.ts';
import { plainPackets, pduWireTime, sarPackets } from '../../node/endpoint/packets.ts';
import type { PduPackets } from '../../node/endpoint/packets.ts';
import type { EndpointContext } from './endpoint-types.ts';
import { dataRate } from './link-rate.ts';
import { bufferProbe } from '../../node/switch/types.ts';
import type { BufferProbe } from '../../node/switch/types.ts';

const EV_ARRIVAL = 0;

/** A flow of this source: its PDU queue (src/node/endpoint/flow-queues.ts). */
export type SourceFlow = QueuedFlow;

interface Source {
  readonly gen: TrafficGenerator;
  readonly prio: 0 | 1 | 2;
  readonly crf: 0 | 1;
}

export class EndpointSource implements Target, FlowQueuesHost {
  readonly #c: ResolvedEndpointConfig;
  readonly #ctx: EndpointContext;
  readonly #sched: Scheduler;
  /** Wire time of a PDU by its size: sizes repeat, the packets they become do not change. */
  readonly #pduTimes = new Map<number, number>();
  /** The probe's reports of the source queues (`<name>:src`). */
  readonly #srcBuf: BufferProbe;
  #sources: Source[] = [];
  #out: Channel | null = null;
  #queues: FlowQueues | null = null;

  constructor(sched: Scheduler, c: ResolvedEndpointConfig, ctx: EndpointContext) {
    this.#sched = sched;
    this.#c = c;
    this.#ctx = ctx;
    this.#srcBuf = bufferProbe(ctx.probe, `${c.name}:src`);
  }

  /** The flows to register first, in order: the configured ones, then each source's destinations. */
  initialFlows(): { dst: number; prio: 0 | 1 | 2; crf: 0 | 1; flowID: FlowIdLabel }[] {
    const c = this.#c;
    const out = c.flows.map((f) => ({ ...f }));
    for (const t of c.traffic) {
      for (const dst of makeDestinations(t.spec.destinations, c.id).destinations()) out.push({ dst, prio: t.prio, crf: t.crf, flowID: t.flowID });
    }
    return out;
  }

  /** The node element's flow queues this source feeds (set once the element is built). */
  get queues(): FlowQueues {
    if (this.#queues === null) throw new RangeError(`${this.#c.name}: the source has no flow queues yet`);
    return this.#queues;
  }

  bind(queues: FlowQueues): void {
    this.#queues = queues;
  }

  // ---- FlowQueuesHost ------------------------------------------------------------------------

  flowNumber(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, flowID: FlowIdLabel): number {
    const index = this.#ctx.flows.register(this.#c.id, dst, prio, crf, flowID);
    const info = this.#ctx.flows.get(index);
    if (info !== undefined && this.#out !== null) info.linkRate = dataRate(this.#out.spec);
    return index;
  }

  offered(f: QueuedFlow, bytes: number, accepted: boolean, now: number): void {
    this.#ctx.probe.offered(f.index, now, bytes, this.#out === null ? 0 : this.pduTime(bytes), accepted);
  }

  occupancy(pdus: number, bytes: number, now: number): void {
    this.#srcBuf.occupancy(now, pdus, bytes);
  }

  xoff(f: QueuedFlow, stopped: boolean, now: number): void {
    this.#ctx.probe.xoff(f.index, now, stopped);
  }

  kick(now: number): void {
    this.#out?.kick(now);
  }

  nextPacketId(): number {
    return this.#ctx.ids.nextPacketId();
  }

  // ---- Traffic -------------------------------------------------------------------------------

  /** The flows, growing as traffic creates them. */
  get flows(): readonly SourceFlow[] {
    return this.queues.flows;
  }

  /** Wires the outbound channel: the link the PDUs are priced on and kicked onto. */
  attach(out: Channel): void {
    this.#out = out;
    this.#pduTimes.clear();
    const rate = dataRate(out.spec);
    for (const f of this.#queues?.flows ?? []) {
      const info = this.#ctx.flows.get(f.index);
      if (info !== undefined) info.linkRate = rate;
    }
  }

  /** Starts the traffic sources, their first arrivals at or after `now`. */
  start(now: number): void {
    if (this.#out === null) throw new RangeError(`${this.#c.name}: attach the end point to a link before start`);
    this.#sources = this.#c.traffic.map((t, i) => ({
      gen: new TrafficGenerator(t.spec.start === undefined || t.spec.start < now ? { ...t.spec, start: now } : t.spec, {
        self: this.#c.id,
        streams: this.#ctx.streams,
        pduTime: (bytes) => this.pduTime(bytes),
        name: i === 0 ? `source:${this.#c.id}` : `source:${this.#c.id}/${i}`,
      }),
      prio: t.prio,
      crf: t.crf,
    }));
    this.#sources.forEach((s, i) => {
      if (s.gen.next()) this.#sched.schedule(s.gen.at, this, EV_ARRIVAL, i);
    });
  }

  /** Octets of each packet a PDU of `bytes` payload bytes becomes. */
  packets(bytes: number): PduPackets {
    return this.#c.sar ? sarPackets(bytes, this.#c.sarMtu, this.#c.tt) : plainPackets(bytes, this.#c.mtu, this.#c.tt);
  }

  /** Wire time of a PDU on the outbound link, delimiters included. */
  pduTime(bytes: number): number {
    const known = this.#pduTimes.get(bytes);
    if (known !== undefined) return known;
    const out = this.#out;
    if (out === null) throw new RangeError(`${this.#c.name}: not attached to a link`);
    const t = pduWireTime(this.packets(bytes), (b) => out.packetTime(b));
    // One entry per size the traffic can draw.
    this.#pduTimes.set(bytes, t);
    return t;
  }

  /** The traffic generators, in `traffic` order (for tests and reports). */
  generators(): TrafficGenerator[] {
    return this.#sources.map((s) => s.gen);
  }

  onEvent(_kind: number, data: unknown, now: number): void {
    const s = this.#sources[data as number];
    if (s === undefined) return;
    const g = s.gen;
    this.queues.offer(g.dst, s.prio, s.crf, g.bytes, now);
    if (g.next()) this.#sched.schedule(g.at, this, EV_ARRIVAL, data);
  }

  /** A PDU for (dst, prio, crf) is generated now: queued on its flow, or dropped when the queue is full. */
  offer(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, bytes: number, now: number): boolean {
    return this.queues.offer(dst, prio, crf, bytes, now);
  }

  setEnabled(dst: number, flowID: FlowIdLabel, enabled: boolean, now: number): void {
    this.queues.setEnabled(dst, flowID, enabled, now);
  }

  get controlQueued(): number {
    return this.queues.controlQueued;
  }

  get queuedPdus(): number {
    return this.queues.queuedPdus;
  }

  get queuedBytes(): number {
    return this.queues.queuedBytes;
  }

  segmenterSnapshot(): SegmenterSnapshot | null {
    return this.queues.segmenterSnapshot();
  }
}
