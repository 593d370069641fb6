/**
 * The flow queues as the end point element's data path (core.ts `EndpointPath`): the host offers
 * whole PDUs (the simulator's traffic sources), queued per flow and cut into packets by
 * flow-queues.ts, and received data is reassembled by data-rx.ts. A Part 9 flow change sets the
 * flow's `xoff` bit (§2.4.5 rule 1 "stops all transaction request flows of the specified priority
 * and lower targeted to the specified destination"); the features hold flows back with their own
 * bits (feature.ts).
 */
import type { Counters, TimerOutput } from '../../engine/contract.ts';
import type { ReassemblerConfig, ReassemblerSnapshot } from '../../streaming/reassembler-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { BufferSpec } from '../switch/config-types.ts';
import type { EndpointPath } from './core.ts';
import { DataRx } from './data-rx.ts';
import type { RxCounterName } from './data-rx.ts';
import type { EndpointFeature, FeatureHost, PacketPosition } from './feature.ts';
import { packetPosition } from './feature.ts';
import { FlowQueues } from './flow-queues.ts';
import type { FlowQueuesConfig, FlowQueuesHost, QueuedFlow, TxCounterName } from './flow-queues.ts';
import type { NodePacket } from './packet.ts';

export type FlowQueuePathCounter = TxCounterName | RxCounterName | 'otherPackets';

export interface FlowQueuePathConfig extends FlowQueuesConfig {
  /** The end point's receive buffers, as the features see them (TM egress levels). */
  readonly buffers?: BufferSpec;
  /** Flows registered before any traffic, in this order (the host's flow numbers follow it). */
  readonly flows: readonly { readonly dst: number; readonly prio: 0 | 1 | 2; readonly crf: 0 | 1; readonly flowID: FlowIdLabel }[];
  readonly reassembler: ReassemblerConfig;
}

/** What the path asks of its host besides the queues' needs. */
export interface FlowQueuePathHost extends FlowQueuesHost {
  /** Named counts (`arb.*`, `tm.*`, `session.*`, `reassembler.*`, `endpoint.rx.<kind>`). */
  count(name: string, by?: number): void;
  /** Arm or cancel a timer of feature `owner` (its index) or of reassembly (RX_TIMERS); call `timer`/`featureTimer` when due. */
  timer(owner: number, t: TimerOutput): void;
  /** A PDU was delivered whole (flow: the sender's flow number, −1 when unknown). */
  pduDelivered(flow: number, now: number, bytes: number, latency: number): void;
  /** A PDU was discarded at this end point. */
  pduDefect(flow: number, now: number): void;
}

/** Timer owner of the reassembler's timers. */
export const RX_TIMERS = -2;

export class FlowQueuePath implements EndpointPath<NodePacket> {
  readonly queues: FlowQueues;
  readonly #rx: DataRx;
  readonly #c: FlowQueuePathConfig;
  readonly #host: FlowQueuePathHost;
  readonly #counters: Counters<FlowQueuePathCounter>;

  constructor(c: FlowQueuePathConfig, host: FlowQueuePathHost, counters: Counters<FlowQueuePathCounter>, now: number) {
    this.#c = c;
    this.#host = host;
    this.#counters = counters;
    this.queues = new FlowQueues(c, host, counters);
    for (const f of c.flows) this.queues.flow(f.dst, f.prio, f.crf, f.flowID, now);
    this.#rx = new DataRx(c.reassembler, {
      pduDelivered: (flow, at, bytes, latency) => { host.pduDelivered(flow, at, bytes, latency); },
      pduDefect: (flow, at) => { host.pduDefect(flow, at); },
      count: (name) => { host.count(name); },
      timer: (t) => { host.timer(RX_TIMERS, t); },
    }, counters);
  }

  featureHost(_name: string, index: number): FeatureHost {
    const c = this.#c;
    const host = this.#host;
    const queues = this.queues;
    return {
      name: c.name,
      id: c.id,
      tt: c.tt,
      crfSupported: c.crfSupported,
      ...(c.buffers === undefined ? {} : { buffers: c.buffers }),
      dataStreaming: { mtu: c.sarMtu, ...(c.reassembler.segSupport === undefined ? {} : { segSupport: c.reassembler.segSupport }) },
      count: (name, by) => { host.count(name, by); },
      flows: queues.flows,
      sendControl: (p, now) => { queues.sendControl(p, now); },
      // The features see the queues' own flows.
      setBlocked: (f, bit, blocked, now) => { queues.setBlocked(f as QueuedFlow, bit, blocked, now); },
      timer: (t) => { host.timer(index, t); },
    };
  }

  featuresBuilt(features: readonly EndpointFeature[], now: number): void {
    this.queues.features = features;
    for (const f of features) for (const flow of this.queues.flows) f.flowCreated?.(flow, now);
  }

  useFeatures(features: readonly EndpointFeature[]): void {
    this.queues.features = features;
  }

  flowChanged(destinationID: number, flowID: FlowIdLabel, enabled: boolean, _cause: string, now: number): void {
    this.queues.setEnabled(destinationID, flowID, enabled, now);
  }

  aroundCcp(run: () => void): void {
    run();
  }

  /** Part 9 §2.4.5 rule 1 for the features' control packets too (decision EP8). */
  attached(flowOpen: (destinationID: number, flowID: FlowIdLabel) => boolean): void {
    this.queues.mayRequest = flowOpen;
  }

  dataPosition(p: NodePacket): PacketPosition {
    return p.pdu === undefined ? 'single' : packetPosition(p.pdu.index, p.pdu.count);
  }

  /** Data is reassembled; a kind no feature takes is counted and dropped. */
  receive(p: NodePacket, now: number): void {
    if (p.kind === 'data') {
      this.#rx.receive(p, now);
      return;
    }
    this.#counters.otherPackets++;
    this.#host.count(`endpoint.rx.${p.kind}`);
  }

  /** A reassembler timer is due. */
  rxTimer(name: string, now: number): void {
    this.#rx.timer(name, now);
  }

  reassemblerSnapshot(): ReassemblerSnapshot | null {
    return this.#rx.snapshot();
  }
}
