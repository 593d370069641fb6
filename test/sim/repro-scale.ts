/**
 * Run-length multiplier of the reproduction tests: `REPRO_SCALE=10 node --import tsx --test
 * test/sim/repro-*.test.ts` runs each ten times longer (the standard errors shrink by √10; the
 * tolerances stay). `npm test` runs them at 1.
 */
export const REPRO_SCALE = Math.max(1, Number(process.env['REPRO_SCALE'] ?? 1) || 1);

export function scaled(n: number): number {
  return Math.round(n * REPRO_SCALE);
}
