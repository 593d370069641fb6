import { ATTRIBUTE_ID, attributeFromValue, attributeName } from '../wire/smp/attributes.ts';
import type { AttributeLike, AttributeName, SmpAttribute } from '../wire/smp/attributes.ts';
import { PROTOCOL_REQUIRED, checkAttributeOrder } from '../wire/smp/attribute-order.ts';
import type { AttributeRule } from '../wire/smp/attribute-order.ts';
import { PROTO_ID } from '../wire/smp/header.ts';
import type { SmpOpen } from '../wire/smp/open-accept-refuse.ts';
import { attrDataHeaderFormat } from '../wire/smp/attribute-build.ts';
import { groupById, numberValue, offerOf, offers, sameValue, scoped, valueNumber, wellFormed } from './attribute-values.ts';
import type { Offer } from './attribute-values.ts';
import type { Contact, ProtocolSupport, RefuseReason, StreamSettings } from './types.ts';

export { planOpenAttempts } from './open-plan.ts';
export { advertiseFor, limitTo } from './advertise-for.ts';
export { identityMatches, supportFor } from './support-match.ts';

/**
 * The receiver's side of stream negotiation (Annex 2 §3.5.3, §3.8.2, §4.2.3, Chapters 6–7): is an
 * OPEN acceptable, with which specific value of every attribute, and what the stream's settings
 * are. Pure functions; protocol input never throws.
 */

export interface NegotiationDefaults {
  /** REQUEST_RETRY_PERIOD default (§3.5.3.4: 250 ms), in time units. */
  readonly retryPeriod: number;
  /** REQUEST_TIMEOUT_PERIOD default (§3.5.3.5: 1 s), in time units. */
  readonly timeoutPeriod: number;
  /** FLOW_CONTROL_XON_TIMEOUT_PERIOD default (§3.5.3.6: 1 s), in time units. */
  readonly xonTimeout: number;
  /** Time units per microsecond: the periods are "in microseconds" on the wire. */
  readonly unitsPerMicrosecond: number;
}

export type { RefuseReason };

/** The receiver's judgement of an incoming OPEN (§3.5.3, §3.8.2, §4.2.3, Ch. 6–7). */
export type OpenVerdict =
  | {
      readonly ok: true;
      readonly openMessageNumber: number;
      /**
       * The stream's agreed attributes, one value each ("by the time the ACCEPT command is sent, all
       * duplicate copies must be removed", §3.8.2), in the OPEN's order, plus the receiver's
       * DATA_HEADER_FORMAT when it has one and the OPEN named none. OPEN_MESSAGE_NUMBER and
       * CONDUIT_STREAM are left out: they belong to one message, and the ACCEPT carries its own
       * (`smpAccept({ open, attributes })` puts the OPEN_MESSAGE_NUMBER first). `settings` is
       * `settingsFromAttributes(attributes)`.
       */
      readonly attributes: readonly SmpAttribute[];
      readonly settings: StreamSettings;
      /** CONDUIT_STREAM of the OPEN, if present: the OPEN sender's transmit and receive streamIDs. */
      readonly conduit?: { readonly transmit: number; readonly receive: number };
    }
  | { readonly ok: false; readonly reason: RefuseReason; readonly detail: string; readonly openMessageNumber?: number };

const OMN = ATTRIBUTE_ID.OPEN_MESSAGE_NUMBER;

/** How each ordering rule of attribute-order.ts is reported in a REFUSE. */
const ORDER_REASON: Readonly<Record<AttributeRule, RefuseReason>> = {
  'open-message-number-first': 'attribute-order',
  'required-before-optional': 'attribute-order',
  'optional-before-vendor': 'attribute-order',
  'vendor-first': 'attribute-order',
  'single-vendor': 'attribute-order',
  'vendor-protocol-first': 'attribute-order',
  'protocol-name-follows-vendor': 'attribute-order',
  'protocol-required': 'missing-required',
  'data-offset-follows-vendor': 'missing-required',
  'vendor-conveyance': 'missing-required',
  'accept-duplicates': 'attribute-order',
};

