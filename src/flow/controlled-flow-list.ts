import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { ControlledFlowEntry } from './congestion-point-types.ts';
import type { CcpFlow } from './offending-flow.ts';

/**
 * Part 9 §2.4.2.2: "elements which send XOFFs keep a list of flows they have stopped, along with
 * whatever flow-specific information is needed to select flows for restart, such as per-flow XON
 * watermark level, or relative shut off order". An entry leaves only when its XON goes out (or is
 * dropped or suppressed on the way): "It shall not however be permissible to abandon the
 * controlled flow by "forgetting" it".
 */
interface Entry {
  readonly key: string;
  readonly flow: CcpFlow;
  readonly crf: number;
  readonly order: number;
  readonly port: number;
  restartLevel: number;
  /** A level set by `setLevel`, kept until the entry leaves. */
  override: number | undefined;
}

export type RestartOrder = 'fifo' | 'lifo';

export interface ControlledFlowListConfig {
  readonly capacity: number;
  readonly restartOrder: RestartOrder;
  readonly lowWatermark: number;
  readonly restartStagger: number;
}

export class ControlledFlowList {
  readonly #config: ControlledFlowListConfig;
  /** In shut-off order, oldest first. */
  #entries: Entry[] = [];
  readonly #byKey = new Map<string, Entry>();
  #nextOrder = 0;

  constructor(config: ControlledFlowListConfig) {
    this.#config = config;
  }

  get size(): number {
    return this.#entries.length;
  }

  get full(): boolean {
    return this.#entries.length >= this.#config.capacity;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  add(key: string, flow: CcpFlow, crf: number, port: number): void {
    const e: Entry = { key, flow, crf, port, order: this.#nextOrder++, restartLevel: this.#config.lowWatermark, override: undefined };
    this.#entries.push(e);
    this.#byKey.set(key, e);
    this.#relevel();
  }

  remove(key: string): ControlledFlowEntry | undefined {
    const e = this.#byKey.get(key);
    if (e === undefined) return undefined;
    this.#byKey.delete(key);
    this.#entries = this.#entries.filter((x) => x !== e);
    this.#relevel();
    return view(e);
  }

  /**
   * §2.4.2.2 "re-evaluate system resources and modify the flow restart ordering or expected XON
   * watermark level": the level of every entry naming (destinationID, tgtdestinationID, flowID),
   * whatever its tt. Returns how many entries matched.
   */
  setLevel(destinationID: number, tgtdestinationID: number, flowID: FlowIdLabel, level: number): number {
    let matched = 0;
    for (const e of this.#entries) {
      if (e.flow.destinationID !== destinationID || e.flow.tgtdestinationID !== tgtdestinationID || e.flow.flowID !== flowID) continue;
      e.override = level;
      e.restartLevel = level;
      matched++;
    }
    return matched;
  }

  /** The entries, in restart order, whose restart level the occupancy has reached. */
  due(occupancy: number): ControlledFlowEntry[] {
    return this.#restartOrder().filter((x) => x.restartLevel >= occupancy).map(view);
  }

  /**
   * The entry to XON early when the list is full (§2.4.2.2 "that previously-XOFF'd controlled flow
   * may be prematurely XON'd"): the fewest packets buffered, then CRF=1 before CRF=0 (the mirror
   * of §2.4.3's shut-off preference), then the most recently XOFF'd.
   */
  leastImportant(buffered: (key: string) => number): { readonly entry: ControlledFlowEntry; readonly buffered: number } | undefined {
    let best: Entry | undefined;
    let bestCount = 0;
    for (const e of this.#entries) {
      const n = buffered(e.key);
      if (best === undefined || n < bestCount || (n === bestCount && (e.crf > best.crf || (e.crf === best.crf && e.order > best.order)))) {
        best = e;
        bestCount = n;
      }
    }
    return best === undefined ? undefined : { entry: view(best), buffered: bestCount };
  }

  /** Entries in restart order (fifo: shut-off order; lifo: reverse). */
  entries(): ControlledFlowEntry[] {
    return this.#restartOrder().map(view);
  }

  #restartOrder(): readonly Entry[] {
    return this.#config.restartOrder === 'fifo' ? this.#entries : [...this.#entries].reverse();
  }

  /**
   * Staggered restart levels: "the k-th entry in restart order (k = 0, 1, …) restarts at
   * max(0, lowWatermark − k·restartStagger)", re-evaluated whenever the list changes; entries with
   * an explicit level keep it but still take their place k.
   */
  #relevel(): void {
    const { lowWatermark, restartStagger } = this.#config;
    this.#restartOrder().forEach((e, k) => {
      e.restartLevel = e.override ?? Math.max(0, lowWatermark - k * restartStagger);
    });
  }
}

function view(e: Entry): ControlledFlowEntry {
  const { destinationID, tgtdestinationID, flowID, tt } = e.flow;
  return { destinationID, tgtdestinationID, flowID, tt, order: e.order, restartLevel: e.restartLevel, port: e.port };
}
