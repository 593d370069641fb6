import { deviceIdForTt, integerInRange, oneOf, orDefault, positiveInteger, transportType } from '../engine/config-checks.ts';
import { Classifier, checkTarget } from './classifier.ts';
import type { StreamTarget } from './classifier.ts';
import { resolveTmMode } from './tm-mode.ts';
import type { TmModeSource } from './tm-mode.ts';
import { RATE_LIMIT } from './tm-rate.ts';
import type { TmDiscardPolicy, TmIngressConfig, TmRateConfig } from './tm-types.ts';

/** The validated configuration of a `TmIngress`, defaults filled in. */
export interface ResolvedTmIngressConfig {
  readonly localID: number;
  readonly tt: number;
  readonly mode: TmModeSource;
  readonly classifier: Classifier;
  readonly queues: readonly StreamTarget[];
  readonly amountBits: number;
  readonly rate: Required<TmRateConfig>;
  readonly lowCredits: number;
  readonly discard: TmDiscardPolicy;
}

export const DEFAULT_RATE: Required<TmRateConfig> = {
  unit: 1_000_000_000,
  average: 125_000_000,
  peak: 250_000_000,
  burst: 65_536,
  peakBurst: 4096,
  minRate: 1,
  maxRate: RATE_LIMIT,
};

/** The largest PDU, "0x0000 - 64kbytes" (Table 5-5). */
export const PDU_BYTES_MAX = 0x10000;

function resolveRate(r: TmRateConfig | undefined): Required<TmRateConfig> {
  const c = orDefault(r, {});
  if (typeof c !== 'object') throw new RangeError('rate must be a mapping');
  const unit = positiveInteger(orDefault(c.unit, DEFAULT_RATE.unit), 'rate.unit');
  const maxRate = integerInRange(orDefault(c.maxRate, DEFAULT_RATE.maxRate), 1, RATE_LIMIT, 'rate.maxRate');
  const minRate = integerInRange(orDefault(c.minRate, DEFAULT_RATE.minRate), 1, maxRate, 'rate.minRate');
  const average = integerInRange(orDefault(c.average, DEFAULT_RATE.average), minRate, maxRate, 'rate.average');
  const peak = integerInRange(orDefault(c.peak, DEFAULT_RATE.peak), minRate, maxRate, 'rate.peak');
  const burst = positiveInteger(orDefault(c.burst, DEFAULT_RATE.burst), 'rate.burst');
  const peakBurst = positiveInteger(orDefault(c.peakBurst, DEFAULT_RATE.peakBurst), 'rate.peakBurst');
  // Tokens are kept as bytes × unit; with the largest PDU of debt and one rate step of slack
  // they must stay safe integers.
  const limit = Math.floor(Number.MAX_SAFE_INTEGER / 4);
  for (const [depth, field] of [[burst, 'rate.burst'], [peakBurst, 'rate.peakBurst']] as const) {
    if ((depth + PDU_BYTES_MAX) * unit > limit) throw new RangeError(`${field} must be small enough that (${field} + 65536) × rate.unit stays below 2^51`);
  }
  return { unit, average, peak, burst, peakBurst, minRate, maxRate };
}

function resolveDiscard(d: TmDiscardPolicy | undefined): TmDiscardPolicy {
  const p = orDefault<TmDiscardPolicy>(d, { mode: 'none' });
  const mode = oneOf((p as { mode?: unknown }).mode, ['none', 'bound'], 'discard.mode', 'or');
  if (mode === 'none') return { mode };
  return { mode, maxQueued: positiveInteger((p as { maxQueued?: unknown }).maxQueued, 'discard.maxQueued') };
}

export function resolveTmIngressConfig(config: TmIngressConfig): ResolvedTmIngressConfig {
  const tt = transportType(orDefault(config.tt, 0), 'tt');
  const localID = deviceIdForTt(orDefault(config.localID, 0), tt, 'localID');
  const classifier = new Classifier(orDefault(config.classifier, {}));
  const queues: unknown = orDefault(config.queues, []);
  if (!Array.isArray(queues)) throw new RangeError('queues must be a list of stream targets');
  const checked = (queues as readonly StreamTarget[]).map((q, i) => checkTarget(q, `queues[${i}]`));
  for (const t of [...checked, ...classifier.targets()]) {
    deviceIdForTt(t.destinationID, tt, 'destinationID of every target', 'tt');
  }
  return {
    localID,
    tt,
    mode: resolveTmMode(config, 'ingress'),
    classifier,
    queues: checked,
    amountBits: integerInRange(orDefault(config.amountBits, 8), 1, 8, 'amountBits'),
    rate: resolveRate(config.rate),
    lowCredits: integerInRange(orDefault(config.lowCredits, 2), 0, 255, 'lowCredits'),
    discard: resolveDiscard(config.discard),
  };
}
