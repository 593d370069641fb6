import {
  booleanFlag, deviceIdForTt, messageFlow, nonNegativeIntegerOrNull, orDefault, positiveIntegerOrNull, transportType,
} from '../engine/config-checks.ts';
import type { ArbTxConfig } from './arbitration-types.ts';
import type { MessageFlow } from './flows.ts';

/** 100 µs in the CLI's nanoseconds: several fabric round trips before a REQUEST is re-sent. */
export const DEFAULT_REQUEST_TIMEOUT = 100_000;
/** 10 µs back-off before asking again after XOFF(ARB). */
export const DEFAULT_RETRY_DELAY = 10_000;

/** The validated configuration of an `ArbTx`, defaults filled in. */
export interface ResolvedArbTxConfig {
  readonly localID: number;
  readonly tt: number;
  readonly enabled: boolean;
  readonly unsupportedPeers: readonly number[];
  readonly requestTimeout: number | null;
  readonly retryDelay: number | null;
  readonly pipelining: boolean;
  readonly requestFlow: MessageFlow;
  readonly crfSupported: boolean;
}

export function resolveArbTxConfig(config: ArbTxConfig): ResolvedArbTxConfig {
  const tt = transportType(config.tt ?? 0, 'tt');
  const localID = deviceIdForTt(config.localID, tt, 'localID');
  const unsupportedPeers = (config.unsupportedPeers ?? []).map((id, i) => deviceIdForTt(id, tt, `unsupportedPeers[${i}]`, 'tt'));
  const crfSupported = booleanFlag(orDefault(config.crfSupported, true), 'crfSupported');
  return {
    localID,
    tt,
    enabled: booleanFlag(orDefault(config.enabled, true), 'enabled'),
    unsupportedPeers,
    requestTimeout: positiveIntegerOrNull(orDefault(config.requestTimeout, DEFAULT_REQUEST_TIMEOUT), 'requestTimeout'),
    retryDelay: nonNegativeIntegerOrNull(orDefault(config.retryDelay, DEFAULT_RETRY_DELAY), 'retryDelay'),
    pipelining: booleanFlag(orDefault(config.pipelining, true), 'pipelining'),
    // §2.4.2 "a "prio" field value of 0b11, and a "CRF" bit value of 0b1, if supported".
    requestFlow: messageFlow(config.requestFlow, 'requestFlow', crfSupported),
    crfSupported,
  };
}
