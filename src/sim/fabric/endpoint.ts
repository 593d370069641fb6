/**
 * A simulated end point (issue 7 §2 "Endpoints"): one port on a link, with traffic sources and
 * per-flow queues (endpoint-source.ts), a sink (endpoint-sink.ts) and Part 9's source reaction to
 * congestion control packets, the CcpEndpoint engine (src/flow/ccp-endpoint.ts).
 *
 *   const ep = new Endpoint(sched, { name: 'ep1', id: 1, buffers: { packets: 8 }, traffic: [...] }, ctx);
 *   const link = makeLink(sched, 'l1', spec, ep, sw.port(3));   // ep is { tx, rx, buffers }
 *   ep.attach(link.ab, link.ba);                                 // outbound, inbound
 *   ep.start();                                                  // first arrivals scheduled
 *
 * Part 9 reaction. A received CCP (kind 'ccp', its decoded Type 7 packet in `wire`) goes to the
 * engine; its `flow` outputs enable or disable (destinationID, flowID), and the source's
 * arbitration skips disabled flows ("stops all transaction request flows of the specified priority
 * and lower targeted to the specified destination", §2.4.5 rule 1). The orphan timer (A.2) runs
 * on the Scheduler. XOFF time per flow goes to the probe (`xoff`).
 *
 * Control packets (CCPs and any other non-data kind) are consumed on arrival, whatever the sink's
 * service time: the service time models the application draining data, while §2.4.5 has the end
 * point act on a CCP as it arrives.
 *
 * Features (endpoint-feature.ts): flow arbitration, traffic management and session management
 * run beside the data path when configured; packets of their kinds ('arb', 'tm', 'smp') go to
 * them, and a kind no feature takes is counted (`otherPackets`) and dropped.
 */
