import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, formatIssue } from '../config/issues.ts';
import { loadGridFile } from '../sim/sweep/grid.ts';
import type { Grid } from '../sim/sweep/grid.ts';
import type { PointMetrics } from '../sim/sweep/metrics.ts';
import { gridPoints } from '../sim/sweep/points.ts';
import type { SweepPoint } from '../sim/sweep/points.ts';
import { runPoints } from '../sim/sweep/pool.ts';
import { gridIdentity, pointResultOf, resultFile } from '../sim/sweep/unit.ts';
import { ProgressLine } from './progress-line.ts';
import { emitPoints, mergeDir, runPointFile, runShard } from './sweep-units.ts';
import { errorText, riodpVersion, summaryTable, sweepError, writeSweep } from './sweep-write.ts';

/**
 * `riodp sweep grid.yaml [--out DIR] [--workers N] [--json]` (issue 7 §5: "a parameter grid …
 * run in parallel worker threads (piscina), one report with throughput-vs-load curves"). Every
 * point is checked before any runs; then the points run on N threads (default: one per core, at
 * most one per point) and the report directory gets index.html, results.json, points.csv and curves.csv.
 * Issue 21 item 1 splits the same run into steps that can run on other machines
 * (sweep-units.ts): `--emit-points DIR`, `--run-point FILE`, `--shard i/N`, `--merge DIR`.
 * Exit codes as `riodp sim`: 0 done, 2 the grid, a point or an option is invalid (one line per
 * problem), 1 a run or the writing failed (one line).
 */

export interface SweepFlags {
  readonly out?: string;
  readonly workers?: number;
  readonly json: boolean;
  readonly emitPoints?: string;
  readonly runPoint?: string;
  /** `i/N`, or true for `--shard` alone (from the Slurm array). */
  readonly shard?: string | true;
  readonly merge?: string;
}

export interface LoadedGrid {
  readonly grid: Grid;
  readonly points: SweepPoint[];
}

const DEFAULT_DIR = 'riodp-sweep';

function loadGrid(file: string): LoadedGrid | number {
  try {
    const grid = loadGridFile(file);
    return { grid, points: gridPoints(grid) };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    for (const i of e.issues) process.stderr.write(`riodp sweep: ${file}: ${formatIssue(i)}\n`);
    return 2;
  }
}

/** The option combinations that cannot act together, as one line; undefined when the flags are coherent. */
function conflict(file: string | undefined, flags: SweepFlags): string | undefined {
  const steps = (['emitPoints', 'runPoint', 'merge'] as const).filter((k) => flags[k] !== undefined);
  const name = { emitPoints: '--emit-points', runPoint: '--run-point', merge: '--merge' } as const;
  if (steps.length > 1) return `${steps.map((k) => name[k]).join(' and ')} are separate steps: give one`;
  const step = steps[0];
  if (flags.shard !== undefined && step !== undefined) return `--shard runs a share of a grid's points, not with ${name[step]}`;
  if (step === 'runPoint' || step === 'merge') {
    if (file !== undefined) return `${name[step]} takes no grid file (the ${step === 'merge' ? 'results carry' : 'point carries'} what is needed), not "${file}"`;
    if (flags.workers !== undefined) return `--workers: ${step === 'merge' ? '--merge runs no point' : '--run-point runs its one point in this thread'}`;
  }
  if (step === 'runPoint' && flags.json) return '--json: the result of --run-point is JSON already';
  if (step === 'emitPoints') {
    if (flags.workers !== undefined) return '--workers: --emit-points runs no point';
    if (flags.out !== undefined) return '--out: --emit-points writes into its own DIR';
  }
  if (step === undefined && file === undefined) return 'expected a grid file (or --run-point FILE, or --merge DIR)';
  return undefined;
}

export async function runSweep(file: string | undefined, flags: SweepFlags): Promise<number> {
  if (flags.workers !== undefined && flags.workers < 1) return sweepError('--workers: expected a positive integer', 2);
  const problem = conflict(file, flags);
  if (problem !== undefined) return sweepError(problem, 2);
  if (flags.runPoint !== undefined) return runPointFile(flags.runPoint, flags);
  if (flags.merge !== undefined) return mergeDir(flags.merge, flags, DEFAULT_DIR);
  const loaded = loadGrid(file as string);
  if (typeof loaded === 'number') return loaded;
  if (flags.emitPoints !== undefined) return emitPoints(loaded, flags.emitPoints, flags);
  if (flags.shard !== undefined) return runShard(loaded, flags.shard, flags.out ?? DEFAULT_DIR, flags);
  return runLocal(loaded, flags);
}

async function runLocal({ grid, points }: LoadedGrid, flags: SweepFlags): Promise<number> {
  const dir = resolve(flags.out ?? DEFAULT_DIR);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    return sweepError(`cannot write the report to ${dir}: ${errorText(e)}`);
  }
  const workers = Math.min(flags.workers ?? availableParallelism(), points.length);
  const progress = new ProgressLine();
  const started = performance.now();
  let metrics: PointMetrics[];
  try {
    metrics = await runPoints(points, workers, (done) => { progress.show(`riodp sweep: ${done}/${points.length} points`); });
  } catch (e) {
    return sweepError(`the simulation stopped: ${errorText(e)}`);
  } finally {
    progress.clear();
  }
  const wallSeconds = (performance.now() - started) / 1000;
  // Through the result files' form, so that a merge of results run elsewhere writes the same bytes.
  const identity = gridIdentity(grid, points);
  const version = riodpVersion();
  const results = points.map((p, i) => pointResultOf(resultFile(identity, p, metrics[i] as PointMetrics, version)));
  let written: Awaited<ReturnType<typeof writeSweep>>;
  try {
    written = await writeSweep(dir, identity, results);
  } catch (e) {
    return sweepError(`cannot write the report to ${dir}: ${errorText(e)}`);
  }
  const title = `${grid.name}: ${points.length} point${points.length === 1 ? '' : 's'} in ${wallSeconds.toFixed(1)} s`;
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ grid: grid.name, report: written.index, files: written.written, workers, wallSeconds, points: written.results.points })}\n`
      : summaryTable(grid, results, written.index, title),
  );
  return 0;
}
