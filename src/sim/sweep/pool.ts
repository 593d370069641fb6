import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PointMetrics } from './metrics.ts';
import type { SweepPoint } from './points.ts';

/**
 * Runs the grid points on `workers` threads (issue 7 §5 "run in parallel worker threads
 * (piscina)"). Results come back in point order whatever order the threads finish in.
 *
 * The worker file is this folder's worker.ts when running from source (under tsx, whose loader
 * the threads inherit through process.execArgv) and worker.js in dist: the compiler rewrites
 * import specifiers, not URL strings, so the extension follows this module's own.
 */

export function workerFile(moduleUrl: string = import.meta.url): string {
  return fileURLToPath(new URL(moduleUrl.endsWith('.ts') ? './worker.ts' : './worker.js', moduleUrl));
}

export async function runPoints(points: readonly SweepPoint[], workers: number, onDone?: (done: number) => void): Promise<PointMetrics[]> {
  const pool = new Piscina<{ text: string }, PointMetrics>({ filename: workerFile(), minThreads: 0, maxThreads: workers, idleTimeout: 1000 });
  let done = 0;
  try {
    return await Promise.all(
      points.map(async (p) => {
        const m = await pool.run({ text: p.text });
        onDone?.(++done);
        return m;
      }),
    );
  } finally {
    await pool.destroy();
  }
}
