/**
 * Flow IDs of Type 7 congestion control packets (Part 9 §3.2 Table 3-1) and the mapping between
 * a transaction request flow and the prio/CRF fields of the packets that carry it
 * (Part 9 §2.4.3 Table 2-1, Part 6 §6.6.3 Tables 6-6/6-7, DECISIONS §3).
 */

/**
 * "0000000 (Flow 0A) … 0000101 (Flow 0F)" for VC0 and "1000001 (Flow 1A) … 1001000 (Flow 8A)"
 * for VC1–VC8; "Remaining encodings are reserved". The rev 4.1 Markdown copy drops the 0F row
 * and labels 0000101 as 1A; rev 2.2 and the rev 4.1 figure text agree on the table below.
 *
 * @example
 * ```ts
 * import { FLOW_IDS } from 'riodp/wire';
 *
 * // The 7-bit flowID of a CCP that stops VC3 traffic.
 * console.log(FLOW_IDS['3A'].toString(2).padStart(7, '0')); // 1000011
 * ```
 */
export const FLOW_IDS = {
  '0A': 0b0000000,
  '0B': 0b0000001,
  '0C': 0b0000010,
  '0D': 0b0000011,
  '0E': 0b0000100,
  '0F': 0b0000101,
  '1A': 0b1000001,
  '2A': 0b1000010,
  '3A': 0b1000011,
  '4A': 0b1000100,
  '5A': 0b1000101,
  '6A': 0b1000110,
  '7A': 0b1000111,
  '8A': 0b1001000,
} as const;
/** A flowID of Part 9 Table 3-1 (`0A`–`0F`, `1A`–`8A`). */
export type FlowIdLabel = keyof typeof FLOW_IDS;
/** A decoded flowID: its Table 3-1 name, or 'RESERVED' for the remaining encodings. */
export type FlowIdName = FlowIdLabel | 'RESERVED';

/**
 * Every Table 3-1 flowID, in table order.
 *
 * @example
 * ```ts
 * import { FLOW_ID_LABELS, flowIdChannel } from 'riodp/wire';
 *
 * // The flows of VC0, one per transaction request flow.
 * console.log(FLOW_ID_LABELS.filter((f) => flowIdChannel(f) === 0).join(' ')); // 0A 0B 0C 0D 0E 0F
 * ```
 */
export const FLOW_ID_LABELS = Object.keys(FLOW_IDS) as readonly FlowIdLabel[];
export const CLAUSE_FLOW_ID = 'Part 9 §3.2 Table 3-1';

const BY_CODE: readonly FlowIdName[] = (() => {
  const t: FlowIdName[] = new Array<FlowIdName>(128).fill('RESERVED');
  for (const label of FLOW_ID_LABELS) t[FLOW_IDS[label]] = label;
  return t;
})();

/**
 * The Table 3-1 name of a 7-bit flowID code; 'RESERVED' for unassigned codes and out-of-range input.
 *
 * @example
 * ```ts
 * import { flowIdLabel } from 'riodp/wire';
 *
 * console.log(flowIdLabel(0b1000011), flowIdLabel(0b0000110)); // 3A RESERVED
 * ```
 */
export function flowIdLabel(code: number): FlowIdName {
  return BY_CODE[code] ?? 'RESERVED';
}

/**
 * The 7-bit code of a flowID (Table 3-1).
 *
 * @example
 * ```ts
 * import { flowIdCode } from 'riodp/wire';
 *
 * console.log(flowIdCode('0F'), flowIdCode('1A')); // 5 65
 * ```
 */
export function flowIdCode(label: FlowIdLabel): number {
  return FLOW_IDS[label];
}

/**
 * "For all undefined flowID encodings, there is no action required and the tgtdestinationID is ignored" (§3.4).
 *
 * @example
 * ```ts
 * import { decodePacket, isReservedFlowId, parseHex } from 'riodp/wire';
 *
 * // An XOFF whose flowID field is 0000110, which Table 3-1 does not assign.
 * const bytes = parseHex('01c7 0105 000c');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 7 && isReservedFlowId(p.flowIDCode)) console.log('ignored:', p.flowID); // ignored: RESERVED
 * ```
 */
export function isReservedFlowId(code: number): boolean {
  return flowIdLabel(code) === 'RESERVED';
}

/**
 * Virtual channel of a flow: 0 for 0A–0F, n for nA; undefined for reserved codes.
 *
 * @example
 * ```ts
 * import { flowIdChannel } from 'riodp/wire';
 *
 * console.log(flowIdChannel('0E'), flowIdChannel('3A'), flowIdChannel('RESERVED')); // 0 3 undefined
 * ```
 */
export function flowIdChannel(label: FlowIdName): number | undefined {
  if (label === 'RESERVED') return undefined;
  return label.startsWith('0') ? 0 : Number(label[0]);
}

