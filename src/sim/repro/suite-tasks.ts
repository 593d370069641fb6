/**
 * The runs behind the report's "Published results reproduced" section (issue 7 §4 "Published
 * results the simulator must reproduce (tests, and shown in the report)"): one task per fabric
 * run, plain data so that it crosses to a worker thread and back by structured clone.
 *
 * At scale 1 every run has the seed and the length of its test in test/sim/repro-*.test.ts, so
 * the figures a default `riodp sim` shows are the ones those tests assert and docs/simulator.md
 * "Reproductions" lists. Other scales multiply every measured length and warm-up (shorter runs
 * have larger standard errors and may leave a tolerance: the tolerances are sized for scale 1).
 */
import type { Arbitration } from '../../node/switch/arbiters.ts';
import { islipRun } from './islip.ts';
import type { IslipOptions, IslipResult } from './islip.ts';
import { KAROL_SLOTS, karolSaturation } from './karol.ts';
import type { KarolOptions, KarolResult } from './karol.ts';
import { outputQueuedRun } from './output-queued.ts';
import { pimSaturation } from './pim.ts';
import type { PimOptions, PimResult } from './pim.ts';
import type { OutputQueuedOptions, OutputQueuedResult } from './output-queued.ts';
import { treeSaturation } from './tree-saturation.ts';
import { voqSaturation } from './voq-saturation.ts';
import type { VoqSaturationOptions, VoqSaturationResult } from './voq-saturation.ts';
import type { TreePattern, TreeSaturationOptions, TreeSaturationResult } from './tree-saturation.ts';
import type { TreeControl, TreeSources } from './tree-fabric.ts';

export interface SuiteOptions {
  /** One seed for every run; default: each run's test seed (Karol 7, output-queued 5, iSLIP, PIM, wave front and VoQ saturation 3, tree 11). */
  readonly seed?: number;
  /** Run-length multiplier, > 0. Default 1. */
  readonly scale?: number;
}

export type ReproTask =
  | { readonly id: string; readonly kind: 'karol'; readonly options: KarolOptions }
  | { readonly id: string; readonly kind: 'output-queued'; readonly options: OutputQueuedOptions }
  | { readonly id: string; readonly kind: 'islip'; readonly options: IslipOptions }
  | { readonly id: string; readonly kind: 'pim'; readonly options: PimOptions }
  | { readonly id: string; readonly kind: 'voq-saturation'; readonly options: VoqSaturationOptions }
  | { readonly id: string; readonly kind: 'tree'; readonly options: TreeSaturationOptions };

/** A task with its result: the options say how the figure was measured (seed, lengths). */
export type ReproRun =
  | (Extract<ReproTask, { kind: 'karol' }> & { readonly result: KarolResult })
  | (Extract<ReproTask, { kind: 'output-queued' }> & { readonly result: OutputQueuedResult })
  | (Extract<ReproTask, { kind: 'islip' }> & { readonly result: IslipResult })
  | (Extract<ReproTask, { kind: 'pim' }> & { readonly result: PimResult })
  | (Extract<ReproTask, { kind: 'voq-saturation' }> & { readonly result: VoqSaturationResult })
  | (Extract<ReproTask, { kind: 'tree' }> & { readonly result: TreeSaturationResult });

/** The test seeds (test/sim/repro-*.test.ts). */
export const SUITE_SEEDS = { karol: 7, outputQueued: 5, islip: 3, matchers: 3, tree: 11 } as const;

/** Karol et al. Table I: N = 2 … 8; the large-N trend adds 16 and 32 (random arbitration). */
export const KAROL_SIZES: readonly number[] = [2, 3, 4, 5, 6, 7, 8];
/** Karol, Hluchyj & Morgan 1987: saturation throughput "the same for random, round-robin and fixed-priority arbitration". */
export const KAROL_ARBITRATIONS: readonly Arbitration[] = ['random', 'round-robin', 'fixed'];
export const KAROL_TREND_SIZES: readonly number[] = [16, 32];

