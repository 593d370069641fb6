/**
 * Part 10 traffic management of an end point whose data goes through flow queues (flow-queues.ts,
 * the simulator's end points; issue 7 §2 "Endpoints: … traffic management"): the end point runs
 * `tm-ingress` for the data it sends and `tm-egress` for the data it receives (src/streaming/), in
 * the configured mode (BASIC XON/XOFF, RATE, CREDIT, CREDIT_RATE). The engines decide everything;
 * tm-engines.ts feeds them and orders what they say, as for every end point; this file is the
 * flow queues' port.
 *
 * Ingress. Each source flow is one TM queue: the stream (destination, cos 0, streamID = the
 * flow's index & 0xffff, the streamID the segmenter uses) in a per-stream queue (§3.2.2 "From the
 * source's viewpoint: destination ID+cos+streamID represents a unique stream"). A queued PDU is
 * `pdu-ready`; the PDU's first packet on the wire is `pdu-sent`; the flow queue's fill, in steps,
 * is `queue-level`. The queue's gate is the flow's `FLOW_BLOCK.tm` bit (§3.4.5 rule 4 "An ingress
 * shall not overrule a TM directive from the egress"), which holds back the flow's next PDU, never
 * one already started.
 *
 * Egress. Each PDU's first packet received is a `pdu` input (it counts against its credit and
 * tells the egress the data's flow); the sink's receive queue, which every source shares, is the
 * level of the egress's queue of each source + cos (§3.3 "Egress queuing should be based on:
 * source ID+cos"), at every change or every `levelPeriod`.
 *
 * TM packets are control packets of kind 'tm' in the flow the engine gives them (the data's flow,
 * §3.4.5 protocol rule 1), of their Type 9 length in LP-Serial framing. A received one goes to the
 * engine its message is for (tm-engines.ts).
 *
 * A packet is being pulled onto the link while `packetSent` runs, so nothing may be sent or
 * restarted then: what the ingress answers to `pdu-sent` waits for a zero-delay timer ('flush');
 * gates that close take effect at once.
 */
import type { TmRateTimerName, TmStreamRef } from '../../streaming/tm-types.ts';
import { stepLevel } from '../../streaming/tm-queue-steps.ts';
import { serialLength } from '../../wire/serial.ts';
import { type9Length } from '../../wire/type9.ts';
import type { Type9TmPacket } from '../../wire/type9-types.ts';
import { FLOW_BLOCK } from './feature.ts';
import type { ControlPacket, EndpointFeature, FeatureHost, PacketPosition, SentPacket } from './feature.ts';
import type { TxFlow } from './flows.ts';
import { engineBytes } from './tm-check.ts';
import { SIM_TM_CLOCK, makeTmEngines } from './tm-config.ts';
import type { EndpointTmConfig } from './tm-config.ts';
import { TmEngines } from './tm-engines.ts';
import type { TmQueueLevel } from './tm-engines.ts';
import { dataCapacity, receiveQueueLevel, sentKind } from './tm-levels.ts';
import type { TmSentKind } from './tm-levels.ts';
import type { Priority, NodePacket } from './packet.ts';
import type { RegisterSpace } from '../../registers/space.ts';
import type { TmModeSetting } from '../../streaming/tm-mode.ts';
import { TmModeRegister, tmModeReport } from './tm-mode-register.ts';
import { tmEndpointRegisters, tmRegisterSettings } from './tm-registers.ts';

export type { EndpointTmConfig } from './tm-config.ts';

const FLUSH = 'flush';
const SAMPLE = 'level';
/** Every stream of the simulator is in class of service 0. */
const COS = 0;

const COUNTER_NAMES = [
  'messages', 'xoff', 'xon', 'rate', 'allocate', 'retire', 'qStatus', 'creditStatus', 'other', 'received', 'malformed', 'gateClosed', 'gateOpened',
] as const;
type TmCounter = (typeof COUNTER_NAMES)[number];

/** One source flow as its ingress queue. */
interface TmFlow extends TmQueueLevel {
  readonly flow: TxFlow;
  readonly queue: string;
}

/** One of the egress's own queues: a source (cos 0), with the first stream it was seen on. */
interface EgressQueue {
  readonly sourceID: number;
  readonly streamID: number;
  /** The lowest priority of the source's data: its room in the receive queue is the smallest. */
  prio: number;
  /** The last level given to the egress; null before the first. */
  fed: number | null;
}

function streamOf(flow: number): number {
  return flow & 0xffff;
}

export class TmFeature implements EndpointFeature {
  readonly name = 'tm';
  readonly kinds = ['tm'] as const;
  readonly #host: FeatureHost;
  readonly #tm: TmEngines;
  readonly #flows = new Map<number, TmFlow>();
  readonly #byQueue = new Map<string, TmFlow[]>();
  readonly #sources = new Map<number, EgressQueue>();
  readonly #counters = Object.fromEntries(COUNTER_NAMES.map((n) => [n, 0])) as Record<TmCounter, number>;
  /** Control packets and gates to restart waiting for the flush. */
  readonly #deferred: ControlPacket[] = [];
  readonly #dirty = new Set<TmFlow>();
  #flushArmed = false;
  /** Depth of `packetSent` calls in progress. */
  #pulling = 0;
  /** The receive queue now: packets waiting and buffers. */
  #packets = 0;
  #capacity = 1;
  #sampling = false;
  /** The end point's registers and their TM Mode field (tm-mode-register.ts). */
  readonly #registers: RegisterSpace;
  readonly #mode: TmModeRegister;

