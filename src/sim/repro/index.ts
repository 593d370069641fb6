/**
 * The published results the simulator reproduces (issue 7 §4), each a function of a seed and a
 * run length that builds its fabric from the simulator's components, runs it and returns the
 * measured figure with its batch-means standard error and the published one. docs/simulator.md
 * "Reproductions" gives the figures measured with the run lengths of test/sim/repro-*.test.ts.
 */
export { KAROL_1987, KAROL_LIMIT, KAROL_SLOTS, karolSaturation } from './karol.ts';
export type { KarolOptions, KarolResult } from './karol.ts';
export { NO_WAIT_LATENCY, outputQueuedRun, outputQueuedWait } from './output-queued.ts';
export type { OutputQueuedOptions, OutputQueuedResult } from './output-queued.ts';
export { islipRun } from './islip.ts';
export type { IslipOptions, IslipResult } from './islip.ts';
export { TREE_PACKET_TIME, treeSaturation } from './tree-saturation.ts';
export type { TreePattern, TreeSaturationOptions, TreeSaturationResult, TreeTraffic } from './tree-saturation.ts';
export type { TreeControl, TreeSources } from './tree-fabric.ts';
export { BatchProbe, batchEstimate } from './batch-probe.ts';
export type { BatchEstimate } from './batch-probe.ts';
export { runReproductions, runReproductionsHere } from './suite.ts';
export type { PoolOptions } from './suite.ts';
export { reproductionTasks, runReproTask } from './suite-tasks.ts';
export type { ReproRun, ReproTask, SuiteOptions } from './suite-tasks.ts';
export { reproductionRows, reproductionSummary } from './suite-rows.ts';
