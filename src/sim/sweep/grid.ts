import { dirname, resolve } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError, zodIssues } from '../../config/issues.ts';
import type { Issue } from '../../config/issues.ts';
import { checkSchema } from '../../config/load.ts';
import { parseYamlText, readTextFile, readYamlFile } from '../../config/yaml-input.ts';

/**
 * The grid file of `riodp sweep` (issue 7 §5: "a parameter grid (e.g. offered load x congestion
 * control on/off x watermark)"): a base scenario, inline or a path to a scenario file, and the
 * parameters to vary, each a dotted path into the scenario (`traffic.0.load`) with its list of
 * values, plus `variants`, which makes the scenario's own variants a dimension. Problems are
 * reported like a scenario's, one "path: expectation" line each (src/config/issues.ts).
 */

/** The pseudo-parameter naming the scenario's variants as a grid dimension. */
export const VARIANTS = 'variants';

/** A dotted path: mapping keys, with list indices as plain numbers (`traffic.0.load`). */
const PATH = /^[A-Za-z_][\w-]*(\.(\d+|[A-Za-z_][\w-]*))*$/;

const gridSchema = z.strictObject({
  name: z.string().min(1, { error: 'expected a non-empty name' }).optional(),
  scenario: z.union([z.string().min(1), z.record(z.string(), z.unknown())], { error: 'expected a scenario file path or an inline scenario mapping' }),
  x: z.string().optional(),
  parameters: z
    .record(z.string().regex(PATH, { error: 'expected a dotted path into the scenario (e.g. traffic.0.load) or "variants"' }), z.unknown())
    .refine((p) => Object.keys(p).length > 0, { error: 'expected at least one parameter' }),
});

const variantsValue = z.union([z.literal('all'), z.array(z.string().min(1)).min(1)], { error: 'expected "all" or a non-empty list of variant names' });
const valuesList = z.array(z.unknown(), { error: 'expected a non-empty list of values' }).min(1, { error: 'expected a non-empty list of values' });

/** A parameter swept by a grid: a scenario path and its values. */
export interface Parameter {
  /** Dotted path into the scenario. */
  readonly path: string;
  readonly values: readonly unknown[];
}

