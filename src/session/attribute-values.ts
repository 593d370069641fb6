import { ATTRIBUTE_BYTES, attributeFromValue, attributeName, idBitsOf } from '../wire/smp/attributes.ts';
import type { AttributeLike, AttributeName, SmpAttribute } from '../wire/smp/attributes.ts';

/**
 * Attribute values as negotiation sees them (Annex 2 §3.5.3, §3.8.2): copies of one attribute ID
 * grouped, "exactly two copies of the Attribute, indicating the minimum and maximum values" read
 * as a range, more copies as alternatives, and values compared as big-endian numbers.
 */

/** The value octets as one unsigned big-endian number ("All message formats are given in big endian format", §4.2). */
export function valueNumber(value: Uint8Array): bigint {
  let n = 0n;
  for (const b of value) n = (n << 8n) | BigInt(b);
  return n;
}

/** `n` written big-endian into `length` octets; undefined when it does not fit. */
export function numberValue(n: bigint, length: number): Uint8Array | undefined {
  if (n < 0n || n >> BigInt(8 * length) !== 0n) return undefined;
  const out = new Uint8Array(length);
  let v = n;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export function sameValue(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** An attribute whose ID lies in a Table 3-2 range and whose value has the width the ID leaves. */
export function wellFormed(a: AttributeLike): boolean {
  const bits = idBitsOf(a.id);
  return bits !== undefined && a.value instanceof Uint8Array && a.value.length === ATTRIBUTE_BYTES - bits / 8;
}

/** The decoded view of an attribute under a ProtoID (the same ID means different things per protocol, DECISIONS §7). */
export function scoped(a: AttributeLike, protoID: number): SmpAttribute {
  return attributeFromValue(a.id, a.value, protoID);
}

/**
 * Attributes whose values are quantities, where two advertised copies can mean "the minimum and
 * maximum values" (§3.8.2): the three periods (§3.5.3.4–§3.5.3.6), the Ethernet MTU (§7.2.1), and
 * attributes this annex does not define (their owner alone knows; ProtocolSupport documents two
 * copies as a range). Two copies of an identity or channel attribute (VENDOR, PROTOCOL_NAME,
 * MAC_ADDRESS, CONVEYANCE, DATA_HEADER_FORMAT, DATA_OFFSET...) are two alternatives: no value lies
 * between two mailboxes or two vendors.
 */
const QUANTITIES = new Set<AttributeName>([
  'REQUEST_RETRY_PERIOD', 'REQUEST_TIMEOUT_PERIOD', 'FLOW_CONTROL_XON_TIMEOUT_PERIOD', 'MTU', 'VENDOR_SPECIFIC', 'PROTOCOL_SPECIFIC',
]);

export function isQuantity(id: number, protoID: number): boolean {
  return QUANTITIES.has(attributeName(id, protoID));
}

/** The copies of each attribute ID, in the order the IDs first appear. */
export function groupById<T extends AttributeLike>(attrs: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const a of attrs) {
    const g = groups.get(a.id);
    if (g === undefined) groups.set(a.id, [a]);
    else g.push(a);
  }
  return groups;
}

/** What one attribute ID of a list offers: one value, alternatives, or an inclusive range. */
export type Offer =
  | { readonly kind: 'values'; readonly values: readonly Uint8Array[] }
  | { readonly kind: 'range'; readonly min: bigint; readonly max: bigint; readonly length: number };

export function offerOf(copies: readonly AttributeLike[], protoID: number): Offer {
  const [a, b] = copies;
  if (copies.length === 2 && a !== undefined && b !== undefined && isQuantity(a.id, protoID) && a.value.length === b.value.length) {
    const x = valueNumber(a.value);
    const y = valueNumber(b.value);
    return { kind: 'range', min: x < y ? x : y, max: x < y ? y : x, length: a.value.length };
  }
  return { kind: 'values', values: copies.map((c) => c.value) };
}

export function offers(offer: Offer, value: Uint8Array): boolean {
  if (offer.kind === 'values') return offer.values.some((v) => sameValue(v, value));
  if (value.length !== offer.length) return false;
  const n = valueNumber(value);
  return n >= offer.min && n <= offer.max;
}
