import { ccpPrioCrf } from '../wire/flow-id.ts';
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

/** Part 3 §2.4: tt 0b00 Dev8, 0b01 Dev16, 0b10 Dev32 (0b11 reserved). */
export function idBits(tt: number): number {
  return tt === 0 ? 8 : tt === 1 ? 16 : 32;
}

export function isDeviceId(v: unknown, tt: number): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v < 2 ** idBits(tt);
}

function checkDuration(v: number | null, field: string, min: number): number | null {
  if (v === null) return null;
  if (!Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`${field} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer or null`);
  }
  return v;
}

function checkFlag(v: unknown, field: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new RangeError(`${field} must be a boolean`);
  return v;
}

function checkRequestFlow(f: MessageFlow | undefined, crfSupported: boolean): MessageFlow {
  // §2.4.2 "a "prio" field value of 0b11, and a "CRF" bit value of 0b1, if supported".
  if (f === undefined) return ccpPrioCrf(crfSupported);
  if (!Number.isInteger(f.prio) || f.prio < 0 || f.prio > 3) throw new RangeError('requestFlow.prio must be an integer from 0 to 3');
  if (f.crf !== 0 && f.crf !== 1) throw new RangeError('requestFlow.crf must be 0 or 1');
  return { prio: f.prio, crf: f.crf };
}

export function resolveArbTxConfig(config: ArbTxConfig): ResolvedArbTxConfig {
  const tt = config.tt ?? 0;
  if (tt !== 0 && tt !== 1 && tt !== 2) throw new RangeError('tt must be 0, 1 or 2');
  if (!isDeviceId(config.localID, tt)) throw new RangeError(`localID must be an integer from 0 to ${2 ** idBits(tt) - 1}`);
  const unsupportedPeers = (config.unsupportedPeers ?? []).map((id, i) => {
    if (!isDeviceId(id, tt)) throw new RangeError(`unsupportedPeers[${i}] must be a device ID for tt ${tt}`);
    return id;
  });
  const crfSupported = checkFlag(config.crfSupported, 'crfSupported', true);
  return {
    localID: config.localID,
    tt,
    enabled: checkFlag(config.enabled, 'enabled', true),
    unsupportedPeers,
    requestTimeout: checkDuration(config.requestTimeout === undefined ? DEFAULT_REQUEST_TIMEOUT : config.requestTimeout, 'requestTimeout', 1),
    retryDelay: checkDuration(config.retryDelay === undefined ? DEFAULT_RETRY_DELAY : config.retryDelay, 'retryDelay', 0),
    pipelining: checkFlag(config.pipelining, 'pipelining', true),
    requestFlow: checkRequestFlow(config.requestFlow, crfSupported),
    crfSupported,
  };
}
