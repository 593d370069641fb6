import { ATTRIBUTE_ID } from '../wire/smp/attributes.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { PROTO_ID } from '../wire/smp/header.ts';
import { sameValue } from './attribute-values.ts';
import type { ProtocolSupport } from './types.ts';

/**
 * The ProtocolSupport an OPEN is for. Vendor-defined protocols share ProtoID 0x0101 and are told
 * apart by VENDOR and PROTOCOL_NAME ("These two attributes distinguish a vendor-defined protocol
 * from all other vendor-defined protocols", §6.2): the first support whose advertised values of
 * those two the list carries; otherwise the first support of the ProtoID.
 */
export function supportFor(protocols: readonly ProtocolSupport[], protoID: number, attrs: readonly AttributeLike[] = []): ProtocolSupport | undefined {
  const candidates = protocols.filter((p) => p.protoID === protoID);
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((p) => identityMatches(p, attrs)) ?? candidates[0];
}

/**
 * Whether `attrs` carry the support's advertised VENDOR and (under 0x0101) PROTOCOL_NAME values.
 * With `onlyNamed`, an attribute `attrs` leaves out is no mismatch (a REQUEST need not name them).
 */
export function identityMatches(support: ProtocolSupport, attrs: readonly AttributeLike[], onlyNamed = false): boolean {
  const ids: number[] = [ATTRIBUTE_ID.VENDOR];
  if (support.protoID === PROTO_ID.VENDOR_DEFINED) ids.push(ATTRIBUTE_ID.PROTOCOL_NAME);
  return ids.every((id) => {
    const mine = support.attributes.filter((a) => a.id === id);
    if (mine.length === 0 || (onlyNamed && !attrs.some((a) => a.id === id))) return true;
    return attrs.some((a) => a.id === id && mine.some((m) => sameValue(m.value, a.value)));
  });
}

/**
 * Whether no OPEN could tell two vendor-defined protocols apart: some VENDOR value and some
 * PROTOCOL_NAME value (alternatives count, decision N9) advertised by both. §6.2.2: the name
 * "must uniquely identify the protocol in that it differentiates the protocol from all other
 * protocols defined by the vendor".
 */
export function sameVendorIdentity(a: ProtocolSupport, b: ProtocolSupport): boolean {
  const shared = (id: number): boolean => {
    const mine = a.attributes.filter((x) => x.id === id);
    return mine.some((x) => b.attributes.some((y) => y.id === id && sameValue(x.value, y.value)));
  };
  return shared(ATTRIBUTE_ID.VENDOR) && shared(ATTRIBUTE_ID.PROTOCOL_NAME);
}

/** Whether a vendor-defined protocol advertises the two attributes §6.2 requires to tell it apart. */
export function hasVendorIdentity(p: ProtocolSupport): boolean {
  return p.attributes.some((a) => a.id === ATTRIBUTE_ID.VENDOR) && p.attributes.some((a) => a.id === ATTRIBUTE_ID.PROTOCOL_NAME);
}
