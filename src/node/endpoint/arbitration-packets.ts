/**
 * The packets flow arbitration puts on and takes off the simulated fabric: Type 7 messages as
 * control packets of kind 'arb' (arbitration.ts), and the transaction request flow a
 * received data packet belongs to.
 */
import { flowIdForChannel, flowIdForPacket, packetChannel } from '../../wire/flow-id.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import { serialLength } from '../../wire/serial.ts';
import { type7Length } from '../../wire/type7.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import type { ControlPacket } from './feature.ts';
import type { Priority, NodePacket } from './packet.ts';

/**
 * A REQUEST, RELEASE, XON(ARB) or XOFF(ARB) as the engines made it: routed to its destinationID,
 * in the prio/CRF (and VC) the engine chose (§2.4.7 rule 12: REQUEST and the answers "may be sent
 * in any flow", RELEASE "in the same flow that the context is allocated for"), taking the wire time
 * of its LP-Serial framing.
 */
export function arbControlPacket(p: Type7Packet): ControlPacket {
  return {
    kind: 'arb',
    dst: p.destinationID,
    prio: (p.prio & 3) as Priority,
    crf: p.crf === 1 ? 1 : 0,
    vc: p.vc,
    bytes: serialLength(type7Length(p)),
    wire: p,
  };
}

/**
 * Whether a received 'arb' packet carries a Type 7 packet the engines can read. The engines take
 * decoded packets; anything else arriving under the kind is malformed and dropped (counted).
 */
export function isType7(w: unknown): w is Type7Packet {
  if (typeof w !== 'object' || w === null) return false;
  const p = w as Partial<Record<keyof Type7Packet, unknown>>;
  return p.ftype === 7 && typeof p.xonXoff === 'number' && typeof p.fam === 'number' && typeof p.flowIDCode === 'number'
    && typeof p.flowID === 'string' && typeof p.destinationID === 'number' && typeof p.tgtdestinationID === 'number'
    && typeof p.tt === 'number';
}

/**
 * The transaction request flow of a received data packet: "a series of packets that have a common
 * source identifier and a common destination identifier at some given priority" (Glossary). VC0
 * packets map by prio/CRF (Part 6 Tables 6-6/6-7, the same rule as the source's requestFlowId);
 * a VC1–VC8 packet is "Flow nA" of its channel (Part 6 Table 2-2, Part 9 Table 3-1). Undefined for a
 * request at prio 3, which Part 9 Table 2-1 calls "Illegal".
 */
export function dataFlowId(p: NodePacket, crfSupported: boolean): FlowIdLabel | undefined {
  if ((p.vc & 1) === 1) return flowIdForChannel(packetChannel(p.vc, p.prio, p.crf, 8));
  return flowIdForPacket({ prio: p.prio, crf: p.crf, response: false, crfSupported })?.flowID;
}
