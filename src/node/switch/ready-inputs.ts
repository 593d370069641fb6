/**
 * The free inputs holding a waiting packet (`current` null, `waiting` > 0): the only inputs a
 * crossbar decision can start anything from. A bit set, so that a decision visits these inputs,
 * in ascending order as the arbiters expect, instead of every port: on a 64-port leaf of a
 * 1024-end-point fabric most inputs are empty at any instant, and a decision per packet that
 * scanned all of them made the cost of an event grow with the switch's radix (issue 20).
 */
export class ReadyInputs {
  readonly #words: Uint32Array;
  #size = 0;

  constructor(ports: number) {
    this.#words = new Uint32Array((ports + 31) >>> 5);
  }

  get size(): number {
    return this.#size;
  }

  has(i: number): boolean {
    return ((this.#words[i >>> 5] as number) & (1 << (i & 31))) !== 0;
  }

  add(i: number): void {
    const w = i >>> 5;
    const bit = 1 << (i & 31);
    const v = this.#words[w] as number;
    if ((v & bit) !== 0) return;
    this.#words[w] = v | bit;
    this.#size++;
  }

  delete(i: number): void {
    const w = i >>> 5;
    const bit = 1 << (i & 31);
    const v = this.#words[w] as number;
    if ((v & bit) === 0) return;
    this.#words[w] = v & ~bit;
    this.#size--;
  }

  /** Writes the members in ascending order into `out`; returns how many. */
  list(out: Int32Array): number {
    let k = 0;
    const words = this.#words;
    for (let w = 0; w < words.length; w++) {
      let bits = words[w] as number;
      while (bits !== 0) {
        const low = bits & -bits;
        out[k++] = (w << 5) + 31 - Math.clz32(low);
        bits ^= low;
      }
    }
    return k;
  }
}
