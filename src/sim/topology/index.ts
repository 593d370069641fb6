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

/**
 * The topology kinds.
 *
 * @example
 * ```ts
 * import { TOPOLOGY_KINDS, buildTopology } from 'riodp/sim';
 * import type { TopologySpec } from 'riodp/sim';
 *
 * // One small fabric of every kind, e.g. to compare them under the same traffic:
 * const specs: Record<(typeof TOPOLOGY_KINDS)[number], TopologySpec> = {
 *   switch: { kind: 'switch', hosts: 8 },
 *   'leaf-spine': { kind: 'leaf-spine', leaves: 4, spines: 2, hostsPerLeaf: 2 },
 *   butterfly: { kind: 'butterfly', k: 2, n: 3 },
 *   ring: { kind: 'ring', switches: 4, hostsPerSwitch: 2 },
 *   mesh: { kind: 'mesh', width: 2, height: 2, hostsPerSwitch: 2 },
 * };
 * for (const kind of TOPOLOGY_KINDS) {
 *   const f = buildTopology(specs[kind]);
 *   console.log(kind, f.switches.length, f.hosts.length); // switch 1 8, leaf-spine 6 8, butterfly 12 8, ring 4 8, mesh 4 8
 * }
 * ```
 */
export const TOPOLOGY_KINDS = ['switch', 'leaf-spine', 'butterfly', 'ring', 'mesh'] as const;

/**
 * The fabric of a topology: its switches, hosts, links and routing tables.
 *
 * @example
 * ```ts
 * import { buildTopology } from 'riodp/sim';
 *
 * // Two leaves of 3 hosts each, under 2 spines (a scenario's `topology`):
 * const f = buildTopology({ kind: 'leaf-spine', leaves: 2, spines: 2, hostsPerLeaf: 3 });
 * console.log(f.switches.map((s) => `${s.name}:${s.ports}`)); // [ 'leaf0:5', 'leaf1:5', 'spine0:2', 'spine1:2' ]
 * console.log(f.hosts[4]);                                     // { name: 'h4', id: 4, switch: 1, port: 1 }: on leaf1's port 1
 * console.log(f.routes[0]?.get(4), f.peers[2]?.[1]);           // { port: 3, next: 1 } { kind: 'switch', switch: 1, port: 3 }: leaf0 sends it up to spine0, whose port 1 leads to leaf1
 * ```
 */
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
