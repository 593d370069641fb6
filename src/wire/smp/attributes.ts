import { WireError, WireErrorCode, checkRange, fail, need } from '../errors.ts';
import { ATTRIBUTE_BYTES, attributeIdBits, attributeName, channelName, dataFormatName, idBitsOf, vendorFormat } from './attribute-kinds.ts';
import type { AttributeLike, SmpAttribute } from './attribute-kinds.ts';
import { CLAUSE, put16, put32, u16, u32 } from './header.ts';

// Session management protocol attributes on the wire (Annex 2 §3.5.3): the decoded view of an
// attribute's octets, the strict rules, and the readers and writers the message codecs share.
// The attribute kinds and names are in attribute-kinds.ts, re-exported here for the modules that
// import them from this file.
export {
  ATTRIBUTE_BYTES, attributeIdBits, idBitsOf, ATTRIBUTE_ID, attributeName, vendorFormat, channelName, dataFormatName,
} from './attribute-kinds.ts';
export type {
  AttributeIdBits, NamedAttribute, AttributeName, VendorFormat, ChannelName, DataFormatName, VendorAttribute, OpaqueAttribute, ConveyanceAttribute,
  MtuAttribute, DataOffsetAttribute, MacAddressAttribute, PeriodAttribute, OpenMessageNumberAttribute, ConduitStreamAttribute,
  DataHeaderFormatAttribute, SmpAttribute, AttributeLike,
} from './attribute-kinds.ts';

const CLAUSE_SIZES = 'Annex 2 §3.5.3 Table 3-2';

/**
 * Builds the decoded view of an attribute from its ID and value octets under a ProtoID. The
 * value must already have the length the ID width leaves (7, 6 or 4 octets).
 */
export function attributeFromValue(id: number, value: Uint8Array, protoID: number): SmpAttribute {
  const idBits = idBitsOf(id) ?? 32;
  const name = attributeName(id, protoID);
  // Plain literals, not a spread of the common fields: decoding builds one per attribute.
  switch (name) {
    case 'VENDOR':
    case 'DATA_OFFSET_VENDOR': {
      const f = vendorFormat(value);
      return f === 'OUI' ? { name, id, idBits, value, vendorFormat: f, oui: u24of(value) } : { name, id, idBits, value, vendorFormat: f };
    }
    case 'CONVEYANCE': {
      const channel = u16(value, 0);
      const channelInfo = u32(value, 2);
      const cn = channelName(channel);
      return cn === 'MESSAGE'
        ? { name, id, idBits, value, channel, channelName: cn, channelInfo, mailbox: channelInfo & 0xff }
        : { name, id, idBits, value, channel, channelName: cn, channelInfo };
    }
    case 'MTU':
      return { name, id, idBits, value, rsrv: u32(value, 0), mtu: u16(value, 4) };
    case 'DATA_OFFSET':
      return { name, id, idBits, value, offset: value[0] as number, vendor: value.subarray(1, 6) };
    case 'MAC_ADDRESS':
      return { name, id, idBits, value, macAddress: value.subarray(0, 6) };
    case 'REQUEST_RETRY_PERIOD':
    case 'REQUEST_TIMEOUT_PERIOD':
    case 'FLOW_CONTROL_XON_TIMEOUT_PERIOD':
      return { name, id, idBits, value, microseconds: u32(value, 0) };
    case 'OPEN_MESSAGE_NUMBER':
      return { name, id, idBits, value, openMessageNumber: u32(value, 0) };
    case 'CONDUIT_STREAM':
      return { name, id, idBits, value, transmitStreamID: u16(value, 0), receiveStreamID: u16(value, 2) };
    case 'DATA_HEADER_FORMAT': {
      const format = value[3] as number;
      return { name, id, idBits, value, rsrv: u16(value, 0), implementationSpecific: value[2] as number, format, formatName: dataFormatName(format) };
    }
    default:
      return { name, id, idBits, value };
  }
}

function u24of(v: Uint8Array): number {
  return ((v[0] as number) << 16) | ((v[1] as number) << 8) | (v[2] as number);
}

