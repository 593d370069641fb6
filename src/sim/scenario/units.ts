/**
 * Quantities with units in scenario files (issue 7 §3: durations and sizes as "10us", "2ms",
 * "64B", "4KiB"). Times become integer picoseconds (the kernel's unit) and sizes integer bytes; a
 * bare number is already in ps or bytes. A value that does not come out a whole number of the base
 * unit ("0.5ps", "1.5B") is refused rather than rounded, so a file means exactly one thing.
 */

const TIME_UNITS: Readonly<Record<string, number>> = { ps: 1, ns: 1e3, us: 1e6, 'µs': 1e6, ms: 1e9, s: 1e12 };

const SIZE_UNITS: Readonly<Record<string, number>> = { B: 1, KB: 1e3, KiB: 1024, MB: 1e6, MiB: 1024 * 1024 };

const QUANTITY = /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*([A-Za-zµ]+)\s*$/;

function parse(v: unknown, units: Readonly<Record<string, number>>): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = QUANTITY.exec(v);
  if (m === null) return undefined;
  const scale = units[m[2] as string];
  if (scale === undefined) return undefined;
  const value = Number(m[1]) * scale;
  // Decimal fractions times powers of ten are not exact in binary ("0.1us" is
  // 100000.00000000001 ps): accept the few ulps of rounding, far below one base unit.
  const whole = Math.round(value);
  if (Math.abs(value - whole) > Math.max(1e-3, value * 1e-15) || !Number.isSafeInteger(whole)) return undefined;
  return whole;
}

/** A time in integer ps: a number of ps, or a string with ps, ns, us (µs), ms or s. undefined when it is not one. */
export function parseTime(v: unknown): number | undefined {
  return parse(v, TIME_UNITS);
}

/** A size in integer bytes: a number of bytes, or a string with B, KB, KiB, MB or MiB. */
export function parseSize(v: unknown): number | undefined {
  return parse(v, SIZE_UNITS);
}

/** A time for messages: the largest unit that keeps it whole (2_000_000 ps → "2us"). */
export function formatTime(ps: number): string {
  for (const [unit, scale] of [['s', 1e12], ['ms', 1e9], ['us', 1e6], ['ns', 1e3]] as const) {
    if (ps >= scale && ps % scale === 0) return `${ps / scale}${unit}`;
  }
  return `${ps}ps`;
}
