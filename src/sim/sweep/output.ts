import type { Series, SweepReport } from '../../report/types.ts';
import { toCsv } from '../results/csv.ts';
import { valueLabel } from './grid.ts';
import type { GroupMetrics, PointMetrics } from './metrics.ts';
import { pointLabel } from './points.ts';
import type { SweepPoint } from './points.ts';
import type { GridShape } from './unit.ts';

/**
 * What `riodp sweep` writes (issue 7 §5 "one report with throughput-vs-load curves"):
 * results.json (the grid and every point with its metrics), points.csv (one row per point) and
 * the report's data: per flow group, throughput, fraction of offered and p99 latency against the
 * x parameter, one curve per combination of the other dimensions. Nothing here depends on the
 * wall clock, on the worker count or on where the points ran: a merge of point results run
 * elsewhere (merge.ts) goes through `resultsOf` as the local run does.
 */

export interface PointResult extends PointMetrics {
  readonly index: number;
  readonly variant: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly seed: number;
}

export interface SweepResults {
  readonly grid: string;
  readonly x: string;
  readonly dimensions: readonly { readonly name: string; readonly values: readonly unknown[] }[];
  readonly points: readonly PointResult[];
}

/** results.json from the grid and its point results, in point order. */
export function resultsOf(grid: GridShape, points: readonly PointResult[]): SweepResults {
  const dimensions = grid.parameters.map((p) => ({ name: p.path, values: p.values }));
  if (grid.variantDimension) dimensions.unshift({ name: 'variants', values: grid.variants.map((v) => v.name) });
  return { grid: grid.name, x: grid.x, dimensions, points };
}

export function sweepResults(grid: GridShape, points: readonly SweepPoint[], metrics: readonly PointMetrics[]): SweepResults {
  return resultsOf(grid, points.map((p, i) => ({ index: p.index, variant: p.variant, values: p.values, seed: p.seed, ...(metrics[i] as PointMetrics) })));
}

function groupNames(r: SweepResults): string[] {
  const names: string[] = [];
  for (const p of r.points) for (const g of p.groups) if (!names.includes(g.name)) names.push(g.name);
  return names;
}

const GROUP_COLUMNS: readonly { readonly suffix: string; readonly pick: (g: GroupMetrics) => number | null }[] = [
  { suffix: 'offered Gbit/s', pick: (g) => g.offeredGbps },
  { suffix: 'Gbit/s', pick: (g) => g.deliveredGbps },
  { suffix: 'fraction of offered', pick: (g) => g.deliveredFraction },
  { suffix: 'p99 ns', pick: (g) => g.p99LatencyNs },
];

/** The point table shared by points.csv and the report: label → value. */
export function pointRows(grid: GridShape, r: SweepResults): Record<string, number | string>[] {
  const groups = groupNames(r);
  return r.points.map((p) => {
    const row: Record<string, number | string> = { point: p.index };
    if (grid.variantDimension) row.variant = p.variant;
    for (const d of grid.parameters) {
      const v = p.values[d.path];
      row[d.path] = typeof v === 'number' ? v : valueLabel(v);
    }
    row.seed = p.seed;
    for (const name of groups) {
      const g = p.groups.find((x) => x.name === name);
      for (const c of GROUP_COLUMNS) row[`${name} ${c.suffix}`] = g === undefined ? '' : (c.pick(g) ?? '');
    }
    row.CCPs = p.ccpsSent;
    row['VoQ symbols'] = p.voqSymbols;
    return row;
  });
}

export function pointsCsv(grid: GridShape, r: SweepResults): string {
  const rows = pointRows(grid, r);
  const header = Object.keys(rows[0] ?? {});
  return toCsv(header, rows.map((row) => header.map((k) => row[k] ?? '')));
}

const METRICS: readonly { readonly title: string; readonly pick: (g: GroupMetrics) => number | null }[] = [
  { title: 'throughput (Gbit/s)', pick: (g) => g.deliveredGbps },
  { title: 'throughput (fraction of offered)', pick: (g) => g.deliveredFraction },
  { title: 'p99 latency (ns)', pick: (g) => g.p99LatencyNs },
];

/** Per flow group and metric, one curve per combination of every dimension but x, points in x order. */
export function sweepCharts(grid: GridShape, r: SweepResults): SweepReport['charts'] {
  const curveOf = (p: PointResult): string => pointLabel(grid, p.variant, p.values, grid.x) || 'all points';
  const curves = [...new Set(r.points.map(curveOf))];
  return groupNames(r).flatMap((group) =>
    METRICS.map((m) => ({
      metric: `${group} ${m.title}`,
      curves: curves.map((name): Series => {
        const pts: [number, number][] = [];
        for (const p of r.points) {
          if (curveOf(p) !== name) continue;
          const g = p.groups.find((x) => x.name === group);
          const y = g === undefined ? null : m.pick(g);
          if (y !== null && Number.isFinite(y)) pts.push([p.values[grid.x] as number, y]);
        }
        return { name, points: pts.sort((a, b) => a[0] - b[0]) };
      }),
    })),
  );
}

export function sweepReport(grid: GridShape, r: SweepResults, meta: { generated: string; version: string }): SweepReport {
  return {
    title: grid.name,
    generated: meta.generated,
    riodpVersion: meta.version,
    gridText: grid.text,
    xLabel: grid.x,
    charts: sweepCharts(grid, r),
    points: pointRows(grid, r),
  };
}
