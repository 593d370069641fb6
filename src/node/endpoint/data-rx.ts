/**
 * PDU reassembly at an end point whose peers send through flow queues (flow-queues.ts): Part 10
 * segments go through the Reassembler engine, plain packets are counted in sequence. The host
 * gives it every data packet for this end point and hears of each PDU delivered or lost.
 *
 * Plain PDUs: their packets of one flow arrive in order (one source, one priority, FIFO links and
 * switch queues); a PDU is delivered when packets 0 … count − 1 of it came in sequence, and a gap
 * (a packet missing, or out of order) discards it as a defect.
 */
import type { Counters, TimerOutput } from '../../engine/contract.ts';
import { Reassembler } from '../../streaming/reassembler.ts';
import type { ReassemblerConfig, ReassemblerOutput, ReassemblerSnapshot } from '../../streaming/reassembler-types.ts';
import type { Type9Packet } from '../../wire/type9-types.ts';
import type { NodePacket } from './packet.ts';

/** Delivered multi-segment PDU buffers given back to the reassembler for reuse. */
const BUFFER_POOL = 8;

export type RxCounterName = 'pdusReceived' | 'pduDefects';

/** What reassembly tells its host. */
export interface DataRxHost {
  /** A PDU of `flow` (the sender's flow number; −1 when unknown) was delivered whole. */
  pduDelivered(flow: number, now: number, bytes: number, latency: number): void;
  /** A PDU was discarded (Part 10 §3.2.5 defect, a context time-out or shortage, a gap in a plain PDU). */
  pduDefect(flow: number, now: number): void;
  /** Named counts (`reassembler.<event>`). */
  count(name: string): void;
  /** Arm or cancel a reassembler timer; when due, call `DataRx.timer`. */
  timer(t: TimerOutput): void;
}

interface PlainPdu {
  id: number;
  /** Packets of PDU `id` received in sequence; 0 when none is assembling. */
  got: number;
  /** PDU `id` was reported defective: its remaining packets are dropped without a new report. */
  discarding: boolean;
}

export class DataRx {
  readonly #config: ReassemblerConfig;
  readonly #host: DataRxHost;
  readonly #counters: Counters<RxCounterName>;
  readonly #plain = new Map<number, PlainPdu>();
  #reassembler: Reassembler | null = null;

  constructor(config: ReassemblerConfig, host: DataRxHost, counters: Counters<RxCounterName>) {
    this.#config = config;
    this.#host = host;
    this.#counters = counters;
  }

  /** A data packet for this end point. */
  receive(p: NodePacket, now: number): void {
    const wire = p.wire;
    if (typeof wire === 'object' && wire !== null && (wire as { ftype?: unknown }).ftype === 9) this.#reassemble(p, wire as Type9Packet, now);
    else if (p.pdu !== undefined) this.#plainPdu(p, now);
  }

  /** A reassembler timer (`idle:…`) is due. */
  timer(name: string, now: number): void {
    if (this.#reassembler !== null) this.#apply(this.#reassembler.handle({ kind: 'timer', name: name as `idle:${string}` }, now), -1, now, now);
  }

  snapshot(): ReassemblerSnapshot | null {
    return this.#reassembler?.snapshot() ?? null;
  }

  #reassemble(p: NodePacket, wire: Type9Packet, now: number): void {
    this.#reassembler ??= new Reassembler({ ...this.#config, bufferPool: BUFFER_POOL });
    this.#apply(this.#reassembler.handle({ kind: 'packet', packet: wire }, now), p.flow, p.createdAt, now);
  }

  #apply(out: ReassemblerOutput[], flow: number, createdAt: number, now: number): void {
    for (const o of out) {
      if (o.kind === 'pdu') {
        this.#counters.pdusReceived++;
        this.#host.pduDelivered(flow, now, o.payload.length, now - createdAt);
        if (o.segments > 1) this.#reassembler?.handle({ kind: 'recycle', payload: o.payload }, now);
      } else if (o.kind === 'timer') {
        this.#host.timer(o);
      } else {
        this.#host.count(`reassembler.${o.name}`);
        // Part 10 §3.2.5 "a defective PDU results in discarding the entire PDU"; a context that
        // timed out or could not be had loses its PDU as well.
        if (o.name === 'defective-pdu' || o.name === 'idle-timeout' || o.name === 'no-context') this.#defect(flow, now);
      }
    }
  }

  #plainPdu(p: NodePacket, now: number): void {
    const pdu = p.pdu as NonNullable<NodePacket['pdu']>;
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
      this.#host.pduDelivered(p.flow, now, pdu.bytes, now - p.createdAt);
    }
  }

  #defect(flow: number, now: number): void {
    this.#counters.pduDefects++;
    this.#host.pduDefect(flow, now);
  }
}