const hex = (n: number | bigint): string => `0x${n.toString(16).toUpperCase()}`;

/**
 * Whether a standard attribute the receiver did not advertise is acceptable with this value
 * (§3.8.2 makes an OPEN value one the receiver advertised; for the rest the spec is silent, see
 * docs/conformance.md, Annex 2 section, negotiation decisions N*):
 * - the three periods and MTU are the sender's proposal and are applied, unless zero (nothing
 *   could be timed or carried with it);
 * - DATA_HEADER_FORMAT must be the one the receiver is configured for ("When the
 *   DATA_HEADER_FORMAT attribute is not specified, the DATA command (0x06) must be used", §3.5.3.9);
 * - CONVEYANCE, DATA_OFFSET_VENDOR and DATA_OFFSET commit the receiver to a channel or to offset
 *   octets it did not offer, and are refused;
 * - VENDOR, PROTOCOL_NAME, MAC_ADDRESS and understood non-standard attributes are accepted.
 */
function acceptableUnadvertised(a: SmpAttribute, support: ProtocolSupport): boolean {
  switch (a.name) {
    case 'REQUEST_RETRY_PERIOD':
    case 'REQUEST_TIMEOUT_PERIOD':
    case 'FLOW_CONTROL_XON_TIMEOUT_PERIOD':
      return a.microseconds > 0;
    case 'MTU':
      return a.mtu > 0;
    case 'DATA_HEADER_FORMAT':
      return a.formatName === (support.dataHeaderFormat ?? 'DATA') && (a.formatName !== 'DATA2' || a.implementationSpecific === (support.data2Octet ?? 0));
    case 'CONVEYANCE':
    case 'DATA_OFFSET_VENDOR':
    case 'DATA_OFFSET':
    case 'RESERVED':
      return false;
    default:
      return true;
  }
}

/**
 * The specific value chosen among an OPEN's copies of one attribute ("the recipient must remove
 * the duplicates and determine a specific value for every required Attribute", §3.8.2): the first
 * copy the receiver accepts (the sender's order is its preference); for exactly two copies of a
 * quantity, read as the sender's range, else the lowest value of that range the receiver offers.
 */
function chooseValue(copies: readonly SmpAttribute[], offer: Offer | undefined, support: ProtocolSupport, protoID: number): Uint8Array | undefined {
  for (const c of copies) {
    if (offer === undefined ? acceptableUnadvertised(c, support) : offers(offer, c.value)) return c.value;
  }
  const theirs = offerOf(copies, protoID);
  if (theirs.kind !== 'range' || offer === undefined) return undefined;
  if (offer.kind === 'range') {
    const lo = theirs.min > offer.min ? theirs.min : offer.min;
    const hi = theirs.max < offer.max ? theirs.max : offer.max;
    return lo <= hi ? numberValue(lo, theirs.length) : undefined;
  }
  const inside = offer.values.filter((v) => v.length === theirs.length && valueNumber(v) >= theirs.min && valueNumber(v) <= theirs.max);
  return inside.sort((x, y) => (valueNumber(x) < valueNumber(y) ? -1 : 1))[0];
}

/** Vendor-scope attributes come last (§3.5.3); under 0x0101 VENDOR is a required attribute (§6.2.1). */
function vendorRank(name: AttributeName, protoID: number): boolean {
  const required = PROTOCOL_REQUIRED[protoID] ?? [];
  return name === 'VENDOR_SPECIFIC' || (name === 'VENDOR' && !required.includes('VENDOR'));
}

type Refusal = Extract<OpenVerdict, { ok: false }>;

function refuse(reason: RefuseReason, detail: string, openMessageNumber?: number): Refusal {
  return openMessageNumber === undefined ? { ok: false, reason, detail } : { ok: false, reason, detail, openMessageNumber };
}

