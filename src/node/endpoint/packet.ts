import type { Priority, SwitchPacket } from '../switch/packet.ts';

export type { Priority } from '../switch/packet.ts';

/**
 * A packet as the node elements hand it between them and their hosts: the header fields the
 * switch reads (`SwitchPacket`) and what an end point needs to tell its packets apart and to report
 * on them. The simulator moves these light descriptors on its links (its `NodePacket`); a host on
 * real links keeps the decoded packet in `wire`.
 */
export type PacketKind = 'data' | 'ccp' | 'tm' | 'arb' | 'smp';

export interface NodePacket extends SwitchPacket {
  /** Unique per host (a simulation, a process), increasing in creation order (a deterministic tie-break). */
  readonly id: number;
  /**
   * What the end point does with it: data of a flow, a Part 9 CCP, a Part 10 TM message, a Part 9
   * flow arbitration message, or session management (Annex 2 messages, the MAINTENANCE of discovery).
   */
  readonly kind: PacketKind;
  readonly prio: Priority;
  /** The host's number of the traffic flow it belongs to, −1 for control traffic. */
  readonly flow: number;
  /** When the source created the PDU (or the packet, for single-packet traffic), in the host's time unit. */
  readonly createdAt: number;
  /** Position within its PDU, for PDU latency and plain (not segmented) traffic. */
  readonly pdu?: { readonly id: number; readonly index: number; readonly count: number; readonly bytes: number };
}

/**
 * The ftype a packet is classified by when its `wire` names none: Part 9 §2.4.3 "Maintenance and
 * flow control transaction request flows must never cause the generation of a flow control
 * transaction", so CCPs and flow arbitration messages are Type 7; everything else is request
 * traffic, taken as Type 9 (data streaming, the traffic Part 10 and the end points carry).
 */
const KIND_FTYPE: Readonly<Record<PacketKind, number>> = { data: 9, tm: 9, smp: 9, ccp: 7, arb: 7 };

/** A packet's ftype: its decoded form's, else its kind's. */
export function ftypeOf(kind: PacketKind, wire: unknown): number {
  if (typeof wire === 'object' && wire !== null) {
    const v = (wire as Record<string, unknown>)['ftype'];
    if (typeof v === 'number') return v;
  }
  return KIND_FTYPE[kind];
}
