/**
 * What `riodp sim` and `riodp sweep` hand the report writer (issue 7 §5): plain data, already
 * reduced by the simulator's results collector, so the report layer knows nothing about the fabric.
 * Times are in microseconds of simulated time, rates in Gbit/s, latencies in nanoseconds.
 */

export interface Series {
  /** Legend label, e.g. "victim flows" or "switch s1 port 3 output". */
  readonly name: string;
  readonly points: readonly (readonly [x: number, y: number])[];
}

export interface LatencySummary {
  readonly name: string;
  readonly count: number;
  readonly mean: number;
  /** Percentile → latency (ns), e.g. { "50": 812, "99": 4100, "99.9": 9000 }. */
  readonly percentiles: Readonly<Record<string, number>>;
}

export interface VariantResult {
  /** e.g. "no congestion control", "Part 9 XON/XOFF", "VoQ backpressure". */
  readonly name: string;
  /** Headline numbers shown in the summary table: label → value (with unit in the label). */
  readonly headline: Readonly<Record<string, number>>;
  /** Delivered throughput over time per flow group (Gbit/s vs µs). */
  readonly throughput: readonly Series[];
  readonly latency: readonly LatencySummary[];
  /** Buffer occupancy over time (packets vs µs). */
  readonly occupancy: readonly Series[];
  /** XOFF activity: number of XOFF'd flows (or XOFF'd fraction) over time, and CCP/VoQ symbol counts. */
  readonly xoff: readonly Series[];
  readonly counts: Readonly<Record<string, number>>;
  /** With replications (issue 20): headline metrics over N runs with derived seeds. */
  readonly replications?: Replications;
}

/** A mean over independent replications and the half-width of its 95 % confidence interval (Student t). */
export interface IntervalValue {
  readonly mean: number;
  readonly halfWidth: number;
}

/** A variant run N times: label (with unit) → mean ± half-width. */
export interface Replications {
  readonly n: number;
  readonly metrics: Readonly<Record<string, IntervalValue>>;
}

/** A published result and what the simulator measured (issue 7 §4). */
export interface Reproduction {
  readonly source: string;
  readonly quantity: string;
  readonly published: number;
  readonly measured: number;
  /** Standard error of `measured` (batch means), shown as "measured ± stdErr". */
  readonly stdErr?: number;
  readonly tolerance: string;
  readonly pass: boolean;
  /** How it was measured (seed, run length), shown in its own column when any row has it. */
  readonly run?: string;
}

export interface SimReport {
  readonly title: string;
  /** ISO date of the run (supplied by the CLI; the report itself reads no clock). */
  readonly generated: string;
  readonly riodpVersion: string;
  /** The scenario as the user wrote it (YAML text), shown verbatim. */
  readonly scenarioText: string;
  readonly seed: number;
  readonly simulatedTime: number;
  readonly wallSeconds: number;
  readonly variants: readonly VariantResult[];
  readonly reproductions?: readonly Reproduction[];
}

/** `riodp sweep`: one curve per (series key) of a metric against the swept parameter. */
export interface SweepReport {
  readonly title: string;
  readonly generated: string;
  readonly riodpVersion: string;
  readonly gridText: string;
  /** The swept parameter's label, e.g. "offered load". */
  readonly xLabel: string;
  /** One chart per metric (e.g. "throughput (fraction of link rate)"), each with curves. */
  readonly charts: readonly { readonly metric: string; readonly curves: readonly Series[] }[];
  readonly points: readonly Readonly<Record<string, number | string>>[];
}
