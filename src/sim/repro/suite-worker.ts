import { runReproTask } from './suite-tasks.ts';
import type { ReproRun, ReproTask } from './suite-tasks.ts';

/**
 * The piscina worker of the reproduction suite (issue 7 §5 "run in parallel worker threads
 * (piscina)", as `riodp sweep` does): one fabric run in, its result out.
 */
export default function runTask(task: ReproTask): ReproRun {
  return runReproTask(task);
}
