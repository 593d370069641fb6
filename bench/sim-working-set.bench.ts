/**
 * Why an event costs more in a large fabric (issue 20; docs/performance.md "Simulator at scale:
 * what limits it"): the same events, the same code, only the memory touched between two events
 * changes.
 *
 * K copies of the 64-end-point leaf-spine of bench/sim-scale-scenario.ts (seeds 1 … K, output
 * flows and occupancy none), each with its own scheduler, are run side by side in slices of
 * simulated time, one copy after the other:
 *  - K = 1: the small fabric alone;
 *  - K = 16, 100 ns slices: a copy runs a few events, then the next: between two events of one
 *    copy the other 15 have touched their state, as a 1024-end-point fabric touches 16 times the
 *    state of a 64-end-point one between two events of one of its parts;
 *  - K = 16, 10 µs slices: the same events, but each copy runs hundreds in a row while its state
 *    is in the cache.
 * If the 100 ns interleaving costs what the 1024-end-point fabric costs per event and the 10 µs one
 * what a 64-end-point fabric costs, the cost is the cache misses of a larger working set, not work
 * that grows with the fabric.
 *
 *   npm run bench -- sim-working-set        BENCH_WS_MEASURE=60us (simulated, after 20 µs)
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { parseScenario } from '../src/sim/scenario/load.ts';
import { buildVariant } from '../src/sim/scenario/build.ts';
import type { BuiltFabric } from '../src/sim/scenario/build.ts';
import { parseTime } from '../src/sim/scenario/units.ts';
import { leafSpineScenario } from './sim-scale-scenario.ts';

const WARMUP = 20_000_000;
const measureArg = process.env['BENCH_WS_MEASURE'] ?? '60us';
const measure = parseTime(measureArg) ?? Number.NaN;
if (!(measure > 0)) throw new RangeError(`BENCH_WS_MEASURE: expected a time such as 60us, got ${measureArg}`);

function cpuSeconds(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
}

function copies(k: number): BuiltFabric[] {
  const text = leafSpineScenario(64, { duration: '1s', output: { flows: 'none', occupancy: 'none' } });
  return Array.from({ length: k }, (_, i) => {
    const v = parseScenario(text.replace('seed: 1', `seed: ${i + 1}`)).variants[0];
    if (v === undefined) throw new Error('the scenario has no variant');
    const b = buildVariant(v);
    for (const ep of b.endpoints) ep.start(0);
    return b;
  });
}

/** Runs the copies in turn, `slice` ps each, to `end`; returns the events run. */
function interleave(bs: readonly BuiltFabric[], from: number, end: number, slice: number): number {
  let events = 0;
  for (let t = from + slice; t <= end; t += slice) for (const b of bs) events += b.sched.run({ until: t }).events;
  return events;
}

const cases: [string, number, number][] = [
  ['1 copy (64 end points)', 1, 100_000],
  ['16 copies, 100 ns slices', 16, 100_000],
  ['16 copies, 10 µs slices', 16, 10_000_000],
];
const load0 = loadavg()[0] ?? 0;
console.log(`sim-working-set: ${cpus()[0]?.model.trim() ?? 'CPU'} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB), Node ${process.version}, ${measure / 1e6} µs measured after ${WARMUP / 1e6} µs`);
console.log('| case | events | CPU s | M events / CPU s |');
console.log('|---|---|---|---|');
for (const [name, k, slice] of cases) {
  const bs = copies(k);
  interleave(bs, 0, WARMUP, slice);
  // One copy alone runs 16 times as long, so that each case counts about as many events.
  const end = WARMUP + (k === 1 ? 16 * measure : measure);
  const c0 = cpuSeconds();
  const events = interleave(bs, WARMUP, end, slice);
  const cpu = cpuSeconds() - c0;
  if (events === 0) throw new Error(`${name}: no events`);
  console.log(`| ${name} | ${events.toLocaleString('en-US')} | ${cpu.toFixed(2)} | ${(events / cpu / 1e6).toFixed(2)} |`);
}
console.log(`load ${load0.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`);
