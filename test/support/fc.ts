/**
 * fast-check parameters shared by every property test. CI runs with the fixed seed and at least
 * 100k cases per format (DEVELOPERS.md); `npm run fuzz` raises FC_RUNS and may vary FC_SEED.
 * FC_RUNS can be lowered locally while iterating, never in CI.
 */
export const FC_SEED = Number(process.env['FC_SEED'] ?? 0x5eed);
export const FC_RUNS = Number(process.env['FC_RUNS'] ?? 100_000);

export function fcParams(runs: number = FC_RUNS): { seed: number; numRuns: number } {
  return { seed: FC_SEED, numRuns: runs };
}