/** The header fields that decide a packet's flow (Table 3-1): prio, CRF, and VC when VCs are in use. */
export interface PacketFlowFields {
  readonly prio: number;
  readonly crf: number;
  /** Whether the packet is a response (Part 9 Table 2-1 "Transaction Type"). */
  readonly response: boolean;
  /** System setting: whether CRF is supported (Part 6 Table 6-7) or not (Table 6-6). Default true. */
  readonly crfSupported?: boolean;
}

/** A packet's flow as `flowIdForPacket` reads it from Table 3-1. */
export interface FlowMapping {
  /**
   * The flowID to put in a CCP. For a response, whose request flow the table only bounds, it is
   * the highest candidate: XOFF stops "the specified and lower priority transaction request
   * flows" (Table 3-1), so the highest candidate covers every flow the response may belong to.
   */
  readonly flowID: FlowIdLabel;
  /** Every VC0 flow the packet may belong to, lowest first (one entry for requests). */
  readonly candidates: readonly FlowIdLabel[];
}

const VC0: readonly FlowIdLabel[] = ['0A', '0B', '0C', '0D', '0E', '0F'];

function mapping(candidates: readonly FlowIdLabel[]): FlowMapping {
  return { flowID: candidates[candidates.length - 1] ?? '0A', candidates };
}

/**
 * The VC0 transaction request flow of a packet from its prio and CRF bits (DECISIONS §3).
 * With CRF (Table 6-7) a request's flow is {prio, CRF}: A=(0,0) B=(0,1) C=(1,0) D=(1,1)
 * E=(2,0) F=(2,1); without CRF (Table 6-6) A=prio 0, B=prio 1, "C or higher"=prio 2.
 * Responses travel at least one prio above their request (Table 2-1), so a response maps to the
 * flows whose response prio range contains its prio. Returns undefined for the combinations
 * Table 2-1 calls "Illegal": a request at prio 3, a response at prio 0.
 *
 * @example
 * ```ts
 * import { flowIdForPacket } from 'riodp/wire';
 *
 * // A request at prio 1, CRF 0 is flow 0C (Part 6 Table 6-7).
 * console.log(flowIdForPacket({ prio: 1, crf: 0, response: false })); // { flowID: '0C', candidates: [ '0C' ] }
 * // A response at prio 2 answers a prio 0 or 1 request: an XOFF names the higher flow.
 * console.log(flowIdForPacket({ prio: 2, crf: 1, response: true })?.flowID); // 0D
 * ```
 */
export function flowIdForPacket(p: PacketFlowFields): FlowMapping | undefined {
  const { prio, response } = p;
  const withCrf = p.crfSupported ?? true;
  if (!Number.isInteger(prio) || prio < 0 || prio > 3) return undefined;
  const crf = withCrf ? p.crf & 1 : 0;
  if (!response) {
    if (prio === 3) return undefined;
    const flow = withCrf ? VC0[prio * 2 + crf] : VC0[prio];
    return flow === undefined ? undefined : mapping([flow]);
  }
  if (prio === 0) return undefined;
  const out: FlowIdLabel[] = [];
  if (withCrf) {
    // Table 6-7 response prio: A/B 1–3, C/D 2–3, E/F 3, with the request's CRF bit.
    for (let reqPrio = 0; reqPrio < prio; reqPrio++) out.push(VC0[reqPrio * 2 + crf] as FlowIdLabel);
  } else {
    // Table 6-6 / Part 9 Table 2-1: response prio 1 → A; 2 → A or B; 3 → A, B, C or higher.
    for (let reqPrio = 0; reqPrio < prio; reqPrio++) out.push(VC0[reqPrio] as FlowIdLabel);
  }
  return mapping(out);
}

/** The prio, CRF and VC a packet of a given flow carries (`packetForFlowId`). */
export interface FlowPacketFields {
  readonly prio: number;
  readonly crf: number;
}

/**
 * Inverse of flowIdForPacket: the prio and CRF a packet of a VC0 flow carries. Requests get the
 * flow's request prio; responses the lowest prio the tables allow (a responder may promote
 * further). Without CRF, flows C–F all travel as "C or higher". VC1–VC8 flows and reserved codes
 * have no prio mapping in Part 6 Tables 6-6/6-7: undefined.
 *
 * @example
 * ```ts
 * import { packetForFlowId } from 'riodp/wire';
 *
 * // Flow 0D: requests at prio 1 with CRF set, their responses at prio 2 or more.
 * console.log(packetForFlowId('0D', { response: false })); // { prio: 1, crf: 1 }
 * console.log(packetForFlowId('0D', { response: true })); // { prio: 2, crf: 1 }
 * ```
 */
export function packetForFlowId(flowID: FlowIdName, opts: { readonly response: boolean; readonly crfSupported?: boolean }): FlowPacketFields | undefined {
  const index = VC0.indexOf(flowID as FlowIdLabel);
  if (index < 0) return undefined;
  const withCrf = opts.crfSupported ?? true;
  const reqPrio = withCrf ? index >> 1 : Math.min(index, 2);
  const crf = withCrf ? index & 1 : 0;
  return { prio: opts.response ? reqPrio + 1 : reqPrio, crf };
}

