/**
 * The reproduction suite of the `riodp sim` report (issue 7 §4 "Published results the simulator
 * must reproduce (tests, and shown in the report)"): every run of suite-tasks.ts, then one row per
 * published result (suite-rows.ts). `runReproductions` spreads the runs over piscina worker
 * threads, longest first; `runReproductionsHere` runs them one after another on this thread.
 * Both give the same rows for the same options: every run owns its scheduler and random streams
 * and the rows are built in task order, whichever thread finishes first.
 */
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Reproduction } from '../../report/types.ts';
import { reproductionRows } from './suite-rows.ts';
import { reproductionTasks, runReproTask, taskCost } from './suite-tasks.ts';
import type { ReproRun, ReproTask, SuiteOptions } from './suite-tasks.ts';

export interface PoolOptions extends SuiteOptions {
  /** Worker threads. Default: one per core, at most one per run. */
  readonly workers?: number;
  /** Called after each run with the runs done and the total. */
  readonly onDone?: (done: number, total: number) => void;
  /** Stops the runs (the promise rejects with piscina's AbortError). */
  readonly signal?: AbortSignal;
}

/** The worker module: suite-worker.ts from source (tsx), suite-worker.js in dist (see sweep/pool.ts). */
export function suiteWorkerFile(moduleUrl: string = import.meta.url): string {
  return fileURLToPath(new URL(moduleUrl.endsWith('.ts') ? './suite-worker.ts' : './suite-worker.js', moduleUrl));
}

export function runReproductionsHere(o: SuiteOptions = {}): Reproduction[] {
  return reproductionRows(reproductionTasks(o).map(runReproTask));
}

/**
 * The threads are started at once (minThreads), so a caller that goes on to a long synchronous
 * run on the main thread (the scenario) has them loaded when it yields; the tasks go out as soon
 * as the main thread's event loop turns.
 */
export async function runReproductions(o: PoolOptions = {}): Promise<Reproduction[]> {
  const tasks = reproductionTasks(o);
  const workers = Math.max(1, Math.min(o.workers ?? availableParallelism(), tasks.length));
  const pool = new Piscina<ReproTask, ReproRun>({ filename: suiteWorkerFile(), minThreads: workers, maxThreads: workers, idleTimeout: 1000 });
  const order = tasks.map((t, i) => ({ i, cost: taskCost(t) })).sort((a, b) => b.cost - a.cost || a.i - b.i);
  const runs: ReproRun[] = new Array<ReproRun>(tasks.length);
  // One abort listener per queued run, on a signal of our own: the caller's gets one.
  const abort = new AbortController();
  setMaxListeners(tasks.length + 1, abort.signal);
  const forward = (): void => { abort.abort(o.signal?.reason); };
  if (o.signal?.aborted === true) forward();
  o.signal?.addEventListener('abort', forward, { once: true });
  let done = 0;
  try {
    await Promise.all(
      order.map(async ({ i }) => {
        runs[i] = await pool.run(tasks[i] as ReproTask, { signal: abort.signal });
        o.onDone?.(++done, tasks.length);
      }),
    );
  } finally {
    o.signal?.removeEventListener('abort', forward);
    await pool.destroy();
  }
  return reproductionRows(runs);
}
