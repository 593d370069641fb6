/**
 * A traffic source with one FIFO queue for all its destinations: the processor of Pfister &
 * Norton's model ("'Hot Spot' Contention and Combining in Multistage Interconnection Networks",
 * IEEE Trans. Computers C-34(10), 1985), whose requests enter the network in the order they are
 * issued, a fraction h of them to the hot memory module.
 *
 * The arrivals, destinations and sizes are a `TrafficGenerator` (src/sim/traffic/), as in an end
 * point; what differs from the simulated `Endpoint` is the queueing. An end point keeps a queue
 * per flow and serves them round robin (issue 7 §2 "per-flow queues"), so a flow held up in the
 * fabric does not hold up its source's other flows: its queues act as virtual output queues at
 * the source and change the mix of what enters the fabric. Pfister & Norton's bound
 * 1/(1 + h(N − 1)) assumes the mix stays the offered one, which a FIFO keeps.
 *
 * Reports to the end points' probe (`offered`, accepted or dropped when the queue is full) like an
 * end point, so one probe measures both kinds of source.
 */
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel } from '../fabric/channel.ts';
import { requestFlowId } from '../../node/endpoint/flows.ts';
import type { FlowTable } from '../fabric/endpoint-flows.ts';
import type { EndpointProbe, PacketIdSource } from '../fabric/endpoint-types.ts';
import type { RandomStreams } from '../kernel/random.ts';
import { Ring } from '../../engine/ring.ts';
import type { PortRx, PortTx, SimPacket } from '../fabric/types.ts';
import { TrafficGenerator } from '../traffic/generator.ts';
import type { TrafficSpec } from '../traffic/generator.ts';

const ARRIVAL = 0;

export interface FifoSourceContext {
  readonly streams: RandomStreams;
  readonly flows: FlowTable;
  readonly ids: PacketIdSource;
  readonly probe: EndpointProbe;
}

export class FifoSource implements PortTx, PortRx, Target {
  readonly id: number;
  /** Packets waiting, oldest first. */
  readonly queue = new Ring<SimPacket>(64);
  /** Packets the fabric sent to this source (none in the reproductions: it only transmits). */
  received = 0;
  readonly #sched: Scheduler;
  readonly #spec: TrafficSpec;
  readonly #ctx: FifoSourceContext;
  readonly #limit: number;
  readonly #packetBytes: (payload: number) => number;
  readonly #flowOf = new Map<number, number>();
  #gen: TrafficGenerator | null = null;
  #out: Channel | null = null;
  #in: Channel | null = null;

  /**
   * `packetBytes` turns a PDU's payload into the octets of its one packet (the end points'
   * framing); `limit` bounds the queue, in packets.
   */
  constructor(sched: Scheduler, id: number, spec: TrafficSpec, packetBytes: (payload: number) => number, limit: number, ctx: FifoSourceContext) {
    this.#sched = sched;
    this.id = id;
    this.#spec = spec;
    this.#packetBytes = packetBytes;
    this.#limit = limit;
    this.#ctx = ctx;
  }

  /** Starts the arrivals on `out`, the channel this source transmits on; `inbound` is the other direction. */
  start(out: Channel, inbound: Channel): void {
    this.#out = out;
    this.#in = inbound;
    const gen = new TrafficGenerator(this.#spec, { self: this.id, streams: this.#ctx.streams, pduTime: (b) => out.packetTime(this.#packetBytes(b)) });
    const flowID = requestFlowId(0, 0, true, 'source');
    for (const d of gen.pattern.destinations()) this.#flowOf.set(d, this.#ctx.flows.register(this.id, d, 0, 0, flowID));
    this.#gen = gen;
    if (gen.next()) this.#sched.schedule(gen.at, this, ARRIVAL);
  }

  onEvent(_kind: number, _data: unknown, now: number): void {
    const gen = this.#gen as TrafficGenerator;
    const out = this.#out as Channel;
    const bytes = this.#packetBytes(gen.bytes);
    const flow = this.#flowOf.get(gen.dst) as number;
    const accepted = this.queue.length < this.#limit;
    this.#ctx.probe.offered(flow, now, gen.bytes, out.packetTime(bytes), accepted);
    if (accepted) {
      this.queue.push({ id: this.#ctx.ids.nextPacketId(), kind: 'data', ftype: 9, src: this.id, dst: gen.dst, prio: 0, crf: 0, vc: 0, bytes, flow, createdAt: now });
      out.kick(now);
    }
    if (gen.next()) this.#sched.schedule(gen.at, this, ARRIVAL);
  }

  /** Priority 0: only while more than 3 × reserve buffers are free downstream (Part 6 §5). */
  pull(_now: number, free: number, reserve: number): SimPacket | null {
    if (free <= 3 * reserve) return null;
    return this.queue.shift() ?? null;
  }

  onSymbol(): void {
    // Credits are the channel's.
  }

  /** A FIFO source has no Part 9 reaction engine: whatever reaches it is counted and its buffer freed. */
  receive(_packet: SimPacket, now: number): void {
    this.received++;
    this.#in?.freed(1, now);
  }
}
