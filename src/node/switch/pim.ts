import { positiveInteger } from '../../engine/config-checks.ts';
import type { ArbiterRandom } from './arbiters.ts';
import type { VoqMatching } from './voq-matching.ts';

/**
 * Parallel Iterative Matching for an input-queued switch with virtual output queues (Anderson,
 * Owicki, Saxe & Thacker, "High-Speed Switch Scheduling for Local-Area Networks", ACM TOCS
 * 11(4), 1993), with the priority levels iSLIP uses in this code (islip.ts).
 *
 * Each iteration, among the inputs and outputs still unmatched:
 *  1. Request: every input requests every output for which it has a queued packet, at the
 *     highest priority level queued for that output.
 *  2. Grant: an output with requests takes the highest level requested and grants one of the
 *     inputs requesting at that level, "randomly among the requests it receives" (uniformly).
 *  3. Accept: an input with grants takes the highest level granted and accepts one of those
 *     grants, uniformly at random.
 * No state is kept from one matching to the next. With every input requesting every output, one
 * iteration matches an input exactly when some output granted it: N(1 − (1 − 1/N)^N) pairs on
 * average, 1 − 1/e ≈ 63% of the inputs for large N, the saturation throughput of one-iteration
 * PIM under uniform traffic; the iterations go on until the matching is maximal (no grant left)
 * or `iterations` ran, and Anderson et al. show it is maximal after log2 N + 4/3 of them on
 * average.
 *
 * Randomness: one draw `rng.int(k)` per output with k ≥ 2 requests at its level, in output order,
 * then one per input with k ≥ 2 grants, in input order; the k candidates in ascending index order.
 */
export class Pim implements VoqMatching {
  readonly n: number;
  readonly levels: number;
  readonly iterations: number;
  /** Iterations that produced grants in the last matching (the last one may have added no pair). */
  lastIterations = 0;
  readonly #rng: ArbiterRandom;
  readonly #grant: Int32Array;
  readonly #grantLevel: Int32Array;
  readonly #outputMatched: Uint8Array;
  readonly #candidates: Int32Array;

  constructor(n: number, levels: number, iterations: number, rng: ArbiterRandom) {
    this.n = positiveInteger(n, 'ports');
    this.levels = positiveInteger(levels, 'levels');
    this.iterations = positiveInteger(iterations, 'iterations');
    this.#rng = rng;
    this.#grant = new Int32Array(n);
    this.#grantLevel = new Int32Array(n);
    this.#outputMatched = new Uint8Array(n);
    this.#candidates = new Int32Array(n);
  }

  /**
   * One matching. `requests[i * n + o]` is the priority level (0 … levels − 1, higher first) of
   * input i's request for output o, or −1 for none. Writes each input's matched output (or −1)
   * into `match` and returns the number of pairs.
   */
  match(requests: Int8Array, match: Int32Array): number {
    const n = this.n;
    match.fill(-1, 0, n);
    this.#outputMatched.fill(0);
    this.lastIterations = 0;
    let pairs = 0;
    for (let it = 0; it < this.iterations; it++) {
      if (this.#grants(requests, match) === 0) break;
      this.lastIterations++;
      const accepted = this.#accepts(match);
      pairs += accepted;
      if (accepted === 0) break;
    }
    return pairs;
  }

  #pick(k: number): number {
    const c = this.#candidates;
    return k === 1 ? (c[0] as number) : (c[this.#rng.int(k)] as number);
  }

  #grants(requests: Int8Array, match: Int32Array): number {
    const n = this.n;
    const c = this.#candidates;
    let grants = 0;
    for (let o = 0; o < n; o++) {
      this.#grant[o] = -1;
      if (this.#outputMatched[o] === 1) continue;
      let level = -1;
      let k = 0;
      for (let i = 0; i < n; i++) {
        const r = requests[i * n + o] as number;
        if (r < 0 || r < level || match[i] !== -1) continue;
        if (r > level) {
          level = r;
          k = 0;
        }
        c[k++] = i;
      }
      if (k === 0) continue;
      this.#grant[o] = this.#pick(k);
      this.#grantLevel[o] = level;
      grants++;
    }
    return grants;
  }

  #accepts(match: Int32Array): number {
    const n = this.n;
    const c = this.#candidates;
    let accepted = 0;
    for (let i = 0; i < n; i++) {
      if (match[i] !== -1) continue;
      let level = -1;
      let k = 0;
      for (let o = 0; o < n; o++) {
        if (this.#grant[o] !== i) continue;
        const g = this.#grantLevel[o] as number;
        if (g < level) continue;
        if (g > level) {
          level = g;
          k = 0;
        }
        c[k++] = o;
      }
      if (k === 0) continue;
      const o = this.#pick(k);
      match[i] = o;
      this.#outputMatched[o] = 1;
      accepted++;
    }
    return accepted;
  }
}
