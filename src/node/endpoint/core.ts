/**
 * The end point element whose host offers whole PDUs and moves packet descriptors (the simulator's
 * end point, src/sim/fabric/endpoint.ts; a manual-clock driver in tests): issue 15 "one end point
 * element ... CCP reaction, flow arbitration, segmenter/reassembler, traffic management and
 * session management are wired once". It composes
 * - the flow queues (flow-queues.ts): per-flow PDU queues, the choice of the next packet, the
 *   Part 10 segmenter;
 * - the Part 9 source reaction to CCPs (ccp-reaction.ts): a received CCP stops and restarts flows;
 * - the features (feature.ts): session management, flow arbitration and traffic management, which
 *   take the packets of their kinds and hold flows back with `blocked` bits;
 * - reassembly of received data (data-rx.ts).
 * The host owns the link (credits, wire time), the traffic sources, the receive buffer and its
 * service time, its clock and timers, and the statistics.
 *
 * Received packets: data goes through `dataIn` (the host counts and times it first, and serves the
 * buffer after); every other kind through `receive`, consumed on arrival (Part 9 §2.4.5 has the end
 * point act on a CCP as it arrives; a feature's message likewise).
 */
import type { Counters, TimerOutput } from '../../engine/contract.ts';
import { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import type { CcpEndpointConfig } from '../../flow/ccp-endpoint-types.ts';
import type { ReassemblerConfig } from '../../streaming/reassembler-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { BufferSpec } from '../switch/config-types.ts';
import { CcpReaction } from './ccp-reaction.ts';
import { DataRx } from './data-rx.ts';
import type { RxCounterName } from './data-rx.ts';
import type { EndpointFeature, FeatureHost, PacketPosition } from './feature.ts';
import { packetPosition } from './feature.ts';
import { makeEndpointFeatures } from './features.ts';
import type { EndpointFeatureConfig } from './features.ts';
import { FlowQueues } from './flow-queues.ts';
import type { FlowQueuesConfig, FlowQueuesHost, QueuedFlow, TxCounterName } from './flow-queues.ts';
import type { NodePacket } from './packet.ts';

/** Timer owner of the CCP reaction's orphan timer. */
export const CCP_TIMERS = -1;
/** Timer owner of the reassembler's timers. */
export const RX_TIMERS = -2;

export type CoreCounterName = TxCounterName | RxCounterName | 'ccpsReceived' | 'ccpsIgnored' | 'otherPackets';

export interface EndpointCoreConfig extends FlowQueuesConfig, EndpointFeatureConfig {
  /** The end point's receive buffers, as the features see them (TM egress levels). */
  readonly buffers?: BufferSpec;
  /** Flows registered before any traffic, in this order (the host's flow numbers follow it). */
  readonly flows: readonly { readonly dst: number; readonly prio: 0 | 1 | 2; readonly crf: 0 | 1; readonly flowID: FlowIdLabel }[];
  /** The Part 9 reaction engine's settings, in the host's time unit; null: CCPs are ignored (counted). */
  readonly ccp: CcpEndpointConfig | null;
  readonly reassembler: ReassemblerConfig;
}

/** What the element asks of its host. */
export interface EndpointCoreHost extends FlowQueuesHost {
  /** Named counts (`ccp.*`, `arb.*`, `tm.*`, `session.*`, `reassembler.*`, `endpoint.rx.<kind>`). */
  count(name: string, by?: number): void;
  /** Arm or cancel a timer of `owner` (CCP_TIMERS, RX_TIMERS or a feature's index); when due, call `timer(owner, name, now)`. */
  timer(owner: number, t: TimerOutput): void;
  /** A PDU was delivered whole (flow: the sender's flow number, −1 when unknown). */
  pduDelivered(flow: number, now: number, bytes: number, latency: number): void;
  /** A PDU was discarded at this end point. */
  pduDefect(flow: number, now: number): void;
}

export class EndpointCore {
  readonly queues: FlowQueues;
  /** The Part 9 reaction engine; null when `ccp` is null. */
  readonly ccp: CcpEndpoint | null;
  readonly #reaction: CcpReaction | null;
  readonly #rx: DataRx;
  readonly #host: EndpointCoreHost;
  readonly #counters: Counters<CoreCounterName>;
  readonly #byKind = new Map<string, EndpointFeature>();
  #features: readonly EndpointFeature[];

  constructor(c: EndpointCoreConfig, host: EndpointCoreHost, counters: Counters<CoreCounterName>, now: number) {
    this.#host = host;
    this.#counters = counters;
    this.queues = new FlowQueues(c, host, counters);
    for (const f of c.flows) this.queues.flow(f.dst, f.prio, f.crf, f.flowID, now);
    this.ccp = c.ccp === null ? null : new CcpEndpoint(c.ccp);
    const queues = this.queues;
    this.#reaction = this.ccp === null ? null : new CcpReaction(this.ccp, c.id, {
      flowChanged: (destinationID, flowID, enabled, _cause, at) => { queues.setEnabled(destinationID, flowID, enabled, at); },
      orphanTimer: (at) => { host.timer(CCP_TIMERS, { kind: 'timer', name: 'orphan', at }); },
      event: (e) => { host.count(`ccp.${e.name}`); },
    });
    this.#rx = new DataRx(c.reassembler, {
      pduDelivered: (flow, at, bytes, latency) => { host.pduDelivered(flow, at, bytes, latency); },
      pduDefect: (flow, at) => { host.pduDefect(flow, at); },
      count: (name) => { host.count(name); },
      timer: (t) => { host.timer(RX_TIMERS, t); },
    }, counters);
    let next = 0;
    this.#features = makeEndpointFeatures(c, () => this.#featureHost(c, next++));
    for (const f of this.#features) for (const k of f.kinds) this.#byKind.set(k, f);
    this.queues.features = this.#features;
    for (const f of this.#features) for (const flow of this.queues.flows) f.flowCreated?.(flow, now);
  }

  /** Session management, flow arbitration, traffic management, as configured (in that order). */
  get features(): readonly EndpointFeature[] {
    return this.#features;
  }

  /** Replaces the feature list the element calls (tests add observers); kinds are not re-routed. */
  set features(list: readonly EndpointFeature[]) {
    this.#features = list;
    this.queues.features = list;
  }

  /** The end point is attached and about to start its traffic. */
  start(now: number): void {
    for (const f of this.#features) f.start?.(now);
  }

  /** A packet other than data for this end point (its buffer already freed by the host). */
  receive(p: NodePacket, now: number): void {
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
    this.#host.count(`endpoint.rx.${p.kind}`);
  }

  /** A data packet for this end point: the features hear of it, then reassembly. */
  dataIn(p: NodePacket, now: number): void {
    const features = this.#features;
    if (features.length > 0) {
      const position: PacketPosition = p.pdu === undefined ? 'single' : packetPosition(p.pdu.index, p.pdu.count);
      for (const ft of features) ft.dataReceived?.(p, position, now);
    }
    this.#rx.receive(p, now);
  }

  /** The host consumed a data packet (its buffer went back to the link). */
  dataConsumed(p: NodePacket, now: number): void {
    for (const ft of this.#features) ft.dataConsumed?.(p, now);
  }

  /** The receive queue now holds `packets` of `capacity` buffers. */
  rxLevel(packets: number, capacity: number, now: number): void {
    for (const ft of this.#features) ft.sinkLevel?.(packets, capacity, now);
  }

  /** A timer the element asked for is due. */
  timer(owner: number, name: string, now: number): void {
    if (owner === CCP_TIMERS) this.#reaction?.orphanTimer(now);
    else if (owner === RX_TIMERS) this.#rx.timer(name, now);
    else this.#features[owner]?.timer(name, now);
  }

  reassemblerSnapshot(): Record<string, unknown> | null {
    return this.#rx.snapshot();
  }

  #featureHost(c: EndpointCoreConfig, owner: number): FeatureHost {
    const host = this.#host;
    const queues = this.queues;
    return {
      name: c.name,
      id: c.id,
      tt: c.tt,
      crfSupported: c.crfSupported,
      ...(c.buffers === undefined ? {} : { buffers: c.buffers }),
      count: (name, by) => { host.count(name, by); },
      flows: queues.flows,
      sendControl: (p, now) => { queues.sendControl(p, now); },
      // The features see the queues' own flows.
      setBlocked: (f, bit, blocked, now) => { queues.setBlocked(f as QueuedFlow, bit, blocked, now); },
      timer: (t) => { host.timer(owner, t); },
    };
  }

  #ccp(p: NodePacket, now: number): void {
    this.#counters.ccpsReceived++;
    this.#host.count('ccp.received');
    const taken = this.#reaction !== null && this.#reaction.receive(p.wire as Type7Packet, now) === undefined;
    if (!taken) {
      this.#counters.ccpsIgnored++;
      this.#host.count('ccp.ignored');
    }
  }
}
