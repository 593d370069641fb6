import { mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, formatIssue } from '../config/issues.ts';
import { loadGridFile } from '../sim/sweep/grid.ts';
import type { Grid } from '../sim/sweep/grid.ts';
import type { PointMetrics } from '../sim/sweep/metrics.ts';
import { pointsCsv, sweepReport, sweepResults } from '../sim/sweep/output.ts';
import { gridPoints, pointLabel } from '../sim/sweep/points.ts';
import type { SweepPoint } from '../sim/sweep/points.ts';
import { runPoints } from '../sim/sweep/pool.ts';
import { ProgressLine } from './progress-line.ts';

/**
 * `riodp sweep grid.yaml [--out DIR] [--workers N] [--json]` (issue 7 §5: "a parameter grid …
 * run in parallel worker threads (piscina), one report with throughput-vs-load curves"). Every
 * point is checked before any runs; then the points run on N threads (default: one per core, at
 * most one per point) and the report directory gets index.html, results.json and points.csv.
 * Exit codes as `riodp sim`: 0 done, 2 the grid, a point or an option is invalid (one line per
 * problem), 1 a run or the writing failed (one line).
 */

export interface SweepFlags {
  readonly out?: string;
  readonly workers?: number;
  readonly json: boolean;
}

const DEFAULT_DIR = 'riodp-sweep';

function version(): string {
  // src/cli/sweep.ts and dist/cli/sweep.js both sit two folders below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

function fail(message: string): number {
  process.stderr.write(`riodp sweep: ${message.split('\n')[0] ?? ''}\n`);
  return 1;
}

function fixed(v: number | null, digits: number): string {
  return v !== null && Number.isFinite(v) ? v.toFixed(digits) : '-';
}

function summaryTable(grid: Grid, points: readonly SweepPoint[], metrics: readonly PointMetrics[], index: string, wallSeconds: number): string {
  const groups = metrics[0]?.groups.map((g) => g.name) ?? [];
  const header = ['point', ...groups.flatMap((g) => [`${g} Gbit/s`, `${g} fraction`]), 'CCPs', 'VoQ symbols'];
  const rows = points.map((p, i) => {
    const m = metrics[i];
    return [
      pointLabel(grid, p.variant, p.values),
      ...groups.flatMap((name) => {
        const g = m?.groups.find((x) => x.name === name);
        return g === undefined ? ['-', '-'] : [fixed(g.deliveredGbps, 3), fixed(g.deliveredFraction, 3)];
      }),
      String(m?.ccpsSent ?? '-'),
      String(m?.voqSymbols ?? '-'),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [`${grid.name}: ${points.length} point${points.length === 1 ? '' : 's'} in ${wallSeconds.toFixed(1)} s`, line(header), ...rows.map(line), `report: ${index}`, ''].join('\n');
}

export async function runSweep(file: string, flags: SweepFlags): Promise<number> {
  if (flags.workers !== undefined && flags.workers < 1) {
    process.stderr.write('riodp sweep: --workers: expected a positive integer\n');
    return 2;
  }
  let grid: Grid;
  let points: SweepPoint[];
  try {
    grid = loadGridFile(file);
    points = gridPoints(grid);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    for (const i of e.issues) process.stderr.write(`riodp sweep: ${file}: ${formatIssue(i)}\n`);
    return 2;
  }
  const dir = resolve(flags.out ?? DEFAULT_DIR);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    return fail(`cannot write the report to ${dir}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const workers = Math.min(flags.workers ?? availableParallelism(), points.length);
  const progress = new ProgressLine();
  const started = performance.now();
  let metrics: PointMetrics[];
  try {
    metrics = await runPoints(points, workers, (done) => { progress.show(`riodp sweep: ${done}/${points.length} points`); });
  } catch (e) {
    return fail(`the simulation stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    progress.clear();
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const results = sweepResults(grid, points, metrics);
  let written: string[];
  try {
    const { renderSweepReport } = await import('../report/html.ts');
    const { writeReport } = await import('../report/write.ts');
    const html = await renderSweepReport(sweepReport(grid, results, { generated: new Date().toISOString(), version: version() }));
    written = await writeReport(dir, html, { 'results.json': `${JSON.stringify(results, null, 2)}\n`, 'points.csv': pointsCsv(grid, results) });
  } catch (e) {
    return fail(`cannot write the report to ${dir}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const index = join(dir, 'index.html');
  process.stdout.write(
    flags.json ? `${JSON.stringify({ grid: grid.name, report: index, files: written, workers, wallSeconds, points: results.points })}\n` : summaryTable(grid, points, metrics, index, wallSeconds),
  );
  return 0;
}
