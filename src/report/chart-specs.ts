import type { TopLevelSpec } from 'vega-lite';
import { decimate } from './decimate.ts';
import type { LatencySummary, Series } from './types.ts';

/**
 * The vega-lite specifications behind the report's charts (issue 7 §5: throughput over time,
 * latency percentiles, buffer occupancy, XOFF activity; throughput-vs-load curves for a sweep).
 * User text (variant, series and flow-group names) only ever appears as data values under fixed
 * field names: vega-lite reads dots and brackets in a field *name* as nested access.
 */

/** Points kept per series after decimation (see decimate.ts). */
export const MAX_POINTS_PER_SERIES = 1000;

/** Width of one plot panel in pixels; the page is laid out for about 960 px of content. */
const PANEL_WIDTH = 600;
const PANEL_HEIGHT = 160;
/** Two latency panels side by side, plus the legend, fit the same width as one time panel. */
const LATENCY_PANEL_WIDTH = 360;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * System fonts only (the page loads no web fonts), white background so the charts read the same
 * in a dark-themed browser, and no chart-level interactivity: the SVG is a static picture.
 */
const CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  background: 'white',
  view: { stroke: '#d0d0d0' },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#ececec' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  header: { labelFontSize: 12, labelFontWeight: 'bold' as const, labelAnchor: 'start' as const },
};

export interface TimeRow {
  readonly variant: string;
  readonly series: string;
  readonly x: number;
  readonly y: number;
}

export interface TimeChartData {
  readonly rows: readonly TimeRow[];
  /** Variants in report order, only those with at least one point. */
  readonly variants: readonly string[];
  /** Series names in first-seen order: the colour domain, shared across the variant panels. */
  readonly series: readonly string[];
  /** Variants that have no point for this chart, named in its caption. */
  readonly missing: readonly string[];
  /** True when some series had more points than MAX_POINTS_PER_SERIES. */
  readonly decimated: boolean;
}

/** Appends " (2)", " (3)" … to repeated names so that facets and legends never merge them. */
export function uniqueLabels(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(names);
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n === 1) return name;
    let k = n;
    let label = `${name} (${k})`;
    while (taken.has(label)) label = `${name} (${++k})`;
    taken.add(label);
    return label;
  });
}

export function timeChartData(variants: readonly { readonly name: string; readonly series: readonly Series[] }[]): TimeChartData {
  const rows: TimeRow[] = [];
  const present: string[] = [];
  const missing: string[] = [];
  const seriesOrder: string[] = [];
  const seriesSeen = new Set<string>();
  let decimated = false;
  for (const v of variants) {
    const labels = uniqueLabels(v.series.map((s) => s.name));
    const before = rows.length;
    v.series.forEach((s, i) => {
      const series = labels[i] ?? s.name;
      const points = decimate(s.points, MAX_POINTS_PER_SERIES);
      if (points.length === 0) return;
      if (s.points.length > MAX_POINTS_PER_SERIES && points.length < s.points.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])).length) {
        decimated = true;
      }
      if (!seriesSeen.has(series)) {
        seriesSeen.add(series);
        seriesOrder.push(series);
      }
      for (const [x, y] of points) rows.push({ variant: v.name, series, x, y });
    });
    (rows.length > before ? present : missing).push(v.name);
  }
  return { rows, variants: present, series: seriesOrder, missing, decimated };
}

function colourScheme(n: number): 'tableau10' | 'tableau20' {
  return n > 10 ? 'tableau20' : 'tableau10';
}

/**
 * One panel per variant, stacked, sharing both axes so that the variants compare by eye: the
 * point of the built-in scenario is the same flows under three kinds of flow control.
 * `step` draws sampled counts (occupancy, XOFF'd flows) as the step functions they are.
 */
export function timeSeriesSpec(data: TimeChartData, yTitle: string, step: boolean, description: string): TopLevelSpec {
  return {
    $schema: SCHEMA,
    description,
    data: { values: data.rows.map((r) => ({ ...r })) },
    facet: {
      row: { field: 'variant', type: 'nominal', sort: [...data.variants], title: null, header: { labelOrient: 'top', labelAngle: 0, labelAlign: 'left' } },
    },
    spec: {
      width: PANEL_WIDTH,
      height: PANEL_HEIGHT,
      mark: { type: 'line', interpolate: step ? 'step-after' : 'linear', strokeWidth: 1.5, clip: true },
      encoding: {
        x: { field: 'x', type: 'quantitative', title: 'simulated time (µs)', scale: { zero: false, nice: false } },
        y: { field: 'y', type: 'quantitative', title: yTitle },
        color: {
          field: 'series',
          type: 'nominal',
          title: 'series',
          scale: { domain: [...data.series], scheme: colourScheme(data.series.length) },
        },
      },
    },
    resolve: { scale: { x: 'shared', y: 'shared' } },
    config: CONFIG,
  };
}