/** The output-queued case shown: test/sim/repro-output-queued.test.ts's N = 8, p = 0.8. */
export const OQ_CASE = { n: 8, p: 0.8, slots: 120_000, warmup: 1000 } as const;
/** iSLIP as test/sim/repro-islip.test.ts: N = 16, load 0.95, 20 000 slots after 20 000. */
export const ISLIP_CASE = { n: 16, load: 0.95, slots: 20_000, warmup: 20_000 } as const;
/** PIM as test/sim/repro-matchers.test.ts: N = 16, saturated, 10 000 slots after 1000. */
export const PIM_CASE = { n: 16, slots: 10_000, warmup: 1000 } as const;
/** The wave front as test/sim/repro-matchers.test.ts: N = 16, load 0.95, 10 000 slots after 5000. */
export const WAVEFRONT_CASE = { n: 16, load: 0.95, slots: 10_000, warmup: 5000 } as const;
/**
 * One-iteration iSLIP and the wave front at full saturation with every VoQ fed, as
 * test/sim/repro-voq-saturation.test.ts: N = 16, end points offered their full link rate
 * ('per-flow'), 256-cell input buffers, 3000 slots after 1000 (the buffers fill in about 900).
 */
export const VOQ_SATURATION_CASE = { n: 16, inputBuffer: 256, slots: 3000, warmup: 1000 } as const;
/** Tree saturation as test/sim/repro-tree-saturation.test.ts: 10 000 packet times after 5000. */
export const TREE_DURATION = 10_000;
export const TREE_WARMUP = 5000;
/** tree-saturation.ts 'split' defaults, set here explicitly because the rows compute with them. */
export const TREE_SPLIT = { k: 4, load: 0.5, victimLoad: 0.3 } as const;
const KAROL_WARMUP = 500;

/** Fewest measured units: 20 batches of at least 10, so that a batch mean is a mean. */
const MIN_MEASURED = 200;
const MIN_WARMUP = 20;

export function karolId(n: number, arbitration: Arbitration): string {
  return `karol-${n}-${arbitration}`;
}

export function treeId(pattern: TreePattern, sources: TreeSources, control: TreeControl): string {
  return `tree-${pattern}-${sources}-${control}`;
}

export const OQ_ID = 'output-queued';
export const ISLIP_ID = 'islip';
export const PIM_ID = 'pim';
export const WAVEFRONT_ID = 'wavefront';
export const ISLIP_SATURATION_ID = 'islip-saturation';
export const WAVEFRONT_SATURATION_ID = 'wavefront-saturation';

/** The tree runs shown (pattern, sources, control). */
export const TREE_RUNS: readonly (readonly [TreePattern, TreeSources, TreeControl])[] = [
  ['hotspot', 'fifo', 'none'],
  ['hotspot', 'endpoint', 'xon-xoff'],
  ['split', 'endpoint', 'none'],
  ['split', 'endpoint', 'xon-xoff'],
  ['split', 'endpoint', 'voq-backpressure'],
];

export function checkScale(scale: number): void {
  if (!(Number.isFinite(scale) && scale > 0)) throw new RangeError('scale: expected a positive number');
}

