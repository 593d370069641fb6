/**
 * The rate bounds an end point gives its `TmIngress` when its configuration names none (every end
 * point's TM configuration, src/node/endpoint/tm-config.ts).
 */

/**
 * The default `rate.minRate`: a REDUCE stops at 1/`MIN_RATE_SHARE` of the initial average rate.
 * The engine's own default, 1 byte per unit, is a rate an INCREASE can never raise again (Part 10
 * Table 4-5 "CurrentRate x (1+ n/256)" rounded down stays 1), and 1 byte per second would hold a
 * PDU back for minutes.
 */
export const MIN_RATE_SHARE = 100;

/**
 * `minRate` 1/`MIN_RATE_SHARE` of `average`, `maxRate` the larger of `average` and `peak`. The
 * engine's own maximum, 2^40 bytes per unit, lets the INCREASEs an egress sends while a source is
 * idle raise its rate far above any link, and the REDUCEs of the next congestion then take dozens
 * of messages to bring it back.
 */
export function defaultRateBounds(average: number, peak: number): { readonly minRate: number; readonly maxRate: number } {
  return { minRate: Math.max(1, Math.floor(average / MIN_RATE_SHARE)), maxRate: Math.max(average, peak) };
}
