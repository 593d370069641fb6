/**
 * Receive streamIDs this end point assigns: "StreamIDs are assigned by the recipient of an OPEN
 * message" from "0x0000 - 0xDFFF Available for applications" (Annex 2 §3.5.2.5 Table 3-1).
 *
 * Next-fit: a freed streamID is reused only after every other free one, so a message still in
 * flight for a closed stream (§3.5.1.8 "messages in transit at the time the CLOSE was sent") is
 * unlikely to meet a new stream with the same ID.
 */
export const FIRST_APPLICATION_STREAM = 0x0000;
export const LAST_APPLICATION_STREAM = 0xdfff;

/**
 * Where a node starts assigning: spread over the range by its device ID (Knuth's multiplicative
 * hash), so that the streamIDs two nodes assign each other rarely coincide. A STATUS names a stream
 * by StreamID alone, without saying which of the two nodes assigned it (§4.2.8 Table 4-9), so
 * coinciding IDs would make a query about one stream answerable for the other.
 */
export function streamIdStart(nodeId: number): number {
  return (Math.imul(nodeId, 0x9e3779b1) >>> 0) % (LAST_APPLICATION_STREAM + 1);
}

export class StreamIdAllocator {
  readonly #first: number;
  readonly #last: number;
  readonly #inUse = new Set<number>();
  #cursor: number;

  /** `start`: the first streamID tried (see `streamIdStart`). */
  constructor(start = FIRST_APPLICATION_STREAM, first = FIRST_APPLICATION_STREAM, last = LAST_APPLICATION_STREAM) {
    this.#first = first;
    this.#last = last;
    this.#cursor = start >= first && start <= last ? start : first;
  }

  /** A free streamID for which `avoid` is false, or undefined when none is left. */
  alloc(avoid: (id: number) => boolean = () => false): number | undefined {
    const span = this.#last - this.#first + 1;
    if (this.#inUse.size >= span) return undefined;
    for (let i = 0; i < span; i++) {
      const id = this.#first + ((this.#cursor - this.#first + i) % span);
      if (this.#inUse.has(id) || avoid(id)) continue;
      this.#inUse.add(id);
      this.#cursor = id === this.#last ? this.#first : id + 1;
      return id;
    }
    return undefined;
  }

  free(id: number): void {
    this.#inUse.delete(id);
  }

  has(id: number): boolean {
    return this.#inUse.has(id);
  }

  get size(): number {
    return this.#inUse.size;
  }

  snapshot(): { readonly inUse: number; readonly next: number } {
    return { inUse: this.#inUse.size, next: this.#cursor };
  }
}
