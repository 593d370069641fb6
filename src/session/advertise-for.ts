import { ATTRIBUTE_ID, attributeName, channelName } from '../wire/smp/attributes.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { PROTO_ID, u16 } from '../wire/smp/header.ts';
import { smpAdvertiseAttributes, smpAdvertiseProtocols, smpAdvertiseUnsupported } from '../wire/smp/request-advertise.ts';
import type { SmpAdvertise, SmpRequest } from '../wire/smp/request-advertise.ts';
import { identityMatches } from './support-match.ts';
import type { ProtocolSupport } from './types.ts';

/**
 * The ADVERTISE answering a REQUEST (Annex 2 §3.5.1.2, §4.2.1, §4.2.2, DECISIONS §7):
 * - ProtoID 0xFFFF, "a request for a list of protocols without attributes": S=1, A=0 and the
 *   ProtoIDs of every protocol this end point can receive (Table 4-3);
 * - a supported ProtoID: S=1, A=1, a block per matching ProtocolSupport with "all required and
 *   optional attributes related to the protocol" (§3.5.1.2), limited to the REQUEST's list when it
 *   has one ("the receiver should respond only with attributes that match the attributes included
 *   in the REQUEST message", §4.2.1);
 * - otherwise S=0: "the protocol is not supported, and the <A> bit must be set to zero", Count 0.
 *
 * Attributes match the REQUEST's by Attribute ID; a REQUEST lists what it wants to learn, so its
 * values are not compared, except VENDOR and PROTOCOL_NAME under 0x0101, which name the vendor
 * protocol asked about (§6.2) and select the ProtocolSupport blocks.
 */
export function advertiseFor(request: SmpRequest, protocols: readonly ProtocolSupport[], self: number): SmpAdvertise {
  const to = { sourceID: self, destID: request.sourceID };
  if (request.protoID === PROTO_ID.PROTOCOL_LIST) {
    const protoIDs = [...new Set(protocols.map((p) => p.protoID))].filter((id) => id !== PROTO_ID.PROTOCOL_LIST);
    return smpAdvertiseProtocols({ ...to, protoIDs });
  }
  const named = request.protoID === PROTO_ID.VENDOR_DEFINED ? request.attributes : [];
  const matching = protocols.filter((p) => p.protoID === request.protoID && identityMatches(p, named, true));
  if (matching.length === 0) return smpAdvertiseUnsupported(to);
  return smpAdvertiseAttributes({
    ...to,
    protocols: matching.map((p) => ({ protoID: p.protoID, attributes: limitTo(p.attributes, request.attributes, p.protoID) })),
  });
}

/**
 * A protocol's attributes limited to the IDs a REQUEST lists (all of them for an empty list), in
 * the advertised order and with every copy (a range stays a range). Kept with them, so that the
 * block still follows the attribute rules: VENDOR when a vendor-specific attribute or channel is
 * kept ("the first vendor specific attribute must begin with attribute 0x00", §3.5.3; "if a
 * vendor-specific channel is used, the VENDOR attribute must be specified", §3.5.3.10);
 * DATA_OFFSET with DATA_OFFSET_VENDOR ("the DATA_OFFSET attribute must follow it", §3.5.3.2);
 * VENDOR and PROTOCOL_NAME under 0x0101, which tell the vendor protocol apart (§6.2).
 */
export function limitTo(attrs: readonly AttributeLike[], wanted: readonly AttributeLike[], protoID: number): AttributeLike[] {
  if (wanted.length === 0) return [...attrs];
  const ids = new Set(wanted.map((a) => a.id));
  if (protoID === PROTO_ID.VENDOR_DEFINED) {
    ids.add(ATTRIBUTE_ID.VENDOR);
    ids.add(ATTRIBUTE_ID.PROTOCOL_NAME);
  }
  if (ids.has(ATTRIBUTE_ID.DATA_OFFSET_VENDOR) && attributeName(ATTRIBUTE_ID.DATA_OFFSET, protoID) === 'DATA_OFFSET') ids.add(ATTRIBUTE_ID.DATA_OFFSET);
  const vendorScoped = attrs.some((a) => ids.has(a.id) && (attributeName(a.id, protoID) === 'VENDOR_SPECIFIC' || vendorChannel(a, protoID)));
  if (vendorScoped) ids.add(ATTRIBUTE_ID.VENDOR);
  return attrs.filter((a) => ids.has(a.id));
}

function vendorChannel(a: AttributeLike, protoID: number): boolean {
  return attributeName(a.id, protoID) === 'CONVEYANCE' && a.value.length >= 2 && channelName(u16(a.value, 0)) === 'VENDOR_SPECIFIC';
}
