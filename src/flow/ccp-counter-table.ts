import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import { FLOW_COUNT, flowIndex, flowsAtOrAbove } from './flows.ts';
import type { CounterMapping } from './ccp-endpoint-types.ts';

/**
 * The XOFF/XON counters of a source end point (Part 9 §2.4.2.3): "the number of counters and how
 * flows are aggregated to a particular counter is implementation dependant. However, all flows
 * must be associated with a counter." A counter is named by a number key: per-flow,
 * destinationID·16 + flow index; bounded, the slot (destinationID·14 + flow index) mod count.
 * Only non-zero counters are stored ("initialized to zero at start up").
 */
export class CounterTable {
  /** "In no event shall the counter wrap upon terminal count": 2^bits − 1. */
  readonly max: number;
  /** Number of shared counters; 0 in per-flow mode. */
  readonly slots: number;
  readonly #values = new Map<number, number>();

  constructor(mapping: CounterMapping, bits: number) {
    this.max = 2 ** bits - 1;
    this.slots = mapping.mode === 'bounded' ? mapping.count : 0;
  }

  key(destinationID: number, index: number): number {
    return this.slots === 0 ? destinationID * 16 + index : (destinationID * FLOWS + index) % this.slots;
  }

  get(key: number): number {
    return this.#values.get(key) ?? 0;
  }

  set(key: number, value: number): void {
    if (value === 0) this.#values.delete(key);
    else this.#values.set(key, value);
  }

  /** Whether some flow of `destinationID` is associated with counter `key`. */
  serves(key: number, destinationID: number): boolean {
    if (this.slots === 0) return Math.floor(key / 16) === destinationID;
    if (this.slots <= FLOWS) return true;
    const first = (destinationID * FLOWS) % this.slots;
    return (key - first + this.slots) % this.slots < FLOWS;
  }

  /** Number of counters that are not zero. */
  get nonZero(): number {
    return this.#values.size;
  }

  /**
   * Flows of `destinationID` that may not send, as a mask (bit i = flow i of Table 3-1): §2.4.5
   * rule 1 "A XOFF flow control transaction stops all transaction request flows of the specified
   * priority and lower", so flow F may send only while the counters of every flow at or above F
   * in its channel are zero; flows in `critical` are never stopped (§2.4.3).
   */
  stoppedMask(destinationID: number, critical: number): number {
    let busy = 0;
    for (let i = 0; i < FLOWS; i++) if (this.#values.has(this.key(destinationID, i))) busy |= 1 << i;
    if (busy === 0) return 0;
    let mask = 0;
    for (let i = 0; i < FLOWS; i++) if ((busy & (ABOVE[i] ?? 0)) !== 0) mask |= 1 << i;
    return mask & ~critical;
  }

  /** Non-zero counters, by key, for snapshots. */
  entries(): IterableIterator<[number, number]> {
    return this.#values.entries();
  }
}

/**
 * Module-local copies: on the per-CCP path, a read of an imported binding can cost a getter call
 * under a transpiling loader (tsx), which the simulator uses.
 */
const FLOWS = FLOW_COUNT;

/** flowsAtOrAbove as masks (bit j = flow j), so that `stoppedMask` allocates nothing. */
const ABOVE: Int32Array = Int32Array.from(FLOW_ID_LABELS, (l) => flowsAtOrAbove(l).reduce((m, f) => m | (1 << flowIndex(f)), 0));
