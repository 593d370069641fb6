/**
 * Latency histogram (issue 7 §3 "latency percentiles (HDR-style histogram)"): log-linear buckets
 * over non-negative integers (picoseconds), with bounded relative error.
 *
 * Why not the npm package `hdr-histogram-js`: it works under Node 20 ESM (through CommonJS
 * interop), but its last release line (3.0.x) is years old, it brings three runtime dependencies
 * the simulator has no use for (an AssemblyScript/WebAssembly loader, pako, base64-js), and the
 * simulator needs only recording, quantiles, merging and a plain JSON form. This is the same
 * bucketing scheme (Tene's HdrHistogram) in ~150 lines, deterministic on every machine.
 *
 * Buckets. With p precision bits, values below 2^p have a bucket each (exact). Above, each power
 * of two [2^k, 2^(k+1)) is cut into 2^(p−1) equal buckets of width 2^(k−p+1). A quantile is
 * reported as the middle of the bucket holding the value of that rank (nearest-rank definition:
 * rank ⌈q·n⌉), clamped to the exact minimum and maximum (the first and last ranks are those), so it is within a relative error of
 * 2^−p of the exact quantile (p = 8: 0.39 %). Count, sum (hence mean), minimum and maximum are
 * exact. The counts are kept for the span of buckets seen only, [lowest, highest], allocated at
 * the first record (issue 20: a fabric of 1024 end points keeps two histograms for each of its
 * ~33 000 flows; counts from bucket 0 up took 16 KiB each for microsecond latencies in ps, 1 GB
 * in all, and most flows see a handful of latencies within one or two powers of two).
 */

/** A latency distribution (ps): count, extremes, mean and quantiles. */
export interface LatencySummary {
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p999: number;
  readonly p9999: number;
}

const TWO_32 = 2 ** 32;

export class Histogram {
  readonly precisionBits: number;
  /** Counts of buckets #base … #base + #counts.length − 1; empty until the first record. */
  #counts = new Float64Array(0);
  #base = 0;
  #count = 0;
  #sum = 0;
  #min = Infinity;
  #max = -Infinity;
  readonly #exact: number;
  readonly #half: number;

  constructor(precisionBits = 8) {
    if (!Number.isInteger(precisionBits) || precisionBits < 1 || precisionBits > 16) throw new RangeError('precisionBits must be an integer from 1 to 16');
    this.precisionBits = precisionBits;
    this.#exact = 2 ** precisionBits;
    this.#half = this.#exact / 2;
  }

  get count(): number {
    return this.#count;
  }

  get min(): number {
    return this.#count === 0 ? 0 : this.#min;
  }

  get max(): number {
    return this.#count === 0 ? 0 : this.#max;
  }

  get mean(): number {
    return this.#count === 0 ? 0 : this.#sum / this.#count;
  }

  /** The largest relative error of a reported quantile, 2^−p. */
  get relativeError(): number {
    return 1 / this.#exact;
  }

  /** Records `n` occurrences of `value`, a non-negative safe integer (a modelling error otherwise). */
  record(value: number, n = 1): void {
    if (!(Number.isSafeInteger(value) && value >= 0)) throw new RangeError(`histogram value must be a non-negative safe integer: got ${value}`);
    const i = this.#slot(this.#index(value));
    this.#counts[i] = (this.#counts[i] as number) + n;
    this.#count += n;
    this.#sum += value * n;
    if (value < this.#min) this.#min = value;
    if (value > this.#max) this.#max = value;
  }

  /** Adds every sample of `other` (same precision). */
  add(other: Histogram): void {
    if (other.precisionBits !== this.precisionBits) throw new RangeError('histograms of different precision cannot be added');
    if (other.#count === 0) return;
    const oc = other.#counts;
    for (let i = 0; i < oc.length; i++) {
      const c = oc[i] as number;
      if (c === 0) continue;
      const j = this.#slot(other.#base + i);
      this.#counts[j] = (this.#counts[j] as number) + c;
    }
    this.#count += other.#count;
    this.#sum += other.#sum;
    if (other.#min < this.#min) this.#min = other.#min;
    if (other.#max > this.#max) this.#max = other.#max;
  }

  /** The value of rank ⌈q·n⌉ (q in [0, 1]) within the relative error; 0 when empty. */
  quantile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`q must be from 0 to 1: got ${q}`);
    if (this.#count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.#count));
    // The extreme ranks are known exactly.
    if (rank === 1) return this.#min;
    if (rank >= this.#count) return this.#max;
    const c = this.#counts;
    let seen = 0;
    for (let i = 0; i < c.length; i++) {
      seen += c[i] as number;
      if (seen >= rank) {
        const [lo, width] = this.#bucket(this.#base + i);
        const mid = lo + Math.floor((width - 1) / 2);
        return Math.min(this.#max, Math.max(this.#min, mid));
      }
    }
    return this.#max;
  }

  summary(): LatencySummary {
    return {
      count: this.#count,
      min: this.min,
      max: this.max,
      mean: this.mean,
      p50: this.quantile(0.5),
      p90: this.quantile(0.9),
      p99: this.quantile(0.99),
      p999: this.quantile(0.999),
      p9999: this.quantile(0.9999),
    };
  }

  /** The non-empty buckets, ascending: [lowest value, highest value, count]. */
  buckets(): [number, number, number][] {
    const out: [number, number, number][] = [];
    const c = this.#counts;
    for (let i = 0; i < c.length; i++) {
      const n = c[i] as number;
      if (n === 0) continue;
      const [lo, width] = this.#bucket(this.#base + i);
      out.push([lo, lo + width - 1, n]);
    }
    return out;
  }

  #index(v: number): number {
    if (v < this.#exact) return v;
    const msb = v < TWO_32 ? 31 - Math.clz32(v) : 63 - Math.clz32(Math.floor(v / TWO_32));
    const shift = msb - this.precisionBits + 1;
    const sub = Math.floor(v / 2 ** shift);
    return this.#exact + (shift - 1) * this.#half + (sub - this.#half);
  }

  /** [lowest value, width] of bucket i. */
  #bucket(i: number): [number, number] {
    if (i < this.#exact) return [i, 1];
    const j = i - this.#exact;
    const shift = Math.floor(j / this.#half) + 1;
    const sub = this.#half + (j % this.#half);
    const width = 2 ** shift;
    return [sub * width, width];
  }

  /** The position of bucket `i` in #counts, widening the span kept (at least doubling it) to hold it. */
  #slot(i: number): number {
    const base = this.#base;
    const len = this.#counts.length;
    if (i >= base && i < base + len) return i - base;
    if (len === 0) {
      this.#counts = new Float64Array(16);
      this.#base = i;
      return 0;
    }
    const lo = Math.min(base, i);
    const hi = Math.max(base + len, i + 1);
    let n = len;
    while (n < hi - lo) n *= 2;
    // Room on the side the span grew to, for the next values beyond it.
    const start = i < base ? Math.max(0, hi - n) : lo;
    const next = new Float64Array(Math.max(n, hi - start));
    next.set(this.#counts, base - start);
    this.#counts = next;
    this.#base = start;
    return i - start;
  }
}
