import { tmMessage, tmOpName, tmOperand, tmParameters } from '../wire/type9-tm.ts';
import type { TmMessage } from '../wire/type9-tm.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';
import type { PacketFlow } from './classifier.ts';
import { modeTakesOp } from './tm-mode.ts';
import type { TmModeSetting } from './tm-mode.ts';
import { designationKey, designationOfPacket } from './tm-operand-match.ts';
import type { TmDesignation } from './tm-operand-match.ts';

/**
 * Building TM packets (Part 10 §4.3 Figure 4-5) and the checks both engines make on a received
 * one before acting on it.
 */

/** Which end a message is for: §3.4.2–§3.4.4 list "Egress to Ingress" and "Ingress to Egress" messages. */
export type TmDirection = 'to-ingress' | 'to-egress' | 'either';

export function tmDirection(m: TmMessage): TmDirection {
  switch (m.message) {
    case 'Q_STATUS':
    case 'CREDIT_STATUS':
      return 'to-egress';
    case 'USER_DEFINED':
    case 'APPLICATION_DEFINED':
    case 'RESERVED':
      return 'either';
    default:
      return 'to-ingress';
  }
}

export interface TmSender {
  readonly localID: number;
  readonly tt: number;
}

/**
 * A TM packet to `d.peer` about the traffic `d` designates, in the data's flow (§3.4.5 protocol
 * rule 1). "The segmentation bits, Start and End are not used, or are the Odd and Pad fields.
 * Those are left 0's" (§4.3).
 */
export function rawTmPacket(from: TmSender, d: TmDesignation, flow: PacketFlow, tmOp: number, parameter1: number, parameter2: number): Type9TmPacket {
  return {
    ackID: 0, vc: flow.vc, crf: flow.crf, prio: flow.prio, tt: from.tt, ftype: 9,
    destinationID: d.peer, sourceID: from.localID, cos: d.cos, start: 0, end: 0, xh: 1, odd: 0, pad: 0,
    segment: 'tm', xtype: 0, streamID: d.streamID, tmOp, tmOpName: tmOpName(tmOp), rsrv: 0,
    wildcard: d.wildcard, mask: d.mask, parameter1, parameter2,
    tm: tmMessage(tmOp, parameter1, parameter2), operand: tmOperand(d.wildcard, d.mask),
  };
}

/** The packet for a message under a TM OP; tmParameters throws WireError for a message the OP cannot carry (a programming error). */
export function tmPacket(from: TmSender, d: TmDesignation, flow: PacketFlow, tmOp: number, m: TmMessage): Type9TmPacket {
  const p = tmParameters(tmOp, m);
  if (p === undefined) throw new RangeError(`${m.message} has no parameters`);
  return rawTmPacket(from, d, flow, tmOp, p.parameter1, p.parameter2);
}

/** The flow a received packet travelled in. */
export function packetFlow(p: Pick<Type9TmPacket, 'prio' | 'crf' | 'vc'>): PacketFlow {
  return { prio: p.prio, crf: p.crf, vc: p.vc };
}

/** Why a received TM packet is not acted upon, with the event and counter names both engines use. */
export type TmRejection =
  | 'not-tm' | 'tm-disabled' | 'op-not-in-mode' | 'reserved-message' | 'invalid-operand' | 'wrong-direction' | 'user-defined' | 'application-defined';

export type TmScreen =
  | { readonly ok: true; readonly message: TmMessage; readonly designation: TmDesignation; readonly key: string }
  | { readonly ok: false; readonly rejection: TmRejection };

/**
 * The checks in order: a TM packet at all; TM enabled; a defined TM OP the mode uses; the
 * application OP and user-defined values are surfaced, not acted upon ("use of user defined
 * fields is optional", §3.4.5 rule 4); a defined parameter; a permitted operand (§4.3.1); a
 * message this end receives. The message and operand are derived from the raw fields, so a
 * hand-built packet whose labels disagree is read as the wire would read it.
 */
export function screenTm(p: Type9TmPacket, mode: TmModeSetting, receiver: 'ingress' | 'egress'): TmScreen {
  if ((p as { segment?: unknown }).segment !== 'tm') return { ok: false, rejection: 'not-tm' };
  if (mode === 'DISABLED') return { ok: false, rejection: 'tm-disabled' };
  if (tmOpName(p.tmOp) === 'RESERVED') return { ok: false, rejection: 'reserved-message' };
  if (!modeTakesOp(mode, p.tmOp)) return { ok: false, rejection: 'op-not-in-mode' };
  const message = tmMessage(p.tmOp, p.parameter1, p.parameter2);
  if (message.message === 'APPLICATION_DEFINED') return { ok: false, rejection: 'application-defined' };
  if (message.message === 'USER_DEFINED') return { ok: false, rejection: 'user-defined' };
  if (message.message === 'RESERVED') return { ok: false, rejection: 'reserved-message' };
  const designation = designationOfPacket(p);
  const key = designationKey(designation);
  if (key === undefined) return { ok: false, rejection: 'invalid-operand' };
  const dir = tmDirection(message);
  if (dir !== 'either' && dir !== (receiver === 'ingress' ? 'to-ingress' : 'to-egress')) return { ok: false, rejection: 'wrong-direction' };
  return { ok: true, message, designation, key };
}

/** Counter name of each rejection (camelCase of the event). */
export const REJECTION_COUNTER = {
  'not-tm': 'notTm',
  'tm-disabled': 'tmDisabled',
  'op-not-in-mode': 'opNotInMode',
  'reserved-message': 'reserved',
  'invalid-operand': 'invalidOperand',
  'wrong-direction': 'wrongDirection',
  'user-defined': 'userDefined',
  'application-defined': 'applicationDefined',
} as const satisfies Record<TmRejection, string>;

/** The event of a rejected packet: raw fields included, so user and application messages reach the application. */
export function rejectionEvent<N extends string>(name: N, p: Type9TmPacket): {
  readonly kind: 'event'; readonly name: N; readonly tmOp: number; readonly wildcard: number; readonly mask: number;
  readonly parameter1: number; readonly parameter2: number; readonly detail: string;
} {
  const raw = p as Partial<Type9TmPacket>;
  return {
    kind: 'event', name,
    tmOp: raw.tmOp ?? 0, wildcard: raw.wildcard ?? 0, mask: raw.mask ?? 0, parameter1: raw.parameter1 ?? 0, parameter2: raw.parameter2 ?? 0,
    detail: `from ${String(raw.sourceID)} cos ${String(raw.cos)} streamID ${String(raw.streamID)}`,
  };
}