/** The checks on the list itself, before any value is looked at; undefined when the list passes. */
function checkList(attrs: readonly SmpAttribute[], support: ProtocolSupport, n: number): Refusal | undefined {
  const protoID = support.protoID;
  for (const a of attrs) {
    if (!wellFormed(a)) return refuse('unknown-attribute', `attribute ${hex(a.id)} is not an 8-octet attribute of Table 3-2`, n);
    if (attributeName(a.id, protoID) === 'RESERVED') {
      return refuse('reserved-attribute', `attribute ${hex(a.id)}: ranges not assigned "are reserved and must not be used" (§3.5.3)`, n);
    }
  }
  const violation = checkAttributeOrder(attrs, protoID, 'OPEN')[0];
  if (violation !== undefined) return refuse(ORDER_REASON[violation.rule], `${violation.clause}: ${violation.detail}`, n);
  const understood = new Set([...(support.understood ?? []), ...support.attributes.map((a) => a.id)]);
  for (const a of attrs) {
    const name = attributeName(a.id, protoID);
    if ((name === 'VENDOR_SPECIFIC' || name === 'PROTOCOL_SPECIFIC') && !understood.has(a.id)) {
      return refuse('unknown-attribute', `attribute ${hex(a.id)} is not understood: "the session must not be opened" (§3.5.3)`, n);
    }
  }
  return undefined;
}

/** The receiver's judgement of an incoming OPEN for `support` (the protocol it names, or undefined). */
export function judgeOpen(open: SmpOpen, support: ProtocolSupport | undefined, defaults: NegotiationDefaults): OpenVerdict {
  const attrs = open.attributes;
  const protoID = open.protoID;
  const omnAt = attrs.findIndex((a) => a.id === OMN);
  const omn = attrs[omnAt];
  if (omn === undefined || omn.value.length !== 4) {
    return refuse('missing-open-message-number', 'an OPEN carries OPEN_MESSAGE_NUMBER as its first attribute (§4.2.3)');
  }
  const n = Number(valueNumber(omn.value));
  if (omnAt !== 0) return refuse('attribute-order', '"The OPEN request must have the OPEN_MESSAGE_NUMBER attribute as the first attribute" (§4.2.3)', n);
  if (attrs.some((a, i) => i > 0 && a.id === OMN && !sameValue(a.value, omn.value))) {
    return refuse('attribute-order', 'two OPEN_MESSAGE_NUMBER values name two different OPENs (§3.5.3.7)', n);
  }
  if (support === undefined || support.protoID !== protoID || protoID === PROTO_ID.PROTOCOL_LIST) {
    return refuse('protocol-unsupported', `ProtoID ${hex(protoID)} is not supported`, n);
  }
  if (support.acceptOpen === false) return refuse('not-accepted', `OPENs for ProtoID ${hex(protoID)} are refused by configuration`, n);
  const bad = checkList(attrs, support, n);
  if (bad !== undefined) return bad;

  const advertised = groupById(support.attributes.filter(wellFormed));
  const chosen: SmpAttribute[] = [];
  let conduit: { transmit: number; receive: number } | undefined;
  for (const [id, raw] of groupById(attrs)) {
    if (id === OMN) continue;
    const copies = raw.map((a) => scoped(a, protoID));
    const mine = advertised.get(id);
    const value = chooseValue(copies, mine === undefined ? undefined : offerOf(mine, protoID), support, protoID);
    const name = attributeName(id, protoID);
    if (value === undefined) {
      const what = copies.map((c) => hex(valueNumber(c.value))).join(', ');
      return refuse('value-not-offered', `${name} ${hex(id)} = ${what} is not a value this end point offers (§3.8.2)`, n);
    }
    const a = attributeFromValue(id, Uint8Array.from(value), protoID);
    if (a.name === 'CONDUIT_STREAM') conduit = { transmit: a.transmitStreamID, receive: a.receiveStreamID };
    else chosen.push(a);
  }
  if (support.dataHeaderFormat !== undefined && !chosen.some((a) => a.id === ATTRIBUTE_ID.DATA_HEADER_FORMAT)) {
    const format = attrDataHeaderFormat(support.dataHeaderFormat, support.dataHeaderFormat === 'DATA2' ? (support.data2Octet ?? 0) : 0);
    const at = chosen.findIndex((a) => vendorRank(a.name, protoID));
    chosen.splice(at < 0 ? chosen.length : at, 0, format);
  }
  const settings = settingsFromAttributes(chosen, protoID, defaults);
  const base = { ok: true as const, openMessageNumber: n, attributes: chosen, settings };
  return conduit === undefined ? base : { ...base, conduit };
}

