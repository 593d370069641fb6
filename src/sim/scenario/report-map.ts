import type { IntervalValue, LatencySummary as ReportLatency, Replications, Series, SimReport, VariantResult } from '../../report/types.ts';
import type { LatencySummary } from '../results/histogram.ts';
import { featureNumbers } from './feature-summary.ts';
import type { ReplicatedMetric, ReplicationSummary } from './replications.ts';
import type { ScenarioRun, VariantRun } from './run.ts';

/**
 * A scenario run in the report's units (src/report/types.ts: "Times are in microseconds of
 * simulated time, rates in Gbit/s, latencies in nanoseconds"). Headline numbers per group are the
 * delivered payload rate, the fraction of the offered load delivered and the p99 packet latency;
 * then the fabric-wide counts issue 7 §3 names, and the numbers of the end point features the
 * variant runs (feature-summary.ts).
 */

const PS_PER_US = 1e6;
const PS_PER_NS = 1e3;

function latency(name: string, l: LatencySummary): ReportLatency {
  return {
    name,
    count: l.count,
    mean: l.mean / PS_PER_NS,
    percentiles: { '50': l.p50 / PS_PER_NS, '90': l.p90 / PS_PER_NS, '99': l.p99 / PS_PER_NS, '99.9': l.p999 / PS_PER_NS },
  };
}

/** Headline labels (the CLI summary prints the same numbers). */
export function headline(v: VariantRun): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of v.groups) {
    out[`${g.name} throughput (Gbit/s)`] = g.deliveredBps / 1e9;
    out[`${g.name} delivered / offered`] = g.deliveredFraction;
    out[`${g.name} p99 latency (ns)`] = g.packetLatency.p99 / PS_PER_NS;
  }
  const h = v.results.headline;
  out['CCPs sent'] = h.ccpsSent;
  out['CCP drops'] = h.ccpDrops;
  out['VoQ symbols'] = h.voqSymbols;
  out['PDU defects'] = h.pduDefects;
  // The end point features the variant runs; the table leaves the cells of the others empty.
  const f = featureNumbers(v);
  if (f.arbitration !== undefined) {
    out['arbitration REQUESTs sent'] = f.arbitration.requestsSent;
    out['arbitration grants received (XON(ARB))'] = f.arbitration.grantsReceived;
  }
  if (f.tm !== undefined) {
    out['TM messages sent'] = f.tm.messagesSent;
    out['TM messages received'] = f.tm.messagesReceived;
  }
  if (f.session !== undefined) {
    out['session streams opened'] = f.session.streamsOpened;
    if (f.session.meanSetupPs !== null) out['session mean stream setup (ns)'] = f.session.meanSetupPs / PS_PER_NS;
  }
  return out;
}

/** issue 20: the replicated headline metrics in the headline table's units and labels (latency mean besides p99). */
function replications(s: ReplicationSummary): Replications {
  const metrics: Record<string, IntervalValue> = {};
  const put = (label: string, m: ReplicatedMetric | null, scale: number): void => {
    if (m !== null) metrics[label] = { mean: m.mean / scale, halfWidth: m.halfWidth / scale };
  };
  for (const g of s.groups) {
    put(`${g.name} throughput (Gbit/s)`, g.deliveredBps, 1e9);
    put(`${g.name} delivered / offered`, g.deliveredFraction, 1);
    put(`${g.name} mean latency (ns)`, g.latencyMean, PS_PER_NS);
    put(`${g.name} p99 latency (ns)`, g.latencyP99, PS_PER_NS);
  }
  return { n: s.n, metrics };
}

export function variantResult(v: VariantRun): VariantResult {
  const interval = v.series.interval;
  const throughput: Series[] = v.series.groups.map((g) => ({
    name: `${g.name} flows`,
    // Octets in [k·I, (k+1)·I) as Gbit/s, at the start of the interval.
    points: g.delivered.map((bytes, k) => [(k * interval) / PS_PER_US, (bytes * 8 * 1e3) / interval] as const),
  }));
  const occupancy: Series[] = v.series.buffers.map((b) => ({ name: b.component, points: b.t.map((t, i) => [t / PS_PER_US, b.packets[i] ?? 0] as const) }));
  const xoff: Series[] = v.series.groups.map((g) => ({ name: `${g.name} flows XOFF'd`, points: g.xoff.t.map((t, i) => [t / PS_PER_US, g.xoff.flows[i] ?? 0] as const) }));
  return {
    name: v.name,
    headline: headline(v),
    throughput,
    latency: v.groups.map((g) => latency(g.name, g.packetLatency)),
    occupancy,
    xoff,
    counts: v.results.counts,
    ...(v.replications === undefined ? {} : { replications: replications(v.replications) }),
  };
}

export interface ReportContext {
  readonly text: string;
  readonly generated: string;
  readonly version: string;
  readonly wallSeconds: number;
}

export function simReport(run: ScenarioRun, ctx: ReportContext): SimReport {
  const first = run.variants[0];
  return {
    title: run.name,
    generated: ctx.generated,
    riodpVersion: ctx.version,
    scenarioText: ctx.text,
    seed: first?.seed ?? 0,
    simulatedTime: (first?.duration ?? 0) / PS_PER_US,
    wallSeconds: ctx.wallSeconds,
    variants: run.variants.map(variantResult),
  };
}
