/**
 * A queue read as an async iterable: what `incoming()`, `flowChanges()` and a stream's received
 * PDUs are built on. Values pushed wait until read; `end()` lets the reader finish once the queue
 * is empty, `fail()` rejects the reader at once. With `limit`, a push into a full queue drops the
 * oldest value (the caller counts it).
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #head = 0;
  #waiter: ((r: IteratorResult<T, undefined>) => void) | null = null;
  #failWaiter: ((e: Error) => void) | null = null;
  #ended = false;
  #error: Error | null = null;
  readonly #limit: number;

  constructor(limit = Number.POSITIVE_INFINITY) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  get ended(): boolean {
    return this.#ended || this.#error !== null;
  }

  /** Adds a value; false when the queue had ended (nothing added) or the oldest value was dropped for it. */
  push(v: T): boolean {
    if (this.ended) return false;
    const w = this.#waiter;
    if (w !== null) {
      this.#waiter = null;
      this.#failWaiter = null;
      w({ done: false, value: v });
      return true;
    }
    let dropped = false;
    if (this.size >= this.#limit) {
      this.#head++;
      dropped = true;
    }
    this.#items.push(v);
    return !dropped;
  }

  end(): void {
    if (this.ended) return;
    this.#ended = true;
    const w = this.#waiter;
    this.#waiter = null;
    this.#failWaiter = null;
    w?.({ done: true, value: undefined });
  }

  fail(e: Error): void {
    if (this.ended) return;
    this.#error = e;
    const f = this.#failWaiter;
    this.#waiter = null;
    this.#failWaiter = null;
    f?.(e);
  }

  /** The next value, waiting for one; done once ended and empty. */
  next(): Promise<IteratorResult<T, undefined>> {
    if (this.size > 0) {
      const v = this.#items[this.#head] as T;
      this.#head++;
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value: v });
    }
    if (this.#error !== null) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#waiter !== null) return Promise.reject(new Error('the queue has a reader already'));
    return new Promise((resolve, reject) => {
      this.#waiter = resolve;
      this.#failWaiter = reject;
    });
  }

  /** Lets a waiting reader go (done) without ending the queue: another reader may come later. */
  release(): void {
    const w = this.#waiter;
    this.#waiter = null;
    this.#failWaiter = null;
    w?.({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => this.next(),
      return: () => {
        this.release();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }
}
