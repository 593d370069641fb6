import { z } from 'zod';
import { DEFAULT_CREDIT_POLICY, DEFAULT_ON_OFF, DEFAULT_RATE_POLICY } from '../../streaming/tm-egress-config.ts';
import { DEFAULT_RATE, PDU_BYTES_MAX } from '../../streaming/tm-ingress-config.ts';
import { TM_MODE_SETTINGS, TM_TYPES_SETTINGS, typesSupporting } from '../../streaming/tm-mode.ts';
import { RATE_LIMIT } from '../../streaming/tm-rate.ts';
import { SIM_TM_RATE_UNIT, TM_TICK } from '../../node/endpoint/tm-config.ts';
import { DEFAULT_QUEUE_LEVEL_BITS } from '../../streaming/tm-queue-steps.ts';
import { defaultRateBounds } from '../../streaming/tm-rate-bounds.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm-config.ts';
import { expecting, int, oneOf } from '../../config/zod-parts.ts';
import { size, time } from './schema-parts.ts';

/**
 * `endpoints.tm`: Part 10 traffic management in every end point (src/node/endpoint/tm.ts),
 * docs/simulator.md ("Traffic management"). Every field has a default, so `tm: {}` runs BASIC XON/XOFF; the checks
 * the engines would make at build time are made here, with the path of the field.
 */

/** A rate in bytes per `rate.unit`, as a size ("125MB"); at most 2^40 (tm-rate.ts RATE_LIMIT keeps the arithmetic exact). */
const rateValue = size().refine((v) => v <= RATE_LIMIT, { error: expecting(`a rate in bytes per unit, at most ${RATE_LIMIT}`) });

const unitWhat = 'a time that is a whole number of ns (the rate period, "1s")';
const rateUnit = time(TM_TICK).refine((v) => v % TM_TICK === 0, { error: expecting(unitWhat) });

/** The ingress's token buckets (tm-types.ts TmRateConfig); `unit` in ps here, default 1 s. */
const rate = z.strictObject({
  unit: rateUnit.default(SIM_TM_RATE_UNIT),
  average: rateValue.default(DEFAULT_RATE.average),
  peak: rateValue.default(DEFAULT_RATE.peak),
  burst: size().default(DEFAULT_RATE.burst),
  peakBurst: size().default(DEFAULT_RATE.peakBurst),
  minRate: rateValue.optional(),
  maxRate: rateValue.optional(),
}, { error: expecting('rate settings {unit?, average?, peak?, burst?, peakBurst?, minRate?, maxRate?}') }).superRefine((r, ctx) => {
  // Table 4-5 notes: "a decrease must never reduce the rate completely to zero"; the rates start between the bounds.
  const bounds = defaultRateBounds(r.average, r.peak);
  const minRate = r.minRate ?? bounds.minRate;
  const maxRate = r.maxRate ?? bounds.maxRate;
  if (minRate > maxRate) ctx.addIssue({ code: 'custom', path: ['minRate'], message: `expected at most maxRate (${maxRate})` });
  for (const k of ['average', 'peak'] as const) {
    if (r[k] < minRate || r[k] > maxRate) ctx.addIssue({ code: 'custom', path: [k], message: `expected a rate from minRate (${minRate}) to maxRate (${maxRate})` });
  }
  // tm-ingress-config.ts: tokens are bytes × unit (in ns) and must stay below 2^51.
  const limit = Math.floor(Number.MAX_SAFE_INTEGER / 4);
  for (const k of ['burst', 'peakBurst'] as const) {
    if ((r[k] + PDU_BYTES_MAX) * (r.unit / TM_TICK) > limit) ctx.addIssue({ code: 'custom', path: [k], message: `expected a smaller bucket: (${k} + 65536) × unit in ns must stay below 2^51` });
  }
});

/** A level n/255 of Table 4-4 Q_Status, as the watermarks compare it. */
const level = int(0, 0xff);

const onOff = z.strictObject({
  high: level.default(DEFAULT_ON_OFF.high),
  low: level.default(DEFAULT_ON_OFF.low),
}, { error: expecting('on/off watermarks {high?, low?} or null') });

