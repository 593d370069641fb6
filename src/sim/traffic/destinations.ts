/**
 * Destination patterns (issue 7 §3 "Traffic: uniform Bernoulli, hotspot fraction h, permutation,
 * incast"): which end point each PDU of a source goes to.
 *
 * - uniform: every destination of the list other than the source itself, equally likely.
 * - hotspot: "a fraction h of every source's traffic to one hotspot destination, the rest
 *   uniform" (Pfister & Norton 1985). The uniform rest is spread over the whole list, hotspot
 *   included, so a hotspot receives h + (1 − h)/M of every source's traffic (M destinations): with
 *   N sources and N destinations distinct from them this is Pfister & Norton's model, whose
 *   hotspot bound is 1/(1 + h(N − 1)). A source that is the hotspot itself has nowhere to send its
 *   hot share and sends uniform traffic.
 * - fixed: one destination; a permutation is a fixed destination per source drawn by
 *   `derangement`, incast is the same fixed sink for many sources (`incast`).
 */
import type { Rng } from '../kernel/random.ts';

export type DestinationSpec =
  | { readonly kind: 'uniform'; readonly ids: readonly number[] }
  | { readonly kind: 'hotspot'; readonly ids: readonly number[]; readonly hotspot: number; readonly h: number }
  | { readonly kind: 'fixed'; readonly dst: number };

export interface DestinationPattern {
  draw(rng: Rng): number;
  /** Every destination the pattern can give, ascending. */
  destinations(): readonly number[];
}

function checkIds(ids: readonly number[], field: string): void {
  if (!Array.isArray(ids)) throw new RangeError(`${field} must be a list of device IDs`);
  ids.forEach((id, i) => {
    if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`${field}[${i}] must be a non-negative integer`);
  });
}

function others(ids: readonly number[], self: number, field: string): number[] {
  checkIds(ids, field);
  const out = [...new Set(ids)].filter((id) => id !== self).sort((a, b) => a - b);
  if (out.length === 0) throw new RangeError(`${field} must name a destination other than the source ${self}`);
  return out;
}

export class UniformDestinations implements DestinationPattern {
  readonly #ids: readonly number[];

  constructor(ids: readonly number[], self: number) {
    this.#ids = others(ids, self, 'destinations.ids');
  }

  draw(rng: Rng): number {
    return this.#ids[rng.int(this.#ids.length)] as number;
  }

  destinations(): readonly number[] {
    return this.#ids;
  }
}

export class HotspotDestinations implements DestinationPattern {
  readonly #uniform: readonly number[];
  readonly #all: readonly number[];
  readonly #hotspot: number;
  readonly #h: number;

  constructor(ids: readonly number[], self: number, hotspot: number, h: number) {
    this.#uniform = others(ids, self, 'destinations.ids');
    if (!Number.isSafeInteger(hotspot) || hotspot < 0) throw new RangeError('destinations.hotspot must be a non-negative integer');
    if (typeof h !== 'number' || !(h >= 0 && h <= 1)) throw new RangeError('destinations.h must be a fraction from 0 to 1');
    // The hotspot's own hot share has nowhere to go: it sends uniform traffic.
    this.#h = hotspot === self ? 0 : h;
    this.#hotspot = hotspot;
    this.#all = hotspot === self ? this.#uniform : [...new Set([...this.#uniform, hotspot])].sort((a, b) => a - b);
  }

  draw(rng: Rng): number {
    // Two draws per PDU whatever h is, so that changing h moves no other source's sequence.
    const hot = rng.next() < this.#h;
    const u = this.#uniform[rng.int(this.#uniform.length)] as number;
    return hot ? this.#hotspot : u;
  }

  destinations(): readonly number[] {
    return this.#all;
  }
}

export class FixedDestination implements DestinationPattern {
  readonly #dst: readonly number[];

  constructor(dst: number, self: number) {
    if (!Number.isSafeInteger(dst) || dst < 0) throw new RangeError('destinations.dst must be a non-negative integer');
    if (dst === self) throw new RangeError(`destinations.dst must not be the source ${self} itself`);
    this.#dst = [dst];
  }

  draw(): number {
    return this.#dst[0] as number;
  }

  destinations(): readonly number[] {
    return this.#dst;
  }
}

export function makeDestinations(spec: DestinationSpec, self: number): DestinationPattern {
  switch (spec.kind) {
    case 'uniform':
      return new UniformDestinations(spec.ids, self);
    case 'hotspot':
      return new HotspotDestinations(spec.ids, self, spec.hotspot, spec.h);
    case 'fixed':
      return new FixedDestination(spec.dst, self);
    default:
      throw new RangeError('destinations.kind must be uniform, hotspot or fixed');
  }
}

/**
 * A permutation of `ids` with no fixed point ("fixed random permutation, no self"), uniform over
 * all such permutations: shuffle until no element stays in place (about e ≈ 2.72 shuffles on
 * average). Returns the destination of each source, by source ID.
 */
export function derangement(ids: readonly number[], rng: Rng): Map<number, number> {
  checkIds(ids, 'ids');
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length < 2) throw new RangeError('ids must hold at least two distinct device IDs');
  const order = [...unique];
  for (;;) {
    rng.shuffle(order);
    if (order.every((d, i) => d !== unique[i])) break;
  }
  return new Map(unique.map((s, i) => [s, order[i] as number]));
}

/** "incast (many sources → one sink)": the fixed destination of every source but the sink. */
export function incast(sources: readonly number[], sink: number): Map<number, number> {
  checkIds(sources, 'sources');
  return new Map([...new Set(sources)].filter((s) => s !== sink).sort((a, b) => a - b).map((s) => [s, sink]));
}
