import { tmOperand } from '../wire/type9-tm.ts';
import type { TmOperand } from '../wire/type9-tm.ts';
import type { Type9TmPacket } from '../wire/type9-types.ts';

/**
 * Which queues a traffic management operand addresses (Part 10 §3.4.1, §4.3.1, §3.4.5 protocol
 * rule 2: "Any rules used by the ingress to associate traffic with a specific VSID shall be used
 * in reverse to associate the VSID in the message from the egress with the at least one queue").
 *
 * A designation is the operand of one TM message as the receiving end sees it: the VSID fields
 * (the far end's ID, cos, streamID) with the wildcard and mask. "The operand is always based on
 * a VSID that is the target (intended destination) of the data" (§3.4.1): in a message from the
 * egress the destination of the data is the message's source, so `peer` is always the sourceID
 * of a received TM packet and the destinationID of a sent one.
 */
export interface TmDesignation {
  /** The other end point: the egress (data destination) at the ingress, the ingress (data source) at the egress. */
  readonly peer: number;
  readonly cos: number;
  readonly streamID: number;
  readonly wildcard: number;
  readonly mask: number;
}

/** Which end point a designation is read at: the wildcard on the destination is "all destinations" only at the ingress. */
export type TmSide = 'ingress' | 'egress';

/**
 * The traffic a queue holds: the data of `peer` (destination at the ingress, source at the
 * egress), the cos values that agree with `cos` above the `cosFreeBits` low bits, and one stream
 * or every stream (`streamID` null).
 */
export interface QueueScope {
  readonly peer: number;
  readonly cos: number;
  readonly cosFreeBits: number;
  readonly streamID: number | null;
}

export function designationOfPacket(p: Pick<Type9TmPacket, 'sourceID' | 'cos' | 'streamID' | 'wildcard' | 'mask'>): TmDesignation {
  return { peer: p.sourceID, cos: p.cos, streamID: p.streamID, wildcard: p.wildcard, mask: p.mask };
}

export function designationOperand(d: TmDesignation): TmOperand {
  return tmOperand(d.wildcard, d.mask);
}

/** Low cos bits an operand does not look at: 0 for a stream or class, the mask's ones for a class group, all 8 otherwise. */
function freeBits(o: TmOperand): number {
  switch (o.scope) {
    case 'stream':
    case 'class':
      return 0;
    case 'classGroup':
      return Math.log2(o.cosValues);
    default:
      return 8;
  }
}

/**
 * A key naming what a designation designates, don't-care fields left out (§4.3.1 "where StreamID
 * is a don't care", "CoS, StreamID and mask are don't cares"); undefined for an INVALID operand.
 */
export function designationKey(d: TmDesignation): string | undefined {
  const o = designationOperand(d);
  switch (o.scope) {
    case 'stream':
      return `${d.peer}|stream|${d.cos}|${d.streamID}`;
    case 'class':
      return `${d.peer}|class|${d.cos}`;
    case 'classGroup':
      return `${d.peer}|group|${d.cos & ~d.mask & 0xff}|${d.mask}`;
    case 'destination':
      return `${d.peer}|destination`;
    case 'source':
      return `${d.peer}|source`;
    case 'INVALID':
      return undefined;
  }
}

/**
 * How narrow a designation is, smallest first: a stream, a class, a class group by its size,
 * a destination, all traffic. The ingress draws credits for a queue from the narrowest credit
 * context that covers it (riodp decision, docs/conformance.md section 8, traffic management).
 */
export function specificity(d: TmDesignation): number {
  const o = designationOperand(d);
  switch (o.scope) {
    case 'stream':
      return 0;
    case 'class':
      return 1;
    case 'classGroup':
      return o.cosValues;
    case 'destination':
      return 257;
    case 'source':
      return 258;
    case 'INVALID':
      return Infinity;
  }
}

/**
 * Whether the designation addresses the traffic of `q`: the sets of (peer, cos, stream) they
 * name intersect. A queue holding more than the operand names is still addressed (the ingress
 * cannot stop part of a queue); a queue holding part of it is addressed too.
 */
export function coversQueue(d: TmDesignation, side: TmSide, q: QueueScope): boolean {
  const o = designationOperand(d);
  if (o.scope === 'INVALID') return false;
  // Wildcard 0b1xx "the message applies to all destinations" (Table 4-3): at the ingress every
  // queue; at the egress the message still comes from one source, "All traffic from this source".
  if (o.scope === 'source') return side === 'ingress' || q.peer === d.peer;
  if (q.peer !== d.peer) return false;
  const free = Math.max(freeBits(o), q.cosFreeBits);
  if (free < 8 && (d.cos >> free) !== (q.cos >> free)) return false;
  if (o.scope !== 'stream' || q.streamID === null) return true;
  return q.streamID === d.streamID;
}

/** Whether the designation addresses one stream (peer, cos, streamID). */
export function coversStream(d: TmDesignation, side: TmSide, peer: number, cos: number, streamID: number): boolean {
  return coversQueue(d, side, { peer, cos, cosFreeBits: 0, streamID });
}

/** The keys of the queues a designation addresses, in key order. */
export function matchQueues<Q extends QueueScope & { readonly key: string }>(d: TmDesignation, side: TmSide, queues: Iterable<Q>): string[] {
  const keys: string[] = [];
  for (const q of queues) if (coversQueue(d, side, q)) keys.push(q.key);
  return keys.sort();
}

/**
 * The designation of a queue in the messages its end sends about it: the narrowest operand that
 * covers the whole queue. The don't-care fields take the values of the queue's data (`sample`),
 * §3.4.5 protocol rule 1 "When wild cards are used, the don't care fields shall be set to values
 * that put the message in the same flow as the affected data".
 */
export function designationForQueue(q: QueueScope, sample: { readonly cos: number; readonly streamID: number }): TmDesignation {
  if (q.streamID !== null) return { peer: q.peer, cos: q.cos, streamID: q.streamID, wildcard: 0b000, mask: 0 };
  if (q.cosFreeBits === 0) return { peer: q.peer, cos: q.cos, streamID: sample.streamID, wildcard: 0b001, mask: 0 };
  if (q.cosFreeBits === 8) return { peer: q.peer, cos: sample.cos, streamID: sample.streamID, wildcard: 0b011, mask: 0 };
  return { peer: q.peer, cos: sample.cos, streamID: sample.streamID, wildcard: 0b001, mask: (1 << q.cosFreeBits) - 1 };
}
