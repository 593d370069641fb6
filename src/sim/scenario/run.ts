import { join } from 'node:path';
import { captureFabric } from '../capture/fabric-capture.ts';
import type { SimCaptureFile, SimCaptureOptions } from '../capture/fabric-capture.ts';
import type { OccupancySeries } from '../results/occupancy.ts';
import type { SimResults } from '../results/results-types.ts';
import { buildVariant } from './build.ts';
import type { BuiltFabric } from './build.ts';
import { endpointFeatures } from './feature-summary.ts';
import type { EndpointFeatureName } from './feature-summary.ts';
import type { GroupSeries } from './group-collector.ts';
import { groupSummaries } from './groups.ts';
import type { GroupSummary } from './groups.ts';
import type { Scenario, ScenarioVariant } from './load.ts';
import { replicationVariant, summarise } from './replications.ts';
import type { ReplicationSummary } from './replications.ts';
import { slug } from './results-file.ts';
import { overriddenSwitches } from './switch-overrides.ts';
import type { EchoedSwitch } from './switch-overrides.ts';

/**
 * Running a scenario (issue 7 §3, §5): each variant is built afresh (scenario/build.ts) and run
 * from 0 to `duration`; the collector's results come back with the series the report draws:
 * delivered throughput and XOFF'd flows over time per flow group, and the occupancy over time of
 * the most occupied switch buffers. Nothing here reads a clock: a run is a function of the
 * scenario and its seed.
 */

/** How many buffers the occupancy series keep: the most occupied switch buffers by mean, then maximum. */
export const TOP_BUFFERS = 6;

/** Default progress period: every 10 µs of simulated time. */
export const PROGRESS_EVERY = 10_000_000;

/** Where a run is, for `RunOptions.onProgress`. */
export interface Progress {
  readonly variant: string;
  /** 0-based index of the variant and how many there are. */
  readonly index: number;
  readonly variants: number;
  /** Simulated time reached and the end of the run, ps. */
  readonly now: number;
  readonly end: number;
  /** With `replications` ≥ 2: the replication running (0-based) and how many there are; each runs from 0 to `end`. */
  readonly replication?: number;
  readonly replications?: number;
}

/** Options of `runScenario` and `runVariant`. */
export interface RunOptions {
  /** ps of simulated time between progress callbacks. Default `PROGRESS_EVERY`. */
  readonly progressEvery?: number;
  /** Called every `progressEvery` ps of simulated time. */
  readonly onProgress?: (p: Progress) => void;
  /**
   * Capture every link in pcapng files (docs/pcapng.md, docs/simulator.md "Captures"); with several
   * variants, `runScenario` puts each variant's files in a folder of `dir` named after it.
   */
  readonly pcap?: SimCaptureOptions;
}

/** The run of one variant: its results and the series `riodp sim` charts. */
export interface VariantRun {
  readonly name: string;
  readonly seed: number;
  readonly duration: number;
  readonly warmup: number;
  /** Scheduler events run. */
  readonly events: number;
  readonly results: SimResults;
  /** The end point features the variant runs (feature-summary.ts): which of its counts to summarise. */
  readonly features?: readonly EndpointFeatureName[];
  readonly groups: readonly GroupSummary[];
  readonly series: VariantSeries;
  /** The capture files, with `RunOptions.pcap` only. */
  readonly captures?: readonly SimCaptureFile[];
  /** With `replications` ≥ 2: the metrics' means and 95 % confidence intervals over the replications (replications.ts); the rest is replication 0's. */
  readonly replications?: ReplicationSummary;
  /** With a `switches` section: the settings each switch it names ran with, by switch name. */
  readonly switches?: Readonly<Record<string, EchoedSwitch>>;
}

/** A traffic group's series, named. */
export interface NamedGroupSeries extends GroupSeries {
  readonly name: string;
}

/** The series `riodp sim` charts for a variant, sampled every `interval` ps. */
export interface VariantSeries {
  readonly interval: number;
  readonly groups: readonly NamedGroupSeries[];
  /** The most occupied switch buffers (`<switch>/in<i>`, `<switch>/out<o>`), most occupied first. */
  readonly buffers: readonly OccupancySeries[];
}

/** The runs of a scenario's variants, in order. */
export interface ScenarioRun {
  readonly name: string;
  readonly variants: readonly VariantRun[];
}

function isSwitchBuffer(component: string): boolean {
  return /\/(in|out)\d+$/.test(component);
}

function topBuffers(results: SimResults): OccupancySeries[] {
  const ranked = results.occupancy
    .filter((o) => isSwitchBuffer(o.component) && o.maxPackets > 0)
    .sort((a, b) => b.meanPackets - a.meanPackets || b.maxPackets - a.maxPackets || (a.component < b.component ? -1 : a.component > b.component ? 1 : 0))
    .slice(0, TOP_BUFFERS)
    .map((o) => o.component);
  const series = new Map(results.occupancySeries.buffers.map((s) => [s.component, s]));
  return ranked.flatMap((c) => series.get(c) ?? []);
}

