import { WireError, WireErrorCode, checkRange } from '../errors.ts';
import { ATTRIBUTE_BYTES, ATTRIBUTE_ID, attributeFromValue, idBitsOf } from './attributes.ts';
import type {
  ConduitStreamAttribute,
  ConveyanceAttribute,
  DataHeaderFormatAttribute,
  DataOffsetAttribute,
  MacAddressAttribute,
  MtuAttribute,
  OpaqueAttribute,
  OpenMessageNumberAttribute,
  PeriodAttribute,
  SmpAttribute,
  VendorAttribute,
} from './attributes.ts';
import { PROTO_ID, SMP_COMMAND, put16, put32 } from './header.ts';

/**
 * Constructors engines use to build attributes: each returns the same object decoding would
 * give, its value octets assembled from the named fields (Annex 2 §3.5.3.1–§3.5.3.10, §6.2, §7.2).
 */

/**
 * Any attribute from its ID and value octets, named under `protoID` (default: a protocol this annex does not define).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // A vendor-specific attribute (Table 3-3 range 0xEF00–0xEFFF): a 16-bit ID leaves six value octets.
 * const a = smp.smpAttribute(0xef01, Uint8Array.of(0, 0, 0, 0, 0x12, 0x34), smp.PROTO_ID.ETHERNET);
 * console.log(a.name, a.idBits, a.value.length); // VENDOR_SPECIFIC 16 6
 * ```
 */
export function smpAttribute(id: number, value: Uint8Array, protoID = 0): SmpAttribute {
  const bits = idBitsOf(id);
  if (bits === undefined) {
    throw new WireError(WireErrorCode.range, 'id', 0, 'Annex 2 §3.5.3 Table 3-2', `0x${id.toString(16)} is in none of the Table 3-2 ranges`);
  }
  const want = ATTRIBUTE_BYTES - bits / 8;
  if (value.length !== want) {
    throw new WireError(WireErrorCode.range, 'value', 0, 'Annex 2 §3.5.3 Table 3-2', `a ${bits}-bit ID leaves ${want} value octets`);
  }
  return attributeFromValue(id, Uint8Array.from(value), protoID);
}

/** A VENDOR or DATA_OFFSET_VENDOR value (§3.5.3): an IEEE OUI, or a name. */
export type VendorValue = { readonly oui: number } | { readonly name: string | Uint8Array };

/**
 * OUI format: "assigned to the second, third, and fourth octets of the attribute, and the remaining four octets set to zero"; NAME format: seven non-zero octets (§3.5.3.1).
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * console.log(toHex(smp.vendorValue({ oui: 0x00005e }))); // 00005e00000000
 * console.log(toHex(smp.vendorValue({ name: 'ACMEIO1' }))); // 41434d45494f31
 * ```
 */
export function vendorValue(v: VendorValue): Uint8Array {
  const out = new Uint8Array(7);
  if ('oui' in v) {
    checkRange(v.oui, 24, 'oui', 'Annex 2 §3.5.3.1');
    out[0] = v.oui >>> 16;
    out[1] = (v.oui >>> 8) & 0xff;
    out[2] = v.oui & 0xff;
    return out;
  }
  const name = typeof v.name === 'string' ? Uint8Array.from(Buffer.from(v.name, 'latin1')) : v.name;
  if (name.length !== 7) {
    throw new WireError(WireErrorCode.range, 'name', 0, 'Annex 2 §3.5.3.1', 'NAME format is a seven-octet value');
  }
  out.set(name);
  return out;
}

/**
 * A VENDOR attribute (§3.5.3.1).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * const v = smp.attrVendor({ oui: 0x00005e });
 * console.log(v.name, v.vendorFormat, v.oui?.toString(16)); // VENDOR OUI 5e
 * ```
 */
export function attrVendor(v: VendorValue): VendorAttribute {
  return attributeFromValue(ATTRIBUTE_ID.VENDOR, vendorValue(v), 0) as VendorAttribute;
}

/**
 * A DATA_OFFSET_VENDOR attribute (§3.5.3.2): the vendor whose DATA_OFFSET octets follow.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // DATA_OFFSET_VENDOR, then the DATA_OFFSET it introduces: "the DATA_OFFSET attribute must follow it".
 * const attrs = [smp.attrDataOffsetVendor({ name: 'ACMEIO1' }), smp.attrDataOffset(4)];
 * console.log(attrs.map((a) => a.name).join(' '), smp.checkAttributeOrder(attrs, 0x1234).length); // DATA_OFFSET_VENDOR DATA_OFFSET 0
 * ```
 */
export function attrDataOffsetVendor(v: VendorValue): VendorAttribute {
  return attributeFromValue(ATTRIBUTE_ID.DATA_OFFSET_VENDOR, vendorValue(v), 0) as VendorAttribute;
}

/**
 * PROTOCOL_NAME (§6.2.2): 8-bit ID 0x01, a vendor-defined 56-bit value; only under ProtoID 0x0101.
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * // A vendor-defined protocol's two required attributes: VENDOR, then PROTOCOL_NAME (§6.2).
 * const name = smp.attrProtocolName('RDMA');
 * const attrs = [smp.attrVendor({ oui: 0x00005e }), name];
 * console.log(name.id, toHex(name.value), smp.checkAttributeOrder(attrs, smp.PROTO_ID.VENDOR_DEFINED).length); // 1 52444d41000000 0
 * ```
 */
