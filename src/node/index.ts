/**
 * `riodp/node`: switch and end point elements (docs/api.md, docs/node-switch.md,
 * docs/fabric-endpoint.md), the one place where protocol engines are composed. A host (the
 * simulator, the TCP fabric, `riodp model`, or your own testbench) drives an element with its own
 * clock and links: `handle(input, now)` returns packets to send, deliveries, timer requests and
 * events, as every engine does.
 *
 * - `SwitchElement`: a RapidIO switch with routes, buffers, Part 9 congestion points, VoQ staging
 *   and backpressure, maintenance.
 * - `SessionEndpoint`: an Annex 2 session management end point (discovery, streams, conduits,
 *   Type 9 and Type 11 conveyances, maintenance registers).
 * - `FabricEndpoint`: a `SessionEndpoint` with Part 9 reaction to CCPs, flow arbitration and
 *   Part 10 traffic management, as the software fabric runs it.
 *
 * @module riodp/node
 */
export { SwitchElement } from './switch/element.ts';
export type { FramePacket } from './switch/element.ts';
export type * from './switch/element-types.ts';
export type * from './switch/config-types.ts';
export type { SwitchEvent, SwitchCounter, SwitchSymbol, CcpDropReason, CongestionEvent } from './switch/types.ts';
export { SWITCH_COUNTERS } from './switch/types.ts';
export type { Arbitration } from './switch/arbiters.ts';
export type { Priority, SwitchPacket } from './switch/packet.ts';
export type { BatchPacket } from './switch/batch-packet.ts';
export type { Participation, BlockParticipation, TagParticipation, BlockPlan } from '../session/local-advertisement.ts';
export type { ResolvedArbitrationConfig } from './endpoint/arbitration-config.ts';
export type { FabricArbitrationConfig } from './endpoint/session-features.ts';
export type { FabricTmConfig, EndpointTmConfig } from './endpoint/tm-config.ts';
export { SessionEndpoint } from './session-endpoint.ts';
export type * from './session-endpoint-types.ts';
export { FabricEndpoint } from './fabric-endpoint.ts';
export type * from './fabric-endpoint-types.ts';
export { ELEMENT_COUNTERS } from './switch/element-types.ts';
export { QUEUEINGS } from './switch/config-types.ts';
export { MATCHERS } from './switch/voq-matching.ts';
export type { VoqMatcher } from './switch/voq-matching.ts';
export { ENDPOINT_COUNTERS } from './session-endpoint-types.ts';
export { FABRIC_COUNTERS, TM_ENDPOINT_COUNTERS } from './fabric-endpoint-types.ts';
