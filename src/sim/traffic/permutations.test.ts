import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXED_PATTERNS, patternImage, patternMap, patternRefusal } from './permutations.ts';
import type { FixedPattern } from './permutations.ts';

// Dally & Towles 2004 §3.2 Table 3.1 for N = 16 (b = 4), written out by hand from the definitions.
const N16: Record<FixedPattern, readonly number[]> = {
  'transpose': [0b0000, 0b0100, 0b1000, 0b1100, 0b0001, 0b0101, 0b1001, 0b1101, 0b0010, 0b0110, 0b1010, 0b1110, 0b0011, 0b0111, 0b1011, 0b1111],
  'bit-complement': [0b1111, 0b1110, 0b1101, 0b1100, 0b1011, 0b1010, 0b1001, 0b1000, 0b0111, 0b0110, 0b0101, 0b0100, 0b0011, 0b0010, 0b0001, 0b0000],
  'bit-reverse': [0b0000, 0b1000, 0b0100, 0b1100, 0b0010, 0b1010, 0b0110, 0b1110, 0b0001, 0b1001, 0b0101, 0b1101, 0b0011, 0b1011, 0b0111, 0b1111],
  'shuffle': [0b0000, 0b0010, 0b0100, 0b0110, 0b1000, 0b1010, 0b1100, 0b1110, 0b0001, 0b0011, 0b0101, 0b0111, 0b1001, 0b1011, 0b1101, 0b1111],
  // ⌈16/2⌉ − 1 = 7 ahead.
  'tornado': [7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6],
  'neighbour': [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0],
};

test('issue 21 Dally & Towles §3.2: each synthetic permutation over N = 16 end points, source by source', () => {
  for (const p of FIXED_PATTERNS) {
    const got = Array.from({ length: 16 }, (_, s) => patternImage(p, s, 16));
    assert.deepEqual(got, N16[p], p);
    assert.deepEqual([...got].sort((a, b) => a - b), Array.from({ length: 16 }, (_, s) => s), `${p} is a permutation`);
  }
  assert.equal(patternImage('transpose', 0b0110, 16), 0b1001);
  assert.equal(patternImage('bit-reverse', 0b0011, 16), 0b1100);
  assert.equal(patternImage('shuffle', 0b1001, 16), 0b0011);
});

test('issue 21 Dally & Towles §3.2: other sizes (transpose of 6 bits, tornado over an odd N, bit patterns over N = 2)', () => {
  assert.equal(patternImage('transpose', 0b000111, 64), 0b111000);
  assert.equal(patternImage('transpose', 0b101100, 64), 0b100101);
  assert.equal(patternImage('bit-reverse', 0b00001, 32), 0b10000);
  assert.equal(patternImage('shuffle', 0b10000, 32), 0b00001);
  assert.equal(patternImage('bit-complement', 0, 2), 1);
  // ⌈7/2⌉ − 1 = 3 ahead, around the ring.
  assert.deepEqual(Array.from({ length: 7 }, (_, s) => patternImage('tornado', s, 7)), [3, 4, 5, 6, 0, 1, 2]);
  assert.deepEqual(Array.from({ length: 3 }, (_, s) => patternImage('neighbour', s, 3)), [1, 2, 0]);
});

test('issue 21 Dally & Towles §3.2 (decision): bit patterns refuse a host count that is not a power of two, transpose an odd number of bits', () => {
  for (const p of ['transpose', 'bit-complement', 'bit-reverse', 'shuffle'] as const) {
    assert.equal(patternRefusal(p, 12), `expected a host count that is a power of two for ${p} (the topology has 12 hosts)`);
    assert.throws(() => patternImage(p, 0, 12), /power of two/);
  }
  assert.match(patternRefusal('transpose', 8) ?? '', /even power of two .* for transpose \(the topology has 8 hosts\)/);
  assert.equal(patternRefusal('bit-reverse', 8), undefined);
  assert.equal(patternRefusal('tornado', 12), undefined);
  assert.equal(patternRefusal('neighbour', 5), undefined);
  assert.throws(() => patternImage('neighbour', 5, 5), /host index 0\.\.4/);
});

test('issue 21 Dally & Towles §3.2 (decision): a source that is its own image sends nothing', () => {
  // Transpose: equal halves; bit-reverse: palindromes; shuffle: all zeros and all ones.
  assert.deepEqual([...patternMap('transpose', Array.from({ length: 16 }, (_, s) => s), 16).keys()].filter((s) => s % 5 === 0), []);
  assert.equal(patternMap('transpose', Array.from({ length: 16 }, (_, s) => s), 16).size, 12);
  const rev = patternMap('bit-reverse', [0b0110, 0b1001, 0b0001, 0b1111, 0b0001], 16);
  assert.deepEqual([...rev], [[0b0001, 0b1000]]);
  assert.deepEqual([...patternMap('shuffle', [15, 3, 0], 16)], [[3, 6]]);
  assert.equal(patternMap('bit-complement', Array.from({ length: 16 }, (_, s) => s), 16).size, 16);
  // Tornado over 2 hosts moves nobody: ⌈2/2⌉ − 1 = 0.
  assert.equal(patternMap('tornado', [0, 1], 2).size, 0);
});
