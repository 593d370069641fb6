import type { Time } from '../engine/contract.ts';
import type { LinkStatus } from './api-types.ts';
import type { FabricCounters, FabricEndpointInput, FabricEndpointOutput, FlowState } from './endpoint-engine.ts';
import type { LinkCounters } from './link.ts';

// The contract between \`EndpointApi\` (api.ts) and the end point process that drives it
// (endpoint-process.ts): what the API needs of the engine, the link and the timers.

/** What the API asks of the process driver. */
export interface ApiHost {
  readonly nodeId: number;
  readonly tt: 0 | 1;
  readonly targets: readonly { readonly node: number; readonly hop?: number }[];
  now(): Time;
  /** Runs an input through the engine now and returns its outputs (already dispatched); null when queued behind the one running. */
  command(input: FabricEndpointInput): readonly FabricEndpointOutput[] | null;
  setTimer(name: string, at: Time | null): void;
  /** Stop (true) or go on (false) taking packets from the link (a receive stream at `api.rxLimit`, api-streams.ts). */
  holdReceive(on: boolean): void;
  /** StreamIDs of the conduit receive streams the engine holds for `remote` (its conduit table). */
  conduitReceives(remote: number): number[];
  engineCounters(): FabricCounters;
  flows(): FlowState[];
  link(): LinkStatus;
  linkCounters(): LinkCounters | null;
  readRegister(to: number, hop: number, offset: number): Promise<number>;
  writeRegister(to: number, hop: number, offset: number, value: number): Promise<void>;
  close(): Promise<void>;
}
