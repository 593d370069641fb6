/**
 * The level a Part 10 ingress reports of one of its queues (Table 4-4 Q_STATUS "Source queue is
 * n/255 full ... 0 = empty, 0xFF = full"), in steps, and when a change is worth a message. Used by
 * every end point that feeds `TmIngress` its queue levels (src/node/endpoint/tm-streams.ts, the
 * simulator's src/node/endpoint/tm.ts).
 */

/** Default precision of the queue levels an ingress reports with Q_STATUS: quarters. */
export const DEFAULT_QUEUE_LEVEL_BITS = 2;

/**
 * The step of a queue holding `held` PDUs out of `limit`, in 1/2^bits of the queue rounded down
 * (0 when empty or bits is 0; 2^bits only when full).
 */
export function queueStep(held: number, limit: number, bits: number): number {
  if (bits === 0 || held <= 0 || limit <= 0) return 0;
  const steps = 2 ** bits;
  return Math.min(steps, Math.floor((held * steps) / limit));
}

/** The level n/255 of a step: 0 empty, 0xFF full. */
export function stepLevel(step: number, bits: number): number {
  return bits === 0 ? 0 : Math.round((step * 0xff) / 2 ** bits);
}

/**
 * Whether a queue now at `step` is reported, the last report having been at `reported`: any rise;
 * a fall only once two steps below, or at empty, so that a queue hovering at a step boundary (a
 * saturated sender: full, one PDU out, full again) does not send a Q_STATUS for every PDU.
 */
export function reportStep(reported: number, step: number): boolean {
  return step > reported || step < reported - 1 || (step === 0 && reported > 0);
}
