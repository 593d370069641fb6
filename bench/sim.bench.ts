/**
 * Fabric simulation benchmark (docs/performance.md, "Simulator: fabric models"): events per
 * second of whole fabric models, switches, links, end points and results collection together,
 * beside the kernel's own figures (bench/kernel.bench.ts):
 *
 *  (a) Karol 8 x 8: the saturated input-FIFO switch of the Karol, Hluchyj & Morgan reproduction
 *      (src/sim/repro/karol.ts), random arbitration;
 *  (b) iSLIP 16 x 16: the one-iteration iSLIP VoQ switch at Bernoulli load 0.95
 *      (src/sim/repro/islip.ts), end point sources;
 *  (c) tree saturation: the two-stage 16-node fabric with Part 9 XON/XOFF
 *      (src/sim/repro/tree-saturation.ts), end point sources, congestion points, CCPs.
 * Each model runs once to warm up, then REPEAT times; the runs must agree exactly (determinism)
 * and the reproduced figure is printed with them. Rates are per CPU second of this process (the
 * machine is shared) and per wall second.
 *
 *   npm run bench -- sim              BENCH_SIM_SCALE=0.2 for a quick run
 *
 * Side by side with other code: BENCH_SIM_BASELINE=<a checkout of riodp, e.g. a git worktree of
 * an older commit with its node_modules> runs the same three models from that checkout too, each
 * repetition alternating the two, and prints the ratio of their rates (the machine is shared and
 * noisy: only figures from one run compare). Issue 15's goal: within 20 % of the baseline.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpus, loadavg, totalmem } from 'node:os';
import * as islip from '../src/sim/repro/islip.ts';
import * as karol from '../src/sim/repro/karol.ts';
import * as tree from '../src/sim/repro/tree-saturation.ts';

const scale = Number(process.env['BENCH_SIM_SCALE'] ?? 1);
const baselineDir = process.env['BENCH_SIM_BASELINE'];
const REPEAT = 3;

interface Repro {
  readonly islipRun: typeof islip.islipRun;
  readonly karolSaturation: typeof karol.karolSaturation;
  readonly treeSaturation: typeof tree.treeSaturation;
}

async function load(dir: string): Promise<Repro> {
  const at = (f: string): string => pathToFileURL(resolve(dir, 'src/sim/repro', f)).href;
  const [i, k, t] = await Promise.all([import(at('islip.ts')), import(at('karol.ts')), import(at('tree-saturation.ts'))]) as [typeof islip, typeof karol, typeof tree];
  return { islipRun: i.islipRun, karolSaturation: k.karolSaturation, treeSaturation: t.treeSaturation };
}

interface Run {
  readonly events: number;
  readonly figure: string;
}

function timed(fn: () => Run): { run: Run; cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const run = fn();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { run, cpu: (c.user + c.system) / 1e6, wall };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

const mega = (x: number): string => (x / 1e6).toFixed(2);

function models(r: Repro): readonly { readonly name: string; readonly fn: () => Run }[] {
  const { islipRun, karolSaturation, treeSaturation } = r;
  return [
  {
    name: `Karol 8x8 input FIFO, saturated, ${Math.round(100_000 * scale)} slots`,
    fn: () => {
      const r = karolSaturation({ seed: 1, n: 8, arbitration: 'random', slots: Math.round(100_000 * scale) });
      return { events: r.events, figure: `throughput ${r.measured.toFixed(4)} ± ${r.stdErr.toFixed(4)} (Karol 0.6184)` };
    },
  },
  {
    name: `iSLIP 16x16, 1 iteration, load 0.95, ${Math.round(40_000 * scale)} slots`,
    fn: () => {
      const slots = Math.round(40_000 * scale);
      const r = islipRun({ seed: 1, slots, warmup: Math.round(slots / 2) });
      return { events: r.events, figure: `throughput ${r.measured.toFixed(4)} ± ${r.stdErr.toFixed(4)}, offered ${r.offered.toFixed(4)}` };
    },
  },
  {
    name: `tree saturation 16 nodes, XON/XOFF, ${Math.round(20_000 * scale)} packet times`,
    fn: () => {
      const r = treeSaturation({ seed: 1, control: 'xon-xoff', sources: 'endpoint', duration: Math.round(20_000 * scale) });
      return { events: r.events, figure: `victims ${(100 * r.victims.delivered / r.victims.offered).toFixed(1)}% of offered, CCPs ${r.counts['ccp.sent'] ?? 0}` };
    },
  },
  ];
}

console.log(`fabric simulation benchmark · ${cpus()[0]?.model ?? '?'} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB) · Node ${process.version} · load ${loadavg()[0]?.toFixed(2) ?? '?'} · scale ${scale}`);
const current = models({ islipRun: islip.islipRun, karolSaturation: karol.karolSaturation, treeSaturation: tree.treeSaturation });
const baseline = baselineDir === undefined ? null : models(await load(baselineDir));
if (baselineDir !== undefined) console.log(`baseline: ${resolve(baselineDir)}, run alternately with this checkout`);
console.log(baseline === null
  ? '\n| model | events | M events / CPU s (median, range) | M events / wall s (median) | reproduced |\n|---|---|---|---|---|'
  : '\n| model | events | M events / CPU s (median, range) | baseline events | baseline M events / CPU s (median, range) | rate / baseline (median of runs) | reproduced |\n|---|---|---|---|---|---|---|');
let deterministic = true;
const rate = (xs: readonly number[]): string => `${mega(median(xs))} (${mega(Math.min(...xs))}–${mega(Math.max(...xs))})`;
for (const [i, m] of current.entries()) {
  const b = baseline?.[i];
  const first = m.fn();
  const firstBase = b?.fn();
  const cpu: number[] = [];
  const wall: number[] = [];
  const baseCpu: number[] = [];
  const ratio: number[] = [];
  for (let k = 0; k < REPEAT; k++) {
    const t = timed(m.fn);
    if (t.run.events !== first.events || t.run.figure !== first.figure) deterministic = false;
    cpu.push(t.run.events / t.cpu);
    wall.push(t.run.events / t.wall);
    if (b === undefined) continue;
    const tb = timed(b.fn);
    baseCpu.push(tb.run.events / tb.cpu);
    ratio.push(t.run.events / t.cpu / (tb.run.events / tb.cpu));
  }
  if (firstBase === undefined) {
    console.log(`| ${m.name} | ${first.events.toLocaleString('en-US')} | ${rate(cpu)} | ${mega(median(wall))} | ${first.figure} |`);
    continue;
  }
  console.log(`| ${m.name} | ${first.events.toLocaleString('en-US')} | ${rate(cpu)} | ${firstBase.events.toLocaleString('en-US')} | ${rate(baseCpu)} | ${median(ratio).toFixed(2)} | ${first.figure}${first.figure === firstBase.figure ? ' (baseline: the same)' : ` (baseline: ${firstBase.figure})`} |`);
}
console.log(`\nruns identical (determinism): ${deterministic ? 'yes' : 'NO'}`);
if (!deterministic) process.exitCode = 1;
