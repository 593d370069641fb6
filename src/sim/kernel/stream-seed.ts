/**
 * The initial state of a named random stream, from the master seed and the stream's name only
 * (issue 7 §1: "seeded random streams per component"). Because nothing else goes in, a
 * component's stream is the same whichever other streams exist and in whatever order they were
 * created.
 *
 * The hash, stated so that other implementations can reproduce a run:
 *   1. h = FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the 8 bytes of
 *      the seed as a two's-complement 64-bit integer, little-endian, followed by the UTF-8 bytes
 *      of the name;
 *   2. SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
 *      OOPSLA 2014; Vigna's splitmix64.c) started at h; its first two outputs s0, s1 are the
 *      xoroshiro128+ state (Blackman & Vigna), s0 first.
 * FNV-1a alone spreads short names that differ in their last byte poorly; SplitMix64's
 * finaliser is there for the avalanche. Two consecutive SplitMix64 outputs are distinct, so the
 * state is never all zero (xoroshiro's one forbidden state).
 *
 * Runs once per stream, so BigInt arithmetic is fine here.
 */
const MASK64 = (1n << 64n) - 1n;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

export function fnv1a64(bytes: Uint8Array, h: bigint = FNV_OFFSET): bigint {
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK64;
  return h;
}

/** SplitMix64 from `state`: the first `n` outputs. */
export function splitMix64(state: bigint, n: number): bigint[] {
  const out: bigint[] = [];
  let s = state & MASK64;
  for (let i = 0; i < n; i++) {
    s = (s + GOLDEN_GAMMA) & MASK64;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    out.push(z ^ (z >> 31n));
  }
  return out;
}

/** The stream's 128-bit xoroshiro128+ state as two 64-bit words [s0, s1]. */
export function streamState(seed: number, name: string): [bigint, bigint] {
  const seedBytes = new Uint8Array(8);
  new DataView(seedBytes.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(seed)), true);
  const h = fnv1a64(new TextEncoder().encode(name), fnv1a64(seedBytes));
  const [s0, s1] = splitMix64(h, 2) as [bigint, bigint];
  return [s0, s1];
}

/**
 * The same state as the four signed 32-bit words pure-rand's `xoroshiro128plusFromState` takes:
 * [high s0, low s0, high s1, low s1] (its `next()` returns the low 32 bits of s0 + s1).
 */
export function streamStateWords(seed: number, name: string): [number, number, number, number] {
  const [s0, s1] = streamState(seed, name);
  const w = (x: bigint): number => Number(BigInt.asIntN(32, x));
  return [w(s0 >> 32n), w(s0), w(s1 >> 32n), w(s1)];
}

/**
 * The master seed of replication `r` of a run seeded `seed` (issue 20 "replications with
 * confidence intervals"): replication 0 is the run itself (`seed`), replication r ≥ 1 takes the low
 * 32 bits of s0 of the stream named `replication:<r>` (`streamState`), so every replication's
 * seed depends on the master seed and its index only, and lies in a scenario's seed range.
 */
export function replicationSeed(seed: number, r: number): number {
  if (!Number.isSafeInteger(r) || r < 0) throw new RangeError('replication index must be a non-negative integer');
  if (r === 0) return seed;
  return Number(BigInt.asUintN(32, streamState(seed, `replication:${r}`)[0]));
}
