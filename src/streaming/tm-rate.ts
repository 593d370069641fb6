import type { Time } from '../engine/contract.ts';

/**
 * Rate arithmetic of rate based traffic management (Part 10 §3.4.3, §4.3.3 Table 4-5 and its
 * "Notes on reducing precision", §3.4.5 rule 3) and the token buckets of the ingress scheduler.
 *
 * Rates are safe integers (bytes per rate unit). Products stay below 2^53 because rates are at
 * most RATE_LIMIT = 2^40 and factors at most 512/256, so every result is exact before the one
 * documented rounding: a new rate is rounded down to an integer (floor), so a REDUCE always
 * takes at least its exact share and an INCREASE never gives more than it.
 */
export const RATE_LIMIT = 2 ** 40;

/** The step of a precision: an n-bit amount keeps the n most significant of the 8 bits. */
function step(bits: number): number {
  return 1 << (8 - bits);
}

/**
 * "REDUCE values should be rounded UP to the nearest precision. Example: for n/16 precision -
 * 0b0000 0011 would be rounded to 0b0001 xxxx". The result may be 256 (the whole rate), which
 * the never-zero rule then stops at the minimum rate.
 */
export function roundReduce(amount: number, bits: number): number {
  const s = step(bits);
  return Math.ceil(amount / s) * s;
}

/** "INCREASE values should be rounded DOWN to the nearest precision. Example for n/32 precision 0b1100 1110 would be rounded to 0b1100 1xxx". */
export function roundIncrease(amount: number, bits: number): number {
  const s = step(bits);
  return Math.floor(amount / s) * s;
}

/** "Q_STATUS values should be rounded UP to the nearest precision", at most 0xFF ("0xFF = Full"). */
export function roundLevel(level: number, bits: number): number {
  const s = step(bits);
  return Math.min(0xff, Math.ceil(level / s) * s);
}

export interface RateResult {
  readonly rate: number;
  /** Whether the minimum or maximum rate stopped the change. */
  readonly clamped: boolean;
}

/**
 * Rates stay within [min, max] (the ingress starts every queue inside it).
 *
 * "Reduce the current rate to = CurrentRate x (1-n/256)", rounded down; "a decrease must never
 * reduce the rate completely to zero. The egress must use XOFF to stop the flow completely":
 * the result is at least `min` (> 0).
 */
export function reducedRate(rate: number, amount: number, min: number): RateResult {
  const exact = Math.floor((rate * (256 - amount)) / 256);
  return exact < min ? { rate: min, clamped: true } : { rate: exact, clamped: false };
}

/** "Increase the current rate to = CurrentRate x (1+ n/256)", rounded down, at most `max`. */
export function increasedRate(rate: number, amount: number, max: number): RateResult {
  const exact = Math.floor((rate * (256 + amount)) / 256);
  return exact > max ? { rate: max, clamped: true } : { rate: exact, clamped: false };
}

/** "Double the current rate", at most `max`. */
export function doubledRate(rate: number, max: number): RateResult {
  return rate * 2 > max ? { rate: max, clamped: true } : { rate: rate * 2, clamped: false };
}

/** ⌈a / b⌉ for non-negative safe integers, exact (floating division may be off by one). */
export function ceilDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  while (q * b < a) q++;
  while (q > 0 && (q - 1) * b >= a) q--;
  return q;
}

/**
 * A token bucket of `depth` bytes filling at `rate` bytes per `unit` time units. Tokens are kept
 * in byte·time-units (bytes × unit) so that filling is an integer product. A PDU may go when the
 * bucket holds min(bytes, depth) bytes (a PDU larger than the bucket waits for a full bucket);
 * sending takes its whole size, so the bucket may go below zero and the debt is repaid first.
 */
export class TokenBucket {
  #rate: number;
  readonly #depth: number;
  readonly #unit: number;
  #tokens: number;
  #last: Time;

  constructor(rate: number, depth: number, unit: number, now: Time = 0) {
    this.#rate = rate;
    this.#depth = depth * unit;
    this.#unit = unit;
    this.#tokens = this.#depth;
    this.#last = now;
  }

  get rate(): number {
    return this.#rate;
  }

  /** Tokens in bytes at `now` (fractions dropped). Queries do not change the bucket. */
  bytes(now: Time): number {
    return Math.floor(this.#tokensAt(now) / this.#unit);
  }

  /** Changes the rate from `now` on; tokens earned so far were earned at the old rate. */
  setRate(rate: number, now: Time): void {
    this.#fill(now);
    this.#rate = rate;
  }

  /** When a PDU of `bytes` may go: `now` or later. */
  readyAt(bytes: number, now: Time): Time {
    const tokens = this.#tokensAt(now);
    const need = Math.min(bytes * this.#unit, this.#depth);
    if (tokens >= need) return now;
    return Math.max(now, this.#last) + ceilDiv(need - tokens, this.#rate);
  }

  take(bytes: number, now: Time): void {
    this.#fill(now);
    this.#tokens -= bytes * this.#unit;
  }

  #fill(now: Time): void {
    this.#tokens = this.#tokensAt(now);
    if (now > this.#last) this.#last = now;
  }

  #tokensAt(now: Time): number {
    const dt = now - this.#last;
    if (dt <= 0 || this.#tokens >= this.#depth) return this.#tokens;
    const room = this.#depth - this.#tokens;
    // Checked before multiplying so that rate × dt never leaves the safe integers.
    return dt >= ceilDiv(room, this.#rate) ? this.#depth : this.#tokens + this.#rate * dt;
  }

  toJSON(): Record<string, number> {
    return { rate: this.#rate, depthBytes: this.#depth / this.#unit, tokens: this.#tokens, unit: this.#unit, last: this.#last };
  }
}
