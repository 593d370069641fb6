/**
 * PDU size distributions (issue 7 §3 "PDU size distributions"): fixed, uniform over [min, max],
 * and an empirical list of sizes with weights (a bimodal mix is a two-entry list). Sizes are
 * PDU payload bytes, positive integers. Draws come from the `Rng` the caller passes, a stream of
 * the kernel's `RandomStreams` named for the source.
 *
 * `support()` lists every size with its probability so that a caller can compute an exact
 * expectation of anything that depends on the size (the mean wire time of a PDU, which turns an
 * offered load into an arrival rate, see generator.ts).
 */
import { positiveInteger } from '../../engine/config-checks.ts';
import type { Rng } from '../kernel/random.ts';

export type SizeSpec =
  | { readonly kind: 'fixed'; readonly bytes: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number }
  | { readonly kind: 'empirical'; readonly values: readonly { readonly bytes: number; readonly weight: number }[] };

export interface SizeDistribution {
  draw(rng: Rng): number;
  /** Every size with its probability; probabilities add up to 1. */
  support(): { readonly bytes: number; readonly p: number }[];
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

export class FixedSize implements SizeDistribution {
  readonly min: number;
  readonly max: number;
  readonly mean: number;

  constructor(readonly bytes: number) {
    positiveInteger(bytes, 'size.bytes');
    this.min = bytes;
    this.max = bytes;
    this.mean = bytes;
  }

  draw(): number {
    return this.bytes;
  }

  support(): { readonly bytes: number; readonly p: number }[] {
    return [{ bytes: this.bytes, p: 1 }];
  }
}

/** Every integer size in [min, max] equally likely. */
export class UniformSize implements SizeDistribution {
  readonly mean: number;
  readonly #span: number;

  constructor(readonly min: number, readonly max: number) {
    positiveInteger(min, 'size.min');
    positiveInteger(max, 'size.max');
    if (max < min) throw new RangeError('size.max must be at least size.min');
    this.#span = max - min + 1;
    this.mean = (min + max) / 2;
  }

  draw(rng: Rng): number {
    return this.min + rng.int(this.#span);
  }

  support(): { readonly bytes: number; readonly p: number }[] {
    const out: { bytes: number; p: number }[] = [];
    for (let b = this.min; b <= this.max; b++) out.push({ bytes: b, p: 1 / this.#span });
    return out;
  }
}

/** Sizes with relative weights; one draw is one uniform number and a binary search of the cumulative weights. */
export class EmpiricalSize implements SizeDistribution {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly #bytes: Float64Array;
  readonly #cumulative: Float64Array;
  readonly #total: number;

  constructor(values: readonly { readonly bytes: number; readonly weight: number }[]) {
    const given: unknown = values;
    if (!Array.isArray(given) || given.length === 0) throw new RangeError('size.values must be a non-empty list');
    this.#bytes = new Float64Array(values.length);
    this.#cumulative = new Float64Array(values.length);
    let total = 0;
    let sum = 0;
    values.forEach((v, i) => {
      positiveInteger(v.bytes, `size.values[${i}].bytes`);
      if (typeof v.weight !== 'number' || !(v.weight > 0 && v.weight < Infinity)) throw new RangeError(`size.values[${i}].weight must be a positive number`);
      total += v.weight;
      sum += v.weight * v.bytes;
      this.#bytes[i] = v.bytes;
      this.#cumulative[i] = total;
    });
    this.#total = total;
    this.mean = sum / total;
    this.min = Math.min(...values.map((v) => v.bytes));
    this.max = Math.max(...values.map((v) => v.bytes));
  }

  draw(rng: Rng): number {
    const u = rng.next() * this.#total;
    const c = this.#cumulative;
    let lo = 0;
    let hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((c[mid] as number) > u) hi = mid;
      else lo = mid + 1;
    }
    return this.#bytes[lo] as number;
  }

  support(): { readonly bytes: number; readonly p: number }[] {
    const out: { bytes: number; p: number }[] = [];
    let prev = 0;
    for (let i = 0; i < this.#bytes.length; i++) {
      const c = this.#cumulative[i] as number;
      out.push({ bytes: this.#bytes[i] as number, p: (c - prev) / this.#total });
      prev = c;
    }
    return out;
  }
}

export function makeSize(spec: SizeSpec): SizeDistribution {
  switch (spec.kind) {
    case 'fixed':
      return new FixedSize(spec.bytes);
    case 'uniform':
      return new UniformSize(spec.min, spec.max);
    case 'empirical':
      return new EmpiricalSize(spec.values);
    default:
      throw new RangeError(`size.kind must be fixed, uniform or empirical`);
  }
}
