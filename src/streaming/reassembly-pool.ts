/**
 * Opt-in reuse of PDU buffers (`bufferPool` in reassembler-types.ts). A multi-segment PDU is
 * delivered in a buffer of its own (§3.2.5 rule 2 "transfers the entire payload into the
 * reassembly buffer"), which the receiver owns; a receiver done with it may hand the payload back
 * (`recycle`), and the buffer then serves a later PDU instead of a fresh allocation, whose pages
 * the allocator may have returned to the kernel (docs/performance.md).
 *
 * Ownership is tracked by the delivered payload object itself, not by its ArrayBuffer: a pooled
 * buffer delivered again is wrapped in a new view, so a stale payload from an earlier delivery of
 * the same memory is refused instead of taking the buffer away from its current holder.
 */
export class BufferPool {
  readonly #limit: number;
  readonly #free: ArrayBuffer[] = [];
  /** Payloads delivered in a pool-eligible buffer and not yet recycled. Weak: a receiver that keeps a PDU for good is not charged for it. */
  readonly #lent = new WeakSet<Uint8Array>();

  /** `limit`: buffers kept for reuse at most; more recycled buffers are let go. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Buffers waiting for reuse. */
  get size(): number {
    return this.#free.length;
  }

  /**
   * A buffer of at least `min` bytes from the pool, or null. A pooled buffer smaller than `min`
   * is let go rather than kept: with the first allocation sized by the PDU delivered last, a pool
   * of small buffers would otherwise never serve a stream of larger PDUs.
   */
  take(min: number): ArrayBuffer | null {
    const b = this.#free.pop();
    return b !== undefined && b.byteLength >= min ? b : null;
  }

  /** Records a payload handed to the receiver whose buffer may come back. */
  lend(payload: Uint8Array): void {
    this.#lent.add(payload);
  }

  /** A buffer the engine no longer needs (it delivered a copy of the PDU instead). */
  keep(buffer: ArrayBuffer): void {
    if (this.#free.length < this.#limit) this.#free.push(buffer);
  }

  /**
   * Takes a recycled payload back: false, and nothing kept, when it is not a payload this pool
   * lent or it came back already.
   */
  giveBack(payload: unknown): boolean {
    if (!(payload instanceof Uint8Array) || !this.#lent.delete(payload)) return false;
    this.keep(payload.buffer as ArrayBuffer);
    return true;
  }
}
