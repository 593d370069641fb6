/**
 * `riodp/sim`: the discrete-event fabric simulator (docs/api.md, docs/simulator.md). Load a
 * scenario (the YAML `riodp sim` reads, or the built-in one), run it, and read the results that
 * `riodp sim` writes as results.json; or drive the kernel (`Scheduler`, seeded `RandomStreams`)
 * yourself. Results are deterministic for a given seed.
 *
 * @module riodp/sim
 */
export { parseScenario, loadScenarioFile, withOverrides } from './scenario/load.ts';
export { ConfigError } from '../config/issues.ts';
export type { Issue } from '../config/issues.ts';
export type { Scenario, ScenarioVariant, ScenarioOverrides } from './scenario/load.ts';
export { builtinScenario, BUILTIN_SCENARIO_TEXT } from './scenario/builtin.ts';
export { runScenario, runVariant } from './scenario/run.ts';
export type { RunOptions, ScenarioRun, VariantRun, VariantSeries, NamedGroupSeries, Progress } from './scenario/run.ts';
export type { SimCaptureOptions, SimCaptureFile } from './capture/fabric-capture.ts';
export type { RunConfig, TrafficEntry, TopologyConfig, SwitchSettings, EndpointSettings, LinkSettings, LinkOverride } from './scenario/schema.ts';
export type * from './results/results-types.ts';
export type { LatencySummary } from './results/histogram.ts';
export type { OccupancySummary, OccupancySeries } from './results/occupancy.ts';
export type { GroupSummary } from './scenario/groups.ts';
export type { ReplicationSummary, ReplicatedGroup, ReplicatedMetric } from './scenario/replications.ts';
export type { Interval95 } from './repro/batch-probe.ts';
export type { EchoedSwitch, PortLink, ResolvedSwitchSettings } from './scenario/switch-overrides.ts';
export type { GroupSeries, XoffSeries } from './scenario/group-collector.ts';
export { parseGrid, loadGridFile } from './sweep/grid.ts';
export type { Grid, Parameter } from './sweep/grid.ts';
export { buildTopology, TOPOLOGY_KINDS } from './topology/index.ts';
export type { TopologySpec, Fabric, TopoSwitch, TopoHost, TopoLink, TopoRoute, PortPeer, SwitchPortRef } from './topology/index.ts';
export type { SingleSwitchSpec } from './topology/single-switch.ts';
export type { LeafSpineSpec } from './topology/leaf-spine.ts';
export type { ButterflySpec } from './topology/butterfly.ts';
export type { RingSpec } from './topology/ring.ts';
export type { MeshSpec } from './topology/mesh.ts';
export * from './kernel/index.ts';
