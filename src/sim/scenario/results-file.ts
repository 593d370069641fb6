import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flowsCsv, latencyCsv, occupancyCsv, toCsv } from '../results/csv.ts';
import { writeJsonFile } from '../results/json-stream.ts';
import type { SimResults } from '../results/results-types.ts';
import type { GroupSummary } from './groups.ts';
import type { ScenarioRun } from './run.ts';
import type { ReplicationSummary } from './replications.ts';
import type { EchoedSwitch } from './switch-overrides.ts';

/**
 * What `riodp sim` writes beside the report (issue 7 §3 "written as JSON and CSV"):
 * `results.json` (every variant: its group summaries and the collector's full results) and, per
 * variant, `<slug>.flows.csv`, `<slug>.occupancy.csv`, `<slug>.latency.csv`, plus `groups.csv`
 * (one row per variant and group). Nothing in them depends on the wall clock or the machine, so
 * one seed gives the same files byte for byte.
 */

export interface ResultsFile {
  readonly scenario: string;
  readonly variants: readonly {
    readonly name: string;
    readonly seed: number;
    readonly duration: number;
    readonly warmup: number;
    readonly events: number;
    readonly groups: readonly GroupSummary[];
    /** With `replications` ≥ 2: means and 95 % confidence intervals of the groups' metrics (replications.ts); absent otherwise. */
    readonly replications?: ReplicationSummary;
    /** The settings of the switches a `switches` section names (switch-overrides.ts); absent without one. */
    readonly switches?: Readonly<Record<string, EchoedSwitch>>;
    readonly results: SimResults;
  }[];
}

export function resultsFile(run: ScenarioRun): ResultsFile {
  return {
    scenario: run.name,
    variants: run.variants.map((v) => ({
      name: v.name, seed: v.seed, duration: v.duration, warmup: v.warmup, events: v.events, groups: v.groups, ...(v.replications === undefined ? {} : { replications: v.replications }), ...(v.switches === undefined ? {} : { switches: v.switches }), results: v.results,
    })),
  };
}

/** A file-name-safe form of a variant name: lower case, runs of other characters as one "-". */
export function slug(name: string): string {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return s === '' ? 'variant' : s;
}

function groupsCsv(run: ScenarioRun): string {
  const rows = run.variants.flatMap((v) => v.groups.map((g) => [
    v.name, g.name, g.flows, g.offeredBps, g.deliveredBps, g.throughputBps, g.deliveredFraction, g.droppedPdus,
    g.packetLatency.count, g.packetLatency.mean, g.packetLatency.p50, g.packetLatency.p99, g.packetLatency.p999, g.xoffTime, g.xoffCount,
  ]));
  return toCsv(['variant', 'group', 'flows', 'offeredBps', 'deliveredBps', 'throughputBps', 'deliveredFraction', 'droppedPdus', 'packets', 'latencyMean', 'latencyP50', 'latencyP99', 'latencyP999', 'xoffTime', 'xoffCount'], rows);
}

/** Every file by name (results.json first), slugs made unique by a numeric suffix. */
export function resultFiles(run: ScenarioRun): Record<string, string> {
  return { 'results.json': JSON.stringify(resultsFile(run), null, 2) + '\n', ...csvFiles(run) };
}

/** A file written by a function of its path rather than given as a string. */
export type FileWriter = (path: string) => void;

/**
 * The files of `resultFiles` with results.json as a writer that streams it (json-stream.ts): the
 * same bytes, never one string (issue 20: a large fabric's results pass V8's string limit).
 * `extra` fields are added to results.json after `scenario` and `variants`.
 */
export function resultWriters(run: ScenarioRun, extra: Readonly<Record<string, unknown>> = {}): Record<string, string | FileWriter> {
  const json = { ...resultsFile(run), ...extra };
  return { 'results.json': (path: string) => { writeJsonFile(path, json); }, ...csvFiles(run) };
}

/** Writes the result files into `dir` (created if needed); returns their paths, in name order. */
export function writeScenarioResults(run: ScenarioRun, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files = resultWriters(run);
  return Object.keys(files).sort().map((name) => {
    const path = join(dir, name);
    const f = files[name] as string | FileWriter;
    if (typeof f === 'string') writeFileSync(path, f);
    else f(path);
    return path;
  });
}

function csvFiles(run: ScenarioRun): Record<string, string> {
  const files: Record<string, string> = { 'groups.csv': groupsCsv(run) };
  const used = new Set<string>();
  for (const v of run.variants) {
    let s = slug(v.name);
    for (let k = 2; used.has(s); k++) s = `${slug(v.name)}-${k}`;
    used.add(s);
    files[`${s}.flows.csv`] = flowsCsv(v.results);
    files[`${s}.occupancy.csv`] = occupancyCsv(v.results);
    files[`${s}.latency.csv`] = latencyCsv(v.results);
  }
  return files;
}
