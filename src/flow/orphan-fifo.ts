import type { FlowIdLabel } from '../wire/flow-id.ts';

/** A stopped counter and the flow named by the CCP that first stopped it. */
export interface OrphanEntry {
  readonly key: number;
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
}

/**
 * The "XOFF'd flow FIFO list within the end point" of Part 9 Annex A.2: counters in the order
 * they were stopped; "the oldest XOFF'd flow" is the head. A Map keeps insertion order and
 * removes from the middle in O(1), which an XON for a younger counter needs.
 */
export class OrphanFifo {
  readonly #entries = new Map<number, OrphanEntry>();

  get size(): number {
    return this.#entries.size;
  }

  has(key: number): boolean {
    return this.#entries.has(key);
  }

  /** Appends unless the counter is already queued: a second XOFF does not make a flow younger. */
  push(entry: OrphanEntry): void {
    if (!this.#entries.has(entry.key)) this.#entries.set(entry.key, entry);
  }

  remove(key: number): boolean {
    return this.#entries.delete(key);
  }

  head(): OrphanEntry | undefined {
    for (const e of this.#entries.values()) return e;
    return undefined;
  }

  /** Oldest first. */
  values(): IterableIterator<OrphanEntry> {
    return this.#entries.values();
  }
}