/** Throws the first rule a decoded attribute's value breaks; used by strict decoding. */
export function checkAttributeStrict(a: SmpAttribute, at: number, field: string): void {
  const v = at + a.idBits / 8;
  switch (a.name) {
    case 'RESERVED':
      fail(WireErrorCode.reserved, field, at, 'Annex 2 §3.5.3 Table 3-2', `attribute ID 0x${a.id.toString(16)} is reserved and must not be used`);
      break;
    case 'VENDOR':
    case 'DATA_OFFSET_VENDOR':
      if (a.vendorFormat === 'INVALID') {
        const clause = a.name === 'VENDOR' ? 'Annex 2 §3.5.3.1' : 'Annex 2 §3.5.3.2';
        fail(WireErrorCode.invalid, field, v, clause, 'value is neither OUI format (last four octets zero) nor NAME format (seven non-zero octets)');
      }
      break;
    case 'CONVEYANCE':
      if (a.channelName === 'RESERVED') {
        fail(WireErrorCode.reserved, field, v, 'Annex 2 §3.5.3.10 Table 3-8', `channel 0x${a.channel.toString(16)} is reserved`);
      }
      if (a.channelName === 'MESSAGE' && a.channelInfo >>> 8 !== 0) {
        fail(WireErrorCode.reserved, field, v + 2, 'Annex 2 §3.5.3.10 Table 3-8', 'message channel information is 0x0000_00nn');
      }
      break;
    case 'MTU':
      if (a.rsrv !== 0) fail(WireErrorCode.reserved, field, v, 'Annex 2 §7.2.1', 'only the lowest two octets are used');
      break;
    case 'DATA_HEADER_FORMAT':
      if (a.rsrv !== 0) fail(WireErrorCode.reserved, field, v, 'Annex 2 §3.5.3.9 Table 3-7', 'reserved octets must be zero');
      if (a.formatName === 'UNDEFINED') {
        fail(WireErrorCode.undefined, field, v + 3, 'Annex 2 §3.5.3.9 Table 3-7', `0x${a.format.toString(16)} is not a DATA command value`);
      }
      // Table 3-7 and the text disagree on which of DATA1/DATA2 carries the octet; both agree it is 0x00 for DATA and DATA3.
      if ((a.formatName === 'DATA' || a.formatName === 'DATA3') && a.implementationSpecific !== 0) {
        fail(WireErrorCode.reserved, field, v + 2, 'Annex 2 §3.5.3.9 Table 3-7', `the seventh octet is 0x00 for ${a.formatName}`);
      }
      break;
    default:
      break;
  }
}

/** The attribute at `at`; the caller has checked that its 8 octets are there. */
function readAttribute(bytes: Uint8Array, at: number, protoID: number): SmpAttribute {
  const idBits = attributeIdBits(bytes[at] as number);
  const idLen = idBits / 8;
  const id = idLen === 1 ? (bytes[at] as number) : idLen === 2 ? u16(bytes, at) : u32(bytes, at);
  return attributeFromValue(id, bytes.subarray(at + idLen, at + ATTRIBUTE_BYTES), protoID);
}

export function decodeAttribute(bytes: Uint8Array, at: number, end: number, protoID: number, strict: boolean, field: string): SmpAttribute {
  need(end, at, ATTRIBUTE_BYTES, field, CLAUSE.attributes);
  const a = readAttribute(bytes, at, protoID);
  if (strict) checkAttributeStrict(a, at, field);
  return a;
}

export function decodeAttributes(
  bytes: Uint8Array,
  at: number,
  end: number,
  count: number,
  protoID: number,
  strict: boolean,
  clause: string,
): SmpAttribute[] {
  need(end, at, count * ATTRIBUTE_BYTES, 'attributes', clause);
  const out: SmpAttribute[] = [];
  for (let i = 0, p = at; i < count; i++, p += ATTRIBUTE_BYTES) {
    const a = readAttribute(bytes, p, protoID);
    // The field name is built only where it can be reported: lenient decoding builds no strings.
    if (strict) checkAttributeStrict(a, p, `attributes[${i}]`);
    out.push(a);
  }
  return out;
}

/** Range checks before anything is written: an ID in a Table 3-2 range and a value of the width it leaves. */
export function checkAttribute(a: AttributeLike, field: string): void {
  const bits = idBitsOf(a.id);
  if (bits === undefined) {
    throw new WireError(WireErrorCode.range, `${field}.id`, 0, CLAUSE_SIZES, `0x${a.id.toString(16)} is in none of the Table 3-2 ranges`);
  }
  const want = ATTRIBUTE_BYTES - bits / 8;
  if (!(a.value instanceof Uint8Array) || a.value.length !== want) {
    throw new WireError(WireErrorCode.range, `${field}.value`, 0, CLAUSE_SIZES, `a ${bits}-bit ID leaves ${want} value octets`);
  }
}

export function checkAttributes(list: readonly AttributeLike[], clause: string): void {
  checkRange(list.length, 16, 'numAttributes', clause);
  list.forEach((a, i) => {
    checkAttribute(a, `attributes[${i}]`);
  });
}

export function writeAttribute(a: AttributeLike, bytes: Uint8Array, at: number): number {
  const bits = idBitsOf(a.id) ?? 32;
  if (bits === 8) bytes[at] = a.id;
  else if (bits === 16) put16(bytes, at, a.id);
  else put32(bytes, at, a.id);
  bytes.set(a.value, at + bits / 8);
  return at + ATTRIBUTE_BYTES;
}

export function writeAttributes(list: readonly AttributeLike[], bytes: Uint8Array, at: number): number {
  let p = at;
  for (const a of list) p = writeAttribute(a, bytes, p);
  return p;
}

/** Re-reads attributes under `protoID`: the same ID means different things under different protocols (DECISIONS §7). */
export function scopeAttributes(attrs: readonly AttributeLike[], protoID: number): SmpAttribute[] {
  return attrs.map((a) => attributeFromValue(a.id, Uint8Array.from(a.value), protoID));
}
