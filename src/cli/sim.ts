import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, formatIssue } from '../config/issues.ts';
import { builtinScenario } from '../sim/scenario/builtin.ts';
import { loadScenarioFile, withOverrides } from '../sim/scenario/load.ts';
import type { Scenario } from '../sim/scenario/load.ts';
import { simReport } from '../sim/scenario/report-map.ts';
import { resultWriters } from '../sim/scenario/results-file.ts';
import { runScenario } from '../sim/scenario/run.ts';
import type { ScenarioRun } from '../sim/scenario/run.ts';
import { ProgressLine } from './progress-line.ts';
import { reproductionSummary } from '../sim/repro/suite-rows.ts';
import { runReproductions } from '../sim/repro/suite.ts';
import { summaryJson, summaryTable } from './sim-summary.ts';
import { pcapJson, pcapLine, pcapOptions, preparePcapDir } from './sim-pcap.ts';
import type { PcapFlags } from './sim-pcap.ts';
import type { Reproduction } from '../report/types.ts';

/**
 * `riodp sim [scenario.yaml] [--out DIR] [--seed N] [--json] [--reproduce | --no-reproduce]
 * [--reproduce-scale F] [--pcap DIR [--pcap-max-bytes SIZE] [--pcap-until TIME]]` (issue 7 §5): runs a scenario (the built-in one with no argument), writes
 * the report directory (index.html, results.json, CSVs) and prints a short summary. With the
 * built-in scenario (or --reproduce) it also runs the published-result reproductions (issue 7 §4
 * "shown in the report", src/sim/repro/suite.ts) on worker threads, started before the scenario
 * so that the threads load while it runs, and adds them to the report, to results.json under
 * `reproductions` and as one line to the summary. Progress goes to stderr on an interactive
 * terminal only, as one updating line. Exit codes: 0 done, 2 the scenario or an option is invalid (one line per bad
 * field), 1 the run or the writing failed (one line).
 *
 * `--pcap` captures every link of the scenario's fabric (src/sim/capture/, docs/pcapng.md §3–§5),
 * not the reproductions; the summary gets a line counting the files and records.
 *
 * The report directory (and the capture folder) is created before the run, so that a directory that cannot be written
 * fails at once rather than after the simulation; the report renderer (vega) is loaded only when
 * there is a report to render.
 */

export interface SimFlags extends PcapFlags {
  readonly out?: string;
  readonly seed?: number;
  readonly json: boolean;
  /** --reproduce / --no-reproduce; when absent, on for the built-in scenario and off for a file. */
  readonly reproduce?: boolean;
  /** Run-length multiplier of the reproductions; implies them. */
  readonly reproduceScale?: number;
}

const DEFAULT_DIR = 'riodp-report';
const SEED_MAX = 0xffffffff;
const SCALE_MAX = 1000;

/**
 * Whether a run includes the reproductions: the main job (no scenario file) shows them, a user's
 * scenario gets them on request, and asking for a run length asks for the runs.
 */
export function reproductionsWanted(file: string | undefined, flags: Pick<SimFlags, 'reproduce' | 'reproduceScale'>): boolean {
  return flags.reproduce ?? (file === undefined || flags.reproduceScale !== undefined);
}

function version(): string {
  // src/cli/sim.ts and dist/cli/sim.js both sit two folders below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
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
  const scale = flags.reproduceScale;
  if (scale !== undefined && !(Number.isFinite(scale) && scale > 0 && scale <= SCALE_MAX)) {
    process.stderr.write(`riodp sim: --reproduce-scale: expected a number above 0 and at most ${SCALE_MAX}\n`);
    return 2;
  }
  if (scale !== undefined && flags.reproduce === false) {
    process.stderr.write('riodp sim: --reproduce-scale: the reproductions are off (--no-reproduce)\n');
    return 2;
  }
  const pcap = pcapOptions(flags, `riodp ${version()} sim`);
  if (typeof pcap === 'string') {
    process.stderr.write(`riodp sim: ${pcap}\n`);
    return 2;
  }
  let scenario: Scenario;
  try {
    scenario = file === undefined ? builtinScenario() : loadScenarioFile(file);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
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
  const pcapProblem = pcap === undefined ? undefined : preparePcapDir(pcap.dir);
  if (pcapProblem !== undefined) return fail(pcapProblem);
  const progress = new ProgressLine();
  const reproductions = reproductionsWanted(file, flags) ? startReproductions(flags, progress) : undefined;
  const started = performance.now();
  let run: ScenarioRun;
  try {
    const duration = scenario.variants[0]?.config.duration ?? 0;
    run = runScenario(scenario, { progressEvery: Math.max(1_000_000, Math.floor(duration / 100)), onProgress: (p) => { progress.update(p); }, ...(pcap === undefined ? {} : { pcap }) });
  } catch (e) {
    progress.clear();
    await reproductions?.stop();
    return fail(`the simulation stopped: ${e instanceof Error ? e.message : String(e)}`);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  let rows: Reproduction[] | undefined;
  try {
    rows = await reproductions?.rows;
  } catch (e) {
    return fail(`the reproductions stopped: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    progress.clear();
  }
  let written: string[];
  try {
    const { renderSimReport } = await import('../report/html.ts');
    const { writeReport } = await import('../report/write.ts');
    const report = simReport(run, { text: scenario.text, generated: new Date().toISOString(), version: version(), wallSeconds });
    const html = await renderSimReport(rows === undefined ? report : { ...report, reproductions: rows });
    const files = resultWriters(run, rows === undefined ? {} : { reproductions: rows });
    written = await writeReport(dir, html, files);
  } catch (e) {
    return fail(`cannot write the report to ${dir}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const index = join(dir, 'index.html');
  if (flags.json) {
    const json = { ...(summaryJson(run, index, written, wallSeconds) as Record<string, unknown>), ...(pcap === undefined ? {} : { pcap: pcapJson(run, pcap.dir) }) };
    const passed = rows?.filter((r) => r.pass).length;
    process.stdout.write(`${JSON.stringify(rows === undefined ? json : { ...json, reproductions: { passed, total: rows.length } })}\n`);
  } else {
    process.stdout.write(summaryTable(run, index, wallSeconds));
    if (pcap !== undefined) process.stdout.write(`${pcapLine(run, pcap.dir)}\n`);
    if (rows !== undefined) process.stdout.write(`${reproductionSummary(rows)}\n`);
  }
  return 0;
}

interface Reproductions {
  /** Settles once: the rows, or the failure of a run. */
  readonly rows: Promise<Reproduction[]>;
  /** Stops the runs and waits for the threads to go. */
  stop(): Promise<void>;
}

/**
 * A failure is held in `rows` until the caller awaits it, so that it cannot surface as an
 * unhandled rejection while the scenario runs on this thread.
 */
function startReproductions(flags: SimFlags, progress: ProgressLine): Reproductions {
  const abort = new AbortController();
  const rows = runReproductions({
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.reproduceScale === undefined ? {} : { scale: flags.reproduceScale }),
    signal: abort.signal,
    onDone: (done, total) => { progress.show(`riodp sim: published results ${done}/${total} runs`); },
  });
  rows.catch(() => undefined);
  return {
    rows,
    stop: async () => {
      abort.abort();
      await rows.catch(() => undefined);
    },
  };
}