export function attrProtocolName(value: Uint8Array | string): OpaqueAttribute {
  const v = typeof value === 'string' ? Uint8Array.from(Buffer.from(value.padEnd(7, '\0'), 'latin1')) : Uint8Array.from(value);
  if (v.length !== 7) throw new WireError(WireErrorCode.range, 'value', 0, 'Annex 2 §6.2.2', 'a 56-bit value');
  return attributeFromValue(ATTRIBUTE_ID.PROTOCOL_NAME, v, PROTO_ID.VENDOR_DEFINED) as OpaqueAttribute;
}

/**
 * CONVEYANCE (§3.5.3.10): channel in the first sixteen bits, 32 bits of channel-specific information.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // A vendor-specific channel 0xFF01: "the VENDOR attribute must be specified" too.
 * const c = smp.attrConveyance(0xff01, 0x00000010);
 * console.log(c.channelName, smp.checkAttributeOrder([c], 0x1234)[0]?.rule); // VENDOR_SPECIFIC vendor-conveyance
 * ```
 */
export function attrConveyance(channel: number, channelInfo: number): ConveyanceAttribute {
  checkRange(channel, 16, 'channel', 'Annex 2 §3.5.3.10 Table 3-8');
  checkRange(channelInfo, 32, 'channelInfo', 'Annex 2 §3.5.3.10 Table 3-8');
  const v = new Uint8Array(6);
  put16(v, 0, channel);
  put32(v, 2, channelInfo);
  return attributeFromValue(ATTRIBUTE_ID.CONVEYANCE, v, 0) as ConveyanceAttribute;
}

/**
 * CONVEYANCE channel 0x0001 (message) to a mailbox: "0x0000_00nn; nn indicates a mailbox" (Table 3-8).
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * // DATA and FLOW_CONTROL for this stream travel as Type 11 messages to mailbox 2.
 * const c = smp.attrConveyanceMailbox(2);
 * console.log(c.channelName, c.mailbox, toHex(c.value)); // MESSAGE 2 000100000002
 * ```
 */
export function attrConveyanceMailbox(mailbox: number): ConveyanceAttribute {
  checkRange(mailbox, 8, 'mailbox', 'Annex 2 §3.5.3.10 Table 3-8');
  return attrConveyance(0x0001, mailbox);
}

/**
 * MTU (§7.2.1): 16-bit ID 0x8002 under Ethernet, the MTU in the lowest two of six octets.
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * const a = smp.attrMtu(1500);
 * console.log(a.id.toString(16), toHex(a.value), a.mtu); // 8002 0000000005dc 1500
 * ```
 */
export function attrMtu(mtu: number, rsrv = 0): MtuAttribute {
  checkRange(mtu, 16, 'mtu', 'Annex 2 §7.2.1');
  checkRange(rsrv, 32, 'rsrv', 'Annex 2 §7.2.1');
  const v = new Uint8Array(6);
  put32(v, 0, rsrv);
  put16(v, 4, mtu);
  return attributeFromValue(ATTRIBUTE_ID.MTU, v, PROTO_ID.ETHERNET) as MtuAttribute;
}

/**
 * DATA_OFFSET (§3.5.3.3 Table 3-6): 16-bit ID 0x8003 outside Ethernet, Offset then Vendor0..Vendor4.
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * // Four Offset octets appended to each DATA header; Vendor0..Vendor4 are vendor information.
 * const a = smp.attrDataOffset(4, Uint8Array.of(0xa5, 0, 0, 0, 0));
 * console.log(a.id.toString(16), a.offset, toHex(a.value)); // 8003 4 04a500000000
 * ```
 */
export function attrDataOffset(offset: number, vendor: Uint8Array = new Uint8Array(5)): DataOffsetAttribute {
  checkRange(offset, 8, 'offset', 'Annex 2 §3.5.3.3 Table 3-6');
  if (vendor.length !== 5) throw new WireError(WireErrorCode.range, 'vendor', 0, 'Annex 2 §3.5.3.3 Table 3-6', 'Vendor0..Vendor4 are five octets');
  const v = new Uint8Array(6);
  v[0] = offset;
  v.set(vendor, 1);
  return attributeFromValue(ATTRIBUTE_ID.DATA_OFFSET, v, 0) as DataOffsetAttribute;
}

/**
 * MAC_ADDRESS (§7.2.3): 16-bit ID 0x8003 under Ethernet, six octets of MAC address.
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * const a = smp.attrMacAddress(Uint8Array.of(0x00, 0x00, 0x5e, 0x00, 0x53, 0x01));
 * console.log(a.name, toHex(a.macAddress)); // MAC_ADDRESS 00005e005301
 * ```
 */
