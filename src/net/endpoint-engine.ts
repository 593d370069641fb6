/**
 * The one place the end point process (endpoint-process.ts) and its API (api.ts) take the sans-IO
 * end point from: `FabricEndpoint` (src/node/fabric-endpoint.ts, contract in
 * src/node/fabric-endpoint-types.ts), the session management end point with the Part 9 reaction
 * to congestion control packets. The process relies on its `handle`, `counters()` (the
 * `FabricCounters` shape), `snapshot()` (the `SessionEndpoint` snapshot under `endpoint`) and
 * `flows()`.
 */
export { FabricEndpoint as EndpointEngine } from '../node/fabric-endpoint.ts';
import type { FabricEndpointSnapshot } from '../node/fabric-endpoint-types.ts';
export type { FabricCounters, FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput, FlowState } from '../node/fabric-endpoint-types.ts';

/** Which sans-IO end point runs inside the process (reported by `riodp status`). */
export const ENGINE_NAME = 'FabricEndpoint';

/** The receive streamIDs of `remote`'s conduits in an end point snapshot (`endpoint.session.conduits`, conduits.ts ConduitRecord). */
export function conduitReceives(snapshot: FabricEndpointSnapshot, remote: number): number[] {
  return snapshot.endpoint.session.conduits.flatMap((c) => (c.remote === remote ? [c.receive] : []));
}
