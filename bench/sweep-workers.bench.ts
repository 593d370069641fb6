/**
 * `riodp sweep`'s speed-up from worker threads (issue 21: "measure the speed-up on a quiet one and
 * record it"; docs/performance.md "Sweeps: worker threads"): scenarios/sweep-load.yaml's 15
 * points lengthened to BENCH_SWEEP_DURATION (default 40ms, about half a second a point), run by
 * `runPoints` with 1 and with 2 workers, alternating, REPEAT times each; the results must agree
 * (determinism). Beside them, two copies of a pure arithmetic loop on one thread and on two, the
 * machine's ceiling for two threads.
 *
 *   npm run bench -- sweep-workers        BENCH_SWEEP_DURATION=40ms BENCH_SWEEP_REPEAT=3
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { parseGrid } from '../src/sim/sweep/grid.ts';
import { gridPoints } from '../src/sim/sweep/points.ts';
import { runPoints } from '../src/sim/sweep/pool.ts';

const duration = process.env['BENCH_SWEEP_DURATION'] ?? '40ms';
const repeat = Number(process.env['BENCH_SWEEP_REPEAT'] ?? 3);
const text = readFileSync('scenarios/sweep-load.yaml', 'utf8').replace('  duration: 1ms', `  duration: ${duration}`);
const points = gridPoints(parseGrid(text, 'scenarios'));

async function timed(workers: number): Promise<{ seconds: number; json: string }> {
  const t0 = performance.now();
  const metrics = await runPoints(points, workers);
  return { seconds: (performance.now() - t0) / 1000, json: JSON.stringify(metrics) };
}

const LOOP = 'let x = 0; for (let i = 0; i < 3e8; i++) x = (x * 1103515245 + 12345) % 2147483647; require("node:worker_threads").parentPort.postMessage(x);';
function loop(): Promise<unknown> {
  return new Promise((resolve) => { new Worker(LOOP, { eval: true }).once('message', resolve); });
}

const load0 = loadavg()[0] ?? 0;
const best = { 1: Infinity, 2: Infinity } as Record<1 | 2, number>;
let reference: string | null = null;
for (let r = 0; r < repeat; r++) {
  for (const w of [1, 2] as const) {
    const { seconds, json } = await timed(w);
    reference ??= json;
    if (json !== reference) throw new Error(`the results with ${w} workers differ from the first run's`);
    best[w] = Math.min(best[w], seconds);
    console.log(`run ${r + 1}: ${w} worker${w === 1 ? '' : 's'} ${seconds.toFixed(2)} s for ${points.length} points`);
  }
}
let t = performance.now();
await loop();
const one = performance.now() - t;
t = performance.now();
await Promise.all([loop(), loop()]);
const two = performance.now() - t;
console.log(`${cpus()[0]?.model.trim() ?? 'CPU'} (${cpus().length} cores), Node ${process.version}, load ${load0.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`);
console.log(`sweep (${points.length} points, ${duration} each): best of ${repeat}, 1 worker ${best[1].toFixed(2)} s, 2 workers ${best[2].toFixed(2)} s: speed-up ${(best[1] / best[2]).toFixed(2)}`);
console.log(`arithmetic loop: two threads do ${(2 * one / two).toFixed(2)} times the work of one in the same time`);
