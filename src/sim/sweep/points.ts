import { ConfigError, formatIssue } from '../../config/issues.ts';
import type { Issue } from '../../config/issues.ts';
import { parseScenario } from '../scenario/load.ts';
import { deepMerge } from '../scenario/merge.ts';
import type { Grid } from './grid.ts';
import { valueLabel } from './grid.ts';

/**
 * The grid's points (issue 7 §5 "a parameter grid … run in parallel"): the cartesian product of
 * the variants (when they are a dimension) and the parameters, in the grid file's order, the last
 * parameter varying fastest. Each point is a complete single-variant scenario, handed to a worker
 * as text, so a worker needs nothing from this thread but the string.
 *
 * Determinism: a point's seed is derived from its scenario's seed and its index alone, so the
 * results do not depend on which worker ran it or when.
 */

export interface SweepPoint {
  readonly index: number;
  /** The variant's name, '' when the scenario has no variants. */
  readonly variant: string;
  /** Parameter path → the value this point sets. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /** The point's scenario as YAML (JSON) text, for parseScenario. */
  readonly text: string;
}

/** The scenario schema's default seed (scenario/schema.ts). */
const DEFAULT_SEED = 1;

/** A 32-bit integer hash (the murmur3 finaliser) of the scenario seed and the point index. */
export function pointSeed(seed: number, index: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone(v: unknown): unknown {
  return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
}

/**
 * Sets `path` in `doc`. A missing mapping on the way is created (so `switch.congestion` works on a
 * scenario with no `switch`); a list index must name an existing entry, since a new entry would
 * be a partial traffic or override entry the user did not write.
 */
function setPath(doc: Record<string, unknown>, path: string, value: unknown): string | undefined {
  const keys = path.split('.');
  let at: unknown = doc;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const last = i === keys.length - 1;
    const where = keys.slice(0, i).join('.') || 'the scenario';
    if (Array.isArray(at)) {
      const n = /^\d+$/.test(key) ? Number(key) : -1;
      if (n < 0 || n >= at.length) return `expected an index below ${at.length} into ${where}, not "${key}"`;
      if (last) at[n] = clone(value);
      else at = at[n];
    } else if (isMapping(at)) {
      if (last) at[key] = clone(value);
      else {
        if (at[key] === undefined || at[key] === null) at[key] = {};
        at = at[key];
      }
    } else {
      return `expected ${where} to be a mapping or a list, not ${valueLabel(at)}`;
    }
  }
  return undefined;
}

function product(grid: Grid): { variant: Grid['variants'][number]; values: Record<string, unknown> }[] {
  let rows: { variant: Grid['variants'][number]; values: Record<string, unknown> }[] = grid.variants.map((variant) => ({ variant, values: {} }));
  for (const p of grid.parameters) rows = rows.flatMap((r) => p.values.map((v) => ({ variant: r.variant, values: { ...r.values, [p.path]: v } })));
  return rows;
}

/**
 * Every point, each checked as a scenario (scenario/load.ts). A problem is reported once, for the
 * first point that has it, as `point <i> (<values>): <path>: <expectation>`.
 */
export function gridPoints(grid: Grid): SweepPoint[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  const points = product(grid).map(({ variant, values }, index) => {
    const doc = deepMerge(clone(grid.base), clone(variant.overrides)) as Record<string, unknown>;
    const where = `point ${index} (${pointLabel(grid, variant.name, values)})`;
    for (const [path, value] of Object.entries(values)) {
      const problem = setPath(doc, path, value);
      if (problem !== undefined && !seen.has(`parameters.${path}: ${problem}`)) {
        seen.add(`parameters.${path}: ${problem}`);
        issues.push({ path: `parameters.${path}`, message: `${where}: ${problem}` });
      }
    }
    // A point is one run: replications (riodp sim) would run and their intervals go nowhere.
    const reps = 'replications: expected none or 1 in a sweep (a point is one run with its own seed; riodp sim reports replications)';
    if (typeof doc.replications === 'number' && doc.replications > 1 && !seen.has(reps)) {
      seen.add(reps);
      issues.push({ path: where, message: reps });
    }
    const seed = pointSeed(typeof doc.seed === 'number' ? doc.seed : DEFAULT_SEED, index);
    doc.seed = seed;
    if (variant.name !== '') doc.name = `${typeof doc.name === 'string' ? doc.name : 'scenario'} · ${variant.name}`;
    const text = JSON.stringify(doc);
    try {
      parseScenario(text);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      for (const i of e.issues) {
        const line = formatIssue(i);
        if (seen.has(line)) continue;
        seen.add(line);
        issues.push({ path: where, message: line });
      }
    }
    return { index, variant: variant.name, values, seed, text };
  });
  if (issues.length > 0) throw new ConfigError(issues);
  return points;
}

/** "Part 9 · traffic.0.load=0.4": the point's variant and parameter values. */
export function pointLabel(grid: Pick<Grid, 'parameters'>, variant: string, values: Readonly<Record<string, unknown>>, skip?: string): string {
  const parts = variant === '' ? [] : [variant];
  for (const p of grid.parameters) if (p.path !== skip) parts.push(`${p.path}=${valueLabel(values[p.path])}`);
  return parts.join(' · ');
}
