/**
 * A simulated end point (issue 7 §2 "Endpoints"): one port on a link, the host of the node end
 * point element (src/node/endpoint/core.ts: flow queues, Part 9 CCP reaction, features,
 * reassembly), with the simulation's traffic sources (endpoint-source.ts), a sink with a service
 * time (endpoint-sink.ts), timers on the Scheduler and probes.
 *
 *   const ep = new Endpoint(sched, { name: 'ep1', id: 1, buffers: { packets: 8 }, traffic: [...] }, ctx);
 *   const link = makeLink(sched, 'l1', spec, ep, sw.port(3));   // ep is { tx, rx, buffers }
 *   ep.attach(link.ab, link.ba);                                 // outbound, inbound
 *   ep.start();                                                  // first arrivals scheduled
 *
 * Part 9 reaction. A received CCP (kind 'ccp', its decoded Type 7 packet in `wire`) goes to the
 * element's CCP engine; its `flow` outputs enable or disable (destinationID, flowID), and the flow
 * queues skip disabled flows ("stops all transaction request flows of the specified priority and
 * lower targeted to the specified destination", §2.4.5 rule 1). The orphan timer (A.2) runs on
 * the Scheduler. XOFF time per flow goes to the probe (`xoff`).
 *
 * Control packets (CCPs and any other non-data kind) are consumed on arrival, whatever the sink's
 * service time: the service time models the application draining data, while §2.4.5 has the end
 * point act on a CCP as it arrives.
 *
 * Features (src/node/endpoint/feature.ts): flow arbitration, traffic management and session management
 * run beside the data path when configured; packets of their kinds ('arb', 'tm', 'smp') go to
 * them, and a kind no feature takes is counted (`otherPackets`) and dropped.
 */
