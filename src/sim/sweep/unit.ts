import { createHash } from 'node:crypto';
import { z } from 'zod';
import { zodIssues, formatIssue } from '../../config/issues.ts';
import type { Grid } from './grid.ts';
import type { PointMetrics } from './metrics.ts';
import type { PointResult } from './output.ts';
import type { SweepPoint } from './points.ts';

/**
 * Grid points as self-contained units (issue 21 item 1: a grid run outside one machine). A point
 * file holds what running the point needs (its scenario with the derived seed) and what merging
 * needs (the grid's shape: name, text, x, dimensions); a result file is the point result the
 * local sweep computes plus the same grid shape. Both carry the grid's identity, a hash of the
 * shape and of every point's scenario text, so results of another grid (or of the same file
 * after an edit of its scenario) cannot be merged by mistake.
 *
 * Both are plain JSON: a value goes through JSON on its way between machines, and the local
 * sweep sends its results through the same round trip (`viaJson`) so a merge writes the same
 * bytes as a local run.
 */

export const POINT_FORMAT = 'riodp-sweep-point/1';
export const RESULT_FORMAT = 'riodp-sweep-result/1';

/** What the report, results.json and points.csv need of a grid, without its scenario. */
export interface GridShape {
  readonly name: string;
  readonly text: string;
  readonly x: string;
  readonly variantDimension: boolean;
  readonly variants: readonly { readonly name: string }[];
  readonly parameters: readonly { readonly path: string; readonly values: readonly unknown[] }[];
}

/** The grid shape of a point or result file, with the grid's identity and point count. */
export interface GridIdentity extends GridShape {
  /** sha256 (hex, 16 digits) of the shape and the scenario text of every point. */
  readonly id: string;
  readonly points: number;
}

export interface PointFile {
  readonly format: typeof POINT_FORMAT;
  /** The riodp version that wrote the file. */
  readonly riodp: string;
  readonly grid: GridIdentity;
  readonly index: number;
  readonly variant: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /** The point's complete scenario (single variant, derived seed), as parsed JSON. */
  readonly scenario: Readonly<Record<string, unknown>>;
}

export type ResultFile = PointResult & { readonly format: typeof RESULT_FORMAT; readonly riodp: string; readonly grid: GridIdentity };

/** A JSON round trip: what a value becomes once written to a file and read back. */
export function viaJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function gridIdentity(grid: Grid, points: readonly SweepPoint[]): GridIdentity {
  const shape: GridShape = {
    name: grid.name,
    text: grid.text,
    x: grid.x,
    variantDimension: grid.variantDimension,
    variants: grid.variants.map((v) => ({ name: v.name })),
    parameters: grid.parameters.map((p) => ({ path: p.path, values: p.values })),
  };
  const hash = createHash('sha256').update(JSON.stringify(shape));
  for (const p of points) hash.update('\n').update(p.text);
  return viaJson({ id: hash.digest('hex').slice(0, 16), points: points.length, ...shape });
}

/** `point-0007`: zero-padded to at least 4 digits and to the widest index, so names sort in point order. */
export function pointStem(index: number, count: number): string {
  return `point-${String(index).padStart(Math.max(4, String(Math.max(0, count - 1)).length), '0')}`;
}

export function pointFile(identity: GridIdentity, point: SweepPoint, riodp: string): PointFile {
  return {
    format: POINT_FORMAT,
    riodp,
    grid: identity,
    index: point.index,
    variant: point.variant,
    values: viaJson(point.values),
    seed: point.seed,
    scenario: JSON.parse(point.text) as Record<string, unknown>,
  };
}

/** The point as the local sweep holds it: the scenario text is the JSON the local sweep hands its workers. */
export function pointOfFile(f: PointFile): SweepPoint {
  return { index: f.index, variant: f.variant, values: f.values, seed: f.seed, text: JSON.stringify(f.scenario) };
}

export function resultFile(identity: GridIdentity, point: SweepPoint, metrics: PointMetrics, riodp: string): ResultFile {
  return viaJson({ format: RESULT_FORMAT, riodp, grid: identity, index: point.index, variant: point.variant, values: point.values, seed: point.seed, ...metrics });
}

/** The result object of results.json: the result file without its format, version and grid. */
export function pointResultOf(f: ResultFile): PointResult {
  // Every other field, in the file's order: a metric added to PointMetrics comes along.
  return Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'format' && k !== 'riodp' && k !== 'grid')) as unknown as PointResult;
}

const shapeSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/, { error: 'expected 16 hex digits' }),
  points: z.number().int().positive(),
  name: z.string(),
  text: z.string(),
  x: z.string(),
  variantDimension: z.boolean(),
  variants: z.array(z.object({ name: z.string() })),
  parameters: z.array(z.object({ path: z.string(), values: z.array(z.unknown()) })),
});

const common = {
  riodp: z.string(),
  grid: shapeSchema,
  index: z.number().int().nonnegative(),
  variant: z.string(),
  values: z.record(z.string(), z.unknown()),
  seed: z.number().int().nonnegative(),
};

const pointSchema = z.object({ format: z.literal(POINT_FORMAT), ...common, scenario: z.record(z.string(), z.unknown()) });

const groupSchema = z.object({ name: z.string(), offeredGbps: z.number(), deliveredGbps: z.number(), deliveredFraction: z.number().nullable(), p99LatencyNs: z.number().nullable(), meanLatencyNs: z.number().nullable(), offeredLoad: z.number().nullable() });

const resultSchema = z.object({
  format: z.literal(RESULT_FORMAT),
  ...common,
  groups: z.array(groupSchema),
  ccpsSent: z.number(),
  voqSymbols: z.number(),
  events: z.number(),
});

/**
 * Checks a point or result file's JSON; a problem is one line: the first bad field, or that the
 * file is the other kind. The zod objects are not strict: only the checked fields are returned,
 * and the file is kept as it was written (`value`), so the round trip adds nothing.
 */
function check(text: string, want: typeof POINT_FORMAT | typeof RESULT_FORMAT, schema: z.ZodType): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  const format = typeof value === 'object' && value !== null ? (value as { format?: unknown }).format : undefined;
  if (format !== want) {
    if (format === POINT_FORMAT) return 'a sweep point, not its result (run it with riodp sweep --run-point FILE)';
    if (format === RESULT_FORMAT) return 'a point result, not a point (merge it with riodp sweep --merge DIR)';
    return `not a sweep ${want === POINT_FORMAT ? 'point' : 'point result'} (expected "format": "${want}")`;
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const first = zodIssues(r.error)[0];
    return first === undefined ? 'invalid' : formatIssue(first);
  }
  const v = value as { index: number; grid: GridIdentity };
  if (v.index >= v.grid.points) return `index: expected below the grid's ${v.grid.points} points, not ${v.index}`;
  return value;
}

export function parsePointFile(text: string): PointFile | string {
  return check(text, POINT_FORMAT, pointSchema) as PointFile | string;
}

export function parseResultFile(text: string): ResultFile | string {
  return check(text, RESULT_FORMAT, resultSchema) as ResultFile | string;
}
