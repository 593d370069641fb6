import type { Packet } from '../../wire/packet.ts';
import type { PacketKind, Priority, SimPacket } from './types.ts';

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
    vc: 0, bytes, flow: -1, createdAt: now, wire,
  };
}
