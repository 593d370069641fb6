import { z } from 'zod';
import { expecting, int } from '../../config/zod-parts.ts';
import { parseSize, parseTime } from './units.ts';

/**
 * zod building blocks of the scenario schema besides the common ones (src/config/zod-parts.ts):
 * times and sizes with units ("expected a time like 10us"), host ID lists.
 */

const TIME_WHAT = 'a time: ps as a number, or a string with ps, ns, us, ms or s ("10us")';
const SIZE_WHAT = 'a size: bytes as a number, or a string with B, KB, KiB, MB or MiB ("64B", "4KiB")';

/** A time or duration in integer ps (units.ts), at least `min` ps. */
export function time(min = 0): z.ZodPipe<z.ZodUnknown, z.ZodTransform<number>> {
  const what = min > 0 ? `${TIME_WHAT}, above 0` : TIME_WHAT;
  return z.unknown().transform((v, ctx) => {
    const t = parseTime(v);
    if (t === undefined || t < min) {
      ctx.addIssue({ code: 'custom', message: v === undefined ? `missing, expected ${what}` : `expected ${what}` });
      return z.NEVER;
    }
    return t;
  });
}

/** A size in integer bytes (units.ts), at least 1. */
export function size(): z.ZodPipe<z.ZodUnknown, z.ZodTransform<number>> {
  return z.unknown().transform((v, ctx) => {
    const b = parseSize(v);
    if (b === undefined || b < 1) {
      ctx.addIssue({ code: 'custom', message: v === undefined ? `missing, expected ${SIZE_WHAT}` : `expected ${SIZE_WHAT}` });
      return z.NEVER;
    }
    return b;
  });
}

/** A list of host IDs (checked against the topology once it is built). */
export const hostIds = z.array(int(0), { error: expecting('a list of host IDs') }).min(1, { error: expecting('a non-empty list of host IDs') });