const ratePolicy = z.strictObject({
  high: level.default(DEFAULT_RATE_POLICY.high),
  low: level.default(DEFAULT_RATE_POLICY.low),
  // Table 4-5: REDUCE n = 1–255 (0 is MAINTAIN), INCREASE n = 1–254 (0xFF is DOUBLE).
  reduce: int(1, 0xff).default(DEFAULT_RATE_POLICY.reduce),
  increase: int(1, 0xfe).default(DEFAULT_RATE_POLICY.increase),
  rate: oneOf(['average', 'peak']).default(DEFAULT_RATE_POLICY.rate),
}, { error: expecting('a rate policy {high?, low?, reduce?, increase?, rate?} or null') });

const creditPolicy = z.strictObject({
  // Table 4-6 ALLOCATE: parameter 2 credits (0 retires the AU); §3.4.4 "The minimum implementation is 2" AUs.
  credits: int(1, 0xff).default(DEFAULT_CREDIT_POLICY.credits),
  auCount: int(2, 16).default(DEFAULT_CREDIT_POLICY.auCount),
  maxOutstanding: int(1, 16).default(DEFAULT_CREDIT_POLICY.maxOutstanding),
  lowCredits: int(0, 0xff).default(DEFAULT_CREDIT_POLICY.lowCredits),
}, { error: expecting('a credit policy {credits?, auCount?, maxOutstanding?, lowCredits?} or null') });

const policy = z.strictObject({
  onOff: onOff.nullable().prefault({}),
  rate: ratePolicy.nullable().prefault({}),
  credit: creditPolicy.nullable().prefault({}),
}, { error: expecting('an egress policy {onOff?, rate?, credit?}') }).superRefine((p, ctx) => {
  // TmOnOffPolicy, TmRatePolicy: "high > low".
  for (const [k, w] of [['onOff', p.onOff], ['rate', p.rate]] as const) {
    if (w !== null && w.low >= w.high) ctx.addIssue({ code: 'custom', path: [k, 'low'], message: `expected a level below high (${w.high})` });
  }
  if (p.credit !== null && p.credit.maxOutstanding > p.credit.auCount) {
    ctx.addIssue({ code: 'custom', path: ['credit', 'maxOutstanding'], message: `expected at most auCount (${p.credit.auCount})` });
  }
});

/** endpoints.tm: output assignable to EndpointTmConfig (src/node/endpoint/tm.ts). */
export const tmSettings = z.strictObject({
  mode: oneOf(TM_MODE_SETTINGS).default('BASIC'),
  types: oneOf(TM_TYPES_SETTINGS).optional(),
  rate: rate.prefault({}),
  amountBits: int(1, 8).default(8),
  lowCredits: int(0, 0xff).default(2),
  queueLevelBits: int(0, 8).default(DEFAULT_QUEUE_LEVEL_BITS),
  levelBits: int(1, 8).default(8),
  levelPeriod: time().optional(),
  policy: policy.prefault({}),
}, { error: expecting('tm settings {mode?, types?, rate?, amountBits?, lowCredits?, queueLevelBits?, levelBits?, levelPeriod?, policy?}') }).superRefine((c, ctx) => {
  const ok = typesSupporting(c.mode);
  if (c.types !== undefined && !ok.includes(c.types)) ctx.addIssue({ code: 'custom', path: ['types'], message: `expected TM types that support mode ${c.mode} (${ok.join(', ')})` });
}).transform((c): EndpointTmConfig => {
  // Absent fields stay absent: the end point fills them in from the mode and the average rate.
  const { types, levelPeriod, rate: { minRate, maxRate, ...rate }, ...rest } = c;
  return {
    ...rest,
    rate: { ...rate, ...(minRate === undefined ? {} : { minRate }), ...(maxRate === undefined ? {} : { maxRate }) },
    ...(types === undefined ? {} : { types }),
    ...(levelPeriod === undefined ? {} : { levelPeriod }),
  };
});
