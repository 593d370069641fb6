import { parseScenario } from '../scenario/load.ts';
import { runScenario } from '../scenario/run.ts';
import { pointMetrics } from './metrics.ts';
import type { PointMetrics } from './metrics.ts';

/**
 * The piscina worker of `riodp sweep` (issue 7 §5 "run in parallel worker threads (piscina)"):
 * one grid point in, its metrics out. The point arrives as scenario text, already validated by
 * the main thread (points.ts), so a failure here is a failure of the run itself.
 */
export default function runPoint(task: { readonly text: string }): PointMetrics {
  const scenario = parseScenario(task.text);
  return pointMetrics(runScenario(scenario), scenario.variants[0]?.config.traffic ?? []);
}
