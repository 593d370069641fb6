import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RandomStreams } from '../kernel/random.ts';
import { FixedDestination, HotspotDestinations, derangement, incast, makeDestinations } from './destinations.ts';
import { EmpiricalSize, FixedSize, UniformSize, makeSize } from './sizes.ts';

test('issue 7 §3 permutation: a fixed random permutation with no self, the same for the same seed', () => {
  const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const p = derangement(ids, new RandomStreams(4).stream('traffic:permutation'));
  assert.deepEqual([...p.keys()], ids);
  assert.deepEqual([...p.values()].sort((a, b) => a - b), ids, 'a permutation');
  for (const [s, d] of p) assert.notEqual(s, d, `source ${s} sends to itself`);
  assert.deepEqual(derangement(ids, new RandomStreams(4).stream('traffic:permutation')), p);
  assert.throws(() => derangement([5], new RandomStreams(1).stream('x')), /at least two/);
});

test('issue 7 §3 permutation: uniform over the permutations with no fixed point (both of the two for 3 IDs)', () => {
  const rng = new RandomStreams(11).stream('traffic:permutation');
  let first = 0;
  for (let i = 0; i < 4000; i++) if (derangement([0, 1, 2], rng).get(0) === 1) first++;
  // 0→1→2→0 and 0→2→1→0, each with probability 1/2.
  assert.ok(Math.abs(first / 4000 - 0.5) < 0.03, `share ${first / 4000}`);
});

test('issue 7 §3 incast: many sources to one sink', () => {
  const m = incast([4, 1, 2, 3], 3);
  assert.deepEqual([...m], [[1, 3], [2, 3], [4, 3]]);
  const f = makeDestinations({ kind: 'fixed', dst: 3 }, 1);
  assert.equal(f.draw(new RandomStreams(1).stream('x')), 3);
  assert.deepEqual(f.destinations(), [3]);
  assert.throws(() => new FixedDestination(2, 2), /must not be the source 2 itself/);
});

test('issue 7 §3 destinations: a pattern lists every destination it can give, and refuses a list with none but the source', () => {
  assert.deepEqual(makeDestinations({ kind: 'uniform', ids: [3, 1, 2, 1] }, 2).destinations(), [1, 3]);
  assert.deepEqual(new HotspotDestinations([0, 1, 2], 1, 9, 0.5).destinations(), [0, 2, 9]);
  assert.throws(() => makeDestinations({ kind: 'uniform', ids: [4] }, 4), /destination other than the source 4/);
  assert.throws(() => new HotspotDestinations([0, 1], 0, 1, 1.5), /destinations.h must be a fraction/);
});

test('issue 7 §3 PDU size distributions: fixed, uniform [a, b] and a weighted list give the sizes and proportions asked', () => {
  const rng = new RandomStreams(2).stream('source:0:size');
  assert.equal(new FixedSize(100).draw(), 100);
  const u = new UniformSize(10, 13);
  const seen = new Map<number, number>();
  for (let i = 0; i < 40_000; i++) {
    const b = u.draw(rng);
    seen.set(b, (seen.get(b) ?? 0) + 1);
  }
  assert.deepEqual([...seen.keys()].sort((a, b) => a - b), [10, 11, 12, 13]);
  for (const c of seen.values()) assert.ok(Math.abs(c / 40_000 - 0.25) < 0.01);
  assert.equal(u.mean, 11.5);
  // Bimodal: 64-byte PDUs 3 times as often as 1500-byte ones.
  const e = makeSize({ kind: 'empirical', values: [{ bytes: 64, weight: 3 }, { bytes: 1500, weight: 1 }] });
  let small = 0;
  for (let i = 0; i < 40_000; i++) if (e.draw(rng) === 64) small++;
  assert.ok(Math.abs(small / 40_000 - 0.75) < 0.01, `share ${small / 40_000}`);
  assert.equal(e.mean, (3 * 64 + 1500) / 4);
  assert.deepEqual(e.support(), [{ bytes: 64, p: 0.75 }, { bytes: 1500, p: 0.25 }]);
  assert.equal(u.support().reduce((s, x) => s + x.p, 0), 1);
  assert.throws(() => new EmpiricalSize([{ bytes: 10, weight: 0 }]), /weight must be a positive number/);
  assert.throws(() => new UniformSize(5, 4), /size.max must be at least size.min/);
});
