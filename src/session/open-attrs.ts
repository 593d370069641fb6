import { ATTRIBUTE_ID, attributeFromValue, attributeName } from '../wire/smp/attributes.ts';
import type { AttributeLike, SmpAttribute } from '../wire/smp/attributes.ts';
import { PROTOCOL_REQUIRED } from '../wire/smp/attribute-order.ts';

/**
 * Attribute lists the engine builds for OPEN and ACCEPT (Annex 2 §3.5.3, §4.2.3, §4.2.4): where
 * an attribute the engine adds goes, and a stream's agreed list as both ends record it.
 */

/** OPEN_MESSAGE_NUMBER and CONDUIT_STREAM belong to one message, not to the stream (§3.5.3.7, §3.5.3.8). */
export function perMessage(id: number): boolean {
  return id === ATTRIBUTE_ID.OPEN_MESSAGE_NUMBER || id === ATTRIBUTE_ID.CONDUIT_STREAM;
}

function vendorRanked(a: AttributeLike, protoID: number): boolean {
  const name = attributeName(a.id, protoID);
  return name === 'VENDOR_SPECIFIC' || (name === 'VENDOR' && !(PROTOCOL_REQUIRED[protoID] ?? []).includes('VENDOR'));
}

/**
 * `list` with `attr` in it: in place of a copy with the same ID, or else ahead of the vendor
 * specific attributes ("All optional attributes must occur after all required attributes, and
 * before any vendor specific attributes", §3.5.3). Every attribute the engine adds is optional.
 */
export function placeAttribute(list: readonly AttributeLike[], attr: AttributeLike, protoID: number): AttributeLike[] {
  const out = list.filter((a) => a.id !== attr.id);
  const at = list.findIndex((a) => a.id === attr.id);
  if (at >= 0) {
    out.splice(Math.min(at, out.length), 0, attr);
    return out;
  }
  return insertOptional(out, attr, protoID);
}

/** `list` with `attr` ahead of its first vendor-specific attribute under `protoID`. */
export function insertOptional(list: readonly AttributeLike[], attr: AttributeLike, protoID: number): AttributeLike[] {
  const out = [...list];
  const v = out.findIndex((a) => vendorRanked(a, protoID));
  out.splice(v < 0 ? out.length : v, 0, attr);
  return out;
}

/**
 * The stream's attributes as the OPEN sender records them: the OPEN's list in its order, with the
 * value the ACCEPT names where it names one ("The ACCEPT message specifies the stream to be used
 * to identify the session, as well as the other attribute values which will govern the session",
 * §3.5.1.4), one copy per ID, then the ACCEPT's own additions (DATA_HEADER_FORMAT, §3.5.3.9).
 */
export function mergeAgreed(open: readonly AttributeLike[], accept: readonly AttributeLike[], protoID: number): SmpAttribute[] {
  const fromAccept = new Map<number, AttributeLike>();
  for (const a of accept) if (!perMessage(a.id) && !fromAccept.has(a.id)) fromAccept.set(a.id, a);
  const out: SmpAttribute[] = [];
  const seen = new Set<number>();
  for (const a of [...open, ...accept]) {
    if (perMessage(a.id) || seen.has(a.id)) continue;
    seen.add(a.id);
    const v = fromAccept.get(a.id) ?? a;
    out.push(attributeFromValue(v.id, Uint8Array.from(v.value), protoID));
  }
  return out;
}

/** A list without its per-message attributes, read under `protoID`. */
export function streamAttributes(list: readonly AttributeLike[], protoID: number): SmpAttribute[] {
  return list.filter((a) => !perMessage(a.id)).map((a) => attributeFromValue(a.id, Uint8Array.from(a.value), protoID));
}

/** The OPEN_MESSAGE_NUMBER a message carries, if any (§3.5.3.7). */
export function openMessageNumberOf(attrs: readonly SmpAttribute[]): number | undefined {
  for (const a of attrs) if (a.name === 'OPEN_MESSAGE_NUMBER') return a.openMessageNumber;
  return undefined;
}

/** The CONDUIT_STREAM a message carries, if any (§3.5.3.8). */
export function conduitStreamOf(attrs: readonly SmpAttribute[]): { readonly transmit: number; readonly receive: number } | undefined {
  for (const a of attrs) if (a.name === 'CONDUIT_STREAM') return { transmit: a.transmitStreamID, receive: a.receiveStreamID };
  return undefined;
}
