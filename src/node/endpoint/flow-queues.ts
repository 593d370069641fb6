/**
 * An end point's transmit side when its host offers whole PDUs (the simulator's traffic sources):
 * per-flow PDU queues, the choice of the next packet, and the cutting of PDUs into packets (plain,
 * or Part 10 segments from the Segmenter engine). The software fabric's end point sends through
 * its session stack instead (src/node/fabric-endpoint.ts); the flows, their `blocked` bits and the
 * features (feature.ts) are the same.
 *
 * Which flow sends next: strict priority, then round robin packet by packet among the flows of one
 * priority. A flow sends only while nothing blocks it (`blocked`, the bits of feature.ts: a Part 9
 * XOFF stops it at once; a missing arbitration grant, a closed TM gate or an unopened stream stop
 * it before its next PDU) and only when the receiver's buffers allow its priority: Part 6 §5
 * deadlock avoidance, a packet of priority p only while more than (3 − p) × reservePerPriority
 * buffers are free, so when priority p may not go no lower one may either. Control packets of the
 * end point's features (REQUEST, TM, session management) go before data of their priority.
 */
import type { Counters } from '../../engine/contract.ts';
import { Ring } from '../../engine/ring.ts';
import { Segmenter } from '../../streaming/segmenter.ts';
import type { SegmenterInput, SegmenterOutput, SegmenterSnapshot } from '../../streaming/segmenter-types.ts';
import { FLOW_IDS } from '../../wire/flow-id.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import { serialLength } from '../../wire/serial.ts';
import { type9Length } from '../../wire/type9.ts';
import type { Type9DataPacket } from '../../wire/type9-types.ts';
import { FLOW_BLOCK, packetPosition } from './feature.ts';
import type { ControlPacket, EndpointFeature, FlowBlockBit } from './feature.ts';
import { requestFlowId } from './flows.ts';
import type { TxFlow } from './flows.ts';
import { plainPacketBytes } from './packets.ts';
import { ftypeOf } from './packet.ts';
import type { NodePacket, Priority } from './packet.ts';
import { PduQueue } from './pdu-queue.ts';
import { stoppableFlow } from '../fabric-endpoint-hold.ts';
import type { Packet } from '../../wire/packet.ts';

/** Segment payloads are views of this: the queues model lengths, not data (never written). */
const ZEROS = new Uint8Array(0x10000);

/** A flow with its PDU queue. */
export interface QueuedFlow extends TxFlow {
  readonly queue: PduQueue;
  /** The segmenter pull of this flow, one object reused for every segment. */
  readonly pullInput: SegmenterInput;
}

export interface FlowQueuesConfig {
  /** Names the end point in messages. */
  readonly name: string;
  readonly id: number;
  readonly tt: number;
  readonly crfSupported: boolean;
  /** Cut PDUs into Part 10 segments (true) or into plain packets of at most `mtu` payload bytes. */
  readonly sar: boolean;
  readonly mtu: number;
  readonly sarMtu: number;
  /** PDUs a flow's queue holds; with `sourceQueue: 'fifo'`, PDUs the one queue holds. */
  readonly queuePdus: number;
  /**
   * 'per-destination' (default): a queue per flow, the next packet chosen among the flows that
   * may send. 'fifo': one queue in arrival order (issue 20 "sources with a single FIFO queue"):
   * only its head PDU may send, so a head whose flow is held back (a Part 9 XOFF, an arbitration
   * grant, a TM gate, a stream not open, or its priority refused by the receiver's buffers) holds
   * back every PDU behind it.
   */
  readonly sourceQueue?: 'per-destination' | 'fifo';
}

export type TxCounterName = 'pdusOffered' | 'pdusDropped' | 'packetsSent' | 'bytesSent';

