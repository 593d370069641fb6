import { replicationSeed } from '../kernel/stream-seed.ts';
import { interval95 } from '../repro/batch-probe.ts';
import type { Interval95 } from '../repro/batch-probe.ts';
import type { GroupSummary } from './groups.ts';
import type { ScenarioVariant } from './load.ts';

/**
 * Replications (issue 20 "replications with confidence intervals in the report"): a variant with
 * `replications: N` (N ≥ 2) is run N times, replication r with the master seed
 * `replicationSeed(seed, r)` (replication 0 is the run with `seed` itself, whose results, series
 * and captures are the variant's), and each headline metric of each flow group gets the mean of
 * its N values and the 95 % Student t confidence interval (src/sim/repro/batch-probe.ts, the
 * reproductions' statistics: independent replications are i.i.d. samples).
 */

/** A metric over the replications: its interval, and the value of each replication in order. */
export interface ReplicatedMetric extends Interval95 {
  readonly values: readonly number[];
}

/** A flow group's headline metrics over the replications; a metric no replication measured is null. */
export interface ReplicatedGroup {
  readonly name: string;
  /** Payload bits delivered in whole PDUs per second of the window. */
  readonly deliveredBps: ReplicatedMetric | null;
  readonly deliveredFraction: ReplicatedMetric | null;
  /** Packet latency, ps: the mean and the 99th percentile of each replication. */
  readonly latencyMean: ReplicatedMetric | null;
  readonly latencyP99: ReplicatedMetric | null;
}

/** What results.json and the report show of a variant's replications. */
export interface ReplicationSummary {
  readonly n: number;
  /** The master seed of each replication. */
  readonly seeds: readonly number[];
  /** 0.95: the confidence level of the intervals. */
  readonly level: number;
  readonly groups: readonly ReplicatedGroup[];
}

/** The variant as replication `r` runs it. */
export function replicationVariant(v: ScenarioVariant, r: number): ScenarioVariant {
  return r === 0 ? v : { ...v, config: { ...v.config, seed: replicationSeed(v.config.seed, r) } };
}

function metric(values: readonly number[]): ReplicatedMetric | null {
  // A replication that measured nothing (no packet of the group in its window) has no value.
  const measured = values.filter((x) => Number.isFinite(x));
  if (measured.length < 2) return null;
  return { ...interval95(measured), values: measured };
}

/** The summary of N ≥ 2 replications from each one's group summaries (the same groups in every one). */
export function summarise(seeds: readonly number[], runs: readonly (readonly GroupSummary[])[]): ReplicationSummary {
  const first = runs[0] ?? [];
  return {
    n: runs.length,
    seeds,
    level: 0.95,
    groups: first.map((g, i) => {
      const pick = (f: (x: GroupSummary) => number): number[] => runs.map((r) => {
        const x = r[i];
        return x === undefined ? NaN : f(x);
      });
      const withPackets = (f: (x: GroupSummary) => number) => (x: GroupSummary): number => (x.packetLatency.count > 0 ? f(x) : NaN);
      return {
        name: g.name,
        deliveredBps: metric(pick((x) => x.deliveredBps)),
        deliveredFraction: metric(pick((x) => x.deliveredFraction)),
        latencyMean: metric(pick(withPackets((x) => x.packetLatency.mean))),
        latencyP99: metric(pick(withPackets((x) => x.packetLatency.p99))),
      };
    }),
  };
}
