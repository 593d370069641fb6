/**
 * The transmitting half of an end point: traffic sources, per-flow PDU queues, flow arbitration
 * and the cutting of PDUs into packets (plain, or Part 10 segments from the Segmenter engine).
 *
 * Arbitration ("Which flow sends next"): strict priority, then round robin packet by packet among
 * the flows of one priority. A flow sends only while nothing blocks it (`blocked`, the bits of
 * endpoint-feature.ts: a Part 9 XOFF stops it at once; a missing arbitration grant, a closed TM
 * gate or an unopened stream stop it before its next PDU) and only when the receiver's buffers
 * allow its priority: Part 6 §5 deadlock avoidance, a packet of priority p only while more than
 * (3 − p) × reservePerPriority buffers are free, so when priority p may not go no lower one may
 * either. Control packets of the end point's features (REQUEST, TM, session management) go before
 * data of their priority.
 *
 * Offered load: a PDU is offered when its traffic source generates it (`EndpointProbe.offered`),
 * whether its flow's queue takes it or, full, drops it at the source.
 */
import type { Counters } from '../../engine/contract.ts';
import { Segmenter } from '../../streaming/segmenter.ts';
import type { SegmenterInput, SegmenterOutput } from '../../streaming/segmenter-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import { serialLength } from '../../wire/serial.ts';
import { type9Length } from '../../wire/type9.ts';
import type { Type9DataPacket } from '../../wire/type9-types.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import { ftypeOf } from './sim-packet.ts';
import { makeDestinations } from '../traffic/destinations.ts';
import { TrafficGenerator } from '../traffic/generator.ts';
import type { Channel } from './channel.ts';
import type { ResolvedEndpointConfig } from './endpoint-config.ts';
import { requestFlowId } from '../../node/endpoint/flows.ts';
import type { TxFlow } from '../../node/endpoint/flows.ts';
import { plainPacketBytes, plainPackets, pduWireTime, sarPackets } from '../../node/endpoint/packets.ts';
import type { PduPackets } from '../../node/endpoint/packets.ts';
import { PduQueue } from '../../node/endpoint/pdu-queue.ts';
import type { EndpointContext, EndpointCounterName } from './endpoint-types.ts';
import { FLOW_BLOCK, packetPosition } from '../../node/endpoint/feature.ts';
import type { ControlPacket, EndpointFeature, FlowBlockBit } from '../../node/endpoint/feature.ts';
import { Ring } from '../../engine/ring.ts';
import { dataRate } from './link-rate.ts';
import type { Priority, SimPacket } from './types.ts';

const EV_ARRIVAL = 0;
/** Segment payloads are views of this: the simulator models lengths, not data (never written). */
const ZEROS = new Uint8Array(0x10000);

/** A flow of this source: its PDU queue (src/node/endpoint/flows.ts `TxFlow`). */
export interface SourceFlow extends TxFlow {
  readonly queue: PduQueue;
  /** The segmenter pull of this flow, one object reused for every segment. */
  readonly pullInput: SegmenterInput;
}

interface Source {
  readonly gen: TrafficGenerator;
  readonly prio: 0 | 1 | 2;
  readonly crf: 0 | 1;
}

export class EndpointSource implements Target {
  readonly flows: SourceFlow[] = [];
  readonly #c: ResolvedEndpointConfig;
  readonly #ctx: EndpointContext;
  readonly #sched: Scheduler;
  readonly #counters: Counters<EndpointCounterName>;
  /** By dst × 8 + prio × 2 + crf. */
  readonly #byClass = new Map<number, SourceFlow>();
  /** Wire time of a PDU by its size: sizes repeat, the packets they become do not change. */
  readonly #pduTimes = new Map<number, number>();
  readonly #byFlowId = new Map<string, SourceFlow[]>();
  readonly #byPrio: SourceFlow[][] = [[], [], []];
  readonly #rr = [0, 0, 0];
  /** Flows of each priority that may send now (`#eligible`). */
  readonly #ready = [0, 0, 0];
  /** Control packets of the features, by priority 0–3. */
  readonly #control = [new Ring<SimPacket>(), new Ring<SimPacket>(), new Ring<SimPacket>(), new Ring<SimPacket>()];
  #controlQueued = 0;
  /** Set by the end point: the features told about flows, PDUs and packets. */
  features: readonly EndpointFeature[] = [];
  readonly #segmenter: Segmenter | null;
  readonly #srcName: string;
  #sources: Source[] = [];
  #out: Channel | null = null;
  #pduId = 0;
  #queuedPdus = 0;
  #queuedBytes = 0;

