import type { Packet } from '../../wire/packet.ts';
import { FTYPE_FLOW_CONTROL } from '../../wire/type7.ts';
import { FTYPE_MAINTENANCE, isType8Response } from '../../wire/type8.ts';
import type { Type8Packet, Type8ReadRequest, Type8WriteRequest } from '../../wire/type8.ts';

/**
 * What a switch does with a received packet, decided once when it arrives (Part 6 §6.11 packet
 * delivery rule 3: the output is "based solely on the value of the destinationID field").
 *
 * Type 8 MAINTENANCE, Part 3 §2.5: "Whenever a switch processing element that does not have as
 * associated device ID receives a maintenance packet it examines the hop_count field. If the
 * received hop_count is zero, the access is for that switch. If the hop_count is not zero, it is
 * decremented and the packet is sent out of the switch according to the destinationID field. A
 * switch processing element shall decrement the hop count when it forwards a maintenance packet."
 * A read or write request addressed to the switch's own device ID is for it too, whatever its
 * hop_count (Part 3 §2.3: "Each directly addressable device in the system shall have one or more
 * unique device identifiers"). Responses are "always targeted at an end point" with hop_count
 * 0xFF, so they are always forwarded; one that arrives with hop_count 0 keeps it (it cannot go
 * lower). A port-write or reserved transaction with hop_count 0 is for a switch that has no
 * function for it (its Destination Operations CAR bit 29 "Port-write" is clear): dropped, counted.
 */

export type Decision =
  | { readonly kind: 'forward'; readonly packet: Packet; readonly out: number; readonly hopDecremented: boolean }
  /** A read or write request for this switch; `out` is where its response goes (undefined: no route). */
  | { readonly kind: 'answer'; readonly request: Type8ReadRequest | Type8WriteRequest; readonly out: number | undefined }
  | { readonly kind: 'unsupported'; readonly transaction: string; readonly sourceID: number }
  | { readonly kind: 'no-route' };

export interface RouteContext {
  readonly route: (destinationID: number) => number | undefined;
  readonly deviceId: () => number;
}

function isInt(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max;
}

/**
 * Why a received value is not a packet the element can handle, or undefined. The driver decodes
 * frames with the codecs, so this only guards the fields the element reads against a driver (or
 * JSON input) that hands over something else.
 */
export function packetProblem(p: unknown): string | undefined {
  if (typeof p !== 'object' || p === null) return 'packet must be a decoded packet object';
  const r = p as Record<string, unknown>;
  if (!isInt(r['ftype'], 15)) return 'packet.ftype must be an integer from 0 to 15';
  if (!isInt(r['destinationID'], 0xffffffff)) return 'packet.destinationID must be a device ID';
  if (!isInt(r['prio'], 3)) return 'packet.prio must be an integer from 0 to 3';
  if (!isInt(r['crf'], 1)) return 'packet.crf must be 0 or 1';
  if (!isInt(r['tt'], 3)) return 'packet.tt must be an integer from 0 to 3';
  if (!isInt(r['vc'], 1)) return 'packet.vc must be 0 or 1';
  // Part 9 §3.2 Figure 3-1: a Type 7 packet has tgtdestinationID where others have sourceID.
  const id = r['ftype'] === FTYPE_FLOW_CONTROL ? 'tgtdestinationID' : 'sourceID';
  if (!isInt(r[id], 0xffffffff)) return `packet.${id} must be a device ID`;
  if (r['ftype'] === FTYPE_MAINTENANCE && (!isInt(r['hopCount'], 0xff) || typeof r['transactionName'] !== 'string')) {
    return 'a maintenance packet needs hopCount (0–255) and transactionName';
  }
  return undefined;
}

/** The ID a port's source filter checks: the sourceID, or a Type 7 packet's tgtdestinationID. */
export function senderOf(p: Packet): number {
  return p.ftype === FTYPE_FLOW_CONTROL ? p.tgtdestinationID : p.sourceID;
}

function forward(packet: Packet, ctx: RouteContext, hopDecremented: boolean): Decision {
  const out = ctx.route(packet.destinationID);
  return out === undefined ? { kind: 'no-route' } : { kind: 'forward', packet, out, hopDecremented };
}

function maintenance(p: Type8Packet, ctx: RouteContext): Decision {
  if (isType8Response(p)) return p.hopCount === 0 ? forward(p, ctx, false) : forward({ ...p, hopCount: p.hopCount - 1 }, ctx, true);
  const request = p.transactionName === 'MAINTENANCE_READ_REQUEST' || p.transactionName === 'MAINTENANCE_WRITE_REQUEST';
  if (request && (p.hopCount === 0 || p.destinationID === ctx.deviceId())) return { kind: 'answer', request: p, out: ctx.route(p.sourceID) };
  if (p.hopCount === 0) return { kind: 'unsupported', transaction: p.transactionName, sourceID: p.sourceID };
  return forward({ ...p, hopCount: p.hopCount - 1 }, ctx, true);
}

export function decide(p: Packet, ctx: RouteContext): Decision {
  return p.ftype === FTYPE_MAINTENANCE ? maintenance(p, ctx) : forward(p, ctx, false);
}

/** Whether a packet's decoded form is a Type 8 packet the hop_count rules can read (its ftype, hopCount and transactionName). */
export function isMaintenanceWire(w: unknown): w is Type8Packet {
  if (typeof w !== 'object' || w === null) return false;
  const r = w as Record<string, unknown>;
  return r['ftype'] === FTYPE_MAINTENANCE && isInt(r['hopCount'], 0xff) && typeof r['transactionName'] === 'string';
}
