import { z } from 'zod';
import { int } from '../../config/zod-parts.ts';

/**
 * The `ccp` section of an end point's configuration (the Part 9 reaction engine's settings,
 * src/flow/ccp-endpoint-types.ts CcpEndpointConfig), the same fields in a simulator scenario
 * (`endpoints.ccp`) and in `riodp endpoint`'s file (issue 15 "one configuration schema"). The
 * orphan period (Annex A.2 "shall be programmable") is in the host's unit, parsed by the schema
 * the host gives.
 */
export function ccpShape(period: z.ZodType<number>) {
  return {
    orphanPeriod: period.optional(),
    /** Counter width, 1..31 bits (§2.4.2.3 "In no event shall the counter wrap": they saturate). */
    counterBits: int(1, 31).optional(),
  };
}
