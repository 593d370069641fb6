import { test } from 'node:test';
import assert from 'node:assert/strict';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { fnv1a64, splitMix64, streamState, streamStateWords } from './stream-seed.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const M64 = (1n << 64n) - 1n;
const rotl = (x: bigint, k: bigint): bigint => ((x << k) | (x >> (64n - k))) & M64;

test('issue 7 §1: stream seed hash: FNV-1a 64 matches the published test vectors', () => {
  // Fowler/Noll/Vo test suite (isthe.com/chongo/src/fnv/test_fnv.c), FNV-1a 64-bit.
  assert.equal(fnv1a64(utf8('')), 0xcbf29ce484222325n);
  assert.equal(fnv1a64(utf8('a')), 0xaf63dc4c8601ec8cn);
  assert.equal(fnv1a64(utf8('foobar')), 0x85944171f73967e8n);
});

test('issue 7 §1: stream seed hash: SplitMix64 matches the reference outputs', () => {
  // Vigna's splitmix64.c from x = 0, and from 1234567 (the sequence rand_xoshiro tests against).
  assert.deepEqual(splitMix64(0n, 1), [0xe220a8397b1dcdafn]);
  assert.deepEqual(splitMix64(1234567n, 5), [6457827717110365317n, 3203168211198807973n, 9817491932198370423n, 4593380528125082431n, 16408922859458223821n]);
});

test('issue 7 §1: a stream state is SplitMix64 from FNV-1a 64 of (seed as 8 LE bytes, UTF-8 name)', () => {
  const seed = 42;
  const bytes = new Uint8Array([42, 0, 0, 0, 0, 0, 0, 0, ...utf8('source/0')]);
  const [s0, s1] = splitMix64(fnv1a64(bytes), 2) as [bigint, bigint];
  assert.deepEqual(streamState(seed, 'source/0'), [s0, s1]);
  assert.deepEqual(streamState(seed, 'source/0'), [0x70b651f5284acc3cn, 0x80118ab9dbfa915bn]);
  // A negative seed is its two's-complement 64-bit pattern; names are UTF-8, not UTF-16.
  const neg = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...utf8('π')]);
  assert.deepEqual(streamState(-1, 'π'), splitMix64(fnv1a64(neg), 2));
  assert.notDeepEqual(streamState(1, 'a'), streamState(2, 'a'));
  assert.notDeepEqual(streamState(1, 'a'), streamState(1, 'b'));
});

test('issue 7 §1: the pure-rand generator is xoroshiro128+ (24, 16, 37) on the stated state, low 32 bits out', () => {
  const [w0, w1, w2, w3] = streamStateWords(7, 'link/3');
  let [s0, s1] = streamState(7, 'link/3');
  assert.equal(BigInt.asIntN(32, s0 >> 32n), BigInt(w0));
  assert.equal(BigInt.asIntN(32, s0), BigInt(w1));
  assert.equal(BigInt.asIntN(32, s1 >> 32n), BigInt(w2));
  assert.equal(BigInt.asIntN(32, s1), BigInt(w3));
  const g = xoroshiro128plusFromState([w0, w1, w2, w3]);
  for (let i = 0; i < 1000; i++) {
    // Blackman & Vigna, xoroshiro128plus.c (2018 constants a = 24, b = 16, c = 37).
    const out = (s0 + s1) & M64;
    const x = s1 ^ s0;
    s0 = rotl(s0, 24n) ^ x ^ ((x << 16n) & M64);
    s1 = rotl(x, 37n);
    assert.equal(g.next(), Number(BigInt.asIntN(32, out)));
  }
});