/**
 * "marking flow control packets with a "prio" field value of 0b11, and a "CRF" bit value of 0b1, if supported" (§2.4.2).
 *
 * @example
 * ```ts
 * import { ccpPrioCrf } from 'riodp/wire';
 *
 * // On a link whose devices do not support CRF, a CCP goes at prio 3 with CRF 0.
 * console.log(ccpPrioCrf(false)); // { prio: 3, crf: 0 }
 * ```
 */
export function ccpPrioCrf(crfSupported = true): FlowPacketFields {
  return { prio: 3, crf: crfSupported ? 1 : 0 };
}

/** Number of VC1–VC8 channels a link runs (Part 6 §6.4.2): 0 is single VC mode. */
export type VcCount = 0 | 1 | 2 | 4 | 8;
/**
 * The VC counts a link may run (Part 6: VC0 alone, or VC0 and 1, 2, 4 or 8 more).
 *
 * @example
 * ```ts
 * import { VC_COUNTS, packetChannel } from 'riodp/wire';
 *
 * // Where a packet with VC = 1, PRIO||CRF = 11 1 lands for each VC count a link may run.
 * console.log(VC_COUNTS.map((n) => `${n}:VC${packetChannel(1, 3, 1, n)}`).join(' ')); // 0:VC0 1:VC1 2:VC5 4:VC7 8:VC8
 * ```
 */
export const VC_COUNTS: readonly VcCount[] = [0, 1, 2, 4, 8];
const CHANNEL_MASK: Readonly<Record<VcCount, number>> = { 0: 0, 1: 0b000, 2: 0b100, 4: 0b110, 8: 0b111 };

/**
 * The virtual channel of a packet (Part 6 §2.3 Table 2-2, multiple VC mode): VC = 0 is VC0 with
 * PRIO/CRF as priority; VC = 1 makes PRIO||CRF the VCID, "1 00 0 - VC1 … 1 11 1 - VC8", and with
 * fewer channels the low bits are ignored ("1 00 X - VC1 (VC0 + 4 VCs)", "1 0X X - VC1 (VC0 +
 * 2VCs)", "1 XX X - VC1 (VC0 + 1VC)"). In single VC mode (vcCount 0) the VC bit is not a channel
 * select and every packet is VC0.
 *
 * @example
 * ```ts
 * import { packetChannel } from 'riodp/wire';
 *
 * // VC = 1, PRIO||CRF = 10 1: VC6 with 8 VCs, VC5 with 4 ("1 10 X - VC5"), VC0 in single VC mode.
 * console.log(packetChannel(1, 2, 1, 8), packetChannel(1, 2, 1, 4), packetChannel(1, 2, 1, 0)); // 6 5 0
 * ```
 */
export function packetChannel(vc: number, prio: number, crf: number, vcCount: VcCount): number {
  if (vcCount === 0 || (vc & 1) === 0) return 0;
  return 1 + ((((prio & 3) << 1) | (crf & 1)) & CHANNEL_MASK[vcCount]);
}

/**
 * The flowID of a VC1–VC8 packet: "Flow nA and higher for VCn" (Table 3-1).
 *
 * @example
 * ```ts
 * import { flowIdForChannel, packetChannel } from 'riodp/wire';
 *
 * // The flow a CCP names for a congested packet on VC6 (VC = 1, PRIO||CRF = 10 1, 8 VCs).
 * console.log(flowIdForChannel(packetChannel(1, 2, 1, 8))); // 6A
 * ```
 */
export function flowIdForChannel(channel: number): FlowIdLabel | undefined {
  return channel >= 1 && channel <= 8 ? (`${channel}A` as FlowIdLabel) : undefined;
}

/**
 * The header bits of a VC1–VC8 packet: VC = 1 and PRIO||CRF = channel − 1 (Table 2-2).
 *
 * @example
 * ```ts
 * import { channelPacketFields, messageSegment } from 'riodp/wire';
 *
 * // Send a message on VC6 of a link running 8 VCs.
 * const fields = channelPacketFields(6);
 * console.log(fields); // { vc: 1, prio: 2, crf: 1 }
 * const p = messageSegment({ ...fields, tt: 0, destinationID: 5, sourceID: 1, letter: 0, mailbox: 0, payload: new Uint8Array(8) });
 * console.log(p.vc, p.prio, p.crf); // 1 2 1
 * ```
 */
export function channelPacketFields(channel: number): { readonly vc: number; readonly prio: number; readonly crf: number } | undefined {
  if (!Number.isInteger(channel) || channel < 1 || channel > 8) return undefined;
  const id = channel - 1;
  return { vc: 1, prio: id >> 1, crf: id & 1 };
}
