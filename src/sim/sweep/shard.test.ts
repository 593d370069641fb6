import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inShard, parseShard } from './shard.ts';

test('issue 21 item 1 --shard i/N: shard i of N (i from 0) runs the points whose index is i modulo N; every point in exactly one shard', () => {
  assert.deepEqual(parseShard('1/3'), { index: 1, count: 3 });
  for (const bad of ['3/2', '2/2', '0/0', '1', '-1/2', '1/2/3', ' 0/2', '0x1/2']) assert.match(parseShard(bad) as string, /^expected i\/N with 0 <= i < N/, bad);
  const shards = [0, 1, 2].map((index) => ({ index, count: 3 }));
  for (let p = 0; p < 10; p++) assert.equal(shards.filter((s) => inShard(p, s)).length, 1);
  assert.deepEqual([...Array(10).keys()].filter((p) => inShard(p, { index: 1, count: 3 })), [1, 4, 7]);
});

test('issue 21 item 1 --shard alone in a Slurm array job: the shard is the task index counted from the first of --array (0-based or 1-based, with its step) of SLURM_ARRAY_TASK_COUNT', () => {
  const slurm = (id: number, count: number, min?: number, step?: number): unknown =>
    parseShard(true, { SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_COUNT: String(count), ...(min === undefined ? {} : { SLURM_ARRAY_TASK_MIN: String(min) }), ...(step === undefined ? {} : { SLURM_ARRAY_TASK_STEP: String(step) }) });
  assert.deepEqual(slurm(0, 4, 0), { index: 0, count: 4 }); // --array=0-3
  assert.deepEqual(slurm(3, 4, 0), { index: 3, count: 4 });
  assert.deepEqual(slurm(1, 4, 1), { index: 0, count: 4 }); // --array=1-4
  assert.deepEqual(slurm(4, 4, 1), { index: 3, count: 4 });
  assert.deepEqual(slurm(5, 3, 1, 2), { index: 2, count: 3 }); // --array=1-5:2
  assert.deepEqual(slurm(2, 3), { index: 2, count: 3 }, 'no SLURM_ARRAY_TASK_MIN: from 0');
  assert.match(slurm(9, 3, 1) as string, /^the Slurm array is not a range \(task 9 of 3, first 1, step 1\); submit it as --array=0-2 or give --shard i\/N$/); // --array=1,4,9
  assert.match(parseShard(true, {}) as string, /no value in a Slurm array job \(SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set\)$/);
});
