/**
 * Configuration and reporting interfaces of a simulated end point (issue 7 §2 "Endpoints: traffic
 * sources and sinks with per-flow queues, the CCP reaction engine (counters, orphan timer),
 * segmenter/reassembler, … flow arbitration"). The end point itself is endpoint.ts.
 */
import type { Counters } from '../../engine/contract.ts';
import type { CcpEndpointConfig, CcpEndpointSnapshot } from '../../flow/ccp-endpoint-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { ReassemblerConfig, ReassemblerSnapshot } from '../../streaming/reassembler-types.ts';
import type { SegmenterSnapshot } from '../../streaming/segmenter-types.ts';
import type { RandomStreams } from '../kernel/random.ts';
import type { TrafficSpec } from '../traffic/generator.ts';
import type { EndpointArbitrationConfig } from '../../node/endpoint/arbitration.ts';
import type { FlowTable } from './endpoint-flows.ts';
import type { EndpointSessionConfig } from '../../node/endpoint/session.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm.ts';
import type { Probe, RxBufferSpec } from './types.ts';

/**
 * What an end point reports beyond the fabric's `Probe`: per-flow offered and delivered traffic
 * and latencies (src/sim/results/collector.ts implements it). Times and latencies in ps.
 */
export interface EndpointProbe extends Probe {
  /**
   * A source generated a PDU of `bytes` payload bytes whose packets take `wireTime` ps on the
   * source link; `accepted` false when the flow's queue was full and the PDU was dropped.
   */
  offered(flow: number, now: number, bytes: number, wireTime: number, accepted: boolean): void;
  /** A packet of `bytes` octets arrived at its destination end point, `latency` after its PDU was created. */
  packetDelivered(flow: number, now: number, bytes: number, latency: number): void;
  /** A whole PDU of `bytes` payload bytes arrived: creation at the source → its last packet received. */
  pduDelivered(flow: number, now: number, bytes: number, latency: number): void;
  /** A PDU was discarded at the destination (a Part 10 §3.2.5 defect, a context time-out or shortage); flow -1 when unknown. */
  pduDefect(flow: number, now: number): void;
}

/** Issues SimPacket ids: "Unique per simulation, increasing in creation order". */
export interface PacketIdSource {
  nextPacketId(): number;
}

/** A counter for one simulation, shared by every component that creates packets. */
export class PacketIds implements PacketIdSource {
  #next = 0;

  nextPacketId(): number {
    return this.#next++;
  }
}

/** One traffic source of an end point: a traffic spec and the prio/CRF its flows use. */
export interface EndpointTraffic extends TrafficSpec {
  /** Request priority 0–2 (prio 3 is illegal for requests, Part 9 Table 2-1). Default 0. */
  readonly prio?: 0 | 1 | 2;
  /** Default 0. */
  readonly crf?: 0 | 1;
}

export interface EndpointSinkConfig {
  /**
   * Time the sink takes to consume one data packet, ps; its buffer is freed (and a credit goes
   * back) when it is consumed. 0, the default: consumed on arrival (an infinitely fast sink).
   */
  readonly serviceTime?: number;
  /** The Part 10 reassembler (mtu is the end point's `sarMtu`). */
  readonly reassembler?: Omit<ReassemblerConfig, 'mtu'>;
}

