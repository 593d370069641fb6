import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, formatIssue } from '../config/issues.ts';
import { mergeResults } from '../sim/sweep/merge.ts';
import type { MergeInput } from '../sim/sweep/merge.ts';
import type { PointMetrics } from '../sim/sweep/metrics.ts';
import type { SweepPoint } from '../sim/sweep/points.ts';
import { runPoints } from '../sim/sweep/pool.ts';
import { inShard, parseShard } from '../sim/sweep/shard.ts';
import { gridIdentity, parsePointFile, pointFile, pointOfFile, pointStem, resultFile } from '../sim/sweep/unit.ts';
import runPoint from '../sim/sweep/worker.ts';
import { ProgressLine } from './progress-line.ts';
import type { SweepFlags, LoadedGrid } from './sweep.ts';
import { errorText, riodpVersion, summaryTable, sweepError, writeSweep } from './sweep-write.ts';

/**
 * The steps of a sweep run outside one machine (issue 21 item 1): `--emit-points DIR` writes one
 * self-contained file per point, `--run-point FILE` runs one, `--shard i/N` runs a share of a
 * grid's points, and `--merge DIR` turns the point results into the report a local run writes.
 * The result of a point is the same wherever it runs: the point carries its scenario with its
 * derived seed, and nothing in a run depends on the thread, the machine or the clock.
 */

export function emitPoints(loaded: LoadedGrid, dir: string, flags: SweepFlags): number {
  const { grid, points } = loaded;
  const identity = gridIdentity(grid, points);
  const version = riodpVersion();
  const target = resolve(dir);
  const files: string[] = [];
  try {
    mkdirSync(target, { recursive: true });
    for (const p of points) {
      const path = join(target, `${pointStem(p.index, points.length)}.json`);
      writeFileSync(path, `${JSON.stringify(pointFile(identity, p, version), null, 2)}\n`);
      files.push(path);
    }
  } catch (e) {
    return sweepError(`cannot write the points to ${target}: ${errorText(e)}`);
  }
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ grid: grid.name, id: identity.id, points: points.length, files })}\n`
      : `${grid.name}: ${points.length} point file${points.length === 1 ? '' : 's'} in ${target} (grid ${identity.id})\n`,
  );
  return 0;
}

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFileSync(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function runPointFile(file: string, flags: SweepFlags): Promise<number> {
  const where = file === '-' ? 'stdin' : file;
  let text: string;
  try {
    text = await readInput(file);
  } catch (e) {
    return sweepError(`cannot read ${where}: ${errorText(e)}`, 2);
  }
  const parsed = parsePointFile(text);
  if (typeof parsed === 'string') return sweepError(`${where}: ${parsed}`, 2);
  const point = pointOfFile(parsed);
  let out: string;
  try {
    out = `${JSON.stringify(resultFile(parsed.grid, point, runPoint({ text: point.text }), riodpVersion()))}\n`;
  } catch (e) {
    if (e instanceof ConfigError) {
      for (const i of e.issues) process.stderr.write(`riodp sweep: ${where}: scenario.${formatIssue(i)}\n`);
      return 2;
    }
    return sweepError(`the simulation stopped: ${errorText(e)}`);
  }
  if (flags.out === undefined || flags.out === '-') {
    process.stdout.write(out);
    return 0;
  }
  try {
    writeFileSync(flags.out, out);
  } catch (e) {
    return sweepError(`cannot write the result to ${flags.out}: ${errorText(e)}`);
  }
  return 0;
}

export async function runShard(loaded: LoadedGrid, spec: string | true, dir: string, flags: SweepFlags): Promise<number> {
  const shard = parseShard(spec);
  if (typeof shard === 'string') return sweepError(`--shard: ${shard}`, 2);
  const { grid, points } = loaded;
  const mine: SweepPoint[] = points.filter((p) => inShard(p.index, shard));
  const target = resolve(dir);
  try {
    mkdirSync(target, { recursive: true });
  } catch (e) {
    return sweepError(`cannot write the results to ${target}: ${errorText(e)}`);
  }
  const identity = gridIdentity(grid, points);
  const version = riodpVersion();
  const workers = Math.max(1, Math.min(flags.workers ?? availableParallelism(), mine.length));
  const progress = new ProgressLine();
  const started = performance.now();
  let metrics: Awaited<ReturnType<typeof runPoints>> = [];
  try {
    if (mine.length > 0) metrics = await runPoints(mine, workers, (done) => { progress.show(`riodp sweep: ${done}/${mine.length} points`); });
  } catch (e) {
    return sweepError(`the simulation stopped: ${errorText(e)}`);
  } finally {
    progress.clear();
  }
  const files: string[] = [];
  try {
    mine.forEach((p, i) => {
      const path = join(target, `${pointStem(p.index, points.length)}.result.json`);
      writeFileSync(path, `${JSON.stringify(resultFile(identity, p, metrics[i] as PointMetrics, version))}\n`);
      files.push(path);
    });
  } catch (e) {
    return sweepError(`cannot write the results to ${target}: ${errorText(e)}`);
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const shardName = `${shard.index}/${shard.count}`;
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ grid: grid.name, id: identity.id, shard: shardName, points: mine.map((p) => p.index), files, workers, wallSeconds })}\n`
      : `${grid.name}: shard ${shardName}, ${mine.length} of ${points.length} points in ${wallSeconds.toFixed(1)} s; results in ${target}\n`,
  );
  return 0;
}

export async function mergeDir(dir: string, flags: SweepFlags, defaultOut: string): Promise<number> {
  const source = resolve(dir);
  const inputs: MergeInput[] = [];
  try {
    // results.json is what a merge writes: a merge into its own folder can be run again.
    const names = readdirSync(source).filter((n) => n.endsWith('.json') && n !== 'results.json').sort();
    for (const name of names) inputs.push({ name, text: readFileSync(join(source, name), 'utf8') });
  } catch (e) {
    return sweepError(`--merge: cannot read ${source}: ${errorText(e)}`, 2);
  }
  const merged = mergeResults(inputs);
  if (typeof merged === 'string') return sweepError(`--merge ${dir}: ${merged}`, 2);
  const out = resolve(flags.out ?? defaultOut);
  let written: Awaited<ReturnType<typeof writeSweep>>;
  try {
    written = await writeSweep(out, merged.grid, merged.results);
  } catch (e) {
    return sweepError(`cannot write the report to ${out}: ${errorText(e)}`);
  }
  const n = merged.results.length;
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ grid: merged.grid.name, report: written.index, files: written.written, points: written.results.points })}\n`
      : summaryTable(merged.grid, merged.results, written.index, `${merged.grid.name}: ${n} point${n === 1 ? '' : 's'} merged from ${source}`),
  );
  return 0;
}
