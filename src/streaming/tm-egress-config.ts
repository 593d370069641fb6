import { booleanFlag, deviceIdForTt, integerInRange, oneOf, orDefault, transportType } from '../engine/config-checks.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import { flowPacketFields, resolveGranularity } from './classifier.ts';
import type { PacketFlow, QueueGranularity } from './classifier.ts';
import { resolveTmMode } from './tm-mode.ts';
import type { TmModeSource } from './tm-mode.ts';
import type { TmCreditPolicy, TmEgressConfig, TmOnOffPolicy, TmRatePolicy } from './tm-types.ts';

export interface ResolvedTmEgressPolicy {
  readonly onOff: TmOnOffPolicy | null;
  readonly rate: Required<TmRatePolicy> | null;
  readonly credit: TmCreditPolicy | null;
}

/** The validated configuration of a `TmEgress`, defaults filled in. */
export interface ResolvedTmEgressConfig {
  readonly localID: number;
  readonly tt: number;
  readonly mode: TmModeSource;
  readonly granularity: QueueGranularity;
  readonly levelBits: number;
  readonly defaultFlow: PacketFlow;
  readonly defaultFlowID: string;
  readonly crfSupported: boolean;
  readonly policy: ResolvedTmEgressPolicy;
}

export const DEFAULT_ON_OFF: TmOnOffPolicy = { high: 240, low: 128 };
export const DEFAULT_RATE_POLICY: Required<TmRatePolicy> = { high: 160, low: 64, reduce: 32, increase: 16, rate: 'average' };
/** Figure 3-6: allocations of 16 credits, a low level of 2; two AUs to "ping-pong" (§3.4.4). */
export const DEFAULT_CREDIT_POLICY: TmCreditPolicy = { credits: 16, auCount: 16, maxOutstanding: 2, lowCredits: 2 };

function watermarks(p: { readonly high: unknown; readonly low: unknown }, field: string): { high: number; low: number } {
  const high = integerInRange(p.high, 1, 0xff, `${field}.high`);
  const low = integerInRange(p.low, 0, high - 1, `${field}.low`);
  return { high, low };
}

function nullable<T>(v: T | null | undefined, dflt: T, field: string): T | null {
  const x = orDefault(v, dflt);
  if (x === null) return null;
  if (typeof x !== 'object') throw new RangeError(`${field} must be a mapping or null`);
  return x;
}

function resolvePolicy(c: TmEgressConfig['policy']): ResolvedTmEgressPolicy {
  const p = orDefault(c, {});
  const onOff = nullable(p.onOff, DEFAULT_ON_OFF, 'policy.onOff');
  const rate = nullable<TmRatePolicy>(p.rate, DEFAULT_RATE_POLICY, 'policy.rate');
  const credit = nullable(p.credit, DEFAULT_CREDIT_POLICY, 'policy.credit');
  let creditOut: TmCreditPolicy | null = null;
  if (credit !== null) {
    const auCount = integerInRange(credit.auCount, 2, 16, 'policy.credit.auCount');
    creditOut = {
      credits: integerInRange(credit.credits, 1, 0xff, 'policy.credit.credits'),
      auCount,
      maxOutstanding: integerInRange(credit.maxOutstanding, 1, auCount, 'policy.credit.maxOutstanding'),
      lowCredits: integerInRange(credit.lowCredits, 0, 0xff, 'policy.credit.lowCredits'),
    };
  }
  return {
    onOff: onOff === null ? null : watermarks(onOff, 'policy.onOff'),
    rate: rate === null ? null : {
      ...watermarks(rate, 'policy.rate'),
      reduce: integerInRange(rate.reduce, 1, 0xff, 'policy.rate.reduce'),
      increase: integerInRange(rate.increase, 1, 0xfe, 'policy.rate.increase'),
      rate: oneOf(orDefault(rate.rate, 'average'), ['average', 'peak'], 'policy.rate.rate', 'or'),
    },
    credit: creditOut,
  };
}

export function resolveTmEgressConfig(config: TmEgressConfig): ResolvedTmEgressConfig {
  const tt = transportType(orDefault(config.tt, 0), 'tt');
  const crfSupported = booleanFlag(orDefault(config.crfSupported, true), 'crfSupported');
  const defaultFlowID = oneOf(orDefault(config.defaultFlow, '0A'), FLOW_ID_LABELS, 'defaultFlow');
  return {
    localID: deviceIdForTt(orDefault(config.localID, 0), tt, 'localID'),
    tt,
    mode: resolveTmMode(config, 'egress'),
    granularity: resolveGranularity(config.granularity, 'granularity'),
    levelBits: integerInRange(orDefault(config.levelBits, 8), 1, 8, 'levelBits'),
    defaultFlow: flowPacketFields(defaultFlowID, crfSupported),
    defaultFlowID,
    crfSupported,
    policy: resolvePolicy(config.policy),
  };
}
