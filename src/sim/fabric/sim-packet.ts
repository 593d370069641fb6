import type { Packet } from '../../wire/packet.ts';
import { type7Length } from '../../wire/type7.ts';
import type { PacketKind, Priority, SimPacket } from './types.ts';

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

/**
 * A packet a switch makes (its CCPs, maintenance responses, a Type 8 packet forwarded with
 * hop_count decremented) as a SimPacket: a new id from the simulation's counter, except for a
 * forwarded packet, which keeps its identity (flow, creation time) with the new header.
 * `src` is the header's second ID, which in a CCP is tgtdestinationID (Part 9 §3.2 Figure 3-1).
 */
export function simPacketOf(wire: Packet, bytes: number, now: number, from: SimPacket | null, ids: { nextPacketId(): number }): SimPacket {
  if (from !== null) return { ...from, wire };
  const kind: PacketKind = wire.ftype === 7 ? 'ccp' : 'smp';
  const src = wire.ftype === 7 ? wire.tgtdestinationID : wire.sourceID;
  return {
    id: ids.nextPacketId(), kind, ftype: wire.ftype, src, dst: wire.destinationID, prio: (wire.prio & 3) as Priority, crf: wire.crf === 1 ? 1 : 0,
    vc: 0, bytes: wire.ftype === 7 ? type7Length(wire) : bytes, flow: -1, createdAt: now, wire,
  };
}