import type { Counters } from '../../engine/contract.ts';
import { zeroCounters } from '../../engine/contract.ts';
import { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { CcpReaction } from '../../node/endpoint/ccp-reaction.ts';
import type { Scheduler, Target } from '../kernel/scheduler.ts';
import type { Channel } from './channel.ts';
import { resolveEndpointConfig } from './endpoint-config.ts';
import type { EndpointFeature, FeatureHost } from '../../node/endpoint/feature.ts';
import { makeEndpointFeatures } from '../../node/endpoint/features.ts';
import type { ResolvedEndpointConfig } from './endpoint-config.ts';
import { EndpointSink } from './endpoint-sink.ts';
import { EndpointSource } from './endpoint-source.ts';
import type { SourceFlow } from './endpoint-source.ts';
import { EngineTimers } from './endpoint-timers.ts';
import type { EndpointConfig, EndpointContext, EndpointCounterName } from './endpoint-types.ts';
import type { PortRx, PortTx, RxBufferSpec, SimPacket, SimSymbol } from './types.ts';

const EV_CCP_TIMER = 0;
/** Feature i's timers are events of kind EV_FEATURE_TIMER + i. */
const EV_FEATURE_TIMER = 1;

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
  /** The Part 9 reaction engine; null when `ccp: false`. */
  readonly ccp: CcpEndpoint | null;
  readonly #reaction: CcpReaction | null;
  /** Flow arbitration, traffic management, session management, as configured. */
  readonly features: readonly EndpointFeature[];
  readonly #c: ResolvedEndpointConfig;
  readonly #ctx: EndpointContext;
  readonly #sched: Scheduler;
  readonly #counters: Counters<EndpointCounterName> = zeroCounters(COUNTER_NAMES);
  readonly #ccpTimers: EngineTimers;
  readonly #featureTimers: EngineTimers[] = [];
  readonly #byKind = new Map<string, EndpointFeature>();
  #in: Channel | null = null;

  constructor(sched: Scheduler, config: EndpointConfig, ctx: EndpointContext) {
    this.#c = resolveEndpointConfig(config);
    this.#ctx = ctx;
    this.#sched = sched;
    this.name = this.#c.name;
    this.id = this.#c.id;
    this.buffers = this.#c.buffers;
    this.ccp = this.#c.ccp === null ? null : new CcpEndpoint(this.#c.ccp);
    this.#ccpTimers = new EngineTimers(sched, this, EV_CCP_TIMER);
    this.source = new EndpointSource(sched, this.#c, ctx, this.#counters);
    const source = this.source;
    const timers = this.#ccpTimers;
    this.#reaction = this.ccp === null ? null : new CcpReaction(this.ccp, this.id, {
      flowChanged: (destinationID, flowID, enabled, _cause, now) => { source.setEnabled(destinationID, flowID, enabled, now); },
      orphanTimer: (at) => { timers.apply({ kind: 'timer', name: 'orphan', at }); },
      event: (e) => { ctx.probe.count(`ccp.${e.name}`); },
    });
    this.sink = new EndpointSink(sched, this.#c, ctx.probe, this.#counters);
    this.features = this.#makeFeatures(config);
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
    for (const f of this.features) f.start?.(now);
    this.source.start(now);
  }

  pull(now: number, freeBuffers: number, reservePerPriority: number): SimPacket | null {
    return this.source.queues.pull(now, freeBuffers, reservePerPriority);
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
    if (p.kind === 'ccp') {
      this.#ccp(p, now);
      return;
    }
    const feature = this.#byKind.get(p.kind);
    if (feature !== undefined) {
      feature.receive(p, now);
      return;
    }
    this.#counters.otherPackets++;
    this.#ctx.probe.count(`endpoint.rx.${p.kind}`);
  }

  onEvent(kind: number, data: unknown, now: number): void {
    const name = data as string;
    if (kind === EV_CCP_TIMER) {
      this.#ccpTimers.fired(name);
      this.#reaction?.orphanTimer(now);
      return;
    }
    const i = kind - EV_FEATURE_TIMER;
    this.#featureTimers[i]?.fired(name);
    this.features[i]?.timer(name, now);
  }

  counters(): Counters<EndpointCounterName> {
    return { ...this.#counters };
  }

  snapshot(): Record<string, unknown> {
    return {
      name: this.name,
      id: this.id,
      flows: this.source.flows.map((f) => ({
        flow: f.index, dst: f.dst, prio: f.prio, crf: f.crf, flowID: f.flowID, enabled: f.enabled, queuedPdus: f.queue.length, queuedBytes: f.queue.queuedBytes,
      })),
      rxWaiting: this.sink.waiting,
      ccp: this.ccp?.snapshot() ?? null,
      segmenter: this.source.segmenterSnapshot(),
      reassembler: this.sink.reassemblerSnapshot(),
      timers: this.#ccpTimers.pending(),
      stats: this.counters(),
      features: Object.fromEntries(this.features.map((f, i) => [f.name, { ...f.snapshot(), timers: this.#featureTimers[i]?.pending() ?? [], counters: f.counters() }])),
    };
  }

  /** Each feature gets its own host, whose timers are events of its own kind. */
  #makeFeatures(config: EndpointConfig): EndpointFeature[] {
    const source = this.source;
    const features = makeEndpointFeatures(config, () => {
      const timers = new EngineTimers(this.#sched, this, EV_FEATURE_TIMER + this.#featureTimers.length);
      this.#featureTimers.push(timers);
      const host: FeatureHost = {
        name: this.name,
        id: this.id,
        tt: this.#c.tt,
        crfSupported: this.#c.crfSupported,
        buffers: this.buffers,
        count: (name, by) => { this.#ctx.probe.count(name, by); },
        flows: source.flows,
        sendControl: (p, now) => { source.sendControl(p, now); },
        // The features see the source's own flows.
        setBlocked: (f, bit, blocked, now) => { source.setBlocked(f as SourceFlow, bit, blocked, now); },
        timer: (t) => { timers.apply(t); },
      };
      return host;
    });
    for (const f of features) for (const k of f.kinds) this.#byKind.set(k, f);
    source.features = features;
    this.sink.features = features;
    for (const f of features) for (const flow of source.flows) f.flowCreated?.(flow, this.#sched.now);
    return features;
  }

  #ccp(p: SimPacket, now: number): void {
    this.#counters.ccpsReceived++;
    this.#ctx.probe.count('ccp.received');
    const taken = this.#reaction !== null && this.#reaction.receive(p.wire as Type7Packet, now) === undefined;
    if (!taken) {
      this.#counters.ccpsIgnored++;
      this.#ctx.probe.count('ccp.ignored');
    }
  }
}
