import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { builtinScenario } from '../sim/scenario/builtin.ts';
import { ScenarioError, formatIssue } from '../sim/scenario/issues.ts';
import { loadScenarioFile, withOverrides } from '../sim/scenario/load.ts';
import type { Scenario } from '../sim/scenario/load.ts';
import { simReport } from '../sim/scenario/report-map.ts';
import { resultFiles } from '../sim/scenario/results-file.ts';
import { runScenario } from '../sim/scenario/run.ts';
import type { Progress, ScenarioRun } from '../sim/scenario/run.ts';
import { summaryJson, summaryTable } from './sim-summary.ts';

/**
 * `riodp sim [scenario.yaml] [--out DIR] [--seed N] [--json]` (issue 7 §5): runs a scenario (the
 * built-in one with no argument), writes the report directory (index.html, results.json, CSVs)
 * and prints a short summary. Progress goes to stderr on an interactive terminal only, as one
 * updating line. Exit codes: 0 done, 2 the scenario or an option is invalid (one line per bad
 * field), 1 the run or the writing failed (one line).
 *
 * The report directory is created before the run, so that a directory that cannot be written
 * fails at once rather than after the simulation; the report renderer (vega) is loaded only when
 * there is a report to render.
 */

export interface SimFlags {
  readonly out?: string;
  readonly seed?: number;
  readonly json: boolean;
}

const DEFAULT_DIR = 'riodp-report';
const SEED_MAX = 0xffffffff;

function version(): string {
  // src/cli/sim.ts and dist/cli/sim.js both sit two folders below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** One line on stderr, rewritten in place; only when stderr is a terminal. */
class ProgressLine {
  readonly #tty = process.stderr.isTTY;
  #last = '';

  update(p: Progress): void {
    if (!this.#tty) return;
    const pct = Math.floor((100 * p.now) / p.end);
    const line = `riodp sim: ${p.variant} (${p.index + 1}/${p.variants}) ${pct}%`;
    if (line === this.#last) return;
    this.#last = line;
    process.stderr.write(`\r\x1b[2K${line}`);
  }

  clear(): void {
    if (this.#tty && this.#last !== '') process.stderr.write('\r\x1b[2K');
  }
}

function fail(message: string): number {
  process.stderr.write(`riodp sim: ${message.split('\n')[0] ?? ''}\n`);
  return 1;
}

export async function runSim(file: string | undefined, flags: SimFlags): Promise<number> {
  if (flags.seed !== undefined && flags.seed > SEED_MAX) {
    process.stderr.write(`riodp sim: --seed: expected an integer 0..${SEED_MAX}\n`);
    return 2;
  }
  let scenario: Scenario;
  try {
    scenario = file === undefined ? builtinScenario() : loadScenarioFile(file);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    const where = file ?? 'built-in scenario';
    for (const i of e.issues) process.stderr.write(`riodp sim: ${where}: ${formatIssue(i)}\n`);
    return 2;
  }
  scenario = withOverrides(scenario, { ...(flags.seed === undefined ? {} : { seed: flags.seed }), ...(flags.out === undefined ? {} : { dir: flags.out }) });
  const dir = resolve(scenario.variants[0]?.config.output.dir ?? DEFAULT_DIR);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    return fail(`cannot write the report to ${dir}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const progress = new ProgressLine();
  const started = performance.now();
  let run: ScenarioRun;
  try {
    const duration = scenario.variants[0]?.config.duration ?? 0;
    run = runScenario(scenario, { progressEvery: Math.max(1_000_000, Math.floor(duration / 100)), onProgress: (p) => { progress.update(p); } });
  } catch (e) {
    return fail(`the simulation stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    progress.clear();
  }
  const wallSeconds = (performance.now() - started) / 1000;
  let written: string[];
  try {
    const { renderSimReport } = await import('../report/html.ts');
    const { writeReport } = await import('../report/write.ts');
    const html = await renderSimReport(simReport(run, { text: scenario.text, generated: new Date().toISOString(), version: version(), wallSeconds }));
    written = await writeReport(dir, html, resultFiles(run));
  } catch (e) {
    return fail(`cannot write the report to ${dir}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const index = join(dir, 'index.html');
  process.stdout.write(flags.json ? `${JSON.stringify(summaryJson(run, index, written, wallSeconds))}\n` : summaryTable(run, index, wallSeconds));
  return 0;
}
