/**
 * The receiving half of a simulated end point for data packets: latency records and consumption.
 * Reassembly and what the features hear of arriving data are the node element's
 * (src/node/endpoint/core.ts `dataIn`, data-rx.ts); this host times and serves the receive buffer.
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
 */
import type { Counters } from '../../engine/contract.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel } from './channel.ts';
import type { ResolvedEndpointConfig } from './endpoint-config.ts';
import type { EndpointCore } from '../../node/endpoint/core.ts';
import type { FlowQueuePath } from '../../node/endpoint/flow-queue-path.ts';
import type { NodePacket } from '../../node/endpoint/packet.ts';
import { Ring } from '../../engine/ring.ts';
import type { EndpointCounterName, EndpointProbe } from './endpoint-types.ts';
import type { SimPacket } from './types.ts';

const EV_SERVICE = 0;

export class EndpointSink implements Target {
  readonly #c: ResolvedEndpointConfig;
  readonly #sched: Scheduler;
  readonly #probe: EndpointProbe;
  readonly #counters: Counters<EndpointCounterName>;
  readonly #rxName: string;
  readonly #element: EndpointCore<NodePacket, FlowQueuePath>;
  readonly #waiting = new Ring<SimPacket>();
  #waitingBytes = 0;
  #busy = false;
  #in: Channel | null = null;

  constructor(sched: Scheduler, c: ResolvedEndpointConfig, probe: EndpointProbe, counters: Counters<EndpointCounterName>, element: EndpointCore<NodePacket, FlowQueuePath>) {
    this.#sched = sched;
    this.#c = c;
    this.#probe = probe;
    this.#counters = counters;
    this.#element = element;
    this.#rxName = `${c.name}:rx`;
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
    this.#element.dataIn(p, now);
    if (this.#c.serviceTime === 0) {
      this.#in?.freed(1, now);
      this.#element.dataConsumed(p, now);
      return;
    }
    this.#waiting.push(p);
    this.#waitingBytes += p.bytes;
    this.#probe.occupancy(this.#rxName, now, this.#waiting.length, this.#waitingBytes);
    this.#level(now);
    if (!this.#busy) this.#serve(now);
  }

  onEvent(_kind: number, _data: unknown, now: number): void {
    const p = this.#waiting.shift();
    this.#busy = false;
    if (p !== undefined) {
      this.#waitingBytes -= p.bytes;
      this.#in?.freed(1, now);
      this.#probe.occupancy(this.#rxName, now, this.#waiting.length, this.#waitingBytes);
      this.#element.dataConsumed(p, now);
      this.#level(now);
    }
    if (this.#waiting.length > 0) this.#serve(now);
  }

  #level(now: number): void {
    this.#element.rxLevel(this.#waiting.length, this.#c.buffers.packets, now);
  }

  #serve(now: number): void {
    this.#busy = true;
    this.#sched.schedule(now + this.#c.serviceTime, this, EV_SERVICE);
  }
}
