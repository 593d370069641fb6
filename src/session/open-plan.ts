import { ATTRIBUTE_ID, attributeFromValue } from '../wire/smp/attributes.ts';
import type { AttributeLike, SmpAttribute } from '../wire/smp/attributes.ts';
import { groupById, numberValue, offerOf, valueNumber, wellFormed } from './attribute-values.ts';

/**
 * The OPEN sender's use of an ADVERTISE (Annex 2 §3.8.2): "A system receiving an ADVERTISE command
 * with this condition may attempt to OPEN a Virtual Stream with an intermediate value. If the
 * receiver responds with REFUSE, then the sender must not attempt any other intermediate value
 * for any such attribute, but restrict itself to the values specified. A single attempt at
 * intermediate values may be attempted."
 */

/** Per message, not per stream: the engine adds OPEN_MESSAGE_NUMBER first (§4.2.3) and CONDUIT_STREAM for conduits (§3.4.3). */
const PER_MESSAGE = new Set<number>([ATTRIBUTE_ID.OPEN_MESSAGE_NUMBER, ATTRIBUTE_ID.CONDUIT_STREAM]);

const midpoint = (_id: number, min: bigint, max: bigint): bigint => (min + max) / 2n;

/**
 * The sender's OPEN attempts for a protocol from the ADVERTISE it got (§3.8.2): attempt 0 may use
 * an intermediate value for ranged attributes (two copies of a quantity = [min, max]); attempt 1
 * (only if attempt 0 had an intermediate value) restricts itself to advertised values. At most 2
 * lists; without ranges, 1. `prefer` picks the intermediate value (default: the midpoint, rounded
 * down; clamped into the range). Lists exclude OPEN_MESSAGE_NUMBER (the engine puts it first).
 *
 * Every list has one copy of each attribute ID, in the ADVERTISE's order ("OPEN commands should
 * maintain the order of Attributes that was used in the ADVERTISE command"). The sender picks a
 * specific value rather than leaving the copies in place, which §3.8.2 also allows, because an
 * ACCEPT need not repeat the value the receiver chose (§4.2.4). Where no intermediate value is
 * tried, the first advertised copy is used; attempt 1 uses the advertised copy nearest the value
 * attempt 0 preferred (the first on a tie).
 */
export function planOpenAttempts(
  advertised: readonly AttributeLike[],
  protoID: number,
  prefer: (id: number, min: bigint, max: bigint) => bigint = midpoint,
): readonly (readonly AttributeLike[])[] {
  const first: SmpAttribute[] = [];
  const second: SmpAttribute[] = [];
  let intermediate = false;
  const make = (id: number, value: Uint8Array): SmpAttribute => attributeFromValue(id, Uint8Array.from(value), protoID);
  for (const [id, copies] of groupById(advertised.filter((a) => wellFormed(a) && !PER_MESSAGE.has(a.id)))) {
    const offer = offerOf(copies, protoID);
    const [head] = copies;
    if (head === undefined) continue;
    if (offer.kind !== 'range') {
      first.push(make(id, head.value));
      second.push(make(id, head.value));
      continue;
    }
    const asked = prefer(id, offer.min, offer.max);
    const want = asked < offer.min ? offer.min : asked > offer.max ? offer.max : asked;
    first.push(make(id, numberValue(want, offer.length) ?? head.value));
    if (want !== offer.min && want !== offer.max) intermediate = true;
    const distance = (a: AttributeLike): bigint => {
      const d = valueNumber(a.value) - want;
      return d < 0n ? -d : d;
    };
    const nearest = copies.reduce((best, c) => (distance(c) < distance(best) ? c : best), head);
    second.push(make(id, nearest.value));
  }
  return intermediate ? [first, second] : [first];
}
