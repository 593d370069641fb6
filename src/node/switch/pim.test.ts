import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from './arbiters.ts';
import { Pim } from './pim.ts';

function full(n: number, level = 0): Int8Array {
  return new Int8Array(n * n).fill(level);
}

function slot(pim: Pim, req: Int8Array): number[] {
  const m = new Int32Array(pim.n);
  pim.match(req, m);
  return [...m];
}

/** Pearson's statistic of `counts` against equal shares. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const e = total / counts.length;
  return counts.reduce((s, c) => s + ((c - e) ** 2) / e, 0);
}

/** Whether some input and output left unmatched have a request between them. */
function unmatchedPair(n: number, req: Int8Array, m: readonly number[]): boolean {
  const taken = new Set(m.filter((o) => o >= 0));
  for (let i = 0; i < n; i++) {
    if (m[i] !== -1) continue;
    for (let o = 0; o < n; o++) if (!taken.has(o) && (req[i * n + o] as number) >= 0) return true;
  }
  return false;
}

// χ² with 3 degrees of freedom exceeds 16.27 with probability 0.001.
const CHI2_3DF_999 = 16.27;

test('Anderson et al. 1993 (PIM): an output grants one of the inputs requesting it uniformly at random', () => {
  const pim = new Pim(4, 1, 1, seededRandom(7));
  // Every input requests output 0 only: the input matched is the one output 0 granted.
  const req = new Int8Array(16).fill(-1);
  for (let i = 0; i < 4; i++) req[i * 4] = 0;
  const counts = [0, 0, 0, 0];
  for (let s = 0; s < 8000; s++) {
    const m = slot(pim, req);
    const i = m.indexOf(0);
    assert.equal(m.filter((o) => o >= 0).length, 1);
    counts[i] = (counts[i] as number) + 1;
  }
  assert.ok(chiSquare(counts) < CHI2_3DF_999, `grants ${counts.join(', ')}`);
});

test('Anderson et al. 1993 (PIM): an input accepts one of the grants it received uniformly at random', () => {
  const pim = new Pim(4, 1, 1, seededRandom(8));
  // Input 0 alone requests every output: every output grants it, and the output matched is the grant it accepted.
  const req = new Int8Array(16).fill(-1);
  for (let o = 0; o < 4; o++) req[o] = 0;
  const counts = [0, 0, 0, 0];
  for (let s = 0; s < 8000; s++) {
    const o = slot(pim, req)[0] as number;
    counts[o] = (counts[o] as number) + 1;
  }
  assert.ok(chiSquare(counts) < CHI2_3DF_999, `accepts ${counts.join(', ')}`);
});

test('Anderson et al. 1993 (PIM): one iteration under a full request matrix matches N(1 − (1 − 1/N)^N) inputs on average (→ 1 − 1/e)', () => {
  for (const n of [4, 16]) {
    const pim = new Pim(n, 1, 1, seededRandom(11));
    const req = full(n);
    let pairs = 0;
    const slots = 20_000;
    for (let s = 0; s < slots; s++) pairs += slot(pim, req).filter((o) => o >= 0).length;
    const expected = 1 - (1 - 1 / n) ** n;
    assert.ok(Math.abs(pairs / (n * slots) - expected) < 0.005, `N = ${n}: ${pairs / (n * slots)} against ${expected}`);
  }
});

test('Anderson et al. 1993 (PIM): iterated until no grant is left, the matching is maximal, after at most log2 N + 4/3 iterations on average', () => {
  const n = 16;
  const pim = new Pim(n, 4, 64, seededRandom(3));
  const draw = seededRandom(4);
  let iterations = 0;
  const trials = 2000;
  for (let t = 0; t < trials; t++) {
    const req = new Int8Array(n * n);
    for (let x = 0; x < n * n; x++) req[x] = draw.int(2) === 0 ? -1 : draw.int(4);
    const m = slot(pim, req);
    assert.equal(unmatchedPair(n, req, m), false);
    assert.equal(new Set(m.filter((o) => o >= 0)).size, m.filter((o) => o >= 0).length);
    for (let i = 0; i < n; i++) if ((m[i] as number) >= 0) assert.ok((req[i * n + (m[i] as number)] as number) >= 0);
    iterations += pim.lastIterations;
  }
  assert.ok(iterations / trials <= Math.log2(n) + 4 / 3, `mean iterations ${iterations / trials}`);
  // Full requests: a maximal matching is perfect.
  const m = slot(pim, full(n));
  assert.equal(new Set(m).size, n);
});

test('Anderson et al. 1993 (PIM) with iSLIP\'s priority levels: an output grants only at the highest level requested, an input accepts only at the highest level granted', () => {
  const pim = new Pim(4, 4, 1, seededRandom(5));
  // Output 0: input 1 at level 2, inputs 0, 2, 3 at level 0. Input 3: output 1 at level 3, output 2 at level 1.
  const req = new Int8Array(16).fill(-1);
  req[0 * 4 + 0] = 0;
  req[1 * 4 + 0] = 2;
  req[2 * 4 + 0] = 0;
  req[3 * 4 + 0] = 0;
  req[3 * 4 + 1] = 3;
  req[3 * 4 + 2] = 1;
  for (let s = 0; s < 200; s++) assert.deepEqual(slot(pim, req), [-1, 0, -1, 1]);
});

test('Anderson et al. 1993 (PIM): the matchings follow the seed: the same seed gives the same sequence, others differ', () => {
  const run = (seed: number): string => {
    const pim = new Pim(8, 1, 2, seededRandom(seed));
    return Array.from({ length: 50 }, () => slot(pim, full(8)).join()).join(';');
  };
  assert.equal(run(1), run(1));
  assert.notEqual(run(1), run(2));
  assert.throws(() => new Pim(4, 1, 0, seededRandom(1)), RangeError);
});
