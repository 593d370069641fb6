import { ConfigError, zodIssues } from '../../config/issues.ts';
import type { Issue } from '../../config/issues.ts';
import { parseYamlText, readTextFile } from '../../config/yaml-input.ts';
import { buildTopology } from '../topology/index.ts';
import type { Fabric } from '../topology/types.ts';
import { deepMerge } from './merge.ts';
import { runSchema, variantSchema } from './schema.ts';
import type { RunConfig } from './schema.ts';
import { checkAgainstFabric } from './semantic.ts';

/**
 * Reading a scenario (issue 7 §3): YAML text → the base run and its variants, each validated in
 * full and with its topology built. Every problem is collected before refusing, so one attempt
 * lists every bad field ("path: expectation").
 *
 * Variant paths. A variant's merged scenario is checked like the base; a problem there is
 * reported under `variants.<i>.overrides.<path>`, unless the base has the same problem at
 * `<path>` (then it is reported once, for the base).
 */

/** One variant of a scenario: its merged, checked configuration and its fabric. */
export interface ScenarioVariant {
  readonly name: string;
  readonly config: RunConfig;
  readonly fabric: Fabric;
}

/** A scenario, checked in full: its variants, each ready to run. */
export interface Scenario {
  readonly name: string;
  /** The file as the user wrote it, for the report. */
  readonly text: string;
  readonly variants: readonly ScenarioVariant[];
}

/** What changes every variant after validation: the CLI's --seed and --out. */
export interface ScenarioOverrides {
  readonly seed?: number;
  readonly dir?: string;
}

function checkRun(raw: unknown): { config: RunConfig; fabric: Fabric } | { issues: Issue[] } {
  const r = runSchema.safeParse(raw);
  if (!r.success) return { issues: zodIssues(r.error) };
  let fabric: Fabric;
  try {
    fabric = buildTopology(r.data.topology);
  } catch (e) {
    return { issues: [{ path: 'topology', message: e instanceof Error ? e.message.replace(/^topology(\.|: )/, '') : String(e) }] };
  }
  const issues = checkAgainstFabric(r.data, fabric);
  return issues.length > 0 ? { issues } : { config: r.data, fabric };
}

/**
 * Reads a scenario from its YAML text; a ConfigError lists every bad field (`path: expectation`).
 *
 * @example
 * ```ts
 * import { parseScenario } from 'riodp/sim';
 *
 * // The YAML `riodp sim` reads (docs/simulator.md): an incast on a 4-host switch, without and with Part 9 XON/XOFF.
 * const scenario = parseScenario(`
 * name: incast
 * duration: 20us
 * topology: { kind: switch, hosts: 4 }
 * switch: { speedup: 4, outputBuffer: { packets: 16 } }
 * traffic: [{ pattern: incast, sink: 0, sources: [1, 2, 3], load: 0.9 }]
 * variants:
 *   - { name: no control, overrides: {} }
 *   - { name: Part 9 XON/XOFF, overrides: { switch: { congestion: { highWatermark: 8, lowWatermark: 4 } } } }
 * `);
 * const [, xonXoff] = scenario.variants;                        // each variant checked in full, its fabric built
 * console.log(xonXoff?.config.switch.congestion, xonXoff?.config.link); // { highWatermark: 8, lowWatermark: 4 } { lanes: 4, baud: 3.125, encoding: '8b10b', propagation: 0 }
 * ```
 */
export function parseScenario(text: string): Scenario {
  const raw = parseYamlText(text);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError([{ path: '', message: 'expected a scenario mapping' }]);
  const { variants: rawVariants, ...rawBase } = raw as Record<string, unknown>;
  const issues: Issue[] = [];
  const base = checkRun(rawBase);
  if ('issues' in base) issues.push(...base.issues);
  const baseErrors = new Set('issues' in base ? base.issues.map((i) => i.path) : []);
  const variants: ScenarioVariant[] = [];
  if (rawVariants === undefined) {
    if ('config' in base) variants.push({ name: base.config.name, config: base.config, fabric: base.fabric });
  } else {
    if (!Array.isArray(rawVariants) || rawVariants.length === 0) issues.push({ path: 'variants', message: 'expected a non-empty list of variants {name, overrides}' });
    const names = new Set<string>();
    (Array.isArray(rawVariants) ? (rawVariants as unknown[]) : []).forEach((raw, i) => {
      const parsed = variantSchema.safeParse(raw);
      if (!parsed.success) {
        issues.push(...zodIssues(parsed.error, ['variants', i]));
        return;
      }
      const v = parsed.data;
      if (names.has(v.name)) issues.push({ path: `variants.${i}.name`, message: `expected a name no other variant has ("${v.name}" is taken)` });
      names.add(v.name);
      const run = checkRun(deepMerge(rawBase, v.overrides));
      if ('issues' in run) {
        for (const p of run.issues) if (!baseErrors.has(p.path)) issues.push({ path: `variants.${i}.overrides${p.path === '' ? '' : `.${p.path}`}`, message: p.message });
      } else variants.push({ name: v.name, config: run.config, fabric: run.fabric });
    });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return { name: (variants[0] as ScenarioVariant).config.name, text, variants };
}

/**
 * Reads a scenario file (the YAML `riodp sim` takes, docs/simulator.md); a ConfigError lists every
 * bad field.
 *
 * @example
 * ```ts
 * import { mkdtempSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadScenarioFile } from 'riodp/sim';
 *
 * // A scenario file as `riodp sim incast.yaml` reads it (docs/simulator.md), here written to a temporary folder.
 * const file = join(mkdtempSync(join(tmpdir(), 'riodp-')), 'incast.yaml');
 * writeFileSync(file, `name: incast
 * duration: 20us
 * topology: { kind: switch, hosts: 4 }
 * traffic: [{ pattern: incast, sink: 0, sources: [1, 2, 3], load: 0.9 }]
 * variants: [{ name: input FIFO, overrides: { switch: { queueing: input-fifo } } }, { name: VoQ, overrides: { switch: { queueing: input-voq } } }]
 * `);
 * const scenario = loadScenarioFile(file);
 * console.log(scenario.variants.map((v) => [v.name, v.config.switch.queueing, v.config.duration])); // [ [ 'input FIFO', 'input-fifo', 20000000 ], [ 'VoQ', 'input-voq', 20000000 ] ] (ps)
 * ```
 */
export function loadScenarioFile(path: string): Scenario {
  return parseScenario(readTextFile(path));
}

/**
 * The scenario with the CLI's seed and output directory applied to every variant.
 *
 * @example
 * ```ts
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { builtinScenario, withOverrides } from 'riodp/sim';
 *
 * // As `riodp sim --seed 7 --out DIR` does: every variant gets the seed and the output folder.
 * const dir = join(tmpdir(), 'riodp-sim-out');
 * const scenario = withOverrides(builtinScenario(), { seed: 7, dir });
 * console.log(scenario.variants.map((v) => [v.config.seed, v.config.output.dir === dir])); // [ [ 7, true ], [ 7, true ], [ 7, true ] ]
 * ```
 */
export function withOverrides(s: Scenario, o: ScenarioOverrides): Scenario {
  if (o.seed === undefined && o.dir === undefined) return s;
  return {
    ...s,
    variants: s.variants.map((v) => ({
      ...v,
      config: { ...v.config, ...(o.seed === undefined ? {} : { seed: o.seed }), output: { ...v.config.output, ...(o.dir === undefined ? {} : { dir: o.dir }) } },
    })),
  };
}