/** A parameter sweep (`riodp sweep`): a base scenario and the parameters whose combinations it runs. */
export interface Grid {
  readonly name: string;
  /** The grid file as the user wrote it, for the report. */
  readonly text: string;
  /** The base scenario without its variants, as parsed YAML. */
  readonly base: Readonly<Record<string, unknown>>;
  /** The variants the grid runs (name and overrides); one nameless entry when there are none. */
  readonly variants: readonly { readonly name: string; readonly overrides: unknown }[];
  /** True when the variants are a dimension of the grid (listed, or the scenario has some). */
  readonly variantDimension: boolean;
  readonly parameters: readonly Parameter[];
  /** The numeric parameter the report's curves are drawn against. */
  readonly x: string;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readBase(scenario: string | Record<string, unknown>, dir: string): Record<string, unknown> {
  if (typeof scenario !== 'string') return scenario;
  const path = resolve(dir, scenario);
  const raw = readYamlFile(path, 'scenario');
  if (!isMapping(raw)) throw new ConfigError([{ path: 'scenario', message: `expected ${path} to hold a scenario mapping` }]);
  return raw;
}

function allNumbers(values: readonly unknown[]): boolean {
  return values.every((v) => typeof v === 'number' && Number.isFinite(v));
}

function variantList(raw: unknown, wanted: 'all' | readonly string[] | undefined, issues: Issue[]): Grid['variants'] {
  const listed = Array.isArray(raw) ? raw.filter(isMapping).map((v) => ({ name: typeof v.name === 'string' ? v.name : '', overrides: v.overrides ?? {} })) : [];
  if (wanted === undefined || wanted === 'all') {
    if (wanted === 'all' && listed.length === 0) issues.push({ path: `parameters.${VARIANTS}`, message: 'expected a scenario with variants' });
    return listed.length === 0 ? [{ name: '', overrides: {} }] : listed;
  }
  const out: { name: string; overrides: unknown }[] = [];
  wanted.forEach((name, i) => {
    const v = listed.find((l) => l.name === name);
    if (v === undefined) issues.push({ path: `parameters.${VARIANTS}.${i}`, message: `expected one of the scenario's variants (${listed.map((l) => `"${l.name}"`).join(', ') || 'it has none'}), not "${name}"` });
    else out.push(v);
  });
  return out;
}

/**
 * Reads a grid from its text; `dir` resolves a scenario path (the grid file's folder).
 *
 * @example
 * ```ts
 * import { parseGrid } from 'riodp/sim';
 *
 * // A `riodp sweep` grid: offered load × switch architecture, over an inline scenario.
 * const grid = parseGrid(`
 * name: single switch, load sweep
 * scenario:
 *   name: single switch
 *   duration: 100us
 *   topology: { kind: switch, hosts: 4 }
 *   traffic: [{ pattern: uniform, load: 0.5 }]
 * parameters:
 *   traffic.0.load: [0.2, 0.5, 0.8]
 *   switch.queueing: [output-queued, input-fifo, input-voq]
 * `, '.'); // '.': the folder a `scenario: file.yaml` path would be read from
 * console.log(grid.parameters.map((p) => `${p.path} × ${p.values.length}`), grid.x); // [ 'traffic.0.load × 3', 'switch.queueing × 3' ] traffic.0.load: 9 runs, curves against the load
 * ```
 */
export function parseGrid(text: string, dir: string): Grid {
  const g = checkSchema(gridSchema, parseYamlText(text));
  const issues: Issue[] = [];
  let wantedVariants: 'all' | readonly string[] | undefined;
  const parameters: Parameter[] = [];
  for (const [path, value] of Object.entries(g.parameters)) {
    const schema = path === VARIANTS ? variantsValue : valuesList;
    const r = schema.safeParse(value);
    if (!r.success) issues.push(...zodIssues(r.error, ['parameters', path]));
    else if (path === VARIANTS) wantedVariants = r.data as 'all' | string[];
    else parameters.push({ path, values: r.data as unknown[] });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  const full = readBase(g.scenario, dir);
  const { variants: rawVariants, ...base } = full;
  const variants = variantList(rawVariants, wantedVariants, issues);
  const numeric = parameters.filter((p) => allNumbers(p.values)).map((p) => p.path);
  let x = numeric[0];
  if (g.x !== undefined) {
    if (numeric.includes(g.x)) x = g.x;
    else issues.push({ path: 'x', message: `expected a parameter whose values are all numbers (${numeric.join(', ') || 'the grid has none'})` });
  } else if (x === undefined) {
    issues.push({ path: 'parameters', message: 'expected a parameter whose values are all numbers, to draw the curves against' });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  const scenarioName = typeof base.name === 'string' ? base.name : 'scenario';
  return {
    name: g.name ?? `${scenarioName} sweep`,
    text,
    base,
    variants,
    variantDimension: wantedVariants !== undefined || variants.some((v) => v.name !== ''),
    parameters,
    x: x as string,
  };
}

/**
 * Reads a grid file; its scenario path is resolved against the file's folder.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { BUILTIN_SCENARIO_TEXT, loadGridFile } from 'riodp/sim';
 *
 * const dir = mkdtempSync(join(tmpdir(), 'riodp-'));
 * writeFileSync(join(dir, 'builtin.yaml'), BUILTIN_SCENARIO_TEXT);
 * writeFileSync(join(dir, 'sweep.yaml'), 'scenario: builtin.yaml\nparameters:\n  variants: all\n  traffic.0.load: [0.2, 0.6, 1.0]\n');
 * const grid = loadGridFile(join(dir, 'sweep.yaml')); // scenario: resolved against the grid file's folder
 * console.log(grid.name, grid.variants.length, grid.x); // two-stage hotspot sweep 3 traffic.0.load: 3 variants × 3 loads
 * ```
 */
export function loadGridFile(path: string): Grid {
  return parseGrid(readTextFile(path), dirname(resolve(path)));
}

/** A parameter value as a short label: scalars as they are, mappings and lists in YAML flow style. */
export function valueLabel(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v === null || v === undefined ? 'null' : stringifyYaml(v, { collectionStyle: 'flow' }).trim();
}