export interface EndpointConfig {
  /** Component name: probe names (`<name>:src`, `<name>:rx`) and random stream prefix. */
  readonly name: string;
  /** The end point's device ID. */
  readonly id: number;
  /** Transport type of its packets: 0 Dev8 (default), 1 Dev16, 2 Dev32 (Part 3 §2.4). */
  readonly tt?: number;
  /** Its receiving port's buffers (link-level flow control). */
  readonly buffers: RxBufferSpec;
  /** Traffic sources; none: a pure sink. */
  readonly traffic?: readonly EndpointTraffic[];
  /** Explicit flows to register first (in this order), besides those of `traffic`. */
  readonly flows?: readonly { readonly dst: number; readonly prio?: 0 | 1 | 2; readonly crf?: 0 | 1 }[];
  /**
   * Cut PDUs into Part 10 segments with the Segmenter engine (true) or into plain packets of at
   * most `mtu` payload bytes (false, default).
   */
  readonly sar?: boolean;
  /** Largest payload of a plain packet, 1..256 bytes (Part 6 §2.5: 256 data bytes at most). Default 256. */
  readonly mtu?: number;
  /** Part 10 MTU of the segmenter and reassembler, 32..256 in steps of 4 (§5.5.1 Table 5-6). Default 256. */
  readonly sarMtu?: number;
  /** Bound of each flow's queue in PDUs; an offered PDU that finds it full is dropped at the source. Default 64. */
  readonly queuePdus?: number;
  /**
   * A queue per flow ('per-destination', default) or one FIFO the flows share ('fifo', issue 20):
   * only its head may send, so a head held back holds back all behind it; `queuePdus` is then the
   * FIFO's bound (src/node/endpoint/flow-queues.ts).
   */
  readonly sourceQueue?: 'per-destination' | 'fifo';
  /** Part 6 Table 6-7 (true, default) or 6-6 (false): how prio/CRF map to flowIDs. */
  readonly crfSupported?: boolean;
  /**
   * The Part 9 reaction engine; false: CCPs are counted and ignored. Default `{}` with the
   * simulator's orphan period (`SIM_ORPHAN_PERIOD`), since times here are picoseconds.
   */
  readonly ccp?: CcpEndpointConfig | false;
  readonly sink?: EndpointSinkConfig;
  /** Part 9 flow arbitration (§2.4.7): a grant from the destination before each PDU (src/node/endpoint/arbitration.ts). */
  readonly arbitration?: EndpointArbitrationConfig;
  /** Part 10 traffic management (§3.4): tm-ingress on the sending side, tm-egress on the receiving side (src/node/endpoint/tm.ts). */
  readonly tm?: EndpointTmConfig;
  /** Annex 2 session management: discovery and a stream opened before a flow's data goes (src/node/endpoint/session.ts). */
  readonly session?: EndpointSessionConfig;
}

/** Shared per simulation: the probe results go to, the flow numbering and the packet ids. */
export interface EndpointContext {
  readonly probe: EndpointProbe;
  /** Traffic sources draw from streams `source:<id>` (and `source:<id>/<k>` for the k-th source after the first). */
  readonly streams: RandomStreams;
  readonly flows: FlowTable;
  readonly ids: PacketIdSource;
}

/**
 * A.2 orphan period "on the order of several times the width of the fabric": the engine's own
 * default means 1 ms in nanoseconds; in the simulator's picoseconds 1 ms is 10^9.
 */
export const SIM_ORPHAN_PERIOD = 1_000_000_000;

export const DEFAULT_QUEUE_PDUS = 64;

export type EndpointCounterName =
  | 'pdusOffered' | 'pdusDropped' | 'packetsSent' | 'bytesSent'
  | 'packetsReceived' | 'bytesReceived' | 'pdusReceived' | 'pduDefects'
  | 'ccpsReceived' | 'ccpsIgnored' | 'misrouted' | 'otherPackets' | 'symbolsIgnored';

/** One source flow of a simulated end point, as its snapshot shows it. */
export interface SimFlowSnapshot {
  /** The scenario's flow number. */
  readonly flow: number;
  readonly dst: number;
  readonly prio: number;
  readonly crf: 0 | 1;
  readonly flowID: FlowIdLabel;
  /** Part 9: false while an XOFF keeps the flow stopped. */
  readonly enabled: boolean;
  readonly queuedPdus: number;
  readonly queuedBytes: number;
}

/** A feature of a simulated end point (flow arbitration, traffic management, session management) in its snapshot. */
export type SimFeatureSnapshot = object & {
  /** The feature's timers pending on the scheduler, by name. */
  readonly timers: readonly string[];
  readonly counters: Readonly<Record<string, number>>;
};

/** `Endpoint.snapshot()` of a simulated end point (endpoint.ts): plain JSON, a copy. */
export interface SimEndpointSnapshot {
  readonly name: string;
  readonly id: number;
  readonly flows: readonly SimFlowSnapshot[];
  /** Packets waiting for the sink's service. */
  readonly rxWaiting: number;
  /** The Part 9 reaction engine's; null when `ccp: false`. */
  readonly ccp: CcpEndpointSnapshot | null;
  /** The Part 10 segmenter's with `sar`, else null. */
  readonly segmenter: SegmenterSnapshot | null;
  /** The Part 10 reassembler's with `sar`, else null. */
  readonly reassembler: ReassemblerSnapshot | null;
  /** The CCP engine's timers pending on the scheduler, by name. */
  readonly timers: readonly string[];
  readonly stats: Counters<EndpointCounterName>;
  /** Each feature's own snapshot with its timers and counters, by feature name. */
  readonly features: Readonly<Record<string, SimFeatureSnapshot>>;
}