/** Every run of the suite, in the order the rows use them. */
export function reproductionTasks(o: SuiteOptions = {}): ReproTask[] {
  const scale = o.scale ?? 1;
  checkScale(scale);
  const measured = (x: number): number => Math.max(MIN_MEASURED, Math.round(x * scale));
  const warm = (x: number): number => Math.max(MIN_WARMUP, Math.round(x * scale));
  const seed = (fallback: number): number => o.seed ?? fallback;
  const tasks: ReproTask[] = [];
  for (const n of KAROL_SIZES) {
    for (const arbitration of KAROL_ARBITRATIONS) {
      tasks.push({ id: karolId(n, arbitration), kind: 'karol', options: { seed: seed(SUITE_SEEDS.karol), n, arbitration, slots: measured(KAROL_SLOTS(n)), warmup: warm(KAROL_WARMUP) } });
    }
  }
  for (const n of KAROL_TREND_SIZES) {
    tasks.push({ id: karolId(n, 'random'), kind: 'karol', options: { seed: seed(SUITE_SEEDS.karol), n, arbitration: 'random', slots: measured(KAROL_SLOTS(n)), warmup: warm(KAROL_WARMUP) } });
  }
  tasks.push({ id: OQ_ID, kind: 'output-queued', options: { seed: seed(SUITE_SEEDS.outputQueued), n: OQ_CASE.n, p: OQ_CASE.p, slots: measured(OQ_CASE.slots), warmup: warm(OQ_CASE.warmup) } });
  tasks.push({ id: ISLIP_ID, kind: 'islip', options: { seed: seed(SUITE_SEEDS.islip), n: ISLIP_CASE.n, load: ISLIP_CASE.load, slots: measured(ISLIP_CASE.slots), warmup: warm(ISLIP_CASE.warmup) } });
  const sat = VOQ_SATURATION_CASE;
  const saturation = (id: string, matcher: 'islip' | 'wavefront'): ReproTask => ({
    id,
    kind: 'voq-saturation',
    options: { seed: seed(SUITE_SEEDS.matchers), matcher, sources: 'per-flow', inputBuffer: sat.inputBuffer, n: sat.n, slots: measured(sat.slots), warmup: warm(sat.warmup) },
  });
  tasks.push(saturation(ISLIP_SATURATION_ID, 'islip'));
  tasks.push({ id: PIM_ID, kind: 'pim', options: { seed: seed(SUITE_SEEDS.matchers), n: PIM_CASE.n, slots: measured(PIM_CASE.slots), warmup: warm(PIM_CASE.warmup) } });
  tasks.push(saturation(WAVEFRONT_SATURATION_ID, 'wavefront'));
  const wf = WAVEFRONT_CASE;
  tasks.push({ id: WAVEFRONT_ID, kind: 'islip', options: { seed: seed(SUITE_SEEDS.matchers), n: wf.n, load: wf.load, slots: measured(wf.slots), warmup: warm(wf.warmup), matcher: 'wavefront' } });
  for (const [pattern, sources, control] of TREE_RUNS) {
    // The bound with FIFO sources is measured over twice the length, as its test does.
    const duration = measured(sources === 'fifo' ? 2 * TREE_DURATION : TREE_DURATION);
    const common = { seed: seed(SUITE_SEEDS.tree), pattern, sources, control, duration, warmup: warm(TREE_WARMUP) };
    tasks.push({ id: treeId(pattern, sources, control), kind: 'tree', options: pattern === 'split' ? { ...common, ...TREE_SPLIT } : common });
  }
  return tasks;
}

export function runReproTask(task: ReproTask): ReproRun {
  switch (task.kind) {
    case 'karol':
      return { ...task, result: karolSaturation(task.options) };
    case 'output-queued':
      return { ...task, result: outputQueuedRun(task.options) };
    case 'islip':
      return { ...task, result: islipRun(task.options) };
    case 'pim':
      return { ...task, result: pimSaturation(task.options) };
    case 'voq-saturation':
      return { ...task, result: voqSaturation(task.options) };
    case 'tree':
      return { ...task, result: treeSaturation(task.options) };
  }
}

/**
 * Relative cost of a task (simulated events scale with ports × length), used only to start the
 * longest runs first so that two threads finish together.
 */
export function taskCost(task: ReproTask): number {
  switch (task.kind) {
    case 'karol':
      return task.options.n * (task.options.slots + (task.options.warmup ?? 0));
    case 'output-queued':
      return 1.8 * task.options.n * (task.options.slots + (task.options.warmup ?? 0));
    case 'islip':
      return 2.2 * (task.options.n ?? 16) * (task.options.slots + (task.options.warmup ?? 0));
    case 'pim':
      return 2.2 * (task.options.n ?? 16) * (task.options.slots + (task.options.warmup ?? 0));
    case 'voq-saturation':
      // Saturated end points: about twice the time per slot of the load-0.95 runs (measured).
      return 4.4 * (task.options.n ?? 16) * (task.options.slots + task.options.warmup);
    case 'tree':
      return 50 * (task.options.duration + (task.options.warmup ?? 0));
  }
}
