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
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { islipRun } from '../src/sim/repro/islip.ts';
import { karolSaturation } from '../src/sim/repro/karol.ts';
import { treeSaturation } from '../src/sim/repro/tree-saturation.ts';

const scale = Number(process.env['BENCH_SIM_SCALE'] ?? 1);
const REPEAT = 3;

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

const models: readonly { readonly name: string; readonly fn: () => Run }[] = [
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

console.log(`fabric simulation benchmark · ${cpus()[0]?.model ?? '?'} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB) · Node ${process.version} · load ${loadavg()[0]?.toFixed(2) ?? '?'} · scale ${scale}`);
console.log('\n| model | events | M events / CPU s (median, range) | M events / wall s (median) | reproduced |');
console.log('|---|---|---|---|---|');
let deterministic = true;
for (const m of models) {
  const first = m.fn();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let k = 0; k < REPEAT; k++) {
    const t = timed(m.fn);
    if (t.run.events !== first.events || t.run.figure !== first.figure) deterministic = false;
    cpu.push(t.run.events / t.cpu);
    wall.push(t.run.events / t.wall);
  }
  console.log(`| ${m.name} | ${first.events.toLocaleString('en-US')} | ${mega(median(cpu))} (${mega(Math.min(...cpu))}–${mega(Math.max(...cpu))}) | ${mega(median(wall))} | ${first.figure} |`);
}
console.log(`\nruns identical (determinism): ${deterministic ? 'yes' : 'NO'}`);
if (!deterministic) process.exitCode = 1;
