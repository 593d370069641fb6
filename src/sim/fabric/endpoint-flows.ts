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
import { flowIdForPacket } from '../../wire/flow-id.ts';
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

/** What the results collector needs from a flow table. */
export interface FlowCatalog {
  list(): readonly FlowInfo[];
}

/**
 * Request prio 3 is "Illegal" in Part 9 Table 2-1 and has no flowID: a source's traffic uses prio
 * 0–2. Without CRF support (Part 6 Table 6-6) the CRF bit is not a flow selector, so it must be 0.
 */
export function requestFlowId(prio: number, crf: number, crfSupported: boolean, field: string): FlowIdLabel {
  if (!Number.isInteger(prio) || prio < 0 || prio > 2) throw new RangeError(`${field}.prio must be 0, 1 or 2 (prio 3 is illegal for requests, Part 9 Table 2-1)`);
  if (crf !== 0 && crf !== 1) throw new RangeError(`${field}.crf must be 0 or 1`);
  if (!crfSupported && crf !== 0) throw new RangeError(`${field}.crf must be 0 when CRF is not supported (Part 6 Table 6-6)`);
  const m = flowIdForPacket({ prio, crf, response: false, crfSupported });
  if (m === undefined) throw new RangeError(`${field}.prio has no request flow`);
  return m.flowID;
}

export class FlowTable implements FlowCatalog {
  readonly #flows: FlowInfo[] = [];
  readonly #byKey = new Map<string, FlowInfo>();

  /** The flow's index, registering it on first sight. */
  register(src: number, dst: number, prio: Priority, crf: 0 | 1, flowID: FlowIdLabel): number {
    const key = `${src}/${dst}/${prio}/${crf}`;
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
