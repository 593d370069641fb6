import { PROTO_ID } from './header.ts';

// The attribute kinds of the session management protocol (Annex 2 §3.5.3): ID widths, the
// named IDs and what an ID means under a ProtoID, the decoded shape of each kind and the names
// of their values. attributes.ts reads, checks and writes them, and re-exports all of these.


/**
 * Session management protocol attributes (Annex 2 §3.5.3): "the attribute field always consists
 * of a 64-bit (8-octet) value" — an Attribute ID of 8, 16 or 32 bits, told apart by its first
 * octet (Table 3-2: 0x00–0x7F, 0x8000–0xEFFF, 0xF0000000–0xFFFFFFFF), then the Attribute Value
 * in the remaining 7, 6 or 4 octets.
 */
export type AttributeIdBits = 8 | 16 | 32;
/**
 * Octets of one attribute: its ID and value (§3.5.3 Table 3-2).
 *
 * @example
 * ```ts
 * import { parseHex, smp } from 'riodp/wire';
 *
 * // The octets an OPEN takes before padding: an 8-octet header, then <numAttributes> attributes.
 * const open = parseHex('0301000101020001f000000300000007');
 * const numAttributes = ((open[6] ?? 0) << 8) | (open[7] ?? 0);
 * console.log(8 + numAttributes * smp.ATTRIBUTE_BYTES); // 16
 * ```
 */
export const ATTRIBUTE_BYTES = 8;


/** ID width from the first octet of the attribute (Table 3-2); every octet value maps to one width. */
export function attributeIdBits(firstOctet: number): AttributeIdBits {
  if (firstOctet <= 0x7f) return 8;
  if (firstOctet <= 0xef) return 16;
  return 32;
}

/** ID width of a whole ID value, or undefined when the value lies in none of the Table 3-2 ranges. */
export function idBitsOf(id: number): AttributeIdBits | undefined {
  if (!Number.isInteger(id) || id < 0) return undefined;
  if (id <= 0x7f) return 8;
  if (id >= 0x8000 && id <= 0xefff) return 16;
  if (id >= 0xf0000000 && id <= 0xffffffff) return 32;
  return undefined;
}

/**
 * Named attribute IDs. 0x8003 is DATA_OFFSET except under Ethernet, where it is MAC_ADDRESS (DECISIONS §7).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // Reading the MTU an Ethernet OPEN asks for.
 * const open = smp.smpOpen({ sourceID: 1, protoID: smp.PROTO_ID.ETHERNET, openMessageNumber: 7, attributes: [smp.attrMtu(1500)] });
 * const mtu = open.attributes.find((a) => a.id === smp.ATTRIBUTE_ID.MTU);
 * if (mtu?.name === 'MTU') console.log(mtu.mtu); // 1500
 * ```
 */
export const ATTRIBUTE_ID = {
  VENDOR: 0x00,
  PROTOCOL_NAME: 0x01,
  DATA_OFFSET_VENDOR: 0x02,
  CONVEYANCE: 0x8001,
  MTU: 0x8002,
  DATA_OFFSET: 0x8003,
  MAC_ADDRESS: 0x8003,
  REQUEST_RETRY_PERIOD: 0xf0000000,
  REQUEST_TIMEOUT_PERIOD: 0xf0000001,
  FLOW_CONTROL_XON_TIMEOUT_PERIOD: 0xf0000002,
  OPEN_MESSAGE_NUMBER: 0xf0000003,
  CONDUIT_STREAM: 0xf0000004,
  DATA_HEADER_FORMAT: 0xf0000005,
} as const;
/** The name of an attribute this annex defines (§3.5.3). */
export type NamedAttribute = keyof typeof ATTRIBUTE_ID;
/**
 * VENDOR_SPECIFIC: the Table 3-3 ranges. PROTOCOL_SPECIFIC: an ID this annex leaves to the
 * chapter of a protocol it does not define. RESERVED: "All attribute ID ranges not explicitly
 * assigned ... are reserved and must not be used" (§3.5.3), for the protocols this annex defines.
 */
export type AttributeName = NamedAttribute | 'VENDOR_SPECIFIC' | 'PROTOCOL_SPECIFIC' | 'RESERVED';

/** Attributes that mean the same under every ProtoID (§3.5.3.1–§3.5.3.10). */
const GENERAL = new Map<number, NamedAttribute>([
  [0x00, 'VENDOR'],
  [0x02, 'DATA_OFFSET_VENDOR'],
  [0x8001, 'CONVEYANCE'],
  [0xf0000000, 'REQUEST_RETRY_PERIOD'],
  [0xf0000001, 'REQUEST_TIMEOUT_PERIOD'],
  [0xf0000002, 'FLOW_CONTROL_XON_TIMEOUT_PERIOD'],
  [0xf0000003, 'OPEN_MESSAGE_NUMBER'],
  [0xf0000004, 'CONDUIT_STREAM'],
  [0xf0000005, 'DATA_HEADER_FORMAT'],
]);

