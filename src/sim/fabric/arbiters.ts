import type { Rng } from '../kernel/random.ts';

/**
 * How an output chooses among the inputs contending for it (issue 7 §2 "input FIFO" switches;
 * issue 7 §4 asks for Karol, Hluchyj & Morgan's saturation throughput "the same for random,
 * round-robin and fixed-priority arbitration"):
 * - `random`: each contender equally likely (the model Karol et al. 1987 analyse);
 * - `round-robin`: the first contender at or after the output's pointer, which then moves one
 *   past the winner, so an input that won waits for every other contender before winning again;
 * - `fixed`: the lowest-numbered input.
 */
export type Arbitration = 'random' | 'round-robin' | 'fixed';

export const ARBITRATIONS: readonly Arbitration[] = ['random', 'round-robin', 'fixed'];

/** The arbiters of every output of one switch: round-robin pointers and the random stream. */
export class OutputArbiters {
  readonly policy: Arbitration;
  readonly #pointers: Int32Array;
  readonly #n: number;
  readonly #rng: Rng | undefined;

  constructor(policy: Arbitration, outputs: number, inputs: number, rng?: Rng) {
    if (policy === 'random' && rng === undefined) throw new RangeError('arbitration random needs a random stream');
    this.policy = policy;
    this.#pointers = new Int32Array(outputs);
    this.#n = inputs;
    this.#rng = rng;
  }

  /**
   * The winner among `count` contending inputs listed in ascending order in
   * `list[offset .. offset + count)`; count >= 1.
   */
  pick(output: number, list: Int32Array, offset: number, count: number): number {
    if (count === 1 && this.policy !== 'round-robin') return list[offset] as number;
    switch (this.policy) {
      case 'fixed':
        return list[offset] as number;
      case 'random':
        return list[offset + (this.#rng as Rng).int(count)] as number;
      case 'round-robin': {
        const ptr = this.#pointers[output] as number;
        let winner = list[offset] as number;
        for (let k = 0; k < count; k++) {
          const i = list[offset + k] as number;
          if (i >= ptr) {
            winner = i;
            break;
          }
        }
        this.#pointers[output] = (winner + 1) % this.#n;
        return winner;
      }
    }
  }

  /** Round-robin pointers, for snapshots. */
  pointers(): number[] {
    return [...this.#pointers];
  }
}
