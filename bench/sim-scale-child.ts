/**
 * One size of `npm run bench -- sim-scale` (bench/sim-scale.bench.ts), in a process of its own so
 * that its peak memory is its own: builds the issue 20 leaf-spine for `hosts` end points from the
 * checkout `dir` (parse and build timed apart from the run: setup grows with the fabric), runs it, writes its result files as `riodp sim` does (the HTML page aside) to a
 * temporary folder, removes them, and prints one JSON line of figures.
 *
 *   node --import tsx bench/sim-scale-child.ts HOSTS DURATION DIR [OUTPUT_JSON]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { leafSpineScenario } from './sim-scale-scenario.ts';

interface Sim {
  parseScenario(text: string): { name: string; variants: readonly { config: { duration: number } }[] };
  buildVariant(v: unknown): { sched: { dispatched: number } };
  runBuilt(b: unknown, o: { progressEvery: number; onProgress: (p: { now: number; end: number }) => void }): { events: number };
}
type WriteFiles = (run: unknown, dir: string) => Promise<string[]> | string[];

const [hostsArg, duration = '20us', dirArg = '.', outputArg] = process.argv.slice(2);
const hosts = Number(hostsArg);
const dir = resolve(dirArg);
const at = (f: string): string => pathToFileURL(join(dir, f)).href;

function cpuSeconds(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
}

async function writer(): Promise<WriteFiles> {
  const m = await import(at('src/sim/scenario/results-file.ts')) as Record<string, unknown>;
  // A checkout that streams results.json exports writeScenarioResults; an older one gives the file texts.
  if (typeof m['writeScenarioResults'] === 'function') return m['writeScenarioResults'] as WriteFiles;
  const { writeFile } = await import('node:fs/promises');
  const texts = m['resultFiles'] as (run: unknown) => Record<string, string>;
  return async (run, out) => {
    const files = texts(run);
    const paths: string[] = [];
    for (const name of Object.keys(files).sort()) {
      const p = join(out, name);
      await writeFile(p, files[name] ?? '', 'utf8');
      paths.push(p);
    }
    return paths;
  };
}

const sim = {
  ...await import(at('src/sim/scenario/load.ts')),
  ...await import(at('src/sim/scenario/build.ts')),
  ...await import(at('src/sim/scenario/run.ts')),
} as Sim;
const write = await writer();
const output = outputArg === undefined ? undefined : JSON.parse(outputArg) as Record<string, string>;
const text = leafSpineScenario(hosts, { duration, ...(output === undefined ? {} : { output }) });
const t0 = performance.now();
const c0 = cpuSeconds();
const scenario = sim.parseScenario(text);
const built = sim.buildVariant(scenario.variants[0]);
const tb = performance.now();
const cb = cpuSeconds();
// The steady state: events per CPU second over the second half of the simulated time, after the
// start-up (first arrivals, queues allocated) and before the results are collected.
const half = { cpu: 0, events: 0 };
const end = { cpu: 0, events: 0 };
const variant = sim.runBuilt(built, {
  progressEvery: Math.ceil((scenario.variants[0]?.config.duration ?? 2) / 2),
  onProgress: (p) => {
    const mark = p.now === p.end ? end : half;
    mark.cpu = cpuSeconds();
    mark.events = built.sched.dispatched;
  },
});
const run = { name: scenario.name, variants: [variant] };
const t1 = performance.now();
const c1 = cpuSeconds();
const out = mkdtempSync(join(tmpdir(), 'riodp-sim-scale-'));
let bytes = 0;
try {
  for (const p of await write(run, out)) bytes += statSync(p).size;
} finally {
  rmSync(out, { recursive: true, force: true });
}
const t2 = performance.now();
const c2 = cpuSeconds();
process.stdout.write(`${JSON.stringify({
  hosts,
  events: variant.events,
  buildWall: (tb - t0) / 1000,
  buildCpu: cb - c0,
  runWall: (t1 - tb) / 1000,
  runCpu: c1 - cb,
  steadyEvents: end.events - half.events,
  steadyCpu: end.cpu - half.cpu,
  writeWall: (t2 - t1) / 1000,
  writeCpu: c2 - c1,
  resultBytes: bytes,
  // KiB on Linux.
  maxRss: process.resourceUsage().maxRSS * 1024,
})}\n`);