export interface LatencyRow {
  readonly group: string;
  readonly variant: string;
  readonly percentile: string;
  readonly latency: number;
}

export interface LatencyChartData {
  readonly rows: readonly LatencyRow[];
  readonly groups: readonly string[];
  readonly variants: readonly string[];
  /** Percentile labels ("p50", "p99.9") in ascending order. */
  readonly percentiles: readonly string[];
  readonly missing: readonly string[];
}

/** "50" → "p50"; a key that is not a number (say "max") is shown as it is. */
export function percentileLabel(key: string): string {
  return key.trim() !== '' && Number.isFinite(Number(key)) ? `p${key}` : key;
}

/** Numeric keys ascending, then any other key in first-seen order. */
export function sortPercentileKeys(keys: readonly string[]): string[] {
  const numeric = keys.filter((k) => k.trim() !== '' && Number.isFinite(Number(k)));
  const other = keys.filter((k) => !numeric.includes(k));
  return [...numeric.sort((a, b) => Number(a) - Number(b)), ...other];
}

export function latencyChartData(variants: readonly { readonly name: string; readonly latency: readonly LatencySummary[] }[]): LatencyChartData {
  const rows: LatencyRow[] = [];
  const groups: string[] = [];
  const present: string[] = [];
  const missing: string[] = [];
  const keys: string[] = [];
  for (const v of variants) {
    const labels = uniqueLabels(v.latency.map((l) => l.name));
    const before = rows.length;
    v.latency.forEach((l, i) => {
      const group = labels[i] ?? l.name;
      for (const [key, latency] of Object.entries(l.percentiles)) {
        if (!Number.isFinite(latency)) continue;
        if (!groups.includes(group)) groups.push(group);
        if (!keys.includes(key)) keys.push(key);
        rows.push({ group, variant: v.name, percentile: percentileLabel(key), latency });
      }
    });
    (rows.length > before ? present : missing).push(v.name);
  }
  return { rows, groups, variants: present, percentiles: sortPercentileKeys(keys).map(percentileLabel), missing };
}

/**
 * Grouped bars: percentiles along x, one bar per variant within each, one panel per flow group.
 * Each panel has its own latency scale because a hotspot's tail can be orders of magnitude above
 * the victims' and would flatten their bars to nothing on a shared one.
 */
export function latencySpec(data: LatencyChartData, description: string): TopLevelSpec {
  return {
    $schema: SCHEMA,
    description,
    data: { values: data.rows.map((r) => ({ ...r })) },
    facet: { field: 'group', type: 'nominal', sort: [...data.groups], title: null, header: { labelOrient: 'top' } },
    columns: Math.min(2, Math.max(1, data.groups.length)),
    spec: {
      width: LATENCY_PANEL_WIDTH,
      height: 180,
      mark: { type: 'bar' },
      encoding: {
        x: { field: 'percentile', type: 'ordinal', sort: [...data.percentiles], title: 'percentile', axis: { labelAngle: 0 } },
        xOffset: { field: 'variant', type: 'nominal', sort: [...data.variants] },
        y: { field: 'latency', type: 'quantitative', title: 'latency (ns)' },
        color: {
          field: 'variant',
          type: 'nominal',
          title: 'variant',
          scale: { domain: [...data.variants], scheme: colourScheme(data.variants.length) },
        },
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: CONFIG,
  };
}

export interface SweepRow {
  readonly series: string;
  readonly x: number;
  readonly y: number;
}

export interface SweepChartData {
  readonly rows: readonly SweepRow[];
  readonly series: readonly string[];
}

export function sweepChartData(curves: readonly Series[]): SweepChartData {
  const labels = uniqueLabels(curves.map((c) => c.name));
  const rows: SweepRow[] = [];
  const series: string[] = [];
  curves.forEach((c, i) => {
    const name = labels[i] ?? c.name;
    const points = decimate(c.points, MAX_POINTS_PER_SERIES);
    if (points.length === 0) return;
    series.push(name);
    for (const [x, y] of points) rows.push({ series: name, x, y });
  });
  return { rows, series };
}

/** A metric against the swept parameter: one line with point markers per curve. */
export function sweepSpec(data: SweepChartData, xTitle: string, yTitle: string, description: string): TopLevelSpec {
  return {
    $schema: SCHEMA,
    description,
    width: PANEL_WIDTH,
    height: 260,
    data: { values: data.rows.map((r) => ({ ...r })) },
    mark: { type: 'line', point: true, strokeWidth: 1.5 },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: xTitle, scale: { zero: false } },
      y: { field: 'y', type: 'quantitative', title: yTitle },
      color: { field: 'series', type: 'nominal', title: 'series', scale: { domain: [...data.series], scheme: colourScheme(data.series.length) } },
    },
    config: CONFIG,
  };
}
