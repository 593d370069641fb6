import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { curvesCsv } from '../sim/sweep/curves.ts';
import { pointsCsv, resultsOf, sweepReport } from '../sim/sweep/output.ts';
import type { PointResult, SweepResults } from '../sim/sweep/output.ts';
import { pointLabel } from '../sim/sweep/points.ts';
import type { GridShape } from '../sim/sweep/unit.ts';

/**
 * What `riodp sweep` writes and prints once the point results are in, shared by a local run and
 * `--merge` (issue 21 item 1), so both give the same report directory from the same results.
 */

export function riodpVersion(): string {
  // src/cli/ and dist/cli/ both sit two folders below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** One line on stderr, exit `code`. */
export function sweepError(message: string, code = 1): number {
  process.stderr.write(`riodp sweep: ${message.split('\n')[0] ?? ''}\n`);
  return code;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function fixed(v: number | null, digits: number): string {
  return v !== null && Number.isFinite(v) ? v.toFixed(digits) : '-';
}

/** `title` above one row per point: its label, each group's Gbit/s and fraction, CCPs, VoQ symbols; the report path below. */
export function summaryTable(grid: GridShape, points: readonly PointResult[], index: string, title: string): string {
  const groups = points[0]?.groups.map((g) => g.name) ?? [];
  const header = ['point', ...groups.flatMap((g) => [`${g} Gbit/s`, `${g} fraction`]), 'CCPs', 'VoQ symbols'];
  const rows = points.map((p) => [
    pointLabel(grid, p.variant, p.values),
    ...groups.flatMap((name) => {
      const g = p.groups.find((x) => x.name === name);
      return g === undefined ? ['-', '-'] : [fixed(g.deliveredGbps, 3), fixed(g.deliveredFraction, 3)];
    }),
    String(p.ccpsSent),
    String(p.voqSymbols),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [title, line(header), ...rows.map(line), `report: ${index}`, ''].join('\n');
}

/** Writes index.html, results.json, points.csv and curves.csv into `dir`; returns the results and the paths written. */
export async function writeSweep(dir: string, grid: GridShape, points: readonly PointResult[]): Promise<{ results: SweepResults; written: string[]; index: string }> {
  const results = resultsOf(grid, points);
  const { renderSweepReport } = await import('../report/html.ts');
  const { writeReport } = await import('../report/write.ts');
  const html = await renderSweepReport(sweepReport(grid, results, { generated: new Date().toISOString(), version: riodpVersion() }));
  const written = await writeReport(dir, html, { 'results.json': `${JSON.stringify(results, null, 2)}\n`, 'points.csv': pointsCsv(grid, results), 'curves.csv': curvesCsv(grid, results) });
  return { results, written, index: join(dir, 'index.html') };
}
