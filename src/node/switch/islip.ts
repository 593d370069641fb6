import { positiveInteger } from '../../engine/config-checks.ts';
import type { VoqMatching } from './voq-matching.ts';

/**
 * iSLIP matching for an input-queued switch with virtual output queues (McKeown, "The iSLIP
 * Scheduling Algorithm for Input-Queued Switches", IEEE/ACM ToN 7(2), 1999), with the priority
 * levels of its "prioritized iSLIP" variant.
 *
 * Each iteration, among the inputs and outputs still unmatched:
 *  1. Request: every input requests every output for which it has a queued packet; the request
 *     carries the highest priority level queued for that output.
 *  2. Grant: an output with requests takes the highest level requested and grants the input that
 *     appears next in its round-robin schedule for that level, starting at the grant pointer.
 *  3. Accept: an input with grants takes the highest level granted and accepts the output next in
 *     its schedule for that level, starting at the accept pointer.
 * Pointers move only in the first iteration and only for an accepted grant: the grant pointer of
 * the output to one beyond the accepted input, the accept pointer of the input to one beyond the
 * accepted output. This is what desynchronises the grant pointers under load and gives 100%
 * throughput for uniform i.i.d. traffic with a single iteration.
 */
export class Islip implements VoqMatching {
  readonly n: number;
  readonly levels: number;
  readonly iterations: number;
  readonly #grantPtr: Int32Array;
  readonly #acceptPtr: Int32Array;
  readonly #grant: Int32Array;
  readonly #grantLevel: Int32Array;
  readonly #outputMatched: Uint8Array;

  constructor(n: number, levels: number, iterations: number) {
    this.n = positiveInteger(n, 'ports');
    this.levels = positiveInteger(levels, 'levels');
    this.iterations = positiveInteger(iterations, 'iterations');
    this.#grantPtr = new Int32Array(n * levels);
    this.#acceptPtr = new Int32Array(n * levels);
    this.#grant = new Int32Array(n);
    this.#grantLevel = new Int32Array(n);
    this.#outputMatched = new Uint8Array(n);
  }

  /**
   * One matching. `requests[i * n + o]` is the priority level (0 … levels − 1, higher first) of
   * input i's request for output o, or −1 for none. Writes each input's matched output (or −1)
   * into `match` and returns the number of pairs.
   */
  match(requests: Int8Array, match: Int32Array): number {
    const n = this.n;
    const L = this.levels;
    match.fill(-1, 0, n);
    this.#outputMatched.fill(0);
    let pairs = 0;
    for (let it = 0; it < this.iterations; it++) {
      let grants = 0;
      for (let o = 0; o < n; o++) {
        this.#grant[o] = -1;
        if (this.#outputMatched[o] === 1) continue;
        let level = -1;
        for (let i = 0; i < n; i++) {
          const r = requests[i * n + o] as number;
          if (r > level && match[i] === -1) level = r;
        }
        if (level < 0) continue;
        const start = this.#grantPtr[o * L + level] as number;
        for (let k = 0; k < n; k++) {
          const i = (start + k) % n;
          if (match[i] === -1 && requests[i * n + o] === level) {
            this.#grant[o] = i;
            this.#grantLevel[o] = level;
            grants++;
            break;
          }
        }
      }
      if (grants === 0) break;
      let accepted = 0;
      for (let i = 0; i < n; i++) {
        if (match[i] !== -1) continue;
        let level = -1;
        for (let o = 0; o < n; o++) if (this.#grant[o] === i && (this.#grantLevel[o] as number) > level) level = this.#grantLevel[o] as number;
        if (level < 0) continue;
        const start = this.#acceptPtr[i * L + level] as number;
        for (let k = 0; k < n; k++) {
          const o = (start + k) % n;
          if (this.#grant[o] !== i || this.#grantLevel[o] !== level) continue;
          match[i] = o;
          this.#outputMatched[o] = 1;
          accepted++;
          if (it === 0) {
            this.#acceptPtr[i * L + level] = (o + 1) % n;
            this.#grantPtr[o * L + level] = (i + 1) % n;
          }
          break;
        }
      }
      pairs += accepted;
      if (accepted === 0) break;
    }
    return pairs;
  }

  /** Grant pointers by output, then level. */
  grantPointers(): number[][] {
    return this.#rows(this.#grantPtr);
  }

  /** Accept pointers by input, then level. */
  acceptPointers(): number[][] {
    return this.#rows(this.#acceptPtr);
  }

  #rows(a: Int32Array): number[][] {
    const out: number[][] = [];
    for (let x = 0; x < this.n; x++) out.push([...a.subarray(x * this.levels, (x + 1) * this.levels)]);
    return out;
  }
}
