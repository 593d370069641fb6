import { toCsv } from '../results/csv.ts';
import { valueLabel } from './grid.ts';
import type { SweepResults } from './output.ts';
import { pointLabel } from './points.ts';
import type { GridShape } from './unit.ts';

/**
 * curves.csv (issue 21 item 2 "latency–load curves … accepted vs offered load, and the saturation
 * point detected and marked; CSV output that sits next to BookSim2's (offered, accepted, latency
 * columns)"): one row per (variant, flow group, grid point), a curve being one variant, one group
 * and one combination of the parameters other than x, its rows in offered-load order.
 *
 * Offered load is the group's per-source `load` (a fraction of the source's link, as BookSim2's
 * injection rate is a fraction of a node's channel); accepted load is offered × delivered
 * fraction, in the same unit, since delivered and offered payload share the sizes and framing.
 * The warm-up is the scenario's `warmup`: latency and loads are measured after it.
 */

/** A point is saturated when it accepts less than offered × (1 − ε)… */
export const SATURATION_EPSILON = 0.02;
/** …or its mean latency exceeds this many times its curve's zero-load latency (the lowest-load point's mean). */
export const SATURATION_LATENCY_FACTOR = 10;

export interface CurvePoint {
  readonly offered: number | null;
  readonly accepted: number | null;
  /** Mean packet latency, ns. */
  readonly latency: number | null;
}

/**
 * The saturated points of one curve, its points in offered-load order. Nothing delivered under a
 * non-zero offered load is saturated by the accepted rule; with no latency at the lowest-load
 * point the latency rule does not apply.
 */
export function saturatedPoints(curve: readonly CurvePoint[]): boolean[] {
  const zeroLoad = curve[0]?.latency ?? null;
  return curve.map((p) => {
    if (p.offered !== null && p.offered > 0 && (p.accepted ?? 0) < p.offered * (1 - SATURATION_EPSILON)) return true;
    return zeroLoad !== null && zeroLoad > 0 && p.latency !== null && p.latency > SATURATION_LATENCY_FACTOR * zeroLoad;
  });
}

interface Row extends CurvePoint {
  readonly key: readonly number[];
  readonly cells: readonly (string | number | null)[];
  readonly p99: number | null;
}

/** curves.csv: the BookSim2-like columns after the variant, group, parameters and point index. */
export function curvesCsv(grid: GridShape, r: SweepResults): string {
  const variants: string[] = [];
  const groups: string[] = [];
  const others: string[] = [];
  const indexOf = (list: string[], v: string): number => {
    if (!list.includes(v)) list.push(v);
    return list.indexOf(v);
  };
  const curves = new Map<string, Row[]>();
  for (const p of r.points) {
    const variant = indexOf(variants, p.variant);
    const other = indexOf(others, pointLabel(grid, '', p.values, grid.x));
    const x = p.values[grid.x];
    for (const g of p.groups) {
      const offered = g.offeredLoad;
      const accepted = offered === null ? null : offered * g.deliveredFraction;
      const cells = [
        ...(grid.variantDimension ? [p.variant] : []),
        g.name,
        ...grid.parameters.map((d) => {
          const v = p.values[d.path];
          return typeof v === 'number' ? v : valueLabel(v);
        }),
        p.index,
      ];
      const key = [variant, indexOf(groups, g.name), other, offered ?? -1, typeof x === 'number' ? x : 0, p.index];
      const row: Row = { key, cells, offered, accepted, latency: g.meanLatencyNs, p99: g.p99LatencyNs };
      const id = `${variant} ${key[1]} ${other}`;
      curves.set(id, [...(curves.get(id) ?? []), row]);
    }
  }
  const rows: (readonly (string | number | null)[])[] = [];
  const order = (a: Row, b: Row): number => {
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return (a.key[i] ?? 0) - (b.key[i] ?? 0);
    return 0;
  };
  for (const curve of [...curves.values()].sort((a, b) => order(a[0] as Row, b[0] as Row))) {
    curve.sort(order);
    const saturated = saturatedPoints(curve);
    curve.forEach((row, i) => rows.push([...row.cells, row.offered, row.accepted, row.latency, row.p99, saturated[i] === true ? 'true' : 'false']));
  }
  const header = [...(grid.variantDimension ? ['variant'] : []), 'group', ...grid.parameters.map((d) => d.path), 'point', 'offered', 'accepted', 'latency', 'p99_latency', 'saturated'];
  return toCsv(header, rows);
}
