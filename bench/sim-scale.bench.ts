/**
 * The simulator at the scale of real systems (issue 20; docs/performance.md "Simulator at scale"):
 * the leaf-spine of bench/sim-scale-scenario.ts (10 Gbit/s links, 256-byte PDUs at load 0.4, each
 * host over 32 destinations) at 256 … 4096 end points, each size in a child process of its own
 * (bench/sim-scale-child.ts) so that its peak RSS is its own. Per size: wall time of parsing and
 * building, wall and CPU time of the run (simulating, collecting the results), events, events per CPU second, the time to write the result files
 * as `riodp sim` does (HTML page aside) and their size, and the child's peak RSS. A size that fails
 * (out of memory, "Invalid string length", time limit) is recorded with its error.
 *
 *   npm run bench -- sim-scale
 *   BENCH_SIM_SCALE_DURATION=20us       simulated time per run (default 20us)
 *   BENCH_SIM_SCALE_SIZES=256,1024      end point counts (k² or 2k²; default 256,512,1024,2048,4096)
 *   BENCH_SIM_SCALE_OUTPUT='{"flows":"none","occupancy":"top"}'   `output` fields for the scenario
 *   BENCH_SIM_SCALE_TIMEOUT=900         seconds before a size is given up
 *   BENCH_SIM_BASELINE=DIR              also run each size from the checkout DIR (with node_modules), alternating
 *   BENCH_SIM_SCALE_DOC=0               do not write docs/performance.md
 *
 * The section "## Simulator at scale: benchmark" of docs/performance.md is replaced (or appended)
 * with the table, the machine, the Node version and the date.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';

interface Figures {
  readonly hosts: number;
  readonly events: number;
  readonly buildWall: number;
  readonly buildCpu: number;
  readonly runWall: number;
  readonly runCpu: number;
  /** Events and CPU seconds of the second half of the simulated time (absent from older checkouts). */
  readonly steadyEvents?: number;
  readonly steadyCpu?: number;
  readonly writeWall: number;
  readonly writeCpu: number;
  readonly resultBytes: number;
  readonly maxRss: number;
}

type Outcome = { readonly ok: true; readonly f: Figures } | { readonly ok: false; readonly error: string; readonly maxRss?: number };

const env = process.env;
const duration = env['BENCH_SIM_SCALE_DURATION'] ?? '20us';
const sizes = (env['BENCH_SIM_SCALE_SIZES'] ?? '256,512,1024,2048,4096').split(',').map(Number);
const output = env['BENCH_SIM_SCALE_OUTPUT'];
const timeout = Number(env['BENCH_SIM_SCALE_TIMEOUT'] ?? 900) * 1000;
const baseline = env['BENCH_SIM_BASELINE'];
const SECTION = '## Simulator at scale: benchmark';

function child(hosts: number, dir: string): Outcome {
  const args = ['--import', 'tsx', 'bench/sim-scale-child.ts', String(hosts), duration, dir, ...(output === undefined ? [] : [output])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout, maxBuffer: 1 << 24 });
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status === 0 && last.startsWith('{')) return { ok: true, f: JSON.parse(last) as Figures };
  const lines = r.stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const why = lines.find((l) => /Error|heap out of memory|Invalid string length/.test(l))
    ?? (r.signal !== null ? `killed by ${r.signal}${r.error === undefined ? '' : ` (${r.error.message})`}` : lines.at(-1) ?? `exit ${String(r.status)}`);
  return { ok: false, error: why.slice(0, 160) };
}

const f2 = (x: number): string => x.toFixed(2);
const mib = (b: number): string => (b / 2 ** 20).toFixed(0);
const steadyRate = (f: Figures): number | null => (f.steadyEvents !== undefined && f.steadyCpu !== undefined && f.steadyCpu > 0 ? f.steadyEvents / f.steadyCpu / 1e6 : null);
const steady = (f: Figures): string => { const r = steadyRate(f); return r === null ? '–' : f2(r); };

