import { Collector } from '../results/collector.ts';
import type { CollectorOptions } from '../results/collector.ts';
import { Histogram } from '../results/histogram.ts';
import type { LatencySummary } from '../results/histogram.ts';
import { OccupancyTrack } from '../results/occupancy.ts';

/**
 * The results collector with flow groups on top (issue 7 §5 report: "throughput over time per flow
 * group (e.g. hotspot flows vs victim flows)", "latency percentiles per group", "XOFF activity
 * (XOFF'd flows over time)"). Each traffic entry of a scenario labels the flows it creates with a
 * group; the collector's per-flow results are summed by group afterwards (scenario/groups.ts),
 * and what cannot be summed afterwards is kept here as it happens: latency histograms per group,
 * delivered octets per sample interval per group, and the number of a group's flows an XOFF holds
 * (a piecewise-constant signal, sampled like a buffer's occupancy).
 *
 * The group of each flow is set once the end points have registered their flows (`setGroups`);
 * a flow without a group (none in a scenario run) is left out of the group figures only.
 */
export interface GroupSeries {
  /** Packet octets delivered per sample interval, from 0. */
  readonly delivered: readonly number[];
  /** XOFF'd flows of the group, sampled at t = 0, interval, 2·interval … end. */
  readonly xoff: XoffSeries;
}

/** A group's XOFF'd flows sampled over time: `flows[k]` at time `t[k]`, ps. */
export interface XoffSeries {
  readonly t: readonly number[];
  readonly flows: readonly number[];
}

export class GroupCollector extends Collector {
  readonly groups: readonly string[];
  #groupOf = new Int32Array(0);
  #off = new Uint8Array(0);
  readonly #packetLatency: Histogram[];
  readonly #pduLatency: Histogram[];
  readonly #delivered: number[][];
  readonly #xoffFlows: Int32Array;
  readonly #xoff: OccupancyTrack[];

  constructor(groups: readonly string[], options: CollectorOptions = {}) {
    super(options);
    this.groups = groups;
    const bits = options.precisionBits ?? 8;
    this.#packetLatency = groups.map(() => new Histogram(bits));
    this.#pduLatency = groups.map(() => new Histogram(bits));
    this.#delivered = groups.map(() => []);
    this.#xoffFlows = new Int32Array(groups.length);
    this.#xoff = groups.map((g) => new OccupancyTrack(`xoff:${g}`, this.warmup, this.sampleInterval));
  }

  /** groupOf[flow] = index into `groups`, −1 for none. */
  setGroups(groupOf: readonly number[]): void {
    this.#groupOf = Int32Array.from(groupOf);
    this.#off = new Uint8Array(groupOf.length);
  }

  groupOf(flow: number): number {
    return flow >= 0 && flow < this.#groupOf.length ? (this.#groupOf[flow] as number) : -1;
  }

  override packetDelivered(flow: number, now: number, bytes: number, latency: number): void {
    super.packetDelivered(flow, now, bytes, latency);
    const g = this.groupOf(flow);
    if (g < 0) return;
    const series = this.#delivered[g] as number[];
    const bin = Math.floor(now / this.sampleInterval);
    while (series.length <= bin) series.push(0);
    series[bin] = (series[bin] as number) + bytes;
    if (now >= this.warmup) (this.#packetLatency[g] as Histogram).record(latency);
  }

  override pduDelivered(flow: number, now: number, bytes: number, latency: number): void {
    super.pduDelivered(flow, now, bytes, latency);
    const g = this.groupOf(flow);
    if (g >= 0 && now >= this.warmup) (this.#pduLatency[g] as Histogram).record(latency);
  }

  override xoff(flow: number, now: number, off: boolean): void {
    super.xoff(flow, now, off);
    const g = this.groupOf(flow);
    if (g < 0) return;
    const was = this.#off[flow] === 1;
    if (was === off) return;
    this.#off[flow] = off ? 1 : 0;
    const n = (this.#xoffFlows[g] as number) + (off ? 1 : -1);
    this.#xoffFlows[g] = n;
    (this.#xoff[g] as OccupancyTrack).update(now, n, 0);
  }

  override finish(end: number): void {
    super.finish(end);
    for (const t of this.#xoff) t.finish(end);
  }

  groupLatency(g: number): { readonly packet: LatencySummary; readonly pdu: LatencySummary } {
    return { packet: (this.#packetLatency[g] as Histogram).summary(), pdu: (this.#pduLatency[g] as Histogram).summary() };
  }

  /** Call after `finish(end)`: the series padded to one bin per interval up to `end`. */
  groupSeries(g: number, end: number): GroupSeries {
    const bins = Math.ceil(end / this.sampleInterval);
    const delivered = (this.#delivered[g] as number[]).slice(0, Math.max(bins, 0));
    while (delivered.length < bins) delivered.push(0);
    const s = (this.#xoff[g] as OccupancyTrack).series();
    return { delivered, xoff: { t: s.t, flows: s.packets } };
  }
}
