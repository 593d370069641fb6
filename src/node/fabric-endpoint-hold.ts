import { flowIndex } from '../flow/flows.ts';
import { flowBits } from '../streaming/segment-pdu.ts';
import { FLOW_ID_LABELS, flowIdForChannel, flowIdForPacket } from '../wire/flow-id.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { FTYPE_MAINTENANCE } from '../wire/type8.ts';
import type { Packet } from '../wire/packet.ts';
import type { FabricPacket } from './fabric-endpoint-types.ts';

/**
 * The end point's side of Part 9 transmit gating: which flow a packet it sends belongs to, which
 * segmenter flows a gate stops with it, the packets held while their flow is stopped, and the
 * flows it has heard of.
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
 * "Illegal" there and maps to no flow, so no XOFF names it. A packet with its VC bit set is on
 * channel 1 + PRIO||CRF (Part 6 Table 2-2) and in that channel's flow, "Flow nA and higher for
 * VCn" (Part 9 Table 3-1), the way the segmenter's flowBits puts segments of 1A–8A there.
 */
export function stoppableFlow(p: Packet, crfSupported: boolean): FlowIdLabel | undefined {
  if (p.ftype === 13) return undefined;
  if (p.ftype === FTYPE_MAINTENANCE && p.transactionName !== 'MAINTENANCE_READ_REQUEST') return undefined;
  return requestFlow(p.prio, p.crf, p.vc, crfSupported);
}

/** The transaction request flow of a request with these prefix bits (as `stoppableFlow`). */
export function requestFlow(prio: number, crf: number, vc: number, crfSupported: boolean): FlowIdLabel | undefined {
  const bits = ((prio & 3) << 1) | (crf & 1);
  if ((vc & 1) === 1) return flowIdForChannel(1 + bits);
  return (crfSupported ? WITH_CRF : WITHOUT_CRF)[bits];
}

/** A flow the Type 9 conveyance's segmenter may send on, and the flow `stoppableFlow` puts its segments in. */
export interface GateFlow {
  readonly flowID: FlowIdLabel;
  readonly heldAs: FlowIdLabel;
}

function gateFlowsOf(crfSupported: boolean): readonly GateFlow[] {
  return FLOW_ID_LABELS.flatMap((flowID) => {
    const bits = flowBits(flowID, crfSupported);
    const heldAs = bits === undefined ? undefined : bits.vc === 1 ? flowIdForChannel(1 + ((bits.prio << 1) | bits.crf)) : (crfSupported ? WITH_CRF : WITHOUT_CRF)[(bits.prio << 1) | bits.crf];
    return heldAs === undefined ? [] : [{ flowID, heldAs }];
  });
}
const GATE_WITH_CRF = gateFlowsOf(true);
const GATE_WITHOUT_CRF = gateFlowsOf(false);

/**
 * The segmenter flows a gate may stop, each with the flow the hold classifies its segments in: a
 * segment of flow L carries flowBits(L) (its Table 6-6/6-7 prio and CRF; for 1A–8A the VC channel
 * bits), and `stoppableFlow` reads those. Gating L exactly while that flow may not send stops at the
 * source what the hold would otherwise hold, no more and no less (Part 9 §2.4.5 rule 1 "of the
 * specified priority and lower": an XOFF of 0C stops 0A, 0B and 0C, so it gates every L held as one
 * of them). VC flows 1A–8A are held as themselves.
 */
export function gateFlows(crfSupported: boolean): readonly GateFlow[] {
  return crfSupported ? GATE_WITH_CRF : GATE_WITHOUT_CRF;
}

interface HeldFlow {
  readonly destinationID: number;
  readonly flowID: FlowIdLabel;
  readonly packets: FabricPacket[];
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

  hold(slot: number, destinationID: number, flowID: FlowIdLabel, packet: FabricPacket): void {
    const f = this.#flows.get(slot);
    if (f === undefined) this.#flows.set(slot, { destinationID, flowID, packets: [packet] });
    else f.packets.push(packet);
    this.#total++;
  }

  /** The oldest packet of the first held flow that may send again, removed; undefined when none may. */
  release(maySend: (destinationID: number, flowID: FlowIdLabel, head: FabricPacket) => boolean): FabricPacket | undefined {
    if (this.#total === 0) return undefined;
    for (const [slot, f] of this.#flows) {
      const head = f.packets[0];
      if (head === undefined || !maySend(f.destinationID, f.flowID, head)) continue;
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
