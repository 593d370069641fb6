/**
 * Seeded random streams, one per component (issue 7 §1: "seeded random streams per component").
 *
 *   const streams = new RandomStreams(seed);
 *   const rng = streams.stream('source/3');   // the same Rng for the same name
 *   rng.next(); rng.int(8); rng.bernoulli(0.8); rng.exponential(mean); rng.geometric(p);
 *   rng.choice(ports); rng.shuffle(order);
 *
 * Each stream is its own xoroshiro128+ generator (pure-rand's implementation) whose state is
 * derived from (master seed, stream name) alone by the hash in stream-seed.ts: a component's
 * draws do not change when other components are added, removed or created in another order, and
 * a run replays exactly from its seed. Streams share no state, so the order in which components
 * draw does not matter either.
 *
 * Bits. pure-rand's `next()` is the low 32 bits of xoroshiro128+'s 64-bit output, whose lowest
 * bits are its weakest (the lowest is an LFSR, Blackman & Vigna §10.7); `next()` here builds a
 * 53-bit fraction from the high 26 and 27 bits of two draws, and `int(n)` for n ≤ 2^21 uses the
 * high bits of one draw (Lemire's multiply-and-reject, "Fast random integer generation in an
 * interval", 2019), exactly uniform. Larger n take a 53-bit integer and reject the remainder.
 *
 * Argument checks throw `RangeError`: a probability outside [0, 1] or an empty choice is a bug in
 * the model, not an input to be tolerated.
 */
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { streamStateWords } from './stream-seed.ts';

const TWO_27 = 2 ** 27;
const TWO_32 = 2 ** 32;
const TWO_53 = 2 ** 53;
const INV_53 = 2 ** -53;
const LEMIRE_MAX = 2 ** 21;

/**
 * One seeded random stream (xoroshiro128+): uniform draws, integers, Bernoulli, exponential, geometric,
 * choice, shuffle. Get one from `RandomStreams.stream`.
 *
 * @example
 * ```ts
 * import { RandomStreams } from 'riodp/sim';
 *
 * // A traffic source's draws come from its own stream, named after it: they replay from the seed alone.
 * const rng = new RandomStreams(42).stream('source/1');
 * const gap = Math.round(rng.exponential(100_000)); // ps to the next packet: Poisson arrivals, mean 100 ns
 * const destination = rng.choice([2, 3, 4]);        // uniform over the other end points
 * const burst = rng.geometric(0.25);                // packets in this burst: 1, 2, 3, … mean 4
 * const bytes = 8 * (1 + rng.int(32));              // payload 8..256 bytes in double-words
 * console.log(gap, destination, burst, bytes); // 196596 3 7 56 (seed 42)
 * ```
 */
export class Rng {
  readonly name: string;
  private readonly g: RandomGenerator;
  private geoP = NaN;
  private geoLog = NaN;

  constructor(name: string, generator: RandomGenerator) {
    this.name = name;
    this.g = generator;
  }

  /** Uniform in [0, 1), a multiple of 2^-53. */
  next(): number {
    const g = this.g;
    return ((g.next() >>> 6) * TWO_27 + (g.next() >>> 5)) * INV_53;
  }

  /** Uniform integer in [0, n), n a positive safe integer; exactly uniform. */
  int(n: number): number {
    if (n <= LEMIRE_MAX && n >= 1 && (n | 0) === n) {
      const g = this.g;
      let m = (g.next() >>> 0) * n;
      let low = m >>> 0;
      if (low < n) {
        const threshold = TWO_32 % n;
        while (low < threshold) {
          m = (g.next() >>> 0) * n;
          low = m >>> 0;
        }
      }
      return (m - low) / TWO_32;
    }
    if (!(n >= 1 && n <= Number.MAX_SAFE_INTEGER) || Math.floor(n) !== n) throw new RangeError(`n must be a positive safe integer: got ${n}`);
    const limit = TWO_53 - (TWO_53 % n);
    let r: number;
    do r = this.bits53();
    while (r >= limit);
    return r % n;
  }

  /** True with probability p, p in [0, 1]. */
  bernoulli(p: number): boolean {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be a probability in [0, 1]: got ${p}`);
    return this.next() < p;
  }

  /** Exponentially distributed with the given mean (> 0); a real number, ≥ 0. */
  exponential(mean: number): number {
    if (!(mean > 0 && mean < Infinity)) throw new RangeError(`mean must be a positive finite number: got ${mean}`);
    // 1 − u is exact for u a multiple of 2^-53, so Math.log(1 − u) is as accurate as
    // Math.log1p(−u), and half the cost here. 0 − x rather than −x: u = 0 gives +0, not −0.
    return 0 - mean * Math.log(1 - this.next());
  }

  /**
   * Number of Bernoulli(p) trials up to and including the first success: 1, 2, 3, ... with
   * mean 1/p, p in (0, 1]. (Failures before the first success are `geometric(p) - 1`.)
   */
  geometric(p: number): number {
    if (p !== this.geoP) {
      if (!(p > 0 && p <= 1)) throw new RangeError(`p must be a probability in (0, 1]: got ${p}`);
      this.geoP = p;
      this.geoLog = Math.log1p(-p);
    }
    if (p === 1) return 1;
    return 1 + Math.floor(Math.log(1 - this.next()) / this.geoLog);
  }

  /** A uniformly chosen element of a non-empty array. */
  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('items must not be empty');
    return items[this.int(items.length)] as T;
  }

  /** Shuffles `items` in place (Fisher–Yates; every permutation equally likely) and returns it. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    }
    return items;
  }

  private bits53(): number {
    const g = this.g;
    return (g.next() >>> 6) * TWO_27 + (g.next() >>> 5);
  }
}

/**
 * The random streams of one run, each derived from the master seed and its name alone, so that a run replays
 * exactly from its seed.
 *
 * @example
 * ```ts
 * import { RandomStreams } from 'riodp/sim';
 *
 * // A stream's draws depend on (seed, name) only: not on which other components exist or draw first.
 * const a = new RandomStreams(42);
 * const first = a.stream('source/1').int(1000);
 * const b = new RandomStreams(42);
 * b.stream('source/2').int(1000);                         // another component, created and drawing first
 * console.log(first, b.stream('source/1').int(1000), b.names()); // 859 859 [ 'source/2', 'source/1' ]
 * ```
 */
export class RandomStreams {
  readonly seed: number;
  readonly #streams = new Map<string, Rng>();

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer: got ${seed}`);
    this.seed = seed;
  }

  /**
   * The stream named `name`. Asking again for a name returns the same `Rng`, continuing where it
   * is: two components that ask for one name share one sequence rather than both drawing the
   * same numbers.
   */
  stream(name: string): Rng {
    let rng = this.#streams.get(name);
    if (rng === undefined) {
      rng = new Rng(name, xoroshiro128plusFromState(streamStateWords(this.seed, name)));
      this.#streams.set(name, rng);
    }
    return rng;
  }

  /** Names of the streams created so far, in creation order. */
  names(): string[] {
    return [...this.#streams.keys()];
  }
}
