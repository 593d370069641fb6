import {
  booleanFlag, deviceIdForTt, messageFlow, nonNegativeInteger, oneOf, orDefault, positiveIntegerOrNull, transportType,
} from '../engine/config-checks.ts';
import type { ArbRxConfig } from './arbitration-types.ts';
import type { MessageFlow } from './flows.ts';

/** 1 ms in the CLI's nanoseconds: many fabric round trips before a silent resource is asked back. */
export const DEFAULT_IDLE_TIMEOUT = 1_000_000;

/** The validated configuration of an `ArbRx`, defaults filled in. */
export interface ResolvedArbRxConfig {
  readonly localID: number;
  readonly tt: number;
  readonly resources: number;
  readonly enabled: boolean;
  readonly whenBusy: 'queue' | 'reject';
  /** null = unbounded. */
  readonly maxQueued: number | null;
  readonly idleTimeout: number | null;
  readonly responseFlow: MessageFlow;
}

export function resolveArbRxConfig(c: ArbRxConfig): ResolvedArbRxConfig {
  const tt = transportType(c.tt ?? 0, 'tt');
  const localID = deviceIdForTt(c.localID, tt, 'localID');
  const enabled = booleanFlag(c.enabled ?? true, 'enabled');
  const whenBusy = oneOf(c.whenBusy ?? 'queue', ['queue', 'reject'], 'whenBusy', 'or');
  const idleTimeout = positiveIntegerOrNull(orDefault(c.idleTimeout, DEFAULT_IDLE_TIMEOUT), 'idleTimeout');
  return {
    localID,
    tt,
    resources: nonNegativeInteger(c.resources, 'resources'),
    enabled,
    whenBusy,
    maxQueued: c.maxQueued === undefined ? null : nonNegativeInteger(c.maxQueued, 'maxQueued'),
    idleTimeout,
    // §2.4.2 "marking flow control packets with a "prio" field value of 0b11, and a "CRF" bit value
    // of 0b1"; rule 12 lets XON/XOFF(ARB) go "in any flow (such as a high priority channel)".
    responseFlow: messageFlow(c.responseFlow, 'responseFlow'),
  };
}

/**
 * Whether a REQUEST that cannot be granted now, and is not pipelined behind a resource its flow
 * holds, is answered XOFF(ARB) at once instead of queued, with `queued` REQUESTs waiting
 * (itself included). §2.2.2 "If the receiving endpoint for some reason cannot queue/process the
 * requests, it can send a XOFF (ARB) message immediately to indicate lack of resources":
 * `whenBusy: 'reject'`, or more than `maxQueued` waiting. §2.2.1 "The receiving endpoint will
 * respond with either a XON(ARB) or XOFF(ARB) message depending on whether it has buffer and
 * context resources available": with no resources at all a queued REQUEST would never be answered
 * (rule 2).
 */
export function refusesToQueue(c: ResolvedArbRxConfig, queued: number): boolean {
  return c.resources === 0 || c.whenBusy === 'reject' || (c.maxQueued !== null && queued > c.maxQueued);
}
