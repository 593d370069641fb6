/**
 * The receiving half of an end point for data packets: latency records, PDU reassembly (Part 10
 * through the Reassembler engine, or counting the plain packets of a PDU) and consumption.
 *
 * Latency. A packet's latency is from its PDU's creation at the source to the arrival of its
 * last bit here; a PDU's from its creation to the arrival of its last packet ("creation at the
 * source → last segment received"). Both are taken on arrival, before the sink's service time:
 * the service time models the application draining the receive buffers, and shows in the
 * fabric's latency through the backpressure it causes.
 *
 * Consumption. The sink frees a receive buffer (the credit goes back to the transmitter) when it
 * consumes a packet: on arrival with the default infinite rate, else one packet per
 * `serviceTime` in arrival order, so a slow end point congests its link.
 *
 * Plain PDUs: their packets of one flow arrive in order (one source, one priority, FIFO links
 * and switch queues); a PDU is delivered when packets 0 … count − 1 of it came in sequence, and a
 * gap (a packet missing, or out of order) discards it as a defect.
 */
import type { Counters } from '../../engine/contract.ts';
import { Reassembler } from '../../streaming/reassembler.ts';
import type { ReassemblerInput, ReassemblerOutput } from '../../streaming/reassembler-types.ts';
import type { Type9Packet } from '../../wire/type9-types.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel } from './channel.ts';
import type { ResolvedEndpointConfig } from './endpoint-config.ts';
import { packetPosition } from '../../node/endpoint/feature.ts';
import type { EndpointFeature } from '../../node/endpoint/feature.ts';
import { Ring } from '../../engine/ring.ts';
import { EngineTimers } from './endpoint-timers.ts';
import type { EndpointCounterName, EndpointProbe } from './endpoint-types.ts';
import type { SimPacket } from './types.ts';

const EV_SERVICE = 0;
const EV_REASSEMBLER_TIMER = 1;
/** Delivered multi-segment PDU buffers given back to the reassembler for reuse. */
const BUFFER_POOL = 8;

interface PlainPdu {
  id: number;
  /** Packets of PDU `id` received in sequence; 0 when none is assembling. */
  got: number;
  /** PDU `id` was reported defective: its remaining packets are dropped without a new report. */
  discarding: boolean;
}

export class EndpointSink implements Target {
  readonly #c: ResolvedEndpointConfig;
  readonly #sched: Scheduler;
  readonly #probe: EndpointProbe;
  readonly #counters: Counters<EndpointCounterName>;
  readonly #rxName: string;
  readonly #plain = new Map<number, PlainPdu>();
  readonly #waiting = new Ring<SimPacket>();
  #waitingBytes = 0;
  #busy = false;
  #reassembler: Reassembler | null = null;
  readonly #timers: EngineTimers;
  #in: Channel | null = null;
  /** Set by the end point: the features told about arriving data and the receive queue's level. */
  features: readonly EndpointFeature[] = [];

  constructor(sched: Scheduler, c: ResolvedEndpointConfig, probe: EndpointProbe, counters: Counters<EndpointCounterName>) {
    this.#sched = sched;
    this.#c = c;
    this.#probe = probe;
    this.#counters = counters;
    this.#rxName = `${c.name}:rx`;
    this.#timers = new EngineTimers(sched, this, EV_REASSEMBLER_TIMER);
  }

  attach(inbound: Channel): void {
    this.#in = inbound;
  }

  /** Packets waiting for the sink's service (0 with an infinitely fast sink). */
  get waiting(): number {
    return this.#waiting.length;
  }

