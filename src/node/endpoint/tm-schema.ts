import { z } from 'zod';
import { expecting, int, oneOf, withoutUndefined } from '../../config/zod-parts.ts';
import type { TmCreditPolicy, TmEgressPolicy, TmOnOffPolicy, TmRatePolicy } from '../../streaming/tm-types.ts';
import { DEFAULT_CREDIT_POLICY, DEFAULT_ON_OFF, DEFAULT_RATE_POLICY } from '../../streaming/tm-egress-config.ts';
import { DEFAULT_RATE, PDU_BYTES_MAX } from '../../streaming/tm-ingress-config.ts';
import { TM_MODE_SETTINGS, TM_TYPES_SETTINGS, typesSupporting } from '../../streaming/tm-mode.ts';
import { RATE_LIMIT } from '../../streaming/tm-rate.ts';
import { defaultRateBounds } from '../../streaming/tm-rate-bounds.ts';

/**
 * The `tm` section of an end point's configuration (tm-config.ts EndpointTmConfig and, over TCP,
 * FabricTmConfig): the same fields and checks in a simulator scenario (`endpoints.tm`) and in
 * `riodp endpoint`'s file (issue 15 "one configuration schema"). Times, rates and sizes are in
 * the host's units and written the host's way, parsed by the schemas the host gives (`TmSchemaUnits`);
 * the checks the engines would make at build time across fields are made here, with the path of
 * the field. Each host fills in the defaults it reports (the simulator) or leaves them to the end
 * point (the software fabric).
 */

export interface TmSchemaUnits {
  /** `rate.unit`: the period rates are given per, in host time units, a whole number of engine ticks. */
  readonly rateUnit: z.ZodType<number>;
  /** A rate in bytes per `rate.unit` (at most 2^40, tm-rate.ts `RATE_LIMIT`, is checked here). */
  readonly rate: z.ZodType<number>;
  /** A bucket depth in bytes. */
  readonly bytes: z.ZodType<number>;
  /** `levelPeriod`: a duration from 0 in host time units. */
  readonly duration: z.ZodType<number>;
  /** Host time units per engine tick (tm-config.ts `TmClock`). */
  readonly tick: number;
  /** The `rate.unit` an absent one means, in host time units. */
  readonly defaultRateUnit: number;
}

/** A level n/255 of Table 4-4 Q_Status, as the watermarks compare it. */
const level = int(0, 0xff);

const onOff = z.strictObject({ high: level.optional(), low: level.optional() }, { error: expecting('on/off watermarks {high?, low?} or null') });

const ratePolicy = z.strictObject({
  high: level.optional(),
  low: level.optional(),
  // Table 4-5: REDUCE n = 1–255 (0 is MAINTAIN), INCREASE n = 1–254 (0xFF is DOUBLE).
  reduce: int(1, 0xff).optional(),
  increase: int(1, 0xfe).optional(),
  rate: oneOf(['average', 'peak']).optional(),
}, { error: expecting('a rate policy {high?, low?, reduce?, increase?, rate?} or null') });

const creditPolicy = z.strictObject({
  // Table 4-6 ALLOCATE: parameter 2 credits (0 retires the AU); §3.4.4 "The minimum implementation is 2" AUs.
  credits: int(1, 0xff).optional(),
  auCount: int(2, 16).optional(),
  maxOutstanding: int(1, 16).optional(),
  lowCredits: int(0, 0xff).optional(),
}, { error: expecting('a credit policy {credits?, auCount?, maxOutstanding?, lowCredits?} or null') });

/** The egress's policy (tm-types.ts TmEgressPolicy), each part optional and null to switch it off; also `riodp model tm-egress`'s. */
export const egressPolicy = z.strictObject({
  onOff: onOff.nullable().optional(),
  rate: ratePolicy.nullable().optional(),
  credit: creditPolicy.nullable().optional(),
}, { error: expecting('an egress policy {onOff?, rate?, credit?}') });

/** The fields every host takes, each optional. */
export function tmShape(u: TmSchemaUnits) {
  const rateValue = u.rate.refine((v) => v <= RATE_LIMIT, { error: expecting(`a rate in bytes per unit, at most ${RATE_LIMIT}`) });
  return {
    mode: oneOf(TM_MODE_SETTINGS).optional(),
    types: oneOf(TM_TYPES_SETTINGS).optional(),
    rate: z.strictObject({
      unit: u.rateUnit.optional(),
      average: rateValue.optional(),
      peak: rateValue.optional(),
      burst: u.bytes.optional(),
      peakBurst: u.bytes.optional(),
      minRate: rateValue.optional(),
      maxRate: rateValue.optional(),
    }, { error: expecting('rate settings {unit?, average?, peak?, burst?, peakBurst?, minRate?, maxRate?}') }).optional(),
    amountBits: int(1, 8).optional(),
    lowCredits: int(0, 0xff).optional(),
    queueLevelBits: int(0, 8).optional(),
    levelBits: int(1, 8).optional(),
    levelPeriod: u.duration.optional(),
    policy: egressPolicy.optional(),
  };
}