  /**
   * `registers`: the end point's configuration space when another part of it has one (session
   * management's), built with this traffic management's settings; without, the feature builds one
   * (tm-registers.ts tmEndpointRegisters), as a fabric end point's registers say it.
   */
  constructor(host: FeatureHost, config: EndpointTmConfig, registers?: RegisterSpace) {
    this.#host = host;
    const e = makeTmEngines({ id: host.id, tt: host.tt, crfSupported: host.crfSupported }, config, SIM_TM_CLOCK);
    this.#registers = registers ?? tmEndpointRegisters(host, host.dataStreaming ?? {}, tmRegisterSettings(config));
    this.#mode = new TmModeRegister(this.#registers, true);
    this.#tm = new TmEngines(e, SIM_TM_CLOCK.tick, {
      send: (packet, _fromIngress, now) => { this.#send(packet, now); },
      gate: (o, now) => {
        if (!o.open) for (const t of this.#byQueue.get(o.queue) ?? []) this.#setGate(t, false, now);
      },
      opened: (queues, now) => {
        for (const q of queues) for (const t of this.#byQueue.get(q) ?? []) this.#setGate(t, true, now);
      },
      timer: (name, at) => { this.#host.timer({ kind: 'timer', name, at }); },
      event: (_side, o) => { this.#host.count(`tm.${o.name}`); },
    });
  }

  receive(p: NodePacket, now: number): void {
    this.#count('received');
    // Not a TM packet at all, or not one for this end point: nothing either engine could take.
    if (this.#tm.receive(p.wire as Type9TmPacket, this.#host.id, now) !== undefined) this.#count('malformed');
  }

  flowCreated(f: TxFlow): void {
    this.#flowOf(f);
  }

  pduQueued(f: TxFlow, bytes: number, now: number): void {
    const t = this.#flowOf(f);
    this.#tm.toIngress({ kind: 'pdu-ready', stream: t.stream, bytes: engineBytes(bytes) }, now);
    // A queue's gate starts as it is when the engine creates it: no output reports it.
    this.#setGate(t, this.#tm.ingress.mayTransmit(t.queue), now);
    this.#reportLevel(t, now);
  }

  packetSent(f: TxFlow, p: SentPacket, now: number): void {
    this.#pulling++;
    try {
      const t = this.#flowOf(f);
      if (p.position === 'single' || p.position === 'start') this.#tm.toIngress({ kind: 'pdu-sent', stream: t.stream, bytes: engineBytes(p.pduBytes) }, now);
      if (p.position === 'single' || p.position === 'end') this.#reportLevel(t, now);
    } finally {
      this.#pulling--;
    }
  }

  dataReceived(p: NodePacket, position: PacketPosition, now: number): void {
    const streamID = streamOf(p.flow);
    const q = this.#sources.get(p.src);
    if (q === undefined) this.#sources.set(p.src, { sourceID: p.src, streamID, prio: p.prio, fed: null });
    else if (p.prio < q.prio) q.prio = p.prio;
    if (position !== 'single' && position !== 'start') return;
    this.#tm.toEgress({ kind: 'pdu', sourceID: p.src, cos: COS, streamID, flow: { prio: p.prio, crf: p.crf, vc: p.vc } }, now);
  }

  sinkLevel(packets: number, capacity: number, now: number): void {
    this.#packets = packets;
    this.#capacity = capacity;
    if (this.#tm.levelPeriod === 0) {
      this.#feedLevels(true, now);
    } else if (!this.#sampling) {
      this.#armSample(now);
    }
  }

  /** The end point's configuration space, with its Data Streaming and Operations registers saying what this traffic management is. */
  get registers(): RegisterSpace {
    return this.#registers;
  }

  /**
   * A MAINTENANCE write request was served: a new TM Mode goes to both engines (`set-mode`), one the
   * end point cannot run is put back (tm-mode-register.ts); counted `tm.mode`, `tm.mode-refused`.
   */
  registersWritten(now: number): void {
    const w = this.#mode.written();
    const report = tmModeReport(w);
    if (report !== undefined) this.#host.count(`tm.${report.name}`);
    if (w.kind === 'changed') this.#setMode(w.to, now);
  }

  #setMode(mode: TmModeSetting, now: number): void {
    this.#tm.toIngress({ kind: 'set-mode', mode }, now);
    this.#tm.toEgress({ kind: 'set-mode', mode }, now);
  }

  timer(name: string, now: number): void {
    if (name === FLUSH) {
      this.#flush(now);
    } else if (name === SAMPLE) {
      this.#sampling = false;
      this.#feedLevels(false, now);
      // An empty queue stays empty until the sink sees data again, which restarts the samples; a
      // TM Mode write that made the period 0 (decision R3) ends them: each change is fed at once.
      if (this.#packets > 0 && this.#tm.levelPeriod > 0) this.#armSample(now);
    } else {
      this.#tm.toIngress({ kind: 'timer', name: name as TmRateTimerName }, now);
    }
  }

  counters(): Record<string, number> {
    const out: Record<string, number> = { ...this.#counters };
    for (const [k, v] of Object.entries(this.#tm.ingress.counters())) out[`ingress.${k}`] = v;
    for (const [k, v] of Object.entries(this.#tm.egress.counters())) out[`egress.${k}`] = v;
    return out;
  }

  snapshot(): Record<string, unknown> {
    return {
      mode: this.#tm.ingress.mode(),
      queueLevelBits: this.#tm.queueLevelBits,
      levelPeriod: this.#tm.levelPeriod,
      receiveQueue: { packets: this.#packets, capacity: this.#capacity },
      flows: [...this.#flows.values()].map((t) => ({
        flow: t.flow.index, queue: t.queue, gate: (t.flow.blocked & FLOW_BLOCK.tm) === 0 ? 'open' : 'closed', level: stepLevel(t.step, this.#tm.queueLevelBits),
      })),
      egressQueues: [...this.#sources.values()].map((q) => ({ sourceID: q.sourceID, streamID: q.streamID, level: q.fed })),
      deferred: this.#deferred.length,
      ingress: this.#tm.ingress.snapshot(),
      egress: this.#tm.egress.snapshot(),
    };
  }

  #armSample(now: number): void {
    this.#sampling = true;
    this.#host.timer({ kind: 'timer', name: SAMPLE, at: now + this.#tm.levelPeriod });
  }

  #flowOf(f: TxFlow): TmFlow {
    let t = this.#flows.get(f.index);
    if (t !== undefined) return t;
    const stream: TmStreamRef = { target: { destinationID: f.dst, cos: COS, streamID: streamOf(f.index), flowID: f.flowID } };
    t = { flow: f, stream, queue: this.#tm.ingress.queueOf(stream) as string, step: 0 };
    this.#flows.set(f.index, t);
    const same = this.#byQueue.get(t.queue);
    if (same === undefined) this.#byQueue.set(t.queue, [t]);
    else same.push(t);
    return t;
  }

  #reportLevel(t: TmFlow, now: number): void {
    this.#tm.reportLevel(t, t.flow.queue.length, t.flow.queue.limit, now);
  }

  /**
   * Every egress queue gets the receive queue's level, as the room of its source's data: on a
   * change, those not told it yet; on a sample, all.
   */
  #feedLevels(changedOnly: boolean, now: number): void {
    const reserve = this.#host.buffers?.reservePerPriority ?? 1;
    for (const q of this.#sources.values()) {
      const level = receiveQueueLevel(this.#packets, dataCapacity(this.#capacity, reserve, q.prio));
      if (changedOnly && q.fed === level) continue;
      q.fed = level;
      this.#tm.toEgress({ kind: 'queue-level', sourceID: q.sourceID, cos: COS, streamID: q.streamID, level }, now);
    }
  }

  #send(packet: Type9TmPacket, now: number): void {
    const kind: TmSentKind = sentKind(packet);
    this.#count('messages');
    this.#count(kind);
    const c: ControlPacket = {
      kind: 'tm', dst: packet.destinationID, prio: packet.prio as Priority, crf: packet.crf as 0 | 1, vc: packet.vc,
      bytes: serialLength(type9Length(packet)), wire: packet,
    };
    // Packets already waiting keep their order ahead of this one.
    if (this.#pulling > 0 || this.#deferred.length > 0) {
      this.#deferred.push(c);
      this.#armFlush(now);
      return;
    }
    this.#host.sendControl(c, now);
  }

  #setGate(t: TmFlow, open: boolean, now: number): void {
    const closed = (t.flow.blocked & FLOW_BLOCK.tm) !== 0;
    if (open && (this.#pulling > 0 || this.#flushArmed)) {
      this.#dirty.add(t);
      this.#armFlush(now);
      return;
    }
    if (closed !== open) return;
    this.#count(open ? 'gateOpened' : 'gateClosed');
    this.#host.setBlocked(t.flow, FLOW_BLOCK.tm, !open, now);
  }

  #armFlush(now: number): void {
    if (this.#flushArmed) return;
    this.#flushArmed = true;
    this.#host.timer({ kind: 'timer', name: FLUSH, at: now });
  }

  /** Sends what waited, then sets the gates that were to open as the ingress has them now. */
  #flush(now: number): void {
    this.#flushArmed = false;
    for (const c of this.#deferred.splice(0)) this.#host.sendControl(c, now);
    const dirty = [...this.#dirty];
    this.#dirty.clear();
    for (const t of dirty) this.#setGate(t, this.#tm.ingress.mayTransmit(t.queue), now);
  }

  #count(name: TmCounter): void {
    this.#counters[name]++;
    this.#host.count(`tm.${name}`);
  }
}
