import { flowIndex } from '../flow/flows.ts';
import { flowIdForPacket } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { FTYPE_MAINTENANCE } from '../wire/type8.ts';
import type { EndpointPacket } from './session-endpoint-types.ts';

/**
 * The end point's side of Part 9 transmit gating: which flow a packet it sends belongs to, the
 * packets held while their flow is stopped, and the flows it has heard of.
 */

/** A (destinationID, flowID) pair as one number: 16 slots per destination, the flow's Table 3-1 index. */
export function flowSlot(destinationID: number, flowID: FlowIdLabel): number {
  return destinationID * 16 + flowIndex(flowID);
}

/** flowIdForPacket of a request by prio·2 + CRF, computed once: a packet is classified at every pull. */
function requestFlows(crfSupported: boolean): readonly (FlowIdLabel | undefined)[] {
  return Array.from({ length: 8 }, (_, i) => flowIdForPacket({ prio: i >> 1, crf: i & 1, response: false, crfSupported })?.flowID);
}
const WITH_CRF = requestFlows(true);
const WITHOUT_CRF = requestFlows(false);

/**
 * The transaction request flow an XOFF may stop a packet in, or undefined for a packet none may
 * stop. Responses are never stopped: Part 6 §6.12 "end point processing elements must have the
 * ability to issue outbound response packets even if outbound request packets awaiting
 * transmission are congestion blocked", and Part 9 §2.4 flow control acts on "transaction request
 * flows". A request's flow is its prio/CRF (Part 9 Table 2-1, DECISIONS §3); a request at prio 3 is
 * "Illegal" there and maps to no flow, so no XOFF names it.
 */
export function stoppableFlow(p: EndpointPacket, crfSupported: boolean): FlowIdLabel | undefined {
  if (p.ftype === 13) return undefined;
  if (p.ftype === FTYPE_MAINTENANCE && p.transactionName !== 'MAINTENANCE_READ_REQUEST') return undefined;
  return (crfSupported ? WITH_CRF : WITHOUT_CRF)[((p.prio & 3) << 1) | (p.crf & 1)];
}

interface HeldFlow {
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly packets: EndpointPacket[];
}

/**
 * Packets of stopped flows, FIFO per flow (Part 10 §2.4 rule 1 "Transactions within a transaction
 * request flow ... shall be delivered ... in the same order that they were issued", and §3.2.4
 * "all packets making up an individual PDU and all PDUs in a stream must be in the same
 * transaction request flow"), at most `limit` in all. Flows are released in the order
 * they were first held.
 */
export class HeldPackets {
  readonly limit: number;
  readonly #flows = new Map<number, HeldFlow>();
  #total = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get total(): number {
    return this.#total;
  }

  get full(): boolean {
    return this.#total >= this.limit;
  }

  count(slot: number): number {
    return this.#flows.get(slot)?.packets.length ?? 0;
  }

  hold(slot: number, destinationID: number, flowID: FlowIdLabel, packet: EndpointPacket): void {
    const f = this.#flows.get(slot);
    if (f === undefined) this.#flows.set(slot, { destinationID, flowID, packets: [packet] });
    else f.packets.push(packet);
    this.#total++;
  }

  /** The oldest packet of the first held flow that may send again, removed; undefined when none may. */
  release(maySend: (destinationID: number, flowID: FlowIdLabel) => boolean): EndpointPacket | undefined {
    if (this.#total === 0) return undefined;
    for (const [slot, f] of this.#flows) {
      if (!maySend(f.destinationID, f.flowID)) continue;
      const packet = f.packets.shift();
      if (f.packets.length === 0) this.#flows.delete(slot);
      if (packet !== undefined) this.#total--;
      return packet;
    }
    return undefined;
  }

  /** Every held packet dropped; how many there were. */
  discard(): number {
    const n = this.#total;
    this.#flows.clear();
    this.#total = 0;
    return n;
  }
}

/** Every (destination, flow) the end point has sent on or been told about by a CCP, for `flows()`. */
export class FlowBook {
  readonly #flows = new Map<number, { readonly destinationID: number; readonly flowID: FlowIdLabel }>();

  note(slot: number, destinationID: number, flowID: FlowIdLabel): void {
    if (!this.#flows.has(slot)) this.#flows.set(slot, { destinationID, flowID });
  }

  /** By destination, then in Table 3-1 order. */
  list(): { readonly slot: number; readonly destinationID: number; readonly flowID: FlowIdLabel }[] {
    return [...this.#flows].sort((a, b) => a[0] - b[0]).map(([slot, f]) => ({ slot, ...f }));
  }
}
