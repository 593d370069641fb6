import type { ScenarioRun } from '../scenario/run.ts';
import type { TrafficEntry } from '../scenario/schema.ts';

/**
 * The headline numbers `riodp sweep` keeps per grid point (issue 7 §5 "throughput-vs-load
 * curves"; the figures `riodp sim` prints): per flow group the delivered payload rate and its
 * fraction of the offered load, and the p99 packet latency; the CCPs and VoQ symbols the fabric
 * sent. Plain data, so it crosses from a worker thread unchanged.
 */

export interface GroupMetrics {
  readonly name: string;
  readonly offeredGbps: number;
  readonly deliveredGbps: number;
  readonly deliveredFraction: number;
  /** p99 packet latency, ns; null when the group delivered no packet. */
  readonly p99LatencyNs: number | null;
  /** Mean packet latency, ns; null when the group delivered no packet. */
  readonly meanLatencyNs: number | null;
  /**
   * Offered load per source as a fraction of its link (the traffic entries' `load`, issue 21 item 2
   * curves.csv); null when the group's entries offer different loads, as no one figure then says it.
   */
  readonly offeredLoad: number | null;
}

export interface PointMetrics {
  readonly groups: readonly GroupMetrics[];
  readonly ccpsSent: number;
  readonly voqSymbols: number;
  /** Scheduler events run: a check that two runs of one point did the same work. */
  readonly events: number;
}

/** The `load` the traffic entries of group `name` share (an entry's group defaults to its pattern), or null. */
export function groupLoad(traffic: readonly Pick<TrafficEntry, 'group' | 'pattern' | 'load'>[], name: string): number | null {
  const loads = new Set(traffic.filter((t) => (t.group ?? t.pattern) === name).map((t) => t.load));
  return loads.size === 1 ? ([...loads][0] ?? null) : null;
}

export function pointMetrics(run: ScenarioRun, traffic: readonly Pick<TrafficEntry, 'group' | 'pattern' | 'load'>[]): PointMetrics {
  const v = run.variants[0];
  if (v === undefined) return { groups: [], ccpsSent: 0, voqSymbols: 0, events: 0 };
  return {
    groups: v.groups.map((g) => ({
      name: g.name,
      offeredGbps: g.offeredBps / 1e9,
      deliveredGbps: g.deliveredBps / 1e9,
      deliveredFraction: g.deliveredFraction,
      p99LatencyNs: g.packetLatency.count > 0 && Number.isFinite(g.packetLatency.p99) ? g.packetLatency.p99 / 1000 : null,
      meanLatencyNs: g.packetLatency.count > 0 && Number.isFinite(g.packetLatency.mean) ? g.packetLatency.mean / 1000 : null,
      offeredLoad: groupLoad(traffic, g.name),
    })),
    ccpsSent: v.results.headline.ccpsSent,
    voqSymbols: v.results.headline.voqSymbols,
    events: v.events,
  };
}
