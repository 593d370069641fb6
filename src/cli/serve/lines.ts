/**
 * Request lines of a `riodp serve` connection, cut from the byte stream with a bound: a line
 * longer than `max` bytes (its newline not counted) is reported as
 * `TOO_LONG` as soon as it passes the bound, and its remaining bytes are dropped up to its
 * newline, so that a client that never sends a newline cannot make the server hold more than
 * `max` bytes for it.
 */
export const TOO_LONG: unique symbol = Symbol('line too long');
export type LineItem = string | typeof TOO_LONG;

export const DEFAULT_MAX_LINE = 1 << 20;

export class LineSplitter {
  readonly #max: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** Inside a line already reported as too long: bytes are dropped until its newline. */
  #skipping = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** The lines `chunk` completes, and TOO_LONG once for each line past the bound. */
  push(chunk: Buffer): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      if (this.#skipping) this.#skipping = false;
      else this.#line(chunk, start, nl, out);
      start = nl + 1;
    }
    if (!this.#skipping && start < chunk.length) {
      if (this.#size + chunk.length - start > this.#max) this.#overflow(out);
      else {
        this.#parts.push(chunk.subarray(start));
        this.#size += chunk.length - start;
      }
    }
    return out;
  }

  /** End of the stream: a last line without its newline. */
  end(): LineItem[] {
    const out: LineItem[] = [];
    if (!this.#skipping && this.#size > 0) this.#line(Buffer.alloc(0), 0, 0, out);
    this.#skipping = false;
    return out;
  }

  #line(chunk: Buffer, start: number, stop: number, out: LineItem[]): void {
    if (this.#size + stop - start > this.#max) {
      this.#overflow(out);
      this.#skipping = false;
      return;
    }
    let text = this.#size === 0 ? chunk.toString('utf8', start, stop) : Buffer.concat([...this.#parts, chunk.subarray(start, stop)]).toString('utf8');
    this.#parts = [];
    this.#size = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    out.push(text);
  }

  #overflow(out: LineItem[]): void {
    out.push(TOO_LONG);
    this.#parts = [];
    this.#size = 0;
    this.#skipping = true;
  }
}
