/**
 * Numbers as the report's tables show them. Locale-free so that the same results give the same
 * page on every machine, and short enough to compare variants at a glance.
 */

/** Shown for a value that is missing or not finite (a rate over an empty window, say). */
export const NO_VALUE = '—';

/**
 * Integers exactly (up to 2^53); other values to `digits` significant digits without trailing
 * zeros (whole units once the integer part alone has that many), switching to exponent form only
 * outside [1e-4, 1e15) where fixed notation gets unreadable.
 */
export function formatNumber(value: number | undefined, digits = 4): string {
  if (value === undefined || !Number.isFinite(value)) return NO_VALUE;
  if (Number.isSafeInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e15)) {
    return value.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  }
  // toPrecision would switch to exponent form here; whole units are precise enough at this size.
  if (magnitude >= 10 ** digits) return String(Math.round(value));
  const fixed = value.toPrecision(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** A duration in seconds of wall time: milliseconds below one second. */
export function formatWallSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return NO_VALUE;
  if (seconds < 1) return `${formatNumber(seconds * 1000, 3)} ms`;
  return `${formatNumber(seconds, 3)} s`;
}

/** Simulated time, given in microseconds by the results collector. */
export function formatSimulatedMicroseconds(us: number): string {
  if (!Number.isFinite(us)) return NO_VALUE;
  if (us >= 1e6) return `${formatNumber(us / 1e6, 4)} s`;
  if (us >= 1e3) return `${formatNumber(us / 1e3, 4)} ms`;
  return `${formatNumber(us, 4)} µs`;
}