/**
 * The name an attribute ID has under a ProtoID (§3.5.3, §6.2, §7.2, DECISIONS §7).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // 0x8003 means MAC_ADDRESS under Ethernet (§7.2.3) and DATA_OFFSET elsewhere (§3.5.3.3).
 * console.log(smp.attributeName(0x8003, smp.PROTO_ID.ETHERNET), smp.attributeName(0x8003, 0x1234)); // MAC_ADDRESS DATA_OFFSET
 * console.log(smp.attributeName(0xef10, 0x0102), smp.attributeName(0x10, 0x0102)); // VENDOR_SPECIFIC RESERVED
 * ```
 */
export function attributeName(id: number, protoID: number): AttributeName {
  const general = GENERAL.get(id);
  if (general !== undefined) return general;
  if (id === 0x01 && protoID === PROTO_ID.VENDOR_DEFINED) return 'PROTOCOL_NAME'; // §6.2.2
  if (id === 0x8002 && protoID === PROTO_ID.ETHERNET) return 'MTU'; // §7.2.1
  if (id === 0x8003) return protoID === PROTO_ID.ETHERNET ? 'MAC_ADDRESS' : 'DATA_OFFSET'; // §7.2.3, §3.5.3.3
  // Table 3-3 vendor-specific ranges.
  if ((id >= 0x78 && id <= 0x7f) || (id >= 0xef00 && id <= 0xefff) || id >= 0xfe000000) return 'VENDOR_SPECIFIC';
  const defined = protoID === PROTO_ID.VENDOR_DEFINED || protoID === PROTO_ID.ETHERNET || protoID === PROTO_ID.PROTOCOL_LIST;
  return defined ? 'RESERVED' : 'PROTOCOL_SPECIFIC';
}

/** OUI format (octets 1–3 the OUI, 4–7 zero) or NAME format (seven non-zero octets), §3.5.3.1. */
export type VendorFormat = 'OUI' | 'NAME' | 'INVALID';
/** Table 3-8 channel values. */
export type ChannelName = 'MESSAGE' | 'VENDOR_SPECIFIC' | 'RESERVED';
/** DATA_HEADER_FORMAT values are the DATA command values (§3.5.3.9 Table 3-7). */
export type DataFormatName = 'DATA' | 'DATA1' | 'DATA2' | 'DATA3' | 'UNDEFINED';

interface AttributeBase {
  /** The Attribute ID, 8, 16 or 32 bits wide. */
  readonly id: number;
  readonly idBits: AttributeIdBits;
  /** The Attribute Value octets after the ID (7, 6 or 4); a view of the decoded input. Authoritative on encode. */
  readonly value: Uint8Array;
}
/** A VENDOR or DATA_OFFSET_VENDOR attribute: an OUI or a name. */
export interface VendorAttribute extends AttributeBase {
  readonly name: 'VENDOR' | 'DATA_OFFSET_VENDOR';
  readonly vendorFormat: VendorFormat;
  readonly oui?: number;
}
/** An attribute riodp keeps as raw octets: PROTOCOL_NAME, vendor or protocol specific, reserved. */
export interface OpaqueAttribute extends AttributeBase {
  readonly name: 'PROTOCOL_NAME' | 'VENDOR_SPECIFIC' | 'PROTOCOL_SPECIFIC' | 'RESERVED';
}
/** CONVEYANCE (§3.5.3.10): the channel DATA and FLOW_CONTROL travel on. */
export interface ConveyanceAttribute extends AttributeBase {
  readonly name: 'CONVEYANCE';
  readonly channel: number;
  readonly channelName: ChannelName;
  readonly channelInfo: number;
  /** For channel 0x0001 (message): "0x0000_00nn; nn indicates a mailbox". */
  readonly mailbox?: number;
}
/** MTU (§7.2.1): the Ethernet MTU of a stream. */
export interface MtuAttribute extends AttributeBase {
  readonly name: 'MTU';
  /** "Only the lowest two octets should be used" (§7.2.1): the upper four octets. */
  readonly rsrv: number;
  readonly mtu: number;
}
/** DATA_OFFSET (§3.5.3.3): octets appended to each DATA header. */
export interface DataOffsetAttribute extends AttributeBase {
  readonly name: 'DATA_OFFSET';
  readonly offset: number;
  /** Vendor0..Vendor4 (Table 3-6). */
  readonly vendor: Uint8Array;
}
/** MAC_ADDRESS (§7.2.3). */
export interface MacAddressAttribute extends AttributeBase {
  readonly name: 'MAC_ADDRESS';
  readonly macAddress: Uint8Array;
}
/**
 * A period attribute in microseconds: REQUEST_RETRY_PERIOD, REQUEST_TIMEOUT_PERIOD,
 * FLOW_CONTROL_XON_TIMEOUT_PERIOD (§3.5.3.4–§3.5.3.6).
 */
