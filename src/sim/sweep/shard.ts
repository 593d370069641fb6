/**
 * Which points a shard of a sweep runs (issue 21 item 1: a grid split over machines): shard i of
 * N runs the points whose index ≡ i (mod N), i counted from 0, so shards 0 … N-1 together run
 * every point once and neighbouring points (often neighbouring loads) go to different shards.
 *
 * In a Slurm array job `--shard` without a value takes its shard from the array: Slurm numbers
 * the tasks from the first index of `--array` (0 in `--array=0-7`, 1 in `--array=1-8`, and a
 * step in `--array=1-15:2`), so the shard is (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) /
 * SLURM_ARRAY_TASK_STEP of SLURM_ARRAY_TASK_COUNT, whatever the numbering. An array whose
 * indices are a list rather than a range (`--array=1,4,9`) does not give one shard per task
 * that way, and is refused.
 */

export interface Shard {
  /** 0 … count-1. */
  readonly index: number;
  readonly count: number;
}

const SPEC = /^(\d+)\/(\d+)$/;

function integer(v: string | undefined): number | undefined {
  return v !== undefined && /^\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : undefined;
}

function fromSlurm(env: Readonly<Record<string, string | undefined>>): Shard | string {
  const id = integer(env['SLURM_ARRAY_TASK_ID']);
  const count = integer(env['SLURM_ARRAY_TASK_COUNT']);
  if (id === undefined || count === undefined) {
    return 'expected i/N (shard i of N, i from 0), or no value in a Slurm array job (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set)';
  }
  const min = integer(env['SLURM_ARRAY_TASK_MIN']) ?? 0;
  const step = integer(env['SLURM_ARRAY_TASK_STEP']) ?? 1;
  const index = (id - min) / (step === 0 ? 1 : step);
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    return `the Slurm array is not a range (task ${id} of ${count}, first ${min}, step ${step}); submit it as --array=0-${count - 1} or give --shard i/N`;
  }
  return { index, count };
}

/** `--shard i/N`, or `--shard` alone (`true`) in a Slurm array job; a string is the problem. */
export function parseShard(spec: string | true, env: Readonly<Record<string, string | undefined>> = process.env): Shard | string {
  if (spec === true) return fromSlurm(env);
  const m = SPEC.exec(spec);
  const index = integer(m?.[1]);
  const count = integer(m?.[2]);
  if (index === undefined || count === undefined || count < 1 || index >= count) {
    return `expected i/N with 0 <= i < N (shard i of N, i from 0), not "${spec}"`;
  }
  return { index, count };
}

export function inShard(index: number, shard: Shard): boolean {
  return index % shard.count === shard.index;
}
