import { rawTmPacket, tmPacket } from '../../src/streaming/tm-packet.ts';
import type { TmMessage } from '../../src/wire/type9-tm.ts';
import type { Type9TmPacket } from '../../src/wire/type9-types.ts';
import type { StreamTarget } from '../../src/streaming/classifier.ts';
import type { TmEgressOutput, TmIngressOutput } from '../../src/streaming/tm-types.ts';

/**
 * Shared fixtures of the traffic management tests: an ingress (device 0x06) sending to an egress
 * (device 0x21), as in §3.4.1's example ("Endpoint 21 sends <cos 3> XOFF to endpoint 6").
 */
export const INGRESS = 0x06;
export const EGRESS = 0x21;

export const VIDEO: StreamTarget = { destinationID: EGRESS, cos: 0x40, streamID: 7, flowID: '0D' };
export const AUDIO: StreamTarget = { destinationID: EGRESS, cos: 0x43, streamID: 9, flowID: '0B' };
export const BULK: StreamTarget = { destinationID: EGRESS, cos: 0x80, streamID: 1, flowID: '0A' };
export const OTHER: StreamTarget = { destinationID: 0x07, cos: 0x40, streamID: 7, flowID: '0A' };

export interface Operand {
  readonly cos?: number;
  readonly streamID?: number;
  readonly wildcard?: number;
  readonly mask?: number;
}

/** A TM packet from the egress to the ingress (prio 0, CRF 0 unless given). */
export function fromEgress(tmOp: number, m: TmMessage, o: Operand = {}, flow = { prio: 0, crf: 0, vc: 0 }, from = EGRESS): Type9TmPacket {
  return tmPacket({ localID: from, tt: 0 }, { peer: INGRESS, cos: o.cos ?? 0, streamID: o.streamID ?? 0, wildcard: o.wildcard ?? 0, mask: o.mask ?? 0 }, flow, tmOp, m);
}

/** A TM packet from the ingress to the egress. */
export function fromIngress(tmOp: number, m: TmMessage, o: Operand = {}, flow = { prio: 0, crf: 0, vc: 0 }, from = INGRESS): Type9TmPacket {
  return tmPacket({ localID: from, tt: 0 }, { peer: EGRESS, cos: o.cos ?? 0, streamID: o.streamID ?? 0, wildcard: o.wildcard ?? 0, mask: o.mask ?? 0 }, flow, tmOp, m);
}

/** A TM packet with raw parameters (reserved values, application messages). */
export function rawFrom(from: number, to: number, tmOp: number, parameter1: number, parameter2: number, o: Operand = {}): Type9TmPacket {
  return rawTmPacket({ localID: from, tt: 0 }, { peer: to, cos: o.cos ?? 0, streamID: o.streamID ?? 0, wildcard: o.wildcard ?? 0, mask: o.mask ?? 0 }, { prio: 0, crf: 0, vc: 0 }, tmOp, parameter1, parameter2);
}

/** A TM packet as `<OP> <message>` text: "CREDIT CREDIT_STATUS 0 16 -> 33 cos 64 wc 1". */
export function describe(p: Type9TmPacket): string {
  const m = p.tm;
  let what: string = m.message;
  if (m.message === 'Q_STATUS') what += ` ${m.level}`;
  else if (m.message === 'ALLOCATE' || m.message === 'CREDIT_STATUS') what += ` ${m.allocationUnit} ${m.credits}`;
  else if (m.message === 'REDUCE' || m.message === 'INCREASE') what += ` ${m.rate} ${m.amount}`;
  else if (m.message === 'DOUBLE' || m.message === 'MAINTAIN') what += ` ${m.rate}`;
  else if (m.message === 'USER_DEFINED') what += ` ${m.value}`;
  return `${p.tmOpName} ${what}`;
}

type AnyOut = TmIngressOutput | TmEgressOutput;

export function tmOut(out: readonly AnyOut[]): Type9TmPacket[] {
  return out.flatMap((o) => (o.kind === 'tm' ? [o.packet] : []));
}

export function tmText(out: readonly AnyOut[]): string[] {
  return tmOut(out).map(describe);
}

export function eventNames(out: readonly AnyOut[]): string[] {
  return out.flatMap((o) => (o.kind === 'event' ? [o.name] : []));
}

export function gates(out: readonly AnyOut[]): string[] {
  return out.flatMap((o) => (o.kind === 'gate' ? [`${o.queue} ${o.open ? 'open' : 'closed'} ${o.reason}`] : []));
}
