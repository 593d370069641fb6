import { WireError, WireErrorCode } from '../errors.ts';
import { ATTRIBUTE_BYTES, attributeName, channelName } from './attributes.ts';
import type { AttributeLike, AttributeName } from './attributes.ts';
import { PROTO_ID, u16 } from './header.ts';
import type { SmpCommandName } from './header.ts';

/**
 * Attribute list rules (Annex 2 §3.5.3, §3.5.3.1–§3.5.3.3, §3.5.3.10, §3.8.2, §4.2.3–§4.2.5,
 * §6.2, §7.2). Engines call `checkAttributeOrder` on lists they receive or build; strict
 * decoding throws the first violation.
 */
export type AttributeRule =
  | 'open-message-number-first'
  | 'required-before-optional'
  | 'optional-before-vendor'
  | 'vendor-first'
  | 'single-vendor'
  | 'vendor-protocol-first'
  | 'protocol-name-follows-vendor'
  | 'protocol-required'
  | 'data-offset-follows-vendor'
  | 'vendor-conveyance'
  | 'accept-duplicates';

/** A breach of the attribute list rules (§3.5.3, §3.8.2) that `checkAttributeOrder` found. */
export interface AttributeViolation {
  /** Index of the offending attribute; the list length when an attribute is missing. */
  readonly index: number;
  readonly rule: AttributeRule;
  readonly clause: string;
  readonly detail: string;
}

/**
 * Attributes each protocol requires (§6.2 for vendor-defined protocols, §7.2 for Ethernet).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // What an Ethernet OPEN still lacks.
 * const have = [smp.attrOpenMessageNumber(7), smp.attrMtu(1500)].map((a) => smp.attributeName(a.id, smp.PROTO_ID.ETHERNET));
 * const missing = (smp.PROTOCOL_REQUIRED[smp.PROTO_ID.ETHERNET] ?? []).filter((n) => !have.includes(n));
 * console.log(missing.join(', ')); // CONVEYANCE, MAC_ADDRESS
 * ```
 */
export const PROTOCOL_REQUIRED: Readonly<Record<number, readonly AttributeName[]>> = {
  [PROTO_ID.VENDOR_DEFINED]: ['VENDOR', 'PROTOCOL_NAME'],
  [PROTO_ID.ETHERNET]: ['MTU', 'CONVEYANCE', 'MAC_ADDRESS'],
};

/** Lists whose attributes answer to an OPEN: OPEN_MESSAGE_NUMBER is the one required attribute (§4.2.3–§4.2.5). */
const OPEN_FAMILY = new Set<SmpCommandName>(['OPEN', 'ACCEPT', 'REFUSE']);
/** REQUEST lists the attributes wanted and STATUS quotes a stream's attributes: only the one-VENDOR rule applies. */
const ORDERED = new Set<SmpCommandName>(['OPEN', 'ACCEPT', 'REFUSE', 'ADVERTISE']);

const RANK_MESSAGE = 0;
const RANK_PROTOCOL = 1;
const RANK_OPTIONAL = 2;
const RANK_VENDOR = 3;

/**
 * The violations of the ordering and presence rules in a list of attributes for `protoID`,
 * carried by `command` (default ADVERTISE: the protocol's full list, no presence checks).
 * Order: "All required attributes must occur ahead of all optional or vendor specific
 * attributes ... All optional attributes must occur after all required attributes, and before
 * any vendor specific attributes. If vendor specific attributes are used, the first vendor
 * specific attribute must begin with attribute 0x00" (§3.5.3).
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * // An Ethernet OPEN that puts MTU before OPEN_MESSAGE_NUMBER and forgets MAC_ADDRESS.
 * const attrs = [smp.attrMtu(1500), smp.attrOpenMessageNumber(7), smp.attrConveyanceMailbox(2)];
 * for (const v of smp.checkAttributeOrder(attrs, smp.PROTO_ID.ETHERNET, 'OPEN')) console.log(v.index, v.rule, v.clause);
 * // 0 open-message-number-first Annex 2 §4.2.3
 * // 3 protocol-required Annex 2 §7.2
 * ```
 */
