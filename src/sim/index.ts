/**
 * `riodp/sim`: the discrete-event fabric simulator (docs/api.md, docs/simulator.md). Load a
 * scenario (the YAML `riodp sim` reads, or the built-in one), run it, and read the results that
 * `riodp sim` writes as results.json; or drive the kernel (`Scheduler`, seeded `RandomStreams`)
 * yourself. Results are deterministic for a given seed.
 */
export { parseScenario, loadScenarioFile, withOverrides } from './scenario/load.ts';
export type { Scenario, ScenarioVariant, ScenarioOverrides } from './scenario/load.ts';
export { builtinScenario, BUILTIN_SCENARIO_TEXT } from './scenario/builtin.ts';
export { runScenario, runVariant } from './scenario/run.ts';
export type { RunOptions, ScenarioRun, VariantRun, Progress } from './scenario/run.ts';
export type { RunConfig, TrafficEntry, TopologyConfig, SwitchSettings, EndpointSettings, LinkSettings, LinkOverride } from './scenario/schema.ts';
export type * from './results/results-types.ts';
export { parseGrid, loadGridFile } from './sweep/grid.ts';
export type { Grid, Parameter } from './sweep/grid.ts';
export { buildTopology, TOPOLOGY_KINDS } from './topology/index.ts';
export type { TopologySpec } from './topology/index.ts';
export * from './kernel/index.ts';
