import type { TopLevelSpec } from 'vega-lite';
import {
  latencyChartData,
  latencySpec,
  sweepChartData,
  sweepSpec,
  timeChartData,
  timeSeriesSpec,
  uniqueLabels,
  MAX_POINTS_PER_SERIES,
} from './chart-specs.ts';
import type { TimeChartData } from './chart-specs.ts';
import { formatNumber } from './format.ts';
import type { Series, SimReport, SweepReport, VariantResult } from './types.ts';
import { renderVegaLite } from './vega-svg.ts';

/**
 * Which charts a report shows and what each says in words (caption and alt text), then their
 * SVGs. Planning is synchronous and pure; only rendering goes through vega's asynchronous API.
 */

export interface ChartPlan {
  /** Anchor in the page and prefix of the SVG's internal ids. */
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  /** The chart in one or two sentences for a reader who cannot see it (the SVG's aria-label). */
  readonly alt: string;
  readonly spec: TopLevelSpec;
}

export interface Chart extends Omit<ChartPlan, 'spec'> {
  readonly svg: string;
  readonly warnings: readonly string[];
}

/** A chart the report would show if the run had produced its data, with the reason it has not. */
export interface OmittedChart {
  readonly id: string;
  readonly title: string;
  readonly reason: string;
}

export interface ChartPlans {
  readonly plans: readonly ChartPlan[];
  readonly omitted: readonly OmittedChart[];
}

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

function quoted(items: readonly string[]): string {
  return listText(items.map((s) => `“${s}”`));
}

function range(values: readonly number[]): string {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return `${formatNumber(lo)} to ${formatNumber(hi)}`;
}

interface TimeChartKind {
  readonly id: string;
  readonly title: string;
  readonly quantity: string;
  readonly unit: string;
  /** Short enough to fit along a panel's height. */
  readonly yTitle: string;
  readonly step: boolean;
  readonly what: string;
  readonly pick: (v: VariantResult) => readonly Series[];
}

/** issue 7 §5: "throughput over time, latency percentiles, buffer occupancy, XOFF activity". */
const TIME_CHARTS: readonly TimeChartKind[] = [
  {
    id: 'throughput',
    title: 'Throughput over time',
    quantity: 'delivered throughput',
    unit: 'Gbit/s',
    yTitle: 'throughput (Gbit/s)',
    step: false,
    what: 'Delivered throughput per flow group over simulated time',
    pick: (v) => v.throughput,
  },
  {
    id: 'occupancy',
    title: 'Buffer occupancy over time',
    quantity: 'buffer occupancy',
    unit: 'packets',
    yTitle: 'occupancy (packets)',
    step: true,
    what: 'Buffer occupancy over simulated time',
    pick: (v) => v.occupancy,
  },
  {
    id: 'xoff',
    title: 'XOFF activity over time',
    quantity: 'XOFF activity',
    unit: 'flows or symbols',
    yTitle: 'XOFF activity',
    step: true,
    what: 'Congestion control activity (XOFF’d flows, CCP and VoQ symbols) over simulated time',
    pick: (v) => v.xoff,
  },
];

function timeCaption(kind: TimeChartKind, data: TimeChartData): string {
  let caption = `${kind.what}: one panel per variant, one line per series, axes shared so the panels compare directly.`;
  if (data.missing.length > 0) caption += ` No data for ${quoted(data.missing)}.`;
  if (data.decimated) caption += ` Long series are reduced to ${MAX_POINTS_PER_SERIES} points, keeping each interval’s lowest and highest value.`;
  return caption;
}

function timeAlt(kind: TimeChartKind, data: TimeChartData): string {
  return (
    `Line charts of ${kind.quantity} (${kind.unit}) against simulated time (µs), one per variant: ${quoted(data.variants)}; ` +
    `series ${quoted(data.series)}; values from ${range(data.rows.map((r) => r.y))} ${kind.unit}.` +
    (data.missing.length > 0 ? ` No data for ${quoted(data.missing)}.` : '')
  );
}