import type { Counters } from '../../engine/contract.ts';
import { zeroCounters } from '../../engine/contract.ts';
import type { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import { EndpointCore } from '../../node/endpoint/core.ts';
import type { EndpointCoreHost } from '../../node/endpoint/core.ts';
import { FlowQueuePath, RX_TIMERS } from '../../node/endpoint/flow-queue-path.ts';
import type { FlowQueuePathHost } from '../../node/endpoint/flow-queue-path.ts';
import type { NodePacket } from '../../node/endpoint/packet.ts';
import type { EndpointFeature } from '../../node/endpoint/feature.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel } from './channel.ts';
import { resolveEndpointConfig } from './endpoint-config.ts';
import { EndpointSink } from './endpoint-sink.ts';
import { EndpointSource } from './endpoint-source.ts';
import { EngineTimers } from './endpoint-timers.ts';
import type { EndpointConfig, EndpointContext, EndpointCounterName, SimEndpointSnapshot } from './endpoint-types.ts';
import type { PortRx, PortTx, RxBufferSpec, SimPacket, SimSymbol } from './types.ts';

const EV_CCP_TIMER = 0;
const EV_RX_TIMER = 1;
/** Feature i's timers are events of kind EV_FEATURE_TIMER + i. */
const EV_FEATURE_TIMER = 2;

const COUNTER_NAMES: readonly EndpointCounterName[] = [
  'pdusOffered', 'pdusDropped', 'packetsSent', 'bytesSent', 'packetsReceived', 'bytesReceived', 'pdusReceived', 'pduDefects',
  'ccpsReceived', 'ccpsIgnored', 'misrouted', 'otherPackets', 'symbolsIgnored',
];

export class Endpoint implements PortTx, PortRx, Target {
  readonly name: string;
  readonly id: number;
  readonly buffers: RxBufferSpec;
  readonly source: EndpointSource;
  readonly sink: EndpointSink;
  /** The node end point element this host drives, with the flow queues as its data path. */
  readonly core: EndpointCore<NodePacket, FlowQueuePath>;
  readonly #ctx: EndpointContext;
  readonly #sched: Scheduler;
  readonly #counters: Counters<EndpointCounterName> = zeroCounters(COUNTER_NAMES);
  readonly #ccpTimers: EngineTimers;
  readonly #rxTimers: EngineTimers;
  readonly #featureTimers: EngineTimers[] = [];
  #in: Channel | null = null;

  constructor(sched: Scheduler, config: EndpointConfig, ctx: EndpointContext) {
    const c = resolveEndpointConfig(config);
    this.#ctx = ctx;
    this.#sched = sched;
    this.name = c.name;
    this.id = c.id;
    this.buffers = c.buffers;
    this.#ccpTimers = new EngineTimers(sched, this, EV_CCP_TIMER);
    this.#rxTimers = new EngineTimers(sched, this, EV_RX_TIMER);
    this.source = new EndpointSource(sched, c, ctx);
    const path = new FlowQueuePath({ ...c, flows: this.source.initialFlows() }, this.#pathHost(), this.#counters, sched.now);
    this.core = new EndpointCore({
      id: c.id,
      name: c.name,
      ccp: c.ccp,
      ...(config.session === undefined ? {} : { session: config.session }),
      ...(config.arbitration === undefined ? {} : { arbitration: config.arbitration }),
      ...(config.tm === undefined ? {} : { tm: config.tm }),
    }, this.#coreHost(), path, sched.now);
    this.source.bind(path.queues);
    this.sink = new EndpointSink(sched, c, ctx.probe, this.#counters, this.core);
  }

  /** The Part 9 reaction engine; null when `ccp: false`. */
  get ccp(): CcpEndpoint | null {
    return this.core.ccp;
  }

  /** Flow arbitration, traffic management, session management, as configured. */
  get features(): readonly EndpointFeature[] {
    return this.core.features;
  }

  /** `makeLink` reads these: this object is both ends of its port. */
  get tx(): PortTx {
    return this;
  }

  get rx(): PortRx {
    return this;
  }

  /** Wires the port: `outbound` is the channel it transmits on, `inbound` the one it receives on. */
  attach(outbound: Channel, inbound: Channel): void {
    this.#in = inbound;
    this.source.attach(outbound);
    this.sink.attach(inbound);
  }

  /** Starts the traffic sources; no arrival before `now` (default the scheduler's time). */
  start(now: number = this.#sched.now): void {
    this.core.start(now);
    this.source.start(now);
  }

  pull(now: number, freeBuffers: number, reservePerPriority: number): SimPacket | null {
    return this.core.path.queues.pull(now, freeBuffers, reservePerPriority);
  }

  /** Credits are the channel's; an end point has no use for a VoQ backpressure symbol (it sends no VoQ traffic). */
  onSymbol(symbol: SimSymbol): void {
    if (symbol.kind !== 'credit') this.#counters.symbolsIgnored++;
  }

  receive(p: SimPacket, now: number): void {
    if (p.dst !== this.id) {
      // A routing error upstream, not something to act on: counted, and its buffer freed.
      this.#counters.misrouted++;
      this.#ctx.probe.count('endpoint.misrouted');
      this.#in?.freed(1, now);
      return;
    }
    if (p.kind === 'data') {
      this.sink.receive(p, now);
      return;
    }
    this.#in?.freed(1, now);
    this.core.receive(p, now);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    const name = data as string;
    if (kind === EV_CCP_TIMER) {
      this.#ccpTimers.fired(name);
      this.core.ccpTimer(now);
    } else if (kind === EV_RX_TIMER) {
      this.#rxTimers.fired(name);
      this.core.path.rxTimer(name, now);
    } else {
      const i = kind - EV_FEATURE_TIMER;
      this.#featureTimers[i]?.fired(name);
      this.core.featureTimer(i, name, now);
    }
  }

  counters(): Counters<EndpointCounterName> {
    return { ...this.#counters };
  }

  snapshot(): SimEndpointSnapshot {
    return {
      name: this.name,
      id: this.id,
      flows: this.source.flows.map((f) => ({
        flow: f.index, dst: f.dst, prio: f.prio, crf: f.crf, flowID: f.flowID, enabled: f.enabled, queuedPdus: f.queue.length, queuedBytes: f.queue.queuedBytes,
      })),
      rxWaiting: this.sink.waiting,
      ccp: this.ccp?.snapshot() ?? null,
      segmenter: this.source.segmenterSnapshot(),
      reassembler: this.core.path.reassemblerSnapshot(),
      timers: this.#ccpTimers.pending(),
      stats: this.counters(),
      features: Object.fromEntries(this.features.map((f, i) => [f.name, { ...f.snapshot(), timers: this.#featureTimers[i]?.pending() ?? [], counters: f.counters() }])),
    };
  }

  #pathHost(): FlowQueuePathHost {
    const source = this.source;
    const probe = this.#ctx.probe;
    return {
      flowNumber: (dst, prio, crf, flowID) => source.flowNumber(dst, prio, crf, flowID),
      offered: (f, bytes, accepted, now) => { source.offered(f, bytes, accepted, now); },
      occupancy: (pdus, bytes, now) => { source.occupancy(pdus, bytes, now); },
      xoff: (f, stopped, now) => { source.xoff(f, stopped, now); },
      kick: (now) => { source.kick(now); },
      nextPacketId: () => source.nextPacketId(),
      count: (name, by) => { probe.count(name, by); },
      timer: (owner, t) => { this.#timersOf(owner).apply(t); },
      pduDelivered: (flow, now, bytes, latency) => { probe.pduDelivered(flow, now, bytes, latency); },
      pduDefect: (flow, now) => { probe.pduDefect(flow, now); },
    };
  }

  #coreHost(): EndpointCoreHost<NodePacket> {
    const probe = this.#ctx.probe;
    const counters = this.#counters;
    return {
      ccpTimer: (at) => { this.#ccpTimers.apply({ kind: 'timer', name: 'orphan', at }); },
      ccpEvent: (e) => { probe.count(`ccp.${e.name}`); },
      ccpArrived: () => {
        counters.ccpsReceived++;
        probe.count('ccp.received');
      },
      ccpDone: (_p, refusal) => {
        if (refusal === undefined) return;
        counters.ccpsIgnored++;
        probe.count('ccp.ignored');
      },
    };
  }

  #timersOf(owner: number): EngineTimers {
    if (owner === RX_TIMERS) return this.#rxTimers;
    let t = this.#featureTimers[owner];
    while (t === undefined) {
      this.#featureTimers.push(new EngineTimers(this.#sched, this, EV_FEATURE_TIMER + this.#featureTimers.length));
      t = this.#featureTimers[owner];
    }
    return t;
  }
}
