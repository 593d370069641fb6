import { z } from 'zod';
import { expecting, int } from '../../config/zod-parts.ts';
import { time } from './schema-parts.ts';

/**
 * `endpoints.reassembly`: the Part 10 reassembler of every end point's sink (src/sim/fabric/
 * endpoint-sink.ts, src/streaming/reassembler.ts), which takes the segments when `endpoints.sar`
 * is on. Only the settings a destination's hardware fixes are offered:
 *
 * - `contexts`: SegSupport (Part 10 §5.4.3 Table 5-5), "0x0000 - 64k segmentation contexts";
 *   §3.2.4 "The number of contexts that can be supported by a particular destination end point
 *   is specified in a CAR". A start segment that finds every context open loses its PDU
 *   (`reassembler.no-context`, a PDU defect).
 * - `idleTimeout`: §3.2.5 "It may be desirable for a destination to have a timeout as part of
 *   the lost packet detection mechanism, but the definition and time interval are also outside
 *   of the scope of this specification": a context with no segment for this long is closed and
 *   its PDU discarded (`reassembler.idle-timeout`). Simulated ps, like every scenario time.
 *
 * The MTU is `endpoints.sarMtu` and CRF support `endpoints.crfSupported`, shared with the
 * segmenter. destinationInContext and vcCount are left at their defaults: a simulated end point
 * has one device ID and every link runs VC0 only.
 */

/** Table 5-5: the largest SegSupport count, which the CAR encodes as 0x0000. */
export const CONTEXTS_MAX = 0x10000;

export const reassemblySettings = z.strictObject({
  contexts: int(1, CONTEXTS_MAX).default(CONTEXTS_MAX),
  idleTimeout: z.union([z.null(), time(1)], { error: expecting('a time above 0, or null for no timeout') }).default(null),
}, { error: expecting('reassembly settings {contexts, idleTimeout}') });

export type ReassemblySettings = z.output<typeof reassemblySettings>;
