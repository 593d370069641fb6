/**
 * How the end point element reads a packet the fabric end point received (fabric-endpoint.ts):
 * its `NodePacket` view (endpoint/packet.ts), whose `kind` chooses where the element's dispatch
 * (endpoint/core.ts) sends it.
 *
 * Separate from fabric-endpoint.ts: the classification is Part 9 §3.3's and Part 10's, a pure
 * function of the packet; the end point only hosts the element.
 */
import type { Time } from '../engine/contract.ts';
import { serialPacketLength } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { malformedCcp } from './endpoint/ccp-reaction.ts';
import type { NodePacket, PacketKind, Priority } from './endpoint/packet.ts';

/**
 * Part 9 §3.3: a Type 7 with FAM 000 is XON/XOFF, the others are flow arbitration messages when
 * the end point arbitrates (`takesArb`; a well-formed one: a malformed one goes to the CCP checks,
 * which report it). A Type 9 TM packet is traffic management's; other Type 9 packets are data (of
 * streams and of management streams alike: the session stack tells them apart); the rest is
 * session management's.
 */
export function nodeView(p: Packet, takesArb: boolean, now: Time): NodePacket {
  let kind: PacketKind;
  let src: number;
  if (p.ftype === 7) {
    kind = (p.fam & 7) !== 0 && takesArb && malformedCcp(p) === undefined ? 'arb' : 'ccp';
    src = p.tgtdestinationID;
  } else {
    kind = p.ftype !== 9 ? 'smp' : p.segment === 'tm' ? 'tm' : 'data';
    src = p.sourceID;
  }
  return { id: 0, kind, ftype: p.ftype, src, dst: p.destinationID, prio: (p.prio & 3) as Priority, crf: p.crf === 1 ? 1 : 0, vc: p.vc, bytes: serialPacketLength(p), flow: -1, createdAt: now, wire: p };
}
