/**
 * The topology builders (issue 7 §2 "Topologies: N x N switch, leaf/spine, k-ary n-fly, ring/mesh
 * of switches"): `buildTopology(spec)` gives the `Fabric` (types.ts) for a scenario's `topology`.
 */
import { butterfly } from './butterfly.ts';
import type { ButterflySpec } from './butterfly.ts';
import { leafSpine } from './leaf-spine.ts';
import type { LeafSpineSpec } from './leaf-spine.ts';
import { mesh } from './mesh.ts';
import type { MeshSpec } from './mesh.ts';
import { ring } from './ring.ts';
import type { RingSpec } from './ring.ts';
import { singleSwitch } from './single-switch.ts';
import type { SingleSwitchSpec } from './single-switch.ts';
import type { Fabric } from './types.ts';

/** A topology as a scenario's `topology` describes it (docs/simulator.md). */
export type TopologySpec = SingleSwitchSpec | LeafSpineSpec | ButterflySpec | RingSpec | MeshSpec;

/** The topology kinds. */
export const TOPOLOGY_KINDS = ['switch', 'leaf-spine', 'butterfly', 'ring', 'mesh'] as const;

/** The fabric of a topology: its switches, hosts, links and routing tables. */
export function buildTopology(spec: TopologySpec): Fabric {
  switch (spec.kind) {
    case 'switch':
      return singleSwitch(spec);
    case 'leaf-spine':
      return leafSpine(spec);
    case 'butterfly':
      return butterfly(spec);
    case 'ring':
      return ring(spec);
    case 'mesh':
      return mesh(spec);
  }
}

export type { Fabric, PortPeer, SwitchPortRef, TopoHost, TopoLink, TopoRoute, TopoSwitch } from './types.ts';
export { unreachable, walk } from './walk.ts';