/** What the queues ask of their host. */
export interface FlowQueuesHost {
  /** The host's number of a new flow (`TxFlow.index`; the simulator's flow table). */
  flowNumber(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, flowID: FlowIdLabel): number;
  /** A PDU was offered to `f` now: taken, or dropped at the source (`accepted` false) when the queue is full. */
  offered(f: QueuedFlow, bytes: number, accepted: boolean, now: number): void;
  /** The queues now hold `pdus` PDUs with `bytes` payload bytes not yet sent. */
  occupancy(pdus: number, bytes: number, now: number): void;
  /** Part 9 stopped (true) or restarted flow `f`. */
  xoff(f: QueuedFlow, stopped: boolean, now: number): void;
  /** Something may be sendable now: the host restarts its link. */
  kick(now: number): void;
  /** A packet id: unique, increasing in creation order. */
  nextPacketId(): number;
}

export class FlowQueues {
  readonly flows: QueuedFlow[] = [];
  /** Set by the end point: the features told about flows, PDUs and packets. */
  features: readonly EndpointFeature[] = [];
  /**
   * Set by the end point: whether a request of (destinationID, flowID) may go as its Part 9 CCP
   * reaction has it (§2.4.5 rule 1 "stops all transaction request flows"); a control packet that is
   * a request of a stopped flow (a TM packet in its data's flow, a session request, a RELEASE) waits
   * while others go. Null: nothing is stopped.
   */
  mayRequest: ((destinationID: number, flowID: FlowIdLabel) => boolean) | null = null;
  readonly #c: FlowQueuesConfig;
  readonly #host: FlowQueuesHost;
  readonly #counters: Counters<TxCounterName>;
  /** By dst × 8 + prio × 2 + crf. */
  readonly #byClass = new Map<number, QueuedFlow>();
  /** By dst × 128 + the flowID's 7-bit code (Part 9 Table 3-1): a number, not a string, per flow (issue 20). */
  readonly #byFlowId = new Map<number, QueuedFlow[]>();
  readonly #byPrio: QueuedFlow[][] = [[], [], []];
  readonly #rr = [0, 0, 0];
  /** Flows of each priority that may send now (`#eligible`). */
  readonly #ready = [0, 0, 0];
  /** Control packets of the features, by priority 0–3. */
  readonly #control = [new Ring<NodePacket>(), new Ring<NodePacket>(), new Ring<NodePacket>(), new Ring<NodePacket>()];
  #controlQueued = 0;
  readonly #segmenter: Segmenter | null;
  #pduId = 0;
  #queuedPdus = 0;
  #queuedBytes = 0;
  /** `sourceQueue: 'fifo'`: the flow of every queued PDU, in arrival order; null per destination. */
  readonly #order: Ring<QueuedFlow> | null;

  constructor(c: FlowQueuesConfig, host: FlowQueuesHost, counters: Counters<TxCounterName>) {
    this.#c = c;
    this.#host = host;
    this.#counters = counters;
    this.#order = c.sourceQueue === 'fifo' ? new Ring<QueuedFlow>() : null;
    this.#segmenter = c.sar ? new Segmenter({ sourceID: c.id, tt: c.tt, mtu: c.sarMtu, crfSupported: c.crfSupported }) : null;
  }