type Shape = ReturnType<typeof tmShape>;
export type TmParsed = z.infer<z.ZodObject<Shape>>;

/** The engines' build-time checks across fields (tm-ingress-config.ts, tm-egress-config.ts), each on its field's path. */
export function checkTm(c: TmParsed, ctx: z.RefinementCtx, u: TmSchemaUnits): void {
  const mode = c.mode ?? 'BASIC';
  const ok = typesSupporting(mode);
  if (c.types !== undefined && !ok.includes(c.types)) ctx.addIssue({ code: 'custom', path: ['types'], message: `expected TM types that support mode ${mode} (${ok.join(', ')})` });
  const r = c.rate ?? {};
  const average = r.average ?? DEFAULT_RATE.average;
  const peak = r.peak ?? DEFAULT_RATE.peak;
  // Table 4-5 notes: "a decrease must never reduce the rate completely to zero"; the rates start between the bounds.
  const bounds = defaultRateBounds(average, peak);
  const minRate = r.minRate ?? bounds.minRate;
  const maxRate = r.maxRate ?? bounds.maxRate;
  if (minRate > maxRate) ctx.addIssue({ code: 'custom', path: ['rate', 'minRate'], message: `expected at most maxRate (${maxRate})` });
  for (const [k, v] of [['average', average], ['peak', peak]] as const) {
    if (v < minRate || v > maxRate) ctx.addIssue({ code: 'custom', path: ['rate', k], message: `expected a rate from minRate (${minRate}) to maxRate (${maxRate})` });
  }
  // tm-ingress-config.ts: tokens are bytes × unit (in engine ticks) and must stay below 2^51.
  const ticks = Math.floor((r.unit ?? u.defaultRateUnit) / u.tick);
  const limit = Math.floor(Number.MAX_SAFE_INTEGER / 4);
  for (const [k, v] of [['burst', r.burst ?? DEFAULT_RATE.burst], ['peakBurst', r.peakBurst ?? DEFAULT_RATE.peakBurst]] as const) {
    if ((v + PDU_BYTES_MAX) * ticks > limit) ctx.addIssue({ code: 'custom', path: ['rate', k], message: `expected a smaller bucket: (${k} + 65536) × unit in ns must stay below 2^51` });
  }
  if (c.policy !== undefined) checkEgressPolicy(c.policy, ctx);
}

/** The egress engine's checks of its policy (tm-egress-config.ts), absent fields taken at their defaults, on paths under `policy`. */
export function checkEgressPolicy(p: z.output<typeof egressPolicy>, ctx: z.RefinementCtx): void {
  // TmOnOffPolicy, TmRatePolicy: "high > low".
  for (const [k, w, d] of [['onOff', p.onOff, DEFAULT_ON_OFF], ['rate', p.rate, DEFAULT_RATE_POLICY]] as const) {
    if (w === null || w === undefined) continue;
    const high = w.high ?? d.high;
    if ((w.low ?? d.low) >= high) ctx.addIssue({ code: 'custom', path: ['policy', k, 'low'], message: `expected a level below high (${high})` });
  }
  const credit = p.credit;
  if (credit !== null && credit !== undefined) {
    const auCount = credit.auCount ?? DEFAULT_CREDIT_POLICY.auCount;
    if ((credit.maxOutstanding ?? DEFAULT_CREDIT_POLICY.maxOutstanding) > auCount) {
      ctx.addIssue({ code: 'custom', path: ['policy', 'credit', 'maxOutstanding'], message: `expected at most auCount (${auCount})` });
    }
  }
}

type Policy = NonNullable<TmParsed['policy']>;

/** A part given in part, its other fields at their defaults; null switches it off. */
function part<D extends object>(v: object | null, d: D): D | null {
  return v === null ? null : { ...d, ...withoutUndefined(v) };
}

/** The egress policy as a host reports it: every part, absent ones at their defaults (a scenario's, `riodp model`'s). */
export function filledPolicy(p: Policy): { readonly onOff: TmOnOffPolicy | null; readonly rate: Required<TmRatePolicy> | null; readonly credit: TmCreditPolicy | null } {
  // An absent part is an empty one (all defaults); null stays null.
  const given = <T>(v: T | undefined): T | Record<string, never> => (v === undefined ? {} : v);
  return { onOff: part(given(p.onOff), DEFAULT_ON_OFF), rate: part(given(p.rate), DEFAULT_RATE_POLICY), credit: part(given(p.credit), DEFAULT_CREDIT_POLICY) };
}

/** The egress policy as given: absent parts stay absent (the engine's defaults), a part given in part filled in. */
export function partialPolicy(p: Policy): TmEgressPolicy {
  return {
    ...(p.onOff === undefined ? {} : { onOff: part(p.onOff, DEFAULT_ON_OFF) }),
    ...(p.rate === undefined ? {} : { rate: part(p.rate, DEFAULT_RATE_POLICY) }),
    ...(p.credit === undefined ? {} : { credit: part(p.credit, DEFAULT_CREDIT_POLICY) }),
  };
}
