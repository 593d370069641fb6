/**
 * PDU arrival processes of one source (issue 7 §3 "uniform Bernoulli (per-slot or per-PDU-time
 * Bernoulli; and Poisson) … bursty on/off"). Each `next(rng)` gives the time of the next PDU in
 * integer picoseconds, non-decreasing; `Infinity` when the process never fires again (a zero
 * load). Times are kept as real numbers and rounded down only when handed out, so rounding never
 * accumulates into a rate error.
 *
 * How a load becomes parameters (generator.ts): a source's offered load is the fraction of its
 * link's time its PDUs would take (`pduTime`, the mean wire time of one PDU with its delimiters),
 * so the mean gap between PDUs is pduTime / load.
 */
import type { Rng } from '../kernel/random.ts';

export interface ArrivalProcess {
  next(rng: Rng): number;
  /** Whether the arrival `next` gave last begins a burst; always true except within an on/off burst. */
  readonly burstStart: boolean;
}

/**
 * Slotted Bernoulli: slots begin at start + k × slot and each carries a PDU with probability p,
 * independently (Karol, Hluchyj & Morgan's "uniform Bernoulli" arrivals). The gap to the next
 * busy slot is geometric, so one draw per PDU rather than one per slot.
 */
export class BernoulliArrivals implements ArrivalProcess {
  readonly burstStart = true;
  #slotIndex = -1;

  constructor(readonly start: number, readonly slot: number, readonly p: number) {
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError('arrival.start must be a non-negative integer (ps)');
    if (!Number.isSafeInteger(slot) || slot <= 0) throw new RangeError('arrival.slot must be a positive integer (ps)');
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError('arrival probability per slot must be from 0 to 1: lower the load or shorten the slot');
  }

  next(rng: Rng): number {
    if (this.p === 0) return Infinity;
    this.#slotIndex += rng.geometric(this.p);
    return this.start + this.#slotIndex * this.slot;
  }
}

/** Poisson arrivals: exponential gaps with mean `meanGap` ps. */
export class PoissonArrivals implements ArrivalProcess {
  readonly burstStart = true;
  #t: number;

  constructor(readonly start: number, readonly meanGap: number) {
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError('arrival.start must be a non-negative integer (ps)');
    if (typeof meanGap !== 'number' || !(meanGap > 0)) throw new RangeError('arrival mean gap must be positive (a load above 0)');
    this.#t = start;
  }

  next(rng: Rng): number {
    if (this.meanGap === Infinity) return Infinity;
    this.#t += rng.exponential(this.meanGap);
    return Math.floor(this.#t);
  }
}

export type OffPeriod = 'exponential' | 'geometric';

/**
 * Bursty on/off: a burst is a geometric number of PDUs with mean `meanBurst`, sent `gap` ps apart
 * (the peak rate), to one destination (generator.ts draws the destination at `burstStart`); an
 * off period follows each burst, exponential in time or a geometric number of idle gaps, with
 * mean `meanOff` ps. The source starts with an off period, so sources do not all fire at once.
 * Average rate: meanBurst / (meanBurst × gap + meanOff) PDUs per ps.
 */
export class OnOffArrivals implements ArrivalProcess {
  #burstStart = true;
  #left = 0;
  #t: number;
  #first = true;
  readonly #pBurst: number;
  readonly #pOff: number;

  constructor(readonly start: number, readonly gap: number, readonly meanBurst: number, readonly meanOff: number, readonly off: OffPeriod = 'exponential') {
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError('arrival.start must be a non-negative integer (ps)');
    if (typeof gap !== 'number' || !(gap > 0 && gap < Infinity)) throw new RangeError('arrival peak gap must be a positive finite number of ps');
    if (typeof meanBurst !== 'number' || !(meanBurst >= 1 && meanBurst < Infinity)) throw new RangeError('arrival.meanBurst must be a number of PDUs, at least 1');
    if (typeof meanOff !== 'number' || !(meanOff >= 0 && meanOff < Infinity)) throw new RangeError('arrival mean off time must be a non-negative finite number of ps');
    const o: string = off;
    if (o !== 'exponential' && o !== 'geometric') throw new RangeError('arrival.off must be exponential or geometric');
    this.#t = start;
    this.#pBurst = 1 / meanBurst;
    // Idle gaps before the next burst: failures before a success, mean meanOff / gap.
    this.#pOff = 1 / (1 + meanOff / gap);
  }

  get burstStart(): boolean {
    return this.#burstStart;
  }

  next(rng: Rng): number {
    if (this.#left === 0) {
      this.#t += (this.#first ? 0 : this.gap) + this.#offTime(rng);
      this.#first = false;
      this.#left = rng.geometric(this.#pBurst);
      this.#burstStart = true;
    } else {
      this.#t += this.gap;
      this.#burstStart = false;
    }
    this.#left--;
    return Math.floor(this.#t);
  }

  #offTime(rng: Rng): number {
    if (this.meanOff === 0) return 0;
    if (this.off === 'exponential') return rng.exponential(this.meanOff);
    return (rng.geometric(this.#pOff) - 1) * this.gap;
  }
}