export function attrMacAddress(mac: Uint8Array): MacAddressAttribute {
  if (mac.length !== 6) throw new WireError(WireErrorCode.range, 'macAddress', 0, 'Annex 2 §7.2.3', 'six octets');
  return attributeFromValue(ATTRIBUTE_ID.MAC_ADDRESS, Uint8Array.from(mac), PROTO_ID.ETHERNET) as MacAddressAttribute;
}

function u32Value(n: number, field: string, clause: string): Uint8Array {
  checkRange(n, 32, field, clause);
  const v = new Uint8Array(4);
  put32(v, 0, n);
  return v;
}

const PERIOD_CLAUSE = {
  REQUEST_RETRY_PERIOD: 'Annex 2 §3.5.3.4',
  REQUEST_TIMEOUT_PERIOD: 'Annex 2 §3.5.3.5',
  FLOW_CONTROL_XON_TIMEOUT_PERIOD: 'Annex 2 §3.5.3.6',
} as const;

/**
 * The three timing attributes (§3.5.3.4–§3.5.3.6): a 32-bit period in microseconds.
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * // Retry an unanswered REQUEST every 250 ms.
 * const a = smp.attrPeriod('REQUEST_RETRY_PERIOD', 250_000);
 * console.log(a.id.toString(16), toHex(a.value), a.microseconds); // f0000000 0003d090 250000
 * ```
 */
export function attrPeriod(name: PeriodAttribute['name'], microseconds: number): PeriodAttribute {
  return attributeFromValue(ATTRIBUTE_ID[name], u32Value(microseconds, 'microseconds', PERIOD_CLAUSE[name]), 0) as PeriodAttribute;
}

/**
 * OPEN_MESSAGE_NUMBER (§3.5.3.7): 32-bit ID 0xF0000003, a 32-bit number the OPEN sender chooses.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // An OPEN must carry OPEN_MESSAGE_NUMBER first (§4.2.3).
 * const open = smp.smpOpen({ sourceID: 1, protoID: 0x1234, attributes: [smp.attrOpenMessageNumber(7)] });
 * console.log(open.attributes[0]?.name, smp.checkAttributeOrder(open.attributes, open.protoID, 'OPEN').length); // OPEN_MESSAGE_NUMBER 0
 * ```
 */
export function attrOpenMessageNumber(n: number): OpenMessageNumberAttribute {
  return attributeFromValue(ATTRIBUTE_ID.OPEN_MESSAGE_NUMBER, u32Value(n, 'openMessageNumber', 'Annex 2 §3.5.3.7'), 0) as OpenMessageNumberAttribute;
}

/**
 * CONDUIT_STREAM (§3.5.3.8): transmit StreamID in the first sixteen bits, receive StreamID in the last; 0xFFFF = not known.
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * // The opener of a conduit will transmit on StreamID 0x0010; its receive stream is not known yet.
 * const a = smp.attrConduitStream(0x0010, 0xffff);
 * console.log(toHex(a.value), a.transmitStreamID, a.receiveStreamID.toString(16)); // 0010ffff 16 ffff
 * ```
 */
export function attrConduitStream(transmitStreamID: number, receiveStreamID: number): ConduitStreamAttribute {
  checkRange(transmitStreamID, 16, 'transmitStreamID', 'Annex 2 §3.5.3.8');
  checkRange(receiveStreamID, 16, 'receiveStreamID', 'Annex 2 §3.5.3.8');
  const v = new Uint8Array(4);
  put16(v, 0, transmitStreamID);
  put16(v, 2, receiveStreamID);
  return attributeFromValue(ATTRIBUTE_ID.CONDUIT_STREAM, v, 0) as ConduitStreamAttribute;
}

/**
 * DATA_HEADER_FORMAT (§3.5.3.9 Table 3-7): Reserved, Reserved, Implementation-Specific, DATA
 * command. `format` takes a command value or name (DATA 0x06, DATA1 0x09, DATA2 0x0A, DATA3 0x0B).
 *
 * @example
 * ```ts
 * import { smp, toHex } from 'riodp/wire';
 *
 * // The stream will use DATA2 headers whose Implementation-Specific octet is 0x5A (§4.3.3).
 * const a = smp.attrDataHeaderFormat('DATA2', 0x5a);
 * console.log(a.id.toString(16), toHex(a.value), a.formatName); // f0000005 00005a0a DATA2
 * ```
 */
export function attrDataHeaderFormat(format: number | 'DATA' | 'DATA1' | 'DATA2' | 'DATA3', implementationSpecific = 0, rsrv = 0): DataHeaderFormatAttribute {
  const f = typeof format === 'number' ? format : SMP_COMMAND[format];
  checkRange(f, 8, 'format', 'Annex 2 §3.5.3.9 Table 3-7');
  checkRange(implementationSpecific, 8, 'implementationSpecific', 'Annex 2 §3.5.3.9 Table 3-7');
  checkRange(rsrv, 16, 'rsrv', 'Annex 2 §3.5.3.9 Table 3-7');
  const v = new Uint8Array(4);
  put16(v, 0, rsrv);
  v[2] = implementationSpecific;
  v[3] = f;
  return attributeFromValue(ATTRIBUTE_ID.DATA_HEADER_FORMAT, v, 0) as DataHeaderFormatAttribute;
}