  receive(p: SimPacket, now: number): void {
    this.#counters.packetsReceived++;
    this.#counters.bytesReceived += p.bytes;
    this.#probe.packetDelivered(p.flow, now, p.bytes, now - p.createdAt);
    if (this.features.length > 0) {
      const position = p.pdu === undefined ? 'single' : packetPosition(p.pdu.index, p.pdu.count);
      for (const ft of this.features) ft.dataReceived?.(p, position, now);
    }
    const wire = p.wire;
    if (typeof wire === 'object' && wire !== null && (wire as { ftype?: unknown }).ftype === 9) this.#reassemble(p, wire as Type9Packet, now);
    else if (p.pdu !== undefined) this.#plainPdu(p, now);
    if (this.#c.serviceTime === 0) {
      this.#in?.freed(1, now);
      for (const ft of this.features) ft.dataConsumed?.(p, now);
      return;
    }
    this.#waiting.push(p);
    this.#waitingBytes += p.bytes;
    this.#probe.occupancy(this.#rxName, now, this.#waiting.length, this.#waitingBytes);
    this.#level(now);
    if (!this.#busy) this.#serve(now);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    if (kind === EV_SERVICE) {
      const p = this.#waiting.shift();
      this.#busy = false;
      if (p !== undefined) {
        this.#waitingBytes -= p.bytes;
        this.#in?.freed(1, now);
        this.#probe.occupancy(this.#rxName, now, this.#waiting.length, this.#waitingBytes);
        for (const ft of this.features) ft.dataConsumed?.(p, now);
        this.#level(now);
      }
      if (this.#waiting.length > 0) this.#serve(now);
      return;
    }
    const name = data as `idle:${string}`;
    this.#timers.fired(name);
    if (this.#reassembler !== null) this.#apply(this.#reassembler.handle({ kind: 'timer', name }, now), -1, now, now);
  }

  reassemblerSnapshot(): Record<string, unknown> | null {
    return this.#reassembler?.snapshot() ?? null;
  }

  #level(now: number): void {
    for (const ft of this.features) ft.sinkLevel?.(this.#waiting.length, this.#c.buffers.packets, now);
  }

  #serve(now: number): void {
    this.#busy = true;
    this.#sched.schedule(now + this.#c.serviceTime, this, EV_SERVICE);
  }

  #reassemble(p: SimPacket, wire: Type9Packet, now: number): void {
    this.#reassembler ??= new Reassembler({ ...this.#c.reassembler, bufferPool: BUFFER_POOL });
    const input: ReassemblerInput = { kind: 'packet', packet: wire };
    this.#apply(this.#reassembler.handle(input, now), p.flow, p.createdAt, now);
  }

  #apply(out: ReassemblerOutput[], flow: number, createdAt: number, now: number): void {
    for (const o of out) {
      if (o.kind === 'pdu') {
        this.#counters.pdusReceived++;
        this.#probe.pduDelivered(flow, now, o.payload.length, now - createdAt);
        if (o.segments > 1) this.#reassembler?.handle({ kind: 'recycle', payload: o.payload }, now);
      } else if (o.kind === 'timer') {
        this.#timers.apply(o);
      } else {
        this.#probe.count(`reassembler.${o.name}`);
        // Part 10 §3.2.5 "a defective PDU results in discarding the entire PDU"; a context that
        // timed out or could not be had loses its PDU as well.
        if (o.name === 'defective-pdu' || o.name === 'idle-timeout' || o.name === 'no-context') this.#defect(flow, now);
      }
    }
  }

  #plainPdu(p: SimPacket, now: number): void {
    const pdu = p.pdu as NonNullable<SimPacket['pdu']>;
    let open = this.#plain.get(p.flow);
    if (open === undefined) {
      open = { id: -1, got: 0, discarding: false };
      this.#plain.set(p.flow, open);
    }
    if (pdu.index === 0) {
      // A PDU still assembling never got its last packet.
      if (open.got > 0) this.#defect(p.flow, now);
      open.id = pdu.id;
      open.got = 1;
      open.discarding = false;
    } else if (open.discarding && open.id === pdu.id) {
      if (pdu.index === pdu.count - 1) open.discarding = false;
      return;
    } else if (open.got > 0 && open.id === pdu.id && open.got === pdu.index) {
      open.got++;
    } else {
      // Out of sequence: the PDU assembling is lost, and so is this one (its start is missing);
      // the rest of this one is dropped quietly.
      const same = open.got > 0 && open.id === pdu.id;
      if (open.got > 0) this.#defect(p.flow, now);
      if (!same) this.#defect(p.flow, now);
      open.id = pdu.id;
      open.got = 0;
      open.discarding = pdu.index !== pdu.count - 1;
      return;
    }
    if (open.got === pdu.count) {
      open.got = 0;
      this.#counters.pdusReceived++;
      this.#probe.pduDelivered(p.flow, now, pdu.bytes, now - p.createdAt);
    }
  }

  #defect(flow: number, now: number): void {
    this.#counters.pduDefects++;
    this.#probe.pduDefect(flow, now);
  }
}
