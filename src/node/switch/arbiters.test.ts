import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputArbiters } from './arbiters.ts';

const list = (...xs: number[]): Int32Array => Int32Array.from(xs);

/** A seeded linear congruential stream (Numerical Recipes constants): uniform enough for a frequency check. */
function lcg(seed: number): { int(n: number): number } {
  let x = seed >>> 0;
  return {
    int(n: number): number {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      return Math.floor((x / 2 ** 32) * n);
    },
  };
}

test('issue 7 §2 arbitration fixed: the lowest-numbered contender wins', () => {
  const a = new OutputArbiters('fixed', 2, 4);
  assert.equal(a.pick(0, list(1, 2, 3), 0, 3), 1);
  assert.equal(a.pick(0, list(1, 2, 3), 0, 3), 1);
  assert.equal(a.pick(1, list(9, 3), 1, 1), 3);
});

test('issue 7 §2 arbitration round-robin: the first contender at or after the pointer wins and the pointer moves past it', () => {
  const a = new OutputArbiters('round-robin', 2, 4);
  assert.equal(a.pick(0, list(1, 3), 0, 2), 1);
  assert.equal(a.pick(0, list(1, 3), 0, 2), 3);
  // The pointer is now 0 (3 + 1 wraps): input 1 again.
  assert.equal(a.pick(0, list(1, 3), 0, 2), 1);
  // Each output has its own pointer.
  assert.equal(a.pick(1, list(0, 3), 0, 2), 0);
  assert.deepEqual(a.pointers(), [2, 1]);
});

test('issue 7 §2 arbitration random: uniform among contenders, from the stream given', () => {
  const a = new OutputArbiters('random', 1, 4, lcg(3));
  const wins = [0, 0, 0, 0];
  for (let k = 0; k < 30_000; k++) {
    const w = a.pick(0, list(0, 2, 3), 0, 3);
    wins[w] = (wins[w] ?? 0) + 1;
  }
  assert.equal(wins[1], 0);
  for (const w of [wins[0], wins[2], wins[3]]) assert.ok(Math.abs((w ?? 0) - 10_000) < 400, `wins ${wins.join()}`);
  assert.throws(() => new OutputArbiters('random', 1, 4), /needs a random stream/);
});