function variantsWithUniqueNames(variants: readonly VariantResult[]): VariantResult[] {
  const names = uniqueLabels(variants.map((v) => v.name));
  return variants.map((v, i) => ({ ...v, name: names[i] ?? v.name }));
}

export function simChartPlans(r: SimReport): ChartPlans {
  const variants = variantsWithUniqueNames(r.variants);
  const plans: ChartPlan[] = [];
  const omitted: OmittedChart[] = [];
  const noData = (id: string, title: string, what: string): void => {
    omitted.push({ id, title, reason: `No variant recorded ${what}.` });
  };

  const [throughput, occupancy, xoff] = TIME_CHARTS.map((kind) => {
    const data = timeChartData(variants.map((v) => ({ name: v.name, series: kind.pick(v) })));
    if (data.rows.length === 0) {
      noData(kind.id, kind.title, kind.quantity);
      return undefined;
    }
    const alt = timeAlt(kind, data);
    return { id: kind.id, title: kind.title, caption: timeCaption(kind, data), alt, spec: timeSeriesSpec(data, kind.yTitle, kind.step, alt) };
  });
  if (throughput !== undefined) plans.push(throughput);

  const latency = latencyChartData(variants);
  if (latency.rows.length === 0) {
    noData('latency', 'Latency percentiles', 'latency percentiles');
  } else {
    const alt =
      `Grouped bar charts of latency (ns) at percentiles ${listText(latency.percentiles)}, one per flow group: ${quoted(latency.groups)}; ` +
      `one bar per variant: ${quoted(latency.variants)}; latencies from ${range(latency.rows.map((row) => row.latency))} ns.` +
      (latency.missing.length > 0 ? ` No data for ${quoted(latency.missing)}.` : '');
    let caption = 'Latency percentiles per flow group: one bar per variant at each percentile; each panel has its own latency scale.';
    if (latency.missing.length > 0) caption += ` No latency data for ${quoted(latency.missing)}.`;
    plans.push({ id: 'latency', title: 'Latency percentiles', caption, alt, spec: latencySpec(latency, alt) });
  }

  if (occupancy !== undefined) plans.push(occupancy);
  if (xoff !== undefined) plans.push(xoff);
  return { plans, omitted };
}

export function sweepChartPlans(r: SweepReport): ChartPlans {
  const plans: ChartPlan[] = [];
  const omitted: OmittedChart[] = [];
  const metrics = uniqueLabels(r.charts.map((c) => c.metric));
  r.charts.forEach((c, i) => {
    const metric = metrics[i] ?? c.metric;
    const id = `sweep-${i + 1}`;
    const title = `${metric} vs ${r.xLabel}`;
    const data = sweepChartData(c.curves);
    if (data.rows.length === 0) {
      omitted.push({ id, title, reason: 'No grid point produced this metric.' });
      return;
    }
    const alt =
      `Line chart of ${metric} against ${r.xLabel}, one line per series: ${quoted(data.series)}; ` +
      `${r.xLabel} from ${range(data.rows.map((row) => row.x))}, ${metric} from ${range(data.rows.map((row) => row.y))}.`;
    const caption = `${metric} at each value of ${r.xLabel}, one line per series; each marker is one grid point.`;
    plans.push({ id, title, caption, alt, spec: sweepSpec(data, r.xLabel, metric, alt) });
  });
  return { plans, omitted };
}

/**
 * One chart after the other: vega's SVG id counters are global, and although renderVegaLite
 * renumbers them, rendering sequentially also keeps peak memory to one chart's scenegraph.
 */
export async function renderCharts(plans: readonly ChartPlan[]): Promise<Chart[]> {
  const out: Chart[] = [];
  for (const { spec, ...plan } of plans) {
    const { svg, warnings } = await renderVegaLite(spec, `chart-${plan.id}`);
    out.push({ ...plan, svg, warnings });
  }
  return out;
}