  /** The flow of (dst, prio, crf), created (and the features told) when new. */
  flow(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, flowID: FlowIdLabel, now: number): QueuedFlow {
    const key = dst * 8 + prio * 2 + crf;
    const known = this.#byClass.get(key);
    if (known !== undefined) return known;
    const index = this.#host.flowNumber(dst, prio, crf, flowID);
    const f: QueuedFlow = {
      index, dst, prio, crf, flowID, queue: new PduQueue(this.#c.queuePdus), enabled: true, blocked: 0,
      pullInput: { kind: 'pull', destinationID: dst, flowID },
    };
    this.flows.push(f);
    this.#byClass.set(key, f);
    const fk = dst * 128 + FLOW_IDS[flowID];
    const same = this.#byFlowId.get(fk);
    if (same === undefined) this.#byFlowId.set(fk, [f]);
    else same.push(f);
    (this.#byPrio[prio] as QueuedFlow[]).push(f);
    for (const ft of this.features) ft.flowCreated?.(f, now);
    return f;
  }

  /** A PDU for (dst, prio, crf) now: queued on its flow, or dropped when the queue is full. */
  offer(dst: number, prio: 0 | 1 | 2, crf: 0 | 1, bytes: number, now: number): boolean {
    const f = this.#byClass.get(dst * 8 + prio * 2 + crf) ?? this.flow(dst, prio, crf, requestFlowId(prio, crf, this.#c.crfSupported, 'offer'), now);
    const q = f.queue;
    const wasReady = this.#eligible(f);
    const id = this.#pduId++;
    const accepted = (this.#order === null || this.#queuedPdus < this.#c.queuePdus) && q.push(id, bytes, now);
    this.#counters.pdusOffered++;
    this.#host.offered(f, bytes, accepted, now);
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
    this.#order?.push(f);
    this.#readyChange(f, wasReady);
    this.#host.occupancy(this.#queuedPdus, this.#queuedBytes, now);
    for (const ft of this.features) ft.pduQueued?.(f, bytes, now);
    this.#host.kick(now);
    return true;
  }

  /** The next packet by strict priority, round robin within a priority, within the buffer rule. */
  pull(now: number, free: number, reserve: number): NodePacket | null {
    for (let p = 3; p >= 0; p--) {
      // A lower priority needs even more free buffers.
      if (free <= (3 - p) * reserve) return null;
      if (this.#controlQueued > 0) {
        const c = this.#nextControl(this.#control[p] as Ring<NodePacket>);
        if (c !== undefined) {
          this.#controlQueued--;
          return c;
        }
      }
      if (p === 3 || this.#ready[p] === 0) continue;
      if (this.#order !== null) {
        // One FIFO: its head goes or nothing does (a lower priority behind it waits too).
        const head = this.#order.peek();
        if (head === undefined) return null;
        if (head.prio === p && this.#eligible(head)) return this.#packet(head, now);
        continue;
      }
      const list = this.#byPrio[p] as QueuedFlow[];
      const n = list.length;
      const start = this.#rr[p] as number;
      for (let k = 0; k < n; k++) {
        const i = (start + k) % n;
        const f = list[i] as QueuedFlow;
        if (!this.#eligible(f)) continue;
        this.#rr[p] = (i + 1) % n;
        return this.#packet(f, now);
      }
    }
    return null;
  }

  /** Part 9: the CCP engine changed the send permission of (dst, flowID). */
  setEnabled(dst: number, flowID: FlowIdLabel, enabled: boolean, now: number): void {
    // A control request of the flow may have waited for it.
    if (enabled && this.#controlQueued > 0) this.#host.kick(now);
    const list = this.#byFlowId.get(dst * 128 + FLOW_IDS[flowID]);
    if (list === undefined) return;
    for (const f of list) {
      if (f.enabled === enabled) continue;
      this.setBlocked(f, FLOW_BLOCK.xoff, !enabled, now);
      this.#host.xoff(f, !enabled, now);
    }
  }

  /** Sets or clears one reason `f` may not send; the link is kicked when it may send again. */
  setBlocked(f: QueuedFlow, bit: FlowBlockBit, blocked: boolean, now: number): void {
    const was = this.#eligible(f);
    f.blocked = blocked ? f.blocked | bit : f.blocked & ~bit;
    f.enabled = (f.blocked & FLOW_BLOCK.xoff) === 0;
    this.#readyChange(f, was);
    if (!was && this.#eligible(f)) this.#host.kick(now);
  }

  /** A feature's control packet: queued ahead of data of its priority. */
  sendControl(c: ControlPacket, now: number): void {
    const p: NodePacket = {
      id: this.#host.nextPacketId(), kind: c.kind, ftype: ftypeOf(c.kind, c.wire), src: this.#c.id, dst: c.dst, prio: c.prio, crf: c.crf, vc: c.vc ?? 0, bytes: c.bytes, flow: -1, createdAt: now, wire: c.wire,
    };
    (this.#control[c.prio] as Ring<NodePacket>).push(p);
    this.#controlQueued++;
    this.#host.kick(now);
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

  segmenterSnapshot(): SegmenterSnapshot | null {
    return this.#segmenter?.snapshot() ?? null;
  }

  /** The first control packet of a ring that may go: the head unless it is a request of a stopped flow (then the first that may, FIFO among the rest). */
  #nextControl(ring: Ring<NodePacket>): NodePacket | undefined {
    const head = ring.peek();
    if (head === undefined) return undefined;
    const may = this.mayRequest;
    if (may === null || this.#mayGo(head, may)) return ring.shift();
    let i = 1;
    while (i < ring.length && !this.#mayGo(ring.at(i) as NodePacket, may)) i++;
    if (i === ring.length) return undefined;
    // Rare (a request of a stopped flow waits at the head): the one that goes is taken out, the rest keep their order.
    const all = ring.toArray();
    while (ring.length > 0) ring.shift();
    all.forEach((c, k) => { if (k !== i) ring.push(c); });
    return all[i];
  }

  #mayGo(c: NodePacket, may: (destinationID: number, flowID: FlowIdLabel) => boolean): boolean {
    const w = c.wire as Packet | undefined;
    if (typeof w !== 'object' || typeof (w as { ftype?: unknown }).ftype !== 'number') return true;
    const flowID = stoppableFlow(w, this.#c.crfSupported);
    return flowID === undefined || may(c.dst, flowID);
  }

  #packet(f: QueuedFlow, now: number): NodePacket {
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
    const packet: NodePacket = wire === undefined
      ? { id: this.#host.nextPacketId(), kind: 'data', ftype: 9, src: c.id, dst: f.dst, prio, crf, vc, bytes, flow: f.index, createdAt: q.headCreated, pdu }
      : { id: this.#host.nextPacketId(), kind: 'data', ftype: 9, src: c.id, dst: f.dst, prio, crf, vc, bytes, flow: f.index, createdAt: q.headCreated, pdu, wire };
    q.sent(payload);
    this.#queuedBytes -= payload;
    if (q.headSent >= pduBytes) {
      q.shift();
      this.#order?.shift();
      this.#queuedPdus--;
    }
    this.#readyChange(f, was);
    this.#counters.packetsSent++;
    this.#counters.bytesSent += bytes;
    this.#host.occupancy(this.#queuedPdus, this.#queuedBytes, now);
    if (this.features.length > 0) {
      const sent = { position: packetPosition(pdu.index, count), bytes, pduBytes, wire };
      for (const ft of this.features) ft.packetSent?.(f, sent, now);
    }
    return packet;
  }

  /** The flow's next segment from the Segmenter engine (one PDU per flow at a time, Part 10 §3.2.5 rule 1). */
  #segment(f: QueuedFlow, now: number): Type9DataPacket {
    const out: SegmenterOutput[] = (this.#segmenter as Segmenter).handle(f.pullInput, now);
    for (const o of out) if (o.kind === 'send') return o.packet;
    // Every queued PDU is in the segmenter, on its own stream: a pull of a backlogged flow always
    // sends, so an idle answer is a modelling error, not traffic.
    throw new RangeError(`${this.#c.name}: the segmenter had no segment for flow ${f.index} with ${f.queue.length} PDUs queued`);
  }

  /** May `f` send its next packet: a packet queued, and nothing blocking it (within a PDU only an XOFF does). */
  #eligible(f: QueuedFlow): boolean {
    if (f.queue.length === 0) return false;
    return (f.blocked & (f.queue.headSent > 0 ? FLOW_BLOCK.xoff : ~0)) === 0;
  }

  /** Keeps `#ready` right after a change to `f` that may have changed `#eligible(f)` from `was`. */
  #readyChange(f: QueuedFlow, was: boolean): void {
    const now = this.#eligible(f);
    if (now !== was) this.#ready[f.prio] = (this.#ready[f.prio] as number) + (now ? 1 : -1);
  }
}
