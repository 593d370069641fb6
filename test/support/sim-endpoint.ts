/**
 * Test harness for the simulated end point: a scheduler, random streams, a results collector, a
 * flow table and packet ids (`bench`), a scripted far end of a link (`ScriptedPort`: records what
 * arrives, frees its buffers at once, sends packets at given times) and builders of CCP and data
 * packets.
 */
import { RandomStreams } from '../../src/sim/kernel/random.ts';
import { Scheduler } from '../../src/sim/kernel/scheduler.ts';
import type { Target } from '../../src/sim/kernel/scheduler.ts';
import type { Channel } from '../../src/sim/fabric/channel.ts';
import { makeLink } from '../../src/sim/fabric/channel.ts';
import type { Link } from '../../src/sim/fabric/channel.ts';
import { Endpoint } from '../../src/sim/fabric/endpoint.ts';
import { FlowTable } from '../../src/sim/fabric/endpoint-flows.ts';
import { PacketIds } from '../../src/sim/fabric/endpoint-types.ts';
import type { EndpointConfig, EndpointContext } from '../../src/sim/fabric/endpoint-types.ts';
import type { LinkSpec, PortRx, PortTx, RxBufferSpec, SimPacket } from '../../src/sim/fabric/types.ts';
import { Collector } from '../../src/sim/results/collector.ts';
import type { CollectorOptions } from '../../src/sim/results/collector.ts';
import { makeCcp } from '../../src/wire/type7.ts';
import type { Type7DefinedCommand } from '../../src/wire/type7.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';
import { serialLength } from '../../src/wire/serial.ts';
import { type7Length } from '../../src/wire/type7.ts';

/** 1x at 1.25 Gbaud with 8b/10b: 1 Gbit/s, 8000 ps per octet, CS48 delimiters of 8 characters (6 octets and two special characters). */
export const X1: LinkSpec = { lanes: 1, baud: 1.25, encoding: '8b10b', propagation: 0 };

export interface Bench {
  readonly sched: Scheduler;
  readonly collector: Collector;
  readonly ctx: EndpointContext;
}

export function bench(seed = 1, options: Omit<CollectorOptions, 'flows'> = {}): Bench {
  const flows = new FlowTable();
  const collector = new Collector({ ...options, flows });
  return { sched: new Scheduler(), collector, ctx: { probe: collector, flows, ids: new PacketIds(), streams: new RandomStreams(seed) } };
}

/** The far end of a link, scripted: it consumes what arrives at once and sends what it is told to. */
export class ScriptedPort implements PortTx, PortRx, Target {
  readonly got: { readonly packet: SimPacket; readonly at: number }[] = [];
  readonly buffers: RxBufferSpec;
  readonly #queue: SimPacket[] = [];
  #out: Channel | null = null;
  #in: Channel | null = null;

  constructor(private readonly sched: Scheduler, buffers: RxBufferSpec = { packets: 8 }) {
    this.buffers = buffers;
  }

  get tx(): PortTx {
    return this;
  }

  get rx(): PortRx {
    return this;
  }

  attach(out: Channel, inbound: Channel): void {
    this.#out = out;
    this.#in = inbound;
  }

  /** Puts `packet` in the send queue at time `at`. */
  sendAt(at: number, packet: SimPacket): void {
    this.sched.schedule(at, this, 0, packet);
  }

  onEvent(_kind: number, data: unknown, now: number): void {
    this.#queue.push(data as SimPacket);
    this.#out?.kick(now);
  }

  pull(_now: number, free: number, reserve: number): SimPacket | null {
    const i = this.#queue.findIndex((p) => free > (3 - p.prio) * reserve);
    return i < 0 ? null : (this.#queue.splice(i, 1)[0] ?? null);
  }

  receive(packet: SimPacket, now: number): void {
    this.got.push({ packet, at: now });
    this.#in?.freed(1, now);
  }
}

/** An end point linked to a scripted far end; the end point is side A of the link. */
export function withScriptedPeer(b: Bench, config: EndpointConfig, spec: LinkSpec = X1, peerBuffers: RxBufferSpec = { packets: 8 }): { ep: Endpoint; peer: ScriptedPort; link: Link } {
  const ep = new Endpoint(b.sched, config, b.ctx);
  const peer = new ScriptedPort(b.sched, peerBuffers);
  const link = makeLink(b.sched, `${config.name}-link`, spec, ep, peer);
  ep.attach(link.ab, link.ba);
  peer.attach(link.ba, link.ab);
  return { ep, peer, link };
}

/** Two end points on one link, A → B. */
export function pair(b: Bench, a: EndpointConfig, bConfig: EndpointConfig, spec: LinkSpec = X1): { a: Endpoint; b: Endpoint; link: Link } {
  const epA = new Endpoint(b.sched, a, b.ctx);
  const epB = new Endpoint(b.sched, bConfig, b.ctx);
  const link = makeLink(b.sched, 'ab', spec, epA, epB);
  epA.attach(link.ab, link.ba);
  epB.attach(link.ba, link.ab);
  return { a: epA, b: epB, link };
}

/** A CCP from a congestion point to end point `to` about its traffic to `target` (Part 9 §3.2 Figure 3-1, Dev8). */
export function ccpPacket(id: number, to: number, target: number, command: Type7DefinedCommand, flowID: FlowIdLabel): SimPacket {
  const wire = makeCcp({ destinationID: to, tgtdestinationID: target, tt: 0, command, flowID, soc: 0 });
  return { id, kind: 'ccp', ftype: 7, src: 0xfe, dst: to, prio: 3, crf: 1, vc: 0, bytes: serialLength(type7Length(wire)), flow: -1, createdAt: 0, wire };
}

/** A data packet as a source would send it; `wire` is a decoded packet for SAR, absent for plain traffic. */
export function dataPacket(id: number, src: number, dst: number, flow: number, pdu: { id: number; index: number; count: number; bytes: number }, wire?: unknown): SimPacket {
  const base = { id, kind: 'data' as const, ftype: 9, src, dst, prio: 0 as const, crf: 0 as const, vc: 0, bytes: 76, flow, createdAt: 0, pdu };
  return wire === undefined ? base : { ...base, wire };
}
