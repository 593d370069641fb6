/**
 * One source's traffic (issue 7 §3): an arrival process, a destination pattern and a PDU size
 * distribution, each drawing from its own named stream of the kernel's `RandomStreams`
 * (`<name>:time`, `<name>:dst`, `<name>:size`, name `source:<id>` by default), so changing the
 * size distribution moves no arrival time and adding a source changes no other source's draws.
 *
 * Offered load. "per-source offered load as a fraction of the source link's data rate": the
 * fraction of the source link's time that its PDUs occupy on the wire, packets and delimiters
 * included (`pduTime`, supplied by the end point that knows how it cuts PDUs into packets). A
 * load of 1 keeps the link exactly busy; the mean gap between PDUs is E[pduTime(size)] / load,
 * with the expectation taken exactly over the size distribution's support.
 *
 * The generator allocates nothing per PDU: `next()` advances and the caller reads `at`, `dst`,
 * `bytes` and `burstStart`.
 */
import type { RandomStreams, Rng } from '../kernel/random.ts';
import { BernoulliArrivals, OnOffArrivals, PoissonArrivals } from './arrivals.ts';
import type { ArrivalProcess, OffPeriod } from './arrivals.ts';
import { makeDestinations } from './destinations.ts';
import type { DestinationPattern, DestinationSpec } from './destinations.ts';
import { makeSize } from './sizes.ts';
import type { SizeDistribution, SizeSpec } from './sizes.ts';

export type ArrivalSpec =
  /** Slotted Bernoulli; `slot` in ps, omitted: one slot per mean PDU time (per-PDU-time Bernoulli, p = load). */
  | { readonly kind: 'bernoulli'; readonly slot?: number }
  | { readonly kind: 'poisson' }
  /** Bursty on/off; `peak` is the load during a burst (default 1, back to back at the link rate). */
  | { readonly kind: 'onoff'; readonly meanBurst: number; readonly off?: OffPeriod; readonly peak?: number };

export interface TrafficSpec {
  /** Fraction of the source link's time, ≥ 0. */
  readonly load: number;
  readonly arrival: ArrivalSpec;
  readonly destinations: DestinationSpec;
  readonly size: SizeSpec;
  /** First possible arrival, ps. Default 0. */
  readonly start?: number;
  /** No PDU arrives at or after this time, ps. Default never. */
  readonly stop?: number;
}

export interface TrafficContext {
  /** The source's device ID (never its own destination). */
  readonly self: number;
  readonly streams: RandomStreams;
  /** Wire time in ps of a PDU of `bytes` bytes on the source link: all its packets with their delimiters. */
  readonly pduTime: (bytes: number) => number;
  /** Prefix of the stream names. Default `source:<self>`. */
  readonly name?: string;
}

/** E[pduTime(size)] over the size distribution, exactly. */
export function meanPduTime(size: SizeDistribution, pduTime: (bytes: number) => number): number {
  let sum = 0;
  for (const { bytes, p } of size.support()) sum += p * pduTime(bytes);
  return sum;
}

function checkTime(v: number | undefined, dflt: number, field: string): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${field} must be a non-negative integer (ps)`);
  return v;
}

function makeArrivals(spec: ArrivalSpec, load: number, start: number, pduTime: number): ArrivalProcess {
  switch (spec.kind) {
    case 'bernoulli': {
      const slot = spec.slot ?? Math.max(1, Math.round(pduTime));
      return new BernoulliArrivals(start, slot, (load * slot) / pduTime);
    }
    case 'poisson':
      return new PoissonArrivals(start, load === 0 ? Infinity : pduTime / load);
    case 'onoff': {
      const peak = spec.peak ?? 1;
      if (typeof peak !== 'number' || !(peak > 0 && peak <= 1)) throw new RangeError('arrival.peak must be a fraction above 0 and at most 1');
      if (load > peak) throw new RangeError('load must not exceed arrival.peak for on/off traffic');
      if (load === 0) return new PoissonArrivals(start, Infinity);
      // meanBurst × pduTime / (meanBurst × gap + meanOff) = load, with gap = pduTime / peak.
      const meanOff = spec.meanBurst * pduTime * (1 / load - 1 / peak);
      return new OnOffArrivals(start, pduTime / peak, spec.meanBurst, Math.max(0, meanOff), spec.off ?? 'exponential');
    }
    default:
      throw new RangeError('arrival.kind must be bernoulli, poisson or onoff');
  }
}

export class TrafficGenerator {
  /** Time of the current PDU, ps. */
  at = -1;
  dst = -1;
  /** PDU payload bytes. */
  bytes = 0;
  /** The current PDU begins a burst (always, except within an on/off burst). */
  burstStart = true;
  /** PDUs generated so far. */
  count = 0;
  /** E[pduTime(size)], ps: the mean wire time of one PDU. */
  readonly meanPduTime: number;
  readonly load: number;
  readonly stop: number;
  readonly size: SizeDistribution;
  readonly pattern: DestinationPattern;
  readonly #arrivals: ArrivalProcess;
  readonly #time: Rng;
  readonly #dst: Rng;
  readonly #size: Rng;

  constructor(spec: TrafficSpec, ctx: TrafficContext) {
    const load: unknown = spec.load;
    if (typeof load !== 'number' || !(load >= 0 && load < Infinity)) throw new RangeError('load must be a non-negative number');
    this.load = load;
    const start = checkTime(spec.start, 0, 'start');
    this.stop = checkTime(spec.stop, Number.MAX_SAFE_INTEGER, 'stop');
    this.size = makeSize(spec.size);
    this.pattern = makeDestinations(spec.destinations, ctx.self);
    this.meanPduTime = meanPduTime(this.size, ctx.pduTime);
    if (!(this.meanPduTime > 0)) throw new RangeError('pduTime must give a positive wire time');
    this.#arrivals = makeArrivals(spec.arrival, load, start, this.meanPduTime);
    const name = ctx.name ?? `source:${ctx.self}`;
    this.#time = ctx.streams.stream(`${name}:time`);
    this.#dst = ctx.streams.stream(`${name}:dst`);
    this.#size = ctx.streams.stream(`${name}:size`);
  }

  /** Advances to the next PDU; false once none comes before `stop` (and from then on). */
  next(): boolean {
    const at = this.#arrivals.next(this.#time);
    if (!(at < this.stop)) return false;
    this.at = at;
    this.burstStart = this.#arrivals.burstStart;
    if (this.burstStart || this.dst < 0) this.dst = this.pattern.draw(this.#dst);
    this.bytes = this.size.draw(this.#size);
    this.count++;
    return true;
  }
}
