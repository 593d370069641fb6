/**
 * `riodp/engines`: the sans-IO protocol engines (docs/api.md). Each is a state machine with
 * `handle(input, now)` returning its outputs in order (packets, deliveries, timer requests,
 * events), `counters()` and a typed, plain JSON `snapshot()`; none reads a clock, opens a socket
 * or draws an unseeded random number (the contract: `ObservableEngine`, `TimerOutput`, `Counters`).
 *
 * - Part 9 flow control: `CongestionPoint` (a switch port's XOFF/XON), `CcpEndpoint` (an end
 *   point's reaction to CCPs), `ArbTx`/`ArbRx` (flow arbitration).
 * - VoQ backpressure: `VoqGenerator`, `VoqReceiver`.
 * - Part 10 data streaming: `Segmenter`, `Reassembler`, traffic management `TmIngress`/`TmEgress`.
 * - Annex 2 session management: `SessionEngine`, `SessionDiscovery`, the conveyances
 *   `Type9Conveyance` and `Type11Conveyance`.
 *
 * @module riodp/engines
 */
export type { Time, TimerOutput, TimerInput, Engine, Counters, PendingTimer, Observable, ObservableEngine } from '../engine/contract.ts';

export { CongestionPoint } from '../flow/congestion-point.ts';
export type * from '../flow/congestion-point-types.ts';
export { CcpEndpoint } from '../flow/ccp-endpoint.ts';
export type * from '../flow/ccp-endpoint-types.ts';
export { ArbTx } from '../flow/arb-tx.ts';
export type { ResolvedArbTxConfig } from '../flow/arb-tx-config.ts';
export type { ArbTxFlowView } from '../flow/arb-tx-flow.ts';
export { ArbRx } from '../flow/arb-rx.ts';
export type { ResolvedArbRxConfig } from '../flow/arb-rx-config.ts';
export type { MessageFlow } from '../flow/flows.ts';
export type * from '../flow/arbitration-types.ts';

export { VoqGenerator } from '../voq/generator.ts';
export type * from '../voq/generator-types.ts';
export type { CongestionDetector, DetectorConfig, DetectorSnapshot, DepthObservation, DetectorChange } from '../voq/detectors.ts';
export type { PortSettings } from '../voq/generator-config.ts';
export { VoqReceiver } from '../voq/receiver.ts';
export type * from '../voq/receiver-types.ts';

export { Segmenter } from '../streaming/segmenter.ts';
export type * from '../streaming/segmenter-types.ts';
export { Reassembler } from '../streaming/reassembler.ts';
export type * from '../streaming/reassembler-types.ts';
export { TmIngress } from '../streaming/tm-ingress.ts';
export { TmEgress } from '../streaming/tm-egress.ts';
export type * from '../streaming/tm-types.ts';
export type * from '../streaming/tm-snapshot-types.ts';
export type { HeldAu } from '../streaming/tm-credit.ts';
export type { EgressAu, EgressAuState } from '../streaming/tm-credit-egress.ts';
export type { TmDesignation } from '../streaming/tm-operand-match.ts';
export type { TmModeSetting, TmTypesSetting } from '../streaming/tm-mode.ts';
export { TM_MODE_SETTINGS, TM_TYPES_SETTINGS } from '../streaming/tm-mode.ts';
export type { ClassifierConfig, ClassifierRule, StreamTarget, QueueGranularity, AppKey, AppValue, PacketFlow } from '../streaming/classifier.ts';
export type { Vsid } from '../streaming/vsid.ts';

export { SessionEngine } from '../session/engine.ts';
export type * from '../session/types.ts';
export type * from '../session/snapshot-types.ts';
export type { ConduitRecord } from '../session/conduits.ts';
export type { DataReassemblerSnapshot, TransferSnapshot, DataFormat } from '../session/data-formats.ts';
export { SessionDiscovery } from '../session/discovery.ts';
export type * from '../session/discovery-types.ts';
export type { ResolvedDiscoveryConfig, ResolvedTarget } from '../session/discovery-config.ts';
export { Type9Conveyance } from '../session/type9-conveyance.ts';
export type * from '../session/type9-conveyance-types.ts';
export { Type11Conveyance } from '../session/type11-conveyance.ts';
export type * from '../session/type11-conveyance-types.ts';
export { SESSION_COUNTERS } from '../session/types.ts';
export { DISCOVERY_COUNTERS } from '../session/discovery-types.ts';