function row(hosts: number, which: string, o: Outcome): string {
  if (!o.ok) return `| ${hosts} | ${which} | failed: ${o.error.replace(/\|/g, '\\|')} | | | | | | | | |`;
  const f = o.f;
  return `| ${hosts} | ${which} | ${f2(f.buildWall)} | ${f2(f.runWall)} | ${f2(f.runCpu)} | ${f.events.toLocaleString('en-US')} | ${f2(f.events / f.runCpu / 1e6)} | ${steady(f)} | ${f2(f.writeWall)} | ${mib(f.resultBytes)} | ${mib(f.maxRss)} |`;
}

const header = [
  '| end points | code | build wall s | run wall s | run CPU s | events | M events / CPU s | steady M events / CPU s | write s | results MiB | peak RSS MiB |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
const rows: string[] = [];
const load0 = loadavg()[0] ?? 0;
console.log(`sim-scale: ${duration} simulated per size${output === undefined ? '' : `, output ${output}`}${baseline === undefined ? '' : `, baseline ${baseline}`}`);
console.log(header.join('\n'));
for (const hosts of sizes) {
  const runs: [string, string][] = baseline === undefined ? [['this', '.']] : [['this', '.'], ['baseline', baseline]];
  const got: Outcome[] = [];
  for (const [which, dir] of runs) {
    const o = child(hosts, resolve(dir));
    got.push(o);
    const line = row(hosts, which, o);
    rows.push(line);
    console.log(line);
  }
  const [a, b] = got;
  if (a?.ok === true && b?.ok === true) {
    const ratio = (x: number, y: number): string => (y > 0 ? (x / y).toFixed(2) : '–');
    const note = `|  | this / baseline | ${ratio(a.f.buildWall, b.f.buildWall)} | ${ratio(a.f.runWall, b.f.runWall)} | ${ratio(a.f.runCpu, b.f.runCpu)} | ${ratio(a.f.events, b.f.events)} | ${ratio(a.f.events / a.f.runCpu, b.f.events / b.f.runCpu)} | ${ratio(steadyRate(a.f) ?? 0, steadyRate(b.f) ?? 0)} | ${ratio(a.f.writeWall, b.f.writeWall)} | ${ratio(a.f.resultBytes, b.f.resultBytes)} | ${ratio(a.f.maxRss, b.f.maxRss)} |`;
    rows.push(note);
    console.log(note);
  }
}
const load1 = loadavg()[0] ?? 0;

if (env['BENCH_SIM_SCALE_DOC'] !== '0') {
  const cpu = cpus();
  const machine = `${cpu[0]?.model.trim() ?? 'unknown CPU'} (${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB)`;
  const date = new Date().toISOString().slice(0, 10);
  const text = [
    `${SECTION} (\`npm run bench -- sim-scale\`), ${date} · ${machine} · Node ${process.version} · load ${load0.toFixed(1)}–${load1.toFixed(1)}`,
    '',
    `bench/sim-scale.bench.ts: the issue 20 leaf-spine (bench/sim-scale-scenario.ts) for ${duration} of simulated time per size${output === undefined ? '' : `, \`output: ${output}\``},`,
    'each size in a child process of its own. "build" is parsing the scenario and building the fabric, "run" simulating and collecting the results; "steady" is the events per CPU second',
    'of the second half of the simulated time (after the start-up, before the results are collected); "write" is writing the result',
    'files as `riodp sim` does (the HTML page aside); peak RSS is the child\'s `process.resourceUsage().maxRSS`.',
    ...(baseline === undefined ? [] : ['"baseline" is the same child run from another checkout, alternating with this one; ratios are this / baseline.']),
    'The machine is shared with other jobs: figures move by ±10–20 % from run to run; only rows of one run compare.',
    '',
    ...header,
    ...rows,
    '',
  ].join('\n');
  const path = 'docs/performance.md';
  const doc = readFileSync(path, 'utf8');
  const start = doc.indexOf(`\n${SECTION}`);
  let next: string;
  if (start < 0) next = `${doc.trimEnd()}\n\n${text}`;
  else {
    const end = doc.indexOf('\n## ', start + 1);
    next = `${doc.slice(0, start + 1)}${text}${end < 0 ? '' : `\n${doc.slice(end + 1)}`}`;
  }
  writeFileSync(path, next.endsWith('\n') ? next : `${next}\n`);
  console.log(`\n${path}: "${SECTION}" written`);
}
