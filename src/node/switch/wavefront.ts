import { positiveInteger } from '../../engine/config-checks.ts';
import type { VoqMatching } from './voq-matching.ts';

/**
 * The wrapped wave front arbiter (Tamir & Chi, "Symmetric Crossbar Arbiters for VLSI
 * Communication Switches", IEEE TPDS 4(1), 1993) over the virtual output queues of an
 * input-queued switch, with the priority levels iSLIP uses in this code (islip.ts).
 *
 * The n × n request matrix is swept by its wrapped diagonals: diagonal d holds the cells
 * (i, (i + d) mod n), one in every row and every column, so the arbiter decides all of a
 * diagonal's cells at once. A cell whose input and output are both still free and that holds a
 * request is granted; the wave then moves to the next diagonal. After the n diagonals no input
 * and output that are both free have a request between them: the matching is maximal. The
 * diagonal the wave starts from has the top priority; it moves on by one after every matching
 * with a request (each crossbar slot in slotted operation), so every cell is at the top in turn.
 *
 * Priority levels: one sweep per level, 3 … 0, each over the requests at that level among the
 * inputs and outputs the higher levels left free, from the same starting diagonal. A pair left
 * free by every sweep would have been taken in the sweep of its own level: still maximal.
 */
export class Wavefront implements VoqMatching {
  readonly n: number;
  readonly levels: number;
  readonly #outputMatched: Uint8Array;
  #start = 0;

  constructor(n: number, levels: number) {
    this.n = positiveInteger(n, 'ports');
    this.levels = positiveInteger(levels, 'levels');
    this.#outputMatched = new Uint8Array(n);
  }

  /** The diagonal the next matching starts from (the cells (i, (i + d) mod n)). */
  get startDiagonal(): number {
    return this.#start;
  }

  /**
   * One matching. `requests[i * n + o]` is the priority level (0 … levels − 1, higher first) of
   * input i's request for output o, or −1 for none. Writes each input's matched output (or −1)
   * into `match` and returns the number of pairs.
   */
  match(requests: Int8Array, match: Int32Array): number {
    const n = this.n;
    match.fill(-1, 0, n);
    const outputMatched = this.#outputMatched;
    outputMatched.fill(0);
    let top = -1;
    for (let x = 0; x < n * n; x++) if ((requests[x] as number) > top) top = requests[x] as number;
    if (top < 0) return 0;
    let pairs = 0;
    for (let level = top; level >= 0; level--) {
      for (let k = 0; k < n; k++) {
        const d = (this.#start + k) % n;
        for (let i = 0; i < n; i++) {
          if (match[i] !== -1) continue;
          const o = (i + d) % n;
          if (outputMatched[o] === 1 || requests[i * n + o] !== level) continue;
          match[i] = o;
          outputMatched[o] = 1;
          pairs++;
        }
      }
    }
    this.#start = (this.#start + 1) % n;
    return pairs;
  }
}
