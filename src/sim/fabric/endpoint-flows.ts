/**
 * The scenario's traffic flows, numbered (SimPacket.flow is "index into the scenario's flows").
 *
 * A flow is Part 9's transaction request flow: "a series of packets that have a common source
 * identifier and a common destination identifier at some given priority" (Glossary), with its
 * Table 3-1 flowID from the prio and CRF of its packets (Part 9 §2.4.3 Table 2-1, Part 6 Tables
 * 6-6/6-7, src/wire/flow-id.ts `flowIdForPacket`). Every end point of a simulation registers its
 * flows in one shared `FlowTable`, which the results collector reads to label its rows; indices
 * follow registration order, so a scenario that registers flows in a fixed order gets the same
 * numbering every run.
 */
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import type { Priority } from './types.ts';


export interface FlowInfo {
  readonly index: number;
  readonly src: number;
  readonly dst: number;
  readonly prio: Priority;
  readonly crf: 0 | 1;
  readonly flowID: FlowIdLabel;
  /** Data rate of the source's link, bit/s (0 until the source end point starts). */
  linkRate: number;
}

/**
 * A number naming (src, dst, prio, crf): device IDs below 2^16, so at most 2^35, a safe integer.
 * A number rather than a string key: a large fabric has a flow per source–destination pair (issue 20).
 */
export function flowNumberKey(src: number, dst: number, prio: number, crf: number): number {
  return ((src * 0x10000 + dst) * 4 + prio) * 2 + crf;
}

/** What the results collector needs from a flow table. */
export interface FlowCatalog {
  list(): readonly FlowInfo[];
}

export class FlowTable implements FlowCatalog {
  readonly #flows: FlowInfo[] = [];
  readonly #byKey = new Map<number, FlowInfo>();

  /** The flow's index, registering it on first sight. */
  register(src: number, dst: number, prio: Priority, crf: 0 | 1, flowID: FlowIdLabel): number {
    const key = flowNumberKey(src, dst, prio, crf);
    const known = this.#byKey.get(key);
    if (known !== undefined) return known.index;
    const info: FlowInfo = { index: this.#flows.length, src, dst, prio, crf, flowID, linkRate: 0 };
    this.#flows.push(info);
    this.#byKey.set(key, info);
    return info.index;
  }

  get(index: number): FlowInfo | undefined {
    return this.#flows[index];
  }

  get size(): number {
    return this.#flows.length;
  }

  list(): readonly FlowInfo[] {
    return this.#flows;
  }
}
