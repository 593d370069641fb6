/**
 * The driver's pending timers (src/engine/contract.ts): at most one expiry per name, a new
 * request replacing the old one and `at: null` cancelling it. Due timers come out in order of
 * (at, arming sequence): a binary heap whose entries go stale when their name is re-armed or
 * cancelled, so that arming, cancelling and popping stay O(log n).
 */
export interface PendingTimer {
  readonly name: string;
  readonly at: number;
  /** Arming sequence number: ties on `at` fire in the order the timers were armed. */
  readonly seq: number;
}

function before(a: PendingTimer, b: PendingTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export class TimerQueue {
  readonly #current = new Map<string, PendingTimer>();
  readonly #heap: PendingTimer[] = [];
  #seq = 0;

  set(name: string, at: number | null): void {
    if (at === null) {
      this.#current.delete(name);
      return;
    }
    const t: PendingTimer = { name, at, seq: this.#seq++ };
    this.#current.set(name, t);
    this.#push(t);
    // Re-arming leaves stale entries behind; rebuild once they outnumber the live ones.
    if (this.#heap.length > 2 * this.#current.size + 64) this.#rebuild();
  }

  /** Removes and returns the earliest pending timer due at or before `t`. */
  popDue(t: number): PendingTimer | undefined {
    const top = this.#peek();
    if (top === undefined || top.at > t) return undefined;
    this.#pop();
    this.#current.delete(top.name);
    return top;
  }

  /** Pending timers in firing order, for the end line. */
  pending(): PendingTimer[] {
    return [...this.#current.values()].sort((a, b) => (before(a, b) ? -1 : 1));
  }

  get size(): number {
    return this.#current.size;
  }

  #rebuild(): void {
    this.#heap.length = 0;
    for (const t of this.pending()) this.#heap.push(t);
  }

  #peek(): PendingTimer | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined || this.#current.get(top.name) === top) return top;
      this.#pop();
    }
  }

  #push(t: PendingTimer): void {
    const h = this.#heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent] as PendingTimer;
      if (!before(t, p)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = t;
  }

  #pop(): void {
    const h = this.#heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const left = h[l] as PendingTimer;
      const right = h[r];
      const [c, child] = right !== undefined && before(right, left) ? [r, right] : [l, left];
      if (!before(child, last)) break;
      h[i] = child;
      i = c;
    }
    h[i] = last;
  }
}
