/**
 * Checks the engines share for inputs that also arrive as JSON (`riodp model`): what does not fit
 * is reported as an `invalid-input` event naming the value, never thrown (bad input is normal input).
 */

/** An input value for an `invalid-input` detail: numbers and strings as JSON, anything else by type. */
export function describeInput(v: unknown): string {
  return typeof v === 'number' || typeof v === 'string' ? JSON.stringify(v) : typeof v;
}

/** Packets a pull may hand out: `max`, default 1; 0 when `max` is not a positive integer. */
export function pullCount(max: unknown): number {
  if (max === undefined) return 1;
  return typeof max === 'number' && Number.isSafeInteger(max) && max > 0 ? max : 0;
}

/**
 * One transmit opportunity: `send` hands out one packet and says whether it had one, until
 * `pullCount(max)` are out. How many went out; undefined when `max` is not a positive integer.
 */
export function pullUpTo(max: unknown, send: () => boolean): number | undefined {
  const n = pullCount(max);
  if (n === 0) return undefined;
  let sent = 0;
  while (sent < n && send()) sent++;
  return sent;
}
