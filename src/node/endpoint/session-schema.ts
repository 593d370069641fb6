import { z } from 'zod';
import { expecting, int, oneOf } from '../../config/zod-parts.ts';

/**
 * What an end point's session management settings have in common in every host (issue 15 "one
 * configuration schema"): where its management messages arrive (Annex 2 §3.3, its contact:
 * a Type 11 mailbox or a Type 9 stream) and the session engine's request timers, in the host's
 * unit. A simulator scenario (`endpoints.session`, src/sim/scenario/schema-session.ts) adds the
 * management-phase policy of its traffic; `riodp endpoint`'s file (`management`, `session`,
 * src/net/endpoint-config.ts) adds the engine's other settings and discovery.
 */

/** The management contact's fields (Annex 2 §3.3 Table 3-1: a stream outside 0x0000–0xDFFF, the range a node assigns). */
export function managementContactShape() {
  return {
    conveyance: oneOf(['type11', 'type9']).optional(),
    mailbox: int(0, 63).optional(),
    streamID: int(0xe000, 0xfffe).optional(),
    cos: int(0, 0xff).optional(),
  };
}

/** The session engine's request timers (Annex 2 §3.7.1): a request resent every `retryPeriod`, given up after `timeoutPeriod`. */
export function sessionTimersShape(period: z.ZodType<number>) {
  return {
    retryPeriod: period.optional(),
    timeoutPeriod: period.optional(),
  };
}

export const MANAGEMENT_WHAT = expecting('management contact settings {conveyance?, mailbox?, streamID?, cos?}');