  constructor(sched: Scheduler, c: ResolvedEndpointConfig, ctx: EndpointContext, counters: Counters<EndpointCounterName>) {
    this.#sched = sched;
    this.#c = c;
    this.#ctx = ctx;
    this.#counters = counters;
    this.#srcName = `${c.name}:src`;
    this.#segmenter = c.sar ? new Segmenter({ sourceID: c.id, tt: c.tt, mtu: c.sarMtu, crfSupported: c.crfSupported }) : null;
    for (const f of c.flows) this.#flow(f.dst, f.prio, f.crf, f.flowID);
    for (const t of c.traffic) {
      for (const dst of makeDestinations(t.spec.destinations, c.id).destinations()) this.#flow(dst, t.prio, t.crf, t.flowID);
    }
  }

  /** Wires the outbound channel: the link the PDUs are priced on and kicked onto. */
  attach(out: Channel): void {
    this.#out = out;
    this.#pduTimes.clear();
    const rate = dataRate(out.spec);
    for (const f of this.flows) {
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
    this.offer(g.dst, s.prio, s.crf, g.bytes, now);
    if (g.next()) this.#sched.schedule(g.at, this, EV_ARRIVAL, data);
  }

  /** A PDU for (dst, prio, crf) is generated now: queued on its flow, or dropped when the queue is full. */
  offer(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, bytes: number, now: number): boolean {
    const f = this.#byClass.get(dst * 8 + prio * 2 + crf) ?? this.#flow(dst, prio, crf, requestFlowId(prio, crf, this.#c.crfSupported, 'offer'));
    const q = f.queue;
    const wasReady = this.#eligible(f);
    const id = this.#pduId++;
    const accepted = q.push(id, bytes, now);
    this.#counters.pdusOffered++;
    this.#ctx.probe.offered(f.index, now, bytes, this.#out === null ? 0 : this.pduTime(bytes), accepted);
    if (!accepted) {
      this.#counters.pdusDropped++;
      return false;
    }
    if (this.#segmenter !== null) {
      const out = this.#segmenter.handle({ kind: 'pdu', destinationID: dst, cos: 0, streamID: f.index & 0xffff, flowID: f.flowID, payload: ZEROS.subarray(0, bytes), id }, now);
      if (out[0]?.kind !== 'queued') throw new RangeError(`${this.#c.name}: the segmenter refused a PDU of ${bytes} bytes to ${dst}`);
    }
    this.#queuedPdus++;
    this.#queuedBytes += bytes;
    this.#readyChange(f, wasReady);
    this.#ctx.probe.occupancy(this.#srcName, now, this.#queuedPdus, this.#queuedBytes);
    for (const ft of this.features) ft.pduQueued?.(f, bytes, now);
    this.#out?.kick(now);
    return true;
  }

  /** PortTx.pull: the next packet by strict priority, round robin within a priority, within the buffer rule. */
  pull(now: number, free: number, reserve: number): SimPacket | null {
    for (let p = 3; p >= 0; p--) {
      // A lower priority needs even more free buffers.
      if (free <= (3 - p) * reserve) return null;
      if (this.#controlQueued > 0) {
        const c = (this.#control[p] as Ring<SimPacket>).shift();
        if (c !== undefined) {
          this.#controlQueued--;
          return c;
        }
      }
      if (p === 3 || this.#ready[p] === 0) continue;
      const list = this.#byPrio[p] as SourceFlow[];
      const n = list.length;
      const start = this.#rr[p] as number;
      for (let k = 0; k < n; k++) {
        const i = (start + k) % n;
        const f = list[i] as SourceFlow;
        if (!this.#eligible(f)) continue;
        this.#rr[p] = (i + 1) % n;
        return this.#packet(f, now);
      }
    }
    return null;
  }

  /** Part 9: the CCP engine changed the send permission of (dst, flowID). */
  setEnabled(dst: number, flowID: FlowIdLabel, enabled: boolean, now: number): void {
    const list = this.#byFlowId.get(`${dst}/${flowID}`);
    if (list === undefined) return;
    for (const f of list) {
      if (f.enabled === enabled) continue;
      this.setBlocked(f, FLOW_BLOCK.xoff, !enabled, now);
      this.#ctx.probe.xoff(f.index, now, !enabled);
    }
  }

  /** Sets or clears one reason `f` may not send; the link is kicked when it may send again. */
  setBlocked(f: SourceFlow, bit: FlowBlockBit, blocked: boolean, now: number): void {
    const was = this.#eligible(f);
    f.blocked = blocked ? f.blocked | bit : f.blocked & ~bit;
    f.enabled = (f.blocked & FLOW_BLOCK.xoff) === 0;
    this.#readyChange(f, was);
    if (!was && this.#eligible(f)) this.#out?.kick(now);
  }

  /** A feature's control packet: queued ahead of data of its priority. */
  sendControl(c: ControlPacket, now: number): void {
    const p: SimPacket = {
      id: this.#ctx.ids.nextPacketId(), kind: c.kind, ftype: ftypeOf(c.kind, c.wire), src: this.#c.id, dst: c.dst, prio: c.prio, crf: c.crf, vc: c.vc ?? 0, bytes: c.bytes, flow: -1, createdAt: now, wire: c.wire,
    };
    (this.#control[c.prio] as Ring<SimPacket>).push(p);
    this.#controlQueued++;
    this.#out?.kick(now);
  }

  /** Control packets waiting to be sent. */
  get controlQueued(): number {
    return this.#controlQueued;
  }

  get queuedPdus(): number {
    return this.#queuedPdus;
  }

  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  segmenterSnapshot(): Record<string, unknown> | null {
    return this.#segmenter?.snapshot() ?? null;
  }

  #packet(f: SourceFlow, now: number): SimPacket {
    const q = f.queue;
    const c = this.#c;
    const pduBytes = q.headBytes;
    let payload: number;
    let bytes: number;
    let count: number;
    let wire: Type9DataPacket | undefined;
    let prio: Priority = f.prio;
    let crf: 0 | 1 = f.crf;
    let vc = 0;
    if (this.#segmenter === null) {
      payload = Math.min(c.mtu, pduBytes - q.headSent);
      bytes = plainPacketBytes(payload, c.tt);
      count = Math.max(1, Math.ceil(pduBytes / c.mtu));
    } else {
      wire = this.#segment(f, now);
      payload = wire.payload.length;
      bytes = serialLength(type9Length(wire));
      count = Math.ceil(pduBytes / c.sarMtu);
      prio = wire.prio as Priority;
      crf = wire.crf as 0 | 1;
      vc = wire.vc;
    }
    const pdu = { id: q.headId, index: q.headPackets, count, bytes: pduBytes };
    const was = this.#eligible(f);
    const packet: SimPacket = wire === undefined
      ? { id: this.#ctx.ids.nextPacketId(), kind: 'data', ftype: 9, src: c.id, dst: f.dst, prio, crf, vc, bytes, flow: f.index, createdAt: q.headCreated, pdu }
      : { id: this.#ctx.ids.nextPacketId(), kind: 'data', ftype: 9, src: c.id, dst: f.dst, prio, crf, vc, bytes, flow: f.index, createdAt: q.headCreated, pdu, wire };
    q.sent(payload);
    this.#queuedBytes -= payload;
    if (q.headSent >= pduBytes) {
      q.shift();
      this.#queuedPdus--;
    }
    this.#readyChange(f, was);
    this.#counters.packetsSent++;
    this.#counters.bytesSent += bytes;
    this.#ctx.probe.occupancy(this.#srcName, now, this.#queuedPdus, this.#queuedBytes);
    if (this.features.length > 0) {
      const sent = { position: packetPosition(pdu.index, count), bytes, pduBytes, wire };
      for (const ft of this.features) ft.packetSent?.(f, sent, now);
    }
    return packet;
  }

  /** The flow's next segment from the Segmenter engine (one PDU per flow at a time, §3.2.5 rule 1). */
  #segment(f: SourceFlow, now: number): Type9DataPacket {
    const out: SegmenterOutput[] = (this.#segmenter as Segmenter).handle(f.pullInput, now);
    for (const o of out) if (o.kind === 'send') return o.packet;
    // Every queued PDU is in the segmenter, on its own stream: a pull of a backlogged flow always
    // sends, so an idle answer is a modelling error, not traffic.
    throw new RangeError(`${this.#c.name}: the segmenter had no segment for flow ${f.index} with ${f.queue.length} PDUs queued`);
  }

  #flow(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, flowID: FlowIdLabel): SourceFlow {
    const key = dst * 8 + prio * 2 + crf;
    const known = this.#byClass.get(key);
    if (known !== undefined) return known;
    const index = this.#ctx.flows.register(this.#c.id, dst, prio, crf, flowID);
    const info = this.#ctx.flows.get(index);
    if (info !== undefined && this.#out !== null) info.linkRate = dataRate(this.#out.spec);
    const f: SourceFlow = {
      index, dst, prio, crf, flowID, queue: new PduQueue(this.#c.queuePdus), enabled: true, blocked: 0,
      pullInput: { kind: 'pull', destinationID: dst, flowID },
    };
    this.flows.push(f);
    this.#byClass.set(key, f);
    const fk = `${dst}/${flowID}`;
    const same = this.#byFlowId.get(fk);
    if (same === undefined) this.#byFlowId.set(fk, [f]);
    else same.push(f);
    (this.#byPrio[prio] as SourceFlow[]).push(f);
    for (const ft of this.features) ft.flowCreated?.(f, this.#sched.now);
    return f;
  }

  /** May `f` send its next packet: a packet queued, and nothing blocking it (within a PDU only an XOFF does). */
  #eligible(f: SourceFlow): boolean {
    if (f.queue.length === 0) return false;
    return (f.blocked & (f.queue.headSent > 0 ? FLOW_BLOCK.xoff : ~0)) === 0;
  }

  /** Keeps `#ready` right after a change to `f` that may have changed `#eligible(f)` from `was`. */
  #readyChange(f: SourceFlow, was: boolean): void {
    const now = this.#eligible(f);
    if (now !== was) this.#ready[f.prio] = (this.#ready[f.prio] as number) + (now ? 1 : -1);
  }
}
