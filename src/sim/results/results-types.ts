/**
 * The JSON form of a simulation's results (issue 7 §3 "Results: per-flow and aggregate
 * throughput, latency percentiles (HDR-style histogram), buffer occupancy over time, counts of
 * CCPs, VoQ symbols and TM messages, XOFF time per flow, CCP drops, PDU defects; written as JSON
 * and CSV"). Times and latencies are integer picoseconds; rates are bit/s; loads and fractions
 * are of the source link.
 */
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { LatencySummary } from './histogram.ts';
import type { OccupancySeries, OccupancySummary } from './occupancy.ts';

/** Traffic offered, dropped and delivered over the measured window. */
export interface TrafficTotals {
  readonly offeredPdus: number;
  /** PDU payload bytes generated. */
  readonly offeredBytes: number;
  readonly droppedPdus: number;
  readonly droppedBytes: number;
  readonly deliveredPackets: number;
  /** Packet octets delivered (headers, CRC and pad included; delimiters not). */
  readonly deliveredBytes: number;
  readonly deliveredPdus: number;
  /** PDU payload bytes delivered in whole PDUs. */
  readonly deliveredPduBytes: number;
  readonly pduDefects: number;
  /** deliveredBytes × 8 per second of the window. */
  readonly throughputBps: number;
  /** deliveredPduBytes × 8 per second of the window (goodput). */
  readonly payloadBps: number;
}

/** One flow's results (a flow: source, destination, prio, CRF). */
export interface FlowResult extends TrafficTotals {
  readonly flow: number;
  /** Absent for a flow no end point registered. */
  readonly src: number | null;
  readonly dst: number | null;
  readonly prio: number | null;
  readonly crf: number | null;
  readonly flowID: FlowIdLabel | null;
  /** Σ wire time of the PDUs generated / window: the offered load as a fraction of the source link's time. */
  readonly offeredLoad: number;
  /** throughputBps / the source link's data rate; null when the rate is unknown. */
  readonly throughputFraction: number | null;
  readonly packetLatency: LatencySummary;
  readonly pduLatency: LatencySummary;
  /** ps the flow spent stopped by Part 9 within the window, the fraction of the window, and how often it was stopped. */
  readonly xoffTime: number;
  readonly xoffFraction: number;
  readonly xoffCount: number;
}

/** The results over every flow. */
export interface AggregateResult extends TrafficTotals {
  readonly packetLatency: LatencySummary;
  readonly pduLatency: LatencySummary;
  readonly xoffTime: number;
}

/** The measured window [warmup, end] of a run, ps. */
export interface ResultsWindow {
  readonly warmup: number;
  readonly end: number;
  /** end − warmup. */
  readonly duration: number;
}

/** Buffer occupancy sampled every `interval` ps from 0 to the end. */
export interface OccupancySeriesSet {
  readonly interval: number;
  readonly buffers: readonly OccupancySeries[];
}

/**
 * Packet octets delivered in each interval [k·interval, (k+1)·interval) from 0 (warm-up
 * included), in total and, when asked for, per flow.
 */
export interface ThroughputSeries {
  readonly interval: number;
  readonly aggregate: readonly number[];
  /** Per flow, by flow number, when the run asked for flow series. */
  readonly flows?: Readonly<Record<string, readonly number[]>>;
}

/** The counters issue 7 §3 names (count-names.ts), 0 when nothing counted them. */
export interface HeadlineCounts {
  readonly ccpsSent: number;
  readonly ccpsReceived: number;
  readonly ccpDrops: number;
  readonly voqSymbols: number;
  readonly tmMessages: number;
  readonly pduDefects: number;
}

/** The results of one variant, as `riodp sim` writes them to results.json. */
export interface SimResults {
  /** The measured window [warmup, end], ps. */
  readonly window: ResultsWindow;
  readonly flows: readonly FlowResult[];
  readonly aggregate: AggregateResult;
  readonly occupancy: readonly OccupancySummary[];
  /** Occupancy sampled every `interval` ps from 0 to the end. */
  readonly occupancySeries: OccupancySeriesSet;
  /** Packet octets delivered per interval, in total and per flow. */
  readonly throughputSeries: ThroughputSeries;
  /** Every `Probe.count` counter, by name, over the whole run (warm-up included; `Probe.count` carries no time). */
  readonly counts: Readonly<Record<string, number>>;
  /** The counters issue 7 §3 names (count-names.ts), 0 when nothing counted them. */
  readonly headline: HeadlineCounts;
}