function toUnits(microseconds: number, dflt: number, unitsPerMicrosecond: number): number {
  if (microseconds <= 0) return dflt;
  return Math.max(1, Math.round(microseconds * unitsPerMicrosecond));
}

/**
 * Stream settings from a stream's agreed attributes (either side), defaults where absent. The
 * first copy of an attribute counts; a zero period keeps the default (a zero retry or timeout
 * could not be armed).
 */
export function settingsFromAttributes(attrs: readonly AttributeLike[], protoID: number, defaults: NegotiationDefaults): StreamSettings {
  const u = defaults.unitsPerMicrosecond;
  let retryPeriod = defaults.retryPeriod;
  let timeoutPeriod = defaults.timeoutPeriod;
  let xonTimeout = defaults.xonTimeout;
  let dataHeaderFormat: StreamSettings['dataHeaderFormat'] = 'DATA';
  let data2Octet = 0;
  let dataOffset = 0;
  let conveyance: Contact | undefined;
  let mtu: number | undefined;
  const seen = new Set<number>();
  for (const raw of attrs) {
    if (!wellFormed(raw) || seen.has(raw.id)) continue;
    seen.add(raw.id);
    const a = scoped(raw, protoID);
    switch (a.name) {
      case 'REQUEST_RETRY_PERIOD':
        retryPeriod = toUnits(a.microseconds, retryPeriod, u);
        break;
      case 'REQUEST_TIMEOUT_PERIOD':
        timeoutPeriod = toUnits(a.microseconds, timeoutPeriod, u);
        break;
      case 'FLOW_CONTROL_XON_TIMEOUT_PERIOD':
        xonTimeout = toUnits(a.microseconds, xonTimeout, u);
        break;
      case 'DATA_HEADER_FORMAT':
        // "When the DATA_HEADER_FORMAT attribute is not specified, the DATA command (0x06) must be
        // used" (§3.5.3.9); a value that is no DATA command leaves that default. The text puts the
        // implementation-specific octet with DATA2 ("The implementation-specific value in the DATA2
        // header preceeds the DATA2 command"), which is where Table 4-14 has it.
        if (a.formatName !== 'UNDEFINED') {
          dataHeaderFormat = a.formatName;
          data2Octet = a.formatName === 'DATA2' ? a.implementationSpecific : 0;
        }
        break;
      case 'DATA_OFFSET':
        dataOffset = a.offset;
        break;
      case 'CONVEYANCE':
        // Table 3-8: "0x0001 = message, 0x0000_00nn; nn indicates a mailbox". Vendor channels have no Contact form.
        if (a.mailbox !== undefined) conveyance = { conveyance: 'type11', mailbox: a.mailbox };
        break;
      case 'MTU':
        // §7.2.1 "Only the lowest two octets should be used".
        mtu = a.mtu;
        break;
      default:
        break;
    }
  }
  return {
    retryPeriod, timeoutPeriod, xonTimeout, dataHeaderFormat, data2Octet, dataOffset,
    ...(conveyance !== undefined && { conveyance }),
    ...(mtu !== undefined && { mtu }),
  };
}