export interface PeriodAttribute extends AttributeBase {
  readonly name: 'REQUEST_RETRY_PERIOD' | 'REQUEST_TIMEOUT_PERIOD' | 'FLOW_CONTROL_XON_TIMEOUT_PERIOD';
  readonly microseconds: number;
}
/** OPEN_MESSAGE_NUMBER (§3.5.3.7): the number an OPEN carries first. */
export interface OpenMessageNumberAttribute extends AttributeBase {
  readonly name: 'OPEN_MESSAGE_NUMBER';
  readonly openMessageNumber: number;
}
/** CONDUIT_STREAM (§3.5.3.8): the streamIDs of a conduit's two streams (§3.4). */
export interface ConduitStreamAttribute extends AttributeBase {
  readonly name: 'CONDUIT_STREAM';
  /** First sixteen bits: the stream the sender will transmit on (0xFFFF: not known yet). */
  readonly transmitStreamID: number;
  /** Last sixteen bits: the stream the sender will receive on (0xFFFF: not known yet). */
  readonly receiveStreamID: number;
}
/** DATA_HEADER_FORMAT (§3.5.3.9): the DATA header a stream uses. */
export interface DataHeaderFormatAttribute extends AttributeBase {
  readonly name: 'DATA_HEADER_FORMAT';
  readonly rsrv: number;
  readonly implementationSpecific: number;
  readonly format: number;
  readonly formatName: DataFormatName;
}
/** An attribute, decoded by its ID. */
export type SmpAttribute =
  | VendorAttribute
  | OpaqueAttribute
  | ConveyanceAttribute
  | MtuAttribute
  | DataOffsetAttribute
  | MacAddressAttribute
  | PeriodAttribute
  | OpenMessageNumberAttribute
  | ConduitStreamAttribute
  | DataHeaderFormatAttribute;

/** What an encoder needs of an attribute; the decoded fields only describe `value`. */
export type AttributeLike = Pick<SmpAttribute, 'id' | 'value'>;

/**
 * How a vendor value is written: an OUI, a name, or neither (INVALID).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // The seven value octets of a VENDOR attribute: OUI 00-00-5E then four zero octets, or a 7-character name.
 * console.log(smp.vendorFormat(Uint8Array.of(0x00, 0x00, 0x5e, 0, 0, 0, 0))); // OUI
 * console.log(smp.vendorFormat(new TextEncoder().encode('ACMEIO1'))); // NAME
 * console.log(smp.vendorFormat(Uint8Array.of(0x41, 0, 0x43, 0x4d, 0x45, 0x49, 0x4f))); // INVALID
 * ```
 */
export function vendorFormat(value: Uint8Array): VendorFormat {
  if (value.length !== 7) return 'INVALID';
  if (value[3] === 0 && value[4] === 0 && value[5] === 0 && value[6] === 0) return 'OUI';
  return value.every((b) => b !== 0) ? 'NAME' : 'INVALID';
}

/**
 * The name of a CONVEYANCE channel: MESSAGE (Type 11), vendor specific, or reserved.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.channelName(0x0001), smp.channelName(0xff02), smp.channelName(0x0002)); // MESSAGE VENDOR_SPECIFIC RESERVED
 * ```
 */
export function channelName(channel: number): ChannelName {
  if (channel === 0x0001) return 'MESSAGE';
  return channel >= 0xff00 ? 'VENDOR_SPECIFIC' : 'RESERVED';
}

const FORMAT_NAMES: Readonly<Record<number, DataFormatName>> = { 0x06: 'DATA', 0x09: 'DATA1', 0x0a: 'DATA2', 0x0b: 'DATA3' };
/**
 * The name of a DATA_HEADER_FORMAT value (DATA, DATA1, DATA2, DATA3), UNDEFINED for another.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // The data header a stream was opened with, from its DATA_HEADER_FORMAT attribute.
 * const a = smp.attrDataHeaderFormat(0x0a, 0x5a);
 * console.log(smp.dataFormatName(a.format), smp.dataFormatName(0x07)); // DATA2 UNDEFINED
 * ```
 */
export function dataFormatName(format: number): DataFormatName {
  return FORMAT_NAMES[format] ?? 'UNDEFINED';
}