/** Runs an already built variant to its end. */
export function runBuilt(b: BuiltFabric, options: RunOptions = {}, position: { index: number; variants: number } = { index: 0, variants: 1 }): VariantRun {
  const c = b.variant.config;
  const step = options.progressEvery ?? PROGRESS_EVERY;
  if (!Number.isSafeInteger(step) || step <= 0) throw new RangeError('progressEvery must be a positive integer (ps)');
  const capture = options.pcap === undefined ? null : captureFabric(b, options.pcap);
  let captures: SimCaptureFile[] | undefined;
  let events = 0;
  try {
    for (const ep of b.endpoints) ep.start(0);
    let t = 0;
    while (t < c.duration) {
      t = options.onProgress === undefined ? c.duration : Math.min(c.duration, t + step);
      events += b.sched.run({ until: t }).events;
      options.onProgress?.({ variant: b.variant.name, index: position.index, variants: position.variants, now: t, end: c.duration });
    }
  } finally {
    captures = capture?.close();
  }
  b.collector.finish(c.duration);
  const all = b.collector.results();
  const top = topBuffers(all);
  // output.occupancy top: every buffer's summary, the series of the buffers the report charts only.
  const results = c.output.occupancy === 'top' ? { ...all, occupancySeries: { ...all.occupancySeries, buffers: top } } : all;
  const switches = overriddenSwitches(c, b.variant.fabric);
  return {
    name: b.variant.name,
    seed: c.seed,
    duration: c.duration,
    warmup: c.warmup,
    events,
    results,
    features: endpointFeatures(c.endpoints),
    groups: groupSummaries(results, b.collector),
    series: {
      interval: b.collector.sampleInterval,
      groups: b.collector.groups.map((name, g) => ({ name, ...b.collector.groupSeries(g, c.duration) })),
      buffers: top,
    },
    ...(captures === undefined ? {} : { captures }),
    ...(switches === undefined ? {} : { switches }),
  };
}

/**
 * Builds one variant's fabric and runs it to its end.
 *
 * @example
 * ```ts
 * import { parseScenario, runVariant } from 'riodp/sim';
 *
 * const scenario = parseScenario(`
 * name: incast
 * duration: 20us
 * topology: { kind: switch, hosts: 4 }
 * switch: { speedup: 4, outputBuffer: { packets: 16 }, congestion: { highWatermark: 8, lowWatermark: 4 } }
 * traffic: [{ pattern: incast, sink: 0, sources: [1, 2, 3], load: 0.9 }]
 * `);
 * const run = runVariant(scenario.variants[0]!); // the one variant: the scenario itself
 * const { aggregate, headline } = run.results;
 * console.log(run.events, aggregate.deliveredPdus, aggregate.payloadBps, headline.ccpsSent); // 1312 89 9113600000 36: the sink's link near full (10 Gbit/s), 36 CCPs (XOFF/XON)
 * ```
 */
export function runVariant(v: ScenarioVariant, options: RunOptions = {}, position?: { index: number; variants: number }): VariantRun {
  const n = v.config.replications ?? 1;
  const withReplication = (r: number, o: RunOptions): RunOptions => {
    const onProgress = o.onProgress;
    return n < 2 || onProgress === undefined ? o : { ...o, onProgress: (p) => { onProgress({ ...p, replication: r, replications: n }); } };
  };
  const first = runBuilt(buildVariant(v), withReplication(0, options), position);
  if (n < 2) return first;
  // Only replication 0 is captured: the others add their metrics to the intervals.
  const others: RunOptions = { ...options };
  delete (others as { pcap?: SimCaptureOptions }).pcap;
  const seeds = [v.config.seed];
  const runs = [first.groups];
  for (let r = 1; r < n; r++) {
    const rv = replicationVariant(v, r);
    seeds.push(rv.config.seed);
    runs.push(runBuilt(buildVariant(rv), withReplication(r, others), position).groups);
  }
  return { ...first, replications: summarise(seeds, runs) };
}

/**
 * Runs every variant of a scenario in order, as `riodp sim` does; the results are deterministic
 * for the scenario's seed.
 *
 * @example
 * ```ts
 * import { parseScenario, runScenario } from 'riodp/sim';
 *
 * // 10 µs of an incast, without and with Part 9 XON/XOFF (give `onProgress` to follow a long run).
 * const run = runScenario(parseScenario(`
 * name: incast
 * duration: 10us
 * topology: { kind: switch, hosts: 4 }
 * switch: { speedup: 4, outputBuffer: { packets: 16 } }
 * traffic: [{ pattern: incast, sink: 0, sources: [1, 2, 3], load: 0.9 }]
 * variants:
 *   - { name: no control, overrides: {} }
 *   - { name: Part 9 XON/XOFF, overrides: { switch: { congestion: { highWatermark: 8, lowWatermark: 4 } } } }
 * `));
 * for (const v of run.variants) console.log(v.name, v.results.aggregate.deliveredPdus, v.results.headline.ccpsSent);
 * // no control 44 0
 * // Part 9 XON/XOFF 44 15
 * ```
 */
export function runScenario(s: Scenario, options: RunOptions = {}): ScenarioRun {
  const dirs = captureDirs(s, options.pcap);
  return {
    name: s.name,
    variants: s.variants.map((v, index) => {
      const dir = dirs[index];
      return runVariant(v, dir === undefined || options.pcap === undefined ? options : { ...options, pcap: { ...options.pcap, dir } }, { index, variants: s.variants.length });
    }),
  };
}

/** Each variant's capture folder: `dir` itself for one variant, else `dir/<variant>` (names as the CSVs', made unique). */
function captureDirs(s: Scenario, pcap: SimCaptureOptions | undefined): string[] {
  if (pcap === undefined) return [];
  if (s.variants.length === 1) return [pcap.dir];
  const used = new Set<string>();
  return s.variants.map((v) => {
    let name = slug(v.name);
    for (let k = 2; used.has(name); k++) name = `${slug(v.name)}-${k}`;
    used.add(name);
    return join(pcap.dir, name);
  });
}
