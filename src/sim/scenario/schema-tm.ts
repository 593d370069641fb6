import { z } from 'zod';
import { DEFAULT_RATE } from '../../streaming/tm-ingress-config.ts';
import { SIM_TM_RATE_UNIT, TM_TICK } from '../../node/endpoint/tm-config.ts';
import { DEFAULT_QUEUE_LEVEL_BITS } from '../../streaming/tm-queue-steps.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm-config.ts';
import { checkTm, filledPolicy, tmShape } from '../../node/endpoint/tm-schema.ts';
import type { TmSchemaUnits } from '../../node/endpoint/tm-schema.ts';
import { expecting } from '../../config/zod-parts.ts';
import { size, time } from './schema-parts.ts';

/**
 * `endpoints.tm`: Part 10 traffic management in every end point (src/node/endpoint/tm.ts),
 * docs/simulator.md ("Traffic management"), with the fields and checks of every host's `tm`
 * section (src/node/endpoint/tm-schema.ts). Every field has a default, filled in here so that the
 * results show it: `tm: {}` runs BASIC XON/XOFF. Times in ps, sizes and rates as sizes ("125MB").
 */

const unitWhat = 'a time that is a whole number of ns (the rate period, "1s")';

const UNITS: TmSchemaUnits = {
  rateUnit: time(TM_TICK).refine((v) => v % TM_TICK === 0, { error: expecting(unitWhat) }),
  rate: size(),
  bytes: size(),
  duration: time(),
  tick: TM_TICK,
  defaultRateUnit: SIM_TM_RATE_UNIT,
};

const WHAT = 'tm settings {mode?, types?, rate?, amountBits?, lowCredits?, queueLevelBits?, levelBits?, levelPeriod?, policy?}';

/** endpoints.tm: output assignable to EndpointTmConfig (src/node/endpoint/tm.ts), every default but the mode's and the rate's filled in. */
export const tmSettings = z.strictObject(tmShape(UNITS), { error: expecting(WHAT) })
  .superRefine((c, ctx) => { checkTm(c, ctx, UNITS); })
  .transform((c): EndpointTmConfig => {
    // Absent fields the end point derives (types from the mode, minRate/maxRate from the average rate, levelPeriod from the mode) stay absent.
    const r = c.rate ?? {};
    return {
      mode: c.mode ?? 'BASIC',
      rate: {
        unit: r.unit ?? SIM_TM_RATE_UNIT,
        average: r.average ?? DEFAULT_RATE.average,
        peak: r.peak ?? DEFAULT_RATE.peak,
        burst: r.burst ?? DEFAULT_RATE.burst,
        peakBurst: r.peakBurst ?? DEFAULT_RATE.peakBurst,
        ...(r.minRate === undefined ? {} : { minRate: r.minRate }),
        ...(r.maxRate === undefined ? {} : { maxRate: r.maxRate }),
      },
      amountBits: c.amountBits ?? 8,
      lowCredits: c.lowCredits ?? 2,
      queueLevelBits: c.queueLevelBits ?? DEFAULT_QUEUE_LEVEL_BITS,
      levelBits: c.levelBits ?? 8,
      policy: filledPolicy(c.policy ?? {}),
      ...(c.types === undefined ? {} : { types: c.types }),
      ...(c.levelPeriod === undefined ? {} : { levelPeriod: c.levelPeriod }),
    };
  });
