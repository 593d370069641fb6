/**
 * A FIFO with O(1) push and shift: an array with a moving head, compacted once the dead head is
 * more than half the array, so queues that never empty do not keep what left them.
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(v: T): void {
    this.#items.push(v);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    const v = this.#items[this.#head];
    if (v === undefined) return undefined;
    this.#head++;
    if (this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return v;
  }

  /** Removes and returns everything, oldest first. */
  clear(): T[] {
    const all = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return all;
  }

  /** Everything queued, oldest first (a copy). */
  values(): T[] {
    return this.#items.slice(this.#head);
  }
}
