import { flowIdCode, flowIdForChannel, flowIdForPacket, packetChannel } from '../wire/flow-id.ts';
import type { FlowIdLabel, VcCount } from '../wire/flow-id.ts';
import { FTYPE_FLOW_CONTROL } from '../wire/type7.ts';
import type { BufferedPacket } from './congestion-point-types.ts';

/**
 * The transaction request flow a buffered packet belongs to, as a CCP addresses it (Part 9 §3.2
 * Table 3-1, §2.4.3 Table 2-1, DECISIONS §3): "destinationID — … (sourceID of the packet which
 * caused the generation of the CCP)", "tgtdestinationID — … (destinationID field of the packet
 * which caused the generation of the CCP)", the flowID of the reverse mapping, and the packet's
 * tt, which the CCP reuses so that its IDs have the same width.
 */
export interface CcpFlow {
  readonly destinationID: number;
  readonly tgtdestinationID: number;
  readonly flowID: FlowIdLabel;
  readonly tt: number;
}

const FTYPE_MAINTENANCE = 8;
const FTYPE_RESPONSE = 13;
const ID_BITS: readonly number[] = [8, 16, 32];

/**
 * - `flow`: a packet a CCP may be sent for.
 * - `excluded`: §2.4.3 "Maintenance and flow control transaction request flows must never cause
 *   the generation of a flow control transaction".
 * - `unmappable`: Table 2-1 "Illegal" (a request at prio 3, a response at prio 0), or a header no
 *   CCP can address (reserved tt, an ID wider than tt allows).
 * `key` identifies the packet's bucket for occupancy bookkeeping; for `flow` it is the CCP flow.
 */
export type PacketClass =
  | { readonly kind: 'flow'; readonly key: string; readonly flow: CcpFlow; readonly response: boolean; readonly crf: number }
  | { readonly kind: 'excluded' | 'unmappable'; readonly key: string };

export interface ClassifyOptions {
  readonly crfSupported: boolean;
  readonly vcCount: VcCount;
}

/** A stable map key for a CCP flow. */
export function ccpFlowKey(f: CcpFlow): string {
  return `${f.tt}:${f.destinationID}>${f.tgtdestinationID}/${f.flowID}`;
}

function idFits(id: number, tt: number): boolean {
  const bits = ID_BITS[tt];
  return bits !== undefined && Number.isSafeInteger(id) && id >= 0 && id < 2 ** bits;
}

/** Table 2-1 "Transaction Type": ftype 13 is a response unless the caller says otherwise. */
export function isResponse(p: BufferedPacket): boolean {
  return p.response ?? p.ftype === FTYPE_RESPONSE;
}

export function classifyPacket(p: BufferedPacket, opts: ClassifyOptions): PacketClass {
  const pair = `${p.tt}:${p.sourceID}>${p.destinationID}`;
  if (p.ftype === FTYPE_MAINTENANCE || p.ftype === FTYPE_FLOW_CONTROL) return { kind: 'excluded', key: `x${pair}` };
  if (!idFits(p.sourceID, p.tt) || !idFits(p.destinationID, p.tt)) return { kind: 'unmappable', key: `u${pair}` };
  const response = isResponse(p);
  // Part 6 Table 2-2: with VC = 1, PRIO||CRF select a channel and carry no priority or criticality,
  // so a VC1–VC8 packet belongs to "Flow nA and higher for VCn" (Table 3-1) with CRF taken as 0.
  const channel = packetChannel(p.vc ?? 0, p.prio, p.crf, opts.vcCount);
  let flowID: FlowIdLabel | undefined;
  let crf = 0;
  if (channel > 0) {
    flowID = flowIdForChannel(channel);
  } else {
    flowID = flowIdForPacket({ prio: p.prio, crf: p.crf, response, crfSupported: opts.crfSupported })?.flowID;
    crf = opts.crfSupported ? p.crf & 1 : 0;
  }
  if (flowID === undefined) return { kind: 'unmappable', key: `u${pair}` };
  const flow: CcpFlow = { destinationID: p.sourceID, tgtdestinationID: p.destinationID, flowID, tt: p.tt };
  return { kind: 'flow', key: ccpFlowKey(flow), flow, response, crf };
}

/** Table 3-1 order, used as the "lower flowID" tie-break. */
export function flowOrder(flowID: FlowIdLabel): number {
  return flowIdCode(flowID);
}
