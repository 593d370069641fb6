/**
 * fast-check parameters shared by every property test. CI runs with the fixed seed and at least
 * 100k cases per format (DEVELOPERS.md); `npm run fuzz` raises FC_RUNS and may vary FC_SEED.
 * FC_RUNS can be lowered locally while iterating, never in CI.
 */
export const FC_SEED = Number(process.env['FC_SEED'] ?? 0x5eed);
export const FC_RUNS = Number(process.env['FC_RUNS'] ?? 100_000);

/**
 * Properties of register views, register spaces and engine models: their inputs are one 32-bit
 * word or a short command list, not a packet format, and 20k cases cover them; they scale with
 * FC_RUNS so `npm run fuzz` raises them too. Packet and symbol codecs keep FC_RUNS (issue 1:
 * ">= 100k cases per format in CI").
 */
export const FC_RUNS_MODEL = Math.max(1, Math.floor(FC_RUNS / 5));

/**
 * Properties of the CLI's JSON form (src/cli/json, docs/cli.md: decode → JSON → encode, labels
 * alone, JSON objects refused with WireError only): they map the decoded value field by field on
 * top of the codecs, whose own properties keep FC_RUNS per format; 20k cases cover the mapping and
 * keep each such test to 1–3 s. They scale with FC_RUNS so `npm run fuzz` raises them too.
 */
export const FC_RUNS_JSON = Math.max(1, Math.floor(FC_RUNS / 5));

export function fcParams(runs: number = FC_RUNS): { seed: number; numRuns: number } {
  return { seed: FC_SEED, numRuns: runs };
}
