import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * How an output chooses among the inputs contending for it (issue 7 §2 "input FIFO" switches;
 * issue 15 "output arbitration policy (round robin, fixed priority, weighted; by priority and CRF
 * as Part 6 orders them)"). The matcher (matcher.ts) first keeps the contenders of the highest
 * class, prio × 2 + CRF, when the switch arbitrates by class; the policy then picks among them:
 * - `round-robin`: the first contender at or after the output's pointer, which then moves one
 *   past the winner, so an input that won waits for every other contender before winning again;
 * - `fixed`: the lowest-numbered input (fixed priority by port number);
 * - `weighted`: round robin in which input i, once it wins, keeps the turn for up to `weights[i]`
 *   consecutive wins while it contends (weighted round robin: shares in proportion to the weights
 *   among inputs that always contend);
 * - `random`: each contender equally likely (the model Karol, Hluchyj & Morgan 1987 analyse).
 */
export type Arbitration = 'random' | 'round-robin' | 'fixed' | 'weighted';

export const ARBITRATIONS: readonly Arbitration[] = ['random', 'round-robin', 'fixed', 'weighted'];

/** A seeded random stream (the simulator's `Rng`); the element draws nothing else from it. */
export interface ArbiterRandom {
  /** A uniform integer in [0, n). */
  int(n: number): number;
}

/** A stream for `random` from a seed (pure-rand's xoroshiro128+), for hosts without streams of their own. */
export function seededRandom(seed: number): ArbiterRandom {
  const g = xoroshiro128plus(seed);
  return { int: (n) => uniformInt(g, 0, n - 1) };
}

/** The arbiters of every output of one switch: round-robin pointers, weighted turns, the random stream. */
export class OutputArbiters {
  readonly policy: Arbitration;
  readonly #pointers: Int32Array;
  /** `weighted`: the input holding output o's turn (−1: none) and the wins it has left. */
  readonly #holder: Int32Array;
  readonly #left: Int32Array;
  readonly #weights: Int32Array;
  readonly #n: number;
  readonly #rng: ArbiterRandom | undefined;

  constructor(policy: Arbitration, outputs: number, inputs: number, rng?: ArbiterRandom, weights?: readonly number[]) {
    if (policy === 'random' && rng === undefined) throw new RangeError('arbitration random needs a random stream');
    this.policy = policy;
    this.#pointers = new Int32Array(outputs);
    this.#holder = new Int32Array(outputs).fill(-1);
    this.#left = new Int32Array(outputs);
    this.#weights = Int32Array.from({ length: inputs }, (_, i) => weights?.[i] ?? 1);
    this.#n = inputs;
    this.#rng = rng;
  }

  /**
   * The winner among `count` contending inputs listed in ascending order in
   * `list[offset .. offset + count)`; count >= 1.
   */
  pick(output: number, list: Int32Array, offset: number, count: number): number {
    if (count === 1 && this.policy !== 'round-robin' && this.policy !== 'weighted') return list[offset] as number;
    switch (this.policy) {
      case 'fixed':
        return list[offset] as number;
      case 'random':
        return list[offset + (this.#rng as ArbiterRandom).int(count)] as number;
      case 'round-robin': {
        const winner = this.#atPointer(output, list, offset, count);
        this.#pointers[output] = (winner + 1) % this.#n;
        return winner;
      }
      case 'weighted':
        return this.#weighted(output, list, offset, count);
    }
  }

  /** Round-robin pointers, for snapshots. */
  pointers(): number[] {
    return [...this.#pointers];
  }

  #atPointer(output: number, list: Int32Array, offset: number, count: number): number {
    const ptr = this.#pointers[output] as number;
    for (let k = 0; k < count; k++) {
      const i = list[offset + k] as number;
      if (i >= ptr) return i;
    }
    return list[offset] as number;
  }

  #weighted(output: number, list: Int32Array, offset: number, count: number): number {
    const winner = this.#atPointer(output, list, offset, count);
    let left: number;
    if (winner === this.#holder[output] && (this.#left[output] as number) > 0) left = (this.#left[output] as number) - 1;
    else {
      this.#holder[output] = winner;
      left = (this.#weights[winner] as number) - 1;
    }
    this.#left[output] = left;
    // The pointer stays on the holder while it has turns left, so it wins again if it contends.
    this.#pointers[output] = left > 0 ? winner : (winner + 1) % this.#n;
    return winner;
  }
}
