/**
 * A binary min-heap of timer entries ordered by (at, seq), each entry knowing its own index so
 * that a cancelled or replaced timer leaves the heap at once: the heap holds exactly the armed
 * timers, however often engines re-arm them.
 */
import type { Time } from '../engine/contract.ts';

export interface HeapEntry {
  readonly at: Time;
  /** Request order: among equal times the earlier request expires first. */
  readonly seq: number;
  index: number;
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export class TimerHeap<E extends HeapEntry> {
  readonly #items: E[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): E | undefined {
    return this.#items[0];
  }

  push(e: E): void {
    e.index = this.#items.length;
    this.#items.push(e);
    this.#up(e.index);
  }

  /** Removes `e` if it is in the heap. */
  remove(e: E): void {
    const i = e.index;
    if (i < 0 || this.#items[i] !== e) return;
    const last = this.#items.pop() as E;
    e.index = -1;
    if (last === e) return;
    this.#items[i] = last;
    last.index = i;
    this.#up(i);
    this.#down(last.index);
  }

  pop(): E | undefined {
    const top = this.#items[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  clear(): void {
    for (const e of this.#items) e.index = -1;
    this.#items.length = 0;
  }

  /** The entries in expiry order (a copy). */
  sorted(): E[] {
    return [...this.#items].sort((a, b) => (before(a, b) ? -1 : 1));
  }

  #up(i: number): void {
    const items = this.#items;
    const e = items[i] as E;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = items[p] as E;
      if (!before(e, parent)) break;
      items[i] = parent;
      parent.index = i;
      i = p;
    }
    items[i] = e;
    e.index = i;
  }

  #down(i: number): void {
    const items = this.#items;
    const n = items.length;
    const e = items[i] as E;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(items[r] as E, items[l] as E) ? r : l;
      const child = items[c] as E;
      if (!before(child, e)) break;
      items[i] = child;
      child.index = i;
      i = c;
    }
    items[i] = e;
    e.index = i;
  }
}
