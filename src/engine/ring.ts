/**
 * A FIFO ring buffer for the simulator's packet queues (issue 7: "avoid Array.shift on long
 * queues"). Push and shift are O(1); the storage doubles when full and is never shrunk, so a
 * queue that has once held k packets keeps room for k without allocating again.
 */
export class Ring<T> {
  #items: (T | undefined)[];
  #head = 0;
  #length = 0;
  #mask: number;

  /** `capacity` is a hint, rounded up to a power of two. */
  constructor(capacity = 4) {
    let c = 1;
    while (c < capacity) c *= 2;
    this.#items = new Array<T | undefined>(c);
    this.#mask = c - 1;
  }

  get length(): number {
    return this.#length;
  }

  push(v: T): void {
    if (this.#length === this.#items.length) this.#grow();
    this.#items[(this.#head + this.#length) & this.#mask] = v;
    this.#length++;
  }

  /** The oldest element, or undefined when empty. */
  peek(): T | undefined {
    return this.#length === 0 ? undefined : this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#length === 0) return undefined;
    const v = this.#items[this.#head];
    // Clear the slot so that the ring does not keep a delivered packet alive.
    this.#items[this.#head] = undefined;
    this.#head = (this.#head + 1) & this.#mask;
    this.#length--;
    return v;
  }

  /** The i-th oldest element (0 = head), or undefined past the end. */
  at(i: number): T | undefined {
    return i >= 0 && i < this.#length ? this.#items[(this.#head + i) & this.#mask] : undefined;
  }

  /** The elements, oldest first (a copy, for snapshots and tests). */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.#length; i++) out.push(this.#items[(this.#head + i) & this.#mask] as T);
    return out;
  }

  #grow(): void {
    const old = this.#items;
    const n = old.length;
    const next = new Array<T | undefined>(n * 2);
    for (let i = 0; i < this.#length; i++) next[i] = old[(this.#head + i) & this.#mask];
    this.#items = next;
    this.#head = 0;
    this.#mask = n * 2 - 1;
  }
}