export function checkAttributeOrder(attrs: readonly AttributeLike[], protoID: number, command: SmpCommandName = 'ADVERTISE'): AttributeViolation[] {
  const out: AttributeViolation[] = [];
  const names = attrs.map((a) => attributeName(a.id, protoID));
  const add = (index: number, rule: AttributeRule, clause: string, detail: string): void => {
    out.push({ index, rule, clause, detail });
  };

  // "Only one VENDOR attribute may be specified in any single command."
  const vendors = names.flatMap((n, i) => (n === 'VENDOR' ? [i] : []));
  for (const i of vendors.slice(1)) add(i, 'single-vendor', 'Annex 2 §3.5.3.1', 'a second VENDOR attribute');
  if (!ORDERED.has(command)) return out;

  const required = PROTOCOL_REQUIRED[protoID] ?? [];
  const openFamily = OPEN_FAMILY.has(command);
  const rank = (n: AttributeName): number => {
    if (openFamily && n === 'OPEN_MESSAGE_NUMBER') return RANK_MESSAGE;
    if (required.includes(n)) return RANK_PROTOCOL;
    if (n === 'VENDOR' || n === 'VENDOR_SPECIFIC') return RANK_VENDOR;
    return RANK_OPTIONAL;
  };

  // "The OPEN request must have the OPEN_MESSAGE_NUMBER attribute as the first attribute" (§4.2.3);
  // in ACCEPT and REFUSE it is "the only attribute required", so it too precedes the others.
  if (openFamily && names[0] !== 'OPEN_MESSAGE_NUMBER') {
    const clause = command === 'OPEN' ? 'Annex 2 §4.2.3' : command === 'ACCEPT' ? 'Annex 2 §4.2.4' : 'Annex 2 §4.2.5';
    add(0, 'open-message-number-first', clause, 'the first attribute must be OPEN_MESSAGE_NUMBER');
  }

  let highest = RANK_MESSAGE;
  let vendorSeen = false;
  let firstVendorGroup = true;
  names.forEach((n, i) => {
    const r = rank(n);
    // A misplaced OPEN_MESSAGE_NUMBER is reported once, by the rule above.
    if (r === RANK_MESSAGE && i > 0) return;
    if (r < highest && r <= RANK_PROTOCOL) {
      add(i, 'required-before-optional', 'Annex 2 §3.5.3', `required ${n} after optional or vendor-specific attributes`);
    } else if (r === RANK_OPTIONAL && highest === RANK_VENDOR) {
      add(i, 'optional-before-vendor', 'Annex 2 §3.5.3', `optional ${n} after vendor-specific attributes`);
    }
    highest = Math.max(highest, r);
    if (r === RANK_VENDOR && firstVendorGroup) {
      firstVendorGroup = false;
      if (n !== 'VENDOR' && !vendorSeen) {
        add(i, 'vendor-first', 'Annex 2 §3.5.3, §3.5.3.11', 'the first vendor-specific attribute must be VENDOR (0x00)');
      }
    }
    if (n === 'VENDOR') vendorSeen = true;
  });

  if (protoID === PROTO_ID.VENDOR_DEFINED) checkVendorProtocol(names, openFamily, add);
  if (command === 'OPEN') {
    for (const n of required) {
      if (!names.includes(n)) add(names.length, 'protocol-required', protoID === PROTO_ID.ETHERNET ? 'Annex 2 §7.2' : 'Annex 2 §6.2', `${n} is required`);
    }
  }

  // "if the DATA_OFFSET_VENDOR attribute is specified, then the DATA_OFFSET attribute must follow it" (§3.5.3.2, §3.5.3.3).
  names.forEach((n, i) => {
    if (n === 'DATA_OFFSET_VENDOR' && !names.slice(i + 1).includes('DATA_OFFSET')) {
      add(i, 'data-offset-follows-vendor', 'Annex 2 §3.5.3.2', 'DATA_OFFSET must follow DATA_OFFSET_VENDOR');
    }
  });

  // "if a vendor-specific channel is used, the VENDOR attribute must be specified" (§3.5.3.10).
  attrs.forEach((a, i) => {
    if (names[i] === 'CONVEYANCE' && a.value.length >= 2 && channelName(u16(a.value, 0)) === 'VENDOR_SPECIFIC' && vendors.length === 0) {
      add(i, 'vendor-conveyance', 'Annex 2 §3.5.3.10', 'a vendor-specific channel needs the VENDOR attribute');
    }
  });

  // "by the time the ACCEPT command is sent, all duplicate copies must be removed" (§3.8.2).
  if (command === 'ACCEPT') {
    const seen = new Set<number>();
    attrs.forEach((a, i) => {
      if (seen.has(a.id)) add(i, 'accept-duplicates', 'Annex 2 §3.8.2', `duplicate ${names[i] ?? ''} attribute`);
      seen.add(a.id);
    });
  }
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Vendor-defined protocols (§6.2.1, §6.2.2): VENDOR "must be the first attribute listed" and
 * PROTOCOL_NAME "must immediately follow the VENDOR attribute". In the OPEN family they come
 * right after OPEN_MESSAGE_NUMBER, which §4.2.3 puts first (see the conformance decisions).
 */
function checkVendorProtocol(
  names: readonly AttributeName[],
  openFamily: boolean,
  add: (index: number, rule: AttributeRule, clause: string, detail: string) => void,
): void {
  const first = openFamily && names[0] === 'OPEN_MESSAGE_NUMBER' ? 1 : 0;
  const v = names.indexOf('VENDOR');
  if (v >= 0 && v !== first) add(v, 'vendor-protocol-first', 'Annex 2 §6.2.1', 'VENDOR must be the first protocol attribute');
  const p = names.indexOf('PROTOCOL_NAME');
  if (p >= 0 && (v < 0 || p !== v + 1)) add(p, 'protocol-name-follows-vendor', 'Annex 2 §6.2.2', 'PROTOCOL_NAME must immediately follow VENDOR');
}

/**
 * Strict decoding: throws the first violation as a WireError at the attribute's octet offset
 * (`listAt` is where the list starts; a missing attribute points at the end of the list).
 */
export function enforceAttributeOrder(attrs: readonly AttributeLike[], protoID: number, command: SmpCommandName, listAt: number): void {
  const v = checkAttributeOrder(attrs, protoID, command)[0];
  if (v === undefined) return;
  throw new WireError(WireErrorCode.invalid, `attributes[${v.index}]`, listAt + v.index * ATTRIBUTE_BYTES, v.clause, `${v.rule}: ${v.detail}`);
}
