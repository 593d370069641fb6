import { AsyncQueue } from './api-queue.ts';
import type { FlowChange } from './api-types.ts';

/** Flow changes an iteration of `flowChanges()` holds for a reader that does not keep up. */
const FLOW_CHANGES_HELD = 1024;

/**
 * The end point's flow changes (Part 9 XON/XOFF of its flows) to the application: listeners
 * (`onFlowChange`) and async iterations (`flowChanges()`), both ended when the end point closes.
 */
export class FlowChangeFeed {
  readonly #listeners = new Set<(c: FlowChange) => void>();
  /** Ends each `flowChanges()` subscription at shutdown. */
  readonly #stops = new Set<() => void>();

  /** A flow change, to every listener and iteration. */
  publish(c: FlowChange): void {
    for (const l of this.#listeners) l(c);
  }

  /** `RiodpEndpoint.flowChanges`; `closed`: the end point is closed, the iteration ends at once. */
  subscribe(closed: boolean): AsyncIterable<FlowChange> {
    const q = new AsyncQueue<FlowChange>(FLOW_CHANGES_HELD);
    const listener = (c: FlowChange): void => {
      q.push(c);
    };
    this.#listeners.add(listener);
    if (closed) q.end();
    const stop = (): void => {
      this.#listeners.delete(listener);
      q.end();
    };
    this.#stops.add(stop);
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => q.next(),
        return: () => {
          stop();
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
  }

  /** `RiodpEndpoint.onFlowChange`. */
  listen(listener: (c: FlowChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The end point closed: every iteration ends. */
  close(): void {
    for (const stop of this.#stops) stop();
    this.#stops.clear();
  }
}
