/**
 * The results collector (issue 7 §3 "Results"): the fabric's `Probe` and the end points'
 * `EndpointProbe`, turned into `SimResults` (results-types.ts) and CSV (csv.ts).
 *
 *   const col = new Collector({ warmup: 10_000_000, sampleInterval: 1_000_000, flows: flowTable });
 *   … components report into col while the scheduler runs …
 *   col.finish(sched.now);
 *   const results = col.results();      // or JSON.stringify(col)
 *
 * Measured window. Throughput, offered load, latencies and XOFF time count what happens in
 * [warmup, end]: throughput is the octets delivered in the window divided by its length (the
 * warm-up's transient excluded); a latency is recorded when its packet or PDU arrives in the
 * window. Occupancy means and maxima are over the window too; the sampled series (occupancy and
 * throughput) start at 0 so the transient shows. Named counters cover the whole run.
 */
import type { BufferProbe } from '../../node/switch/types.ts';
import type { FlowCatalog, FlowInfo } from '../fabric/endpoint-flows.ts';
import type { EndpointProbe } from '../fabric/endpoint-types.ts';
import { COUNT } from './count-names.ts';
import { Histogram } from './histogram.ts';
import { OccupancyTrack } from './occupancy.ts';
import type { AggregateResult, FlowResult, SimResults, TrafficTotals } from './results-types.ts';

export interface CollectorOptions {
  /** Start of the measured window, ps. Default 0. */
  readonly warmup?: number;
  /** Interval of the occupancy and throughput series, ps. Default 1 µs (10^6 ps). */
  readonly sampleInterval?: number;
  /** Histogram precision: quantiles within 2^−bits. Default 8 (0.39 %). */
  readonly precisionBits?: number;
  /** Keep a throughput series per flow as well as the aggregate one. Default false. */
  readonly flowSeries?: boolean;
  /** The flows' labels (src, dst, prio, CRF, flowID, source link rate). */
  readonly flows?: FlowCatalog;
  /**
   * Per-flow results (default true). False: `results().flows` is empty and no flow keeps a
   * latency histogram; the aggregate, and the groups built on `flowCounts`, are the same numbers
   * (issue 20: a large fabric's per-flow rows and histograms are most of its results and memory).
   */
  readonly perFlow?: boolean;
  /** Track buffer occupancy (default true). False: `occupancy` is ignored and the results hold no buffer. */
  readonly buffers?: boolean;
}

/** A flow's counts over the measured window, as the groups sum them (scenario/groups.ts). */
export interface FlowCounts {
  readonly offeredBytes: number;
  readonly droppedPdus: number;
  readonly deliveredBytes: number;
  readonly deliveredPduBytes: number;
  readonly xoffTime: number;
  readonly xoffCount: number;
}

class FlowStats implements FlowCounts {
  offeredPdus = 0;
  offeredBytes = 0;
  offeredWire = 0;
  droppedPdus = 0;
  droppedBytes = 0;
  deliveredPackets = 0;
  deliveredBytes = 0;
  deliveredPdus = 0;
  deliveredPduBytes = 0;
  pduDefects = 0;
  /** Null when the collector keeps no per-flow results (the aggregate's histograms count every flow). */
  readonly packetLatency: Histogram | null;
  readonly pduLatency: Histogram | null;
  /** When the current XOFF began; -1 while the flow may send. */
  xoffSince = -1;
  xoffTime = 0;
  xoffCount = 0;
  series: number[] | null;

  constructor(bits: number, series: boolean, latency = true) {
    this.packetLatency = latency ? new Histogram(bits) : null;
    this.pduLatency = latency ? new Histogram(bits) : null;
    this.series = series ? [] : null;
  }
}

const NO_COUNTS = new FlowStats(1, false, false);
const NO_BUFFER: BufferProbe = { occupancy() {} };

function positive(v: number | undefined, dflt: number, field: string, zeroOk: boolean): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < 0 || (!zeroOk && v === 0)) throw new RangeError(`${field} must be a ${zeroOk ? 'non-negative' : 'positive'} integer (ps)`);
  return v;
}

export class Collector implements EndpointProbe {
  readonly warmup: number;
  readonly sampleInterval: number;
  readonly #bits: number;
  readonly #flowSeries: boolean;
  readonly #perFlow: boolean;
  readonly #buffers: boolean;
  readonly #catalog: FlowCatalog | undefined;
  readonly #flows: (FlowStats | undefined)[] = [];
  readonly #aggregate: FlowStats;
  readonly #tracks = new Map<string, OccupancyTrack>();
  #lastTrack: OccupancyTrack | null = null;
  readonly #counts = new Map<string, number>();
  readonly #series: number[] = [];
  #end = -1;

  constructor(options: CollectorOptions = {}) {
    this.warmup = positive(options.warmup, 0, 'warmup', true);
    this.sampleInterval = positive(options.sampleInterval, 1_000_000, 'sampleInterval', false);
    const bits = options.precisionBits ?? 8;
    this.#bits = bits;
    this.#aggregate = new FlowStats(bits, false);
    this.#perFlow = options.perFlow ?? true;
    this.#buffers = options.buffers ?? true;
    this.#flowSeries = options.flowSeries ?? false;
    if (this.#flowSeries && !this.#perFlow) throw new RangeError('flowSeries needs perFlow');
    this.#catalog = options.flows;
  }

  occupancy(component: string, now: number, packets: number, bytes: number): void {
    if (!this.#buffers) return;
    let t = this.#lastTrack;
    if (t === null || t.component !== component) {
      t = this.#track(component);
      this.#lastTrack = t;
    }
    t.update(now, packets, bytes);
  }

  /**
   * The reports of one buffer without a lookup by name each (issue 20: a 1024-end-point fabric
   * has 7168 buffers). Its record is made at the first report, as `occupancy` makes it, so the
   * buffers keep their order in the results.
   */
  buffer(component: string): BufferProbe {
    if (!this.#buffers) return NO_BUFFER;
    let t: OccupancyTrack | null = null;
    return {
      occupancy: (now, packets, bytes) => {
        t ??= this.#track(component);
        t.update(now, packets, bytes);
      },
    };
  }

  #track(component: string): OccupancyTrack {
    let t = this.#tracks.get(component);
    if (t === undefined) {
      t = new OccupancyTrack(component, this.warmup, this.sampleInterval);
      this.#tracks.set(component, t);
    }
    return t;
  }

  count(name: string, by = 1): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + by);
  }

  xoff(flow: number, now: number, off: boolean): void {
    const f = this.#flow(flow);
    if (off) {
      if (f.xoffSince >= 0) return;
      f.xoffSince = now;
      if (now >= this.warmup) f.xoffCount++;
      return;
    }
    if (f.xoffSince < 0) return;
    f.xoffTime += this.#inWindow(f.xoffSince, now);
    f.xoffSince = -1;
  }

  offered(flow: number, now: number, bytes: number, wireTime: number, accepted: boolean): void {
    if (now < this.warmup) return;
    const f = this.#flow(flow);
    f.offeredPdus++;
    f.offeredBytes += bytes;
    f.offeredWire += wireTime;
    if (!accepted) {
      f.droppedPdus++;
      f.droppedBytes += bytes;
    }
  }

  packetDelivered(flow: number, now: number, bytes: number, latency: number): void {
    const bin = Math.floor(now / this.sampleInterval);
    addAt(this.#series, bin, bytes);
    const f = this.#flow(flow);
    if (f.series !== null) addAt(f.series, bin, bytes);
    if (now < this.warmup) return;
    f.deliveredPackets++;
    f.deliveredBytes += bytes;
    f.packetLatency?.record(latency);
    (this.#aggregate.packetLatency as Histogram).record(latency);
  }

  pduDelivered(flow: number, now: number, bytes: number, latency: number): void {
    if (now < this.warmup) return;
    const f = this.#flow(flow);
    f.deliveredPdus++;
    f.deliveredPduBytes += bytes;
    f.pduLatency?.record(latency);
    (this.#aggregate.pduLatency as Histogram).record(latency);
  }

  pduDefect(flow: number, now: number): void {
    this.count(COUNT.pduDefects);
    if (now < this.warmup) return;
    if (flow >= 0) this.#flow(flow).pduDefects++;
    else this.#aggregate.pduDefects++;
  }

  /** Closes the window at `end`: open XOFF periods and occupancy levels are counted up to it. */
  finish(end: number): void {
    if (!(Number.isSafeInteger(end) && end >= this.warmup)) throw new RangeError(`end must be an integer time not before the warm-up (${this.warmup})`);
    this.#end = end;
    for (const f of this.#flows) {
      if (f === undefined || f.xoffSince < 0) continue;
      f.xoffTime += this.#inWindow(f.xoffSince, end);
      f.xoffSince = end;
    }
    for (const t of this.#tracks.values()) t.finish(end);
  }

  results(): SimResults {
    if (this.#end < 0) throw new RangeError('call finish(end) before results()');
    const duration = this.#end - this.warmup;
    const catalog = this.#catalog?.list() ?? [];
    const flows: FlowResult[] = [];
    if (this.#perFlow) for (let i = 0; i < this.flowCount; i++) flows.push(this.#flowResult(i, catalog[i], this.#flows[i], duration));
    const counts = Object.fromEntries([...this.#counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
    const c = (name: string): number => this.#counts.get(name) ?? 0;
    const flowSeries = this.#flowSeries
      ? Object.fromEntries(this.#flows.flatMap((f, i) => (f === undefined || f.series === null ? [] : [[String(i), padded(f.series, this.#end, this.sampleInterval)]])))
      : undefined;
    return {
      window: { warmup: this.warmup, end: this.#end, duration },
      flows,
      aggregate: this.#aggregateResult(duration),
      occupancy: [...this.#tracks.values()].map((t) => t.summary()),
      occupancySeries: { interval: this.sampleInterval, buffers: [...this.#tracks.values()].map((t) => t.series()) },
      throughputSeries: flowSeries === undefined
        ? { interval: this.sampleInterval, aggregate: padded(this.#series, this.#end, this.sampleInterval) }
        : { interval: this.sampleInterval, aggregate: padded(this.#series, this.#end, this.sampleInterval), flows: flowSeries },
      counts,
      headline: {
        ccpsSent: c(COUNT.ccpSent),
        ccpsReceived: c(COUNT.ccpReceived),
        ccpDrops: c(COUNT.ccpDropped),
        voqSymbols: c(COUNT.voqSymbols),
        tmMessages: c(COUNT.tmMessages),
        pduDefects: c(COUNT.pduDefects),
      },
    };
  }

  toJSON(): SimResults {
    return this.results();
  }

  /** Flows 0 … flowCount − 1: every flow the catalog lists or a report named. */
  get flowCount(): number {
    return Math.max(this.#catalog?.list().length ?? 0, this.#flows.length);
  }

  /** Flow `i`'s counts over the window (zeros for a flow nothing was reported of), with or without per-flow results. */
  flowCounts(i: number): FlowCounts {
    return this.#flows[i] ?? NO_COUNTS;
  }

  #flow(i: number): FlowStats {
    if (i < 0) return this.#aggregate;
    let f = this.#flows[i];
    if (f === undefined) {
      while (this.#flows.length <= i) this.#flows.push(undefined);
      f = new FlowStats(this.#bits, this.#flowSeries, this.#perFlow);
      this.#flows[i] = f;
    }
    return f;
  }

  /** The part of [from, to] inside the window. */
  #inWindow(from: number, to: number): number {
    const a = from > this.warmup ? from : this.warmup;
    return to > a ? to - a : 0;
  }

  #flowResult(i: number, info: FlowInfo | undefined, f: FlowStats | undefined, duration: number): FlowResult {
    const s = f ?? new FlowStats(this.#bits, false);
    const totals = totalsOf(s, duration);
    return {
      flow: i,
      src: info?.src ?? null,
      dst: info?.dst ?? null,
      prio: info?.prio ?? null,
      crf: info?.crf ?? null,
      flowID: info?.flowID ?? null,
      ...totals,
      offeredLoad: duration > 0 ? s.offeredWire / duration : 0,
      throughputFraction: info !== undefined && info.linkRate > 0 ? totals.throughputBps / info.linkRate : null,
      packetLatency: (s.packetLatency as Histogram).summary(),
      pduLatency: (s.pduLatency as Histogram).summary(),
      xoffTime: s.xoffTime,
      xoffFraction: duration > 0 ? s.xoffTime / duration : 0,
      xoffCount: s.xoffCount,
    };
  }

  #aggregateResult(duration: number): AggregateResult {
    const a = this.#aggregate;
    const flows = this.#flows;
    // In flow order, as the per-flow rows would be summed: integer counts, so the sums are exact.
    const sum = (k: keyof FlowStats & keyof TrafficTotals | 'xoffTime'): number => flows.reduce((acc, f) => acc + (f === undefined ? 0 : f[k]), 0);
    const deliveredBytes = sum('deliveredBytes');
    const deliveredPduBytes = sum('deliveredPduBytes');
    return {
      offeredPdus: sum('offeredPdus'),
      offeredBytes: sum('offeredBytes'),
      droppedPdus: sum('droppedPdus'),
      droppedBytes: sum('droppedBytes'),
      deliveredPackets: sum('deliveredPackets'),
      deliveredBytes,
      deliveredPdus: sum('deliveredPdus'),
      deliveredPduBytes,
      pduDefects: sum('pduDefects') + a.pduDefects,
      throughputBps: rate(deliveredBytes, duration),
      payloadBps: rate(deliveredPduBytes, duration),
      packetLatency: (a.packetLatency as Histogram).summary(),
      pduLatency: (a.pduLatency as Histogram).summary(),
      xoffTime: sum('xoffTime'),
    };
  }
}

/** Bytes over `duration` ps, as bit/s. */
function rate(bytes: number, duration: number): number {
  return duration > 0 ? (bytes * 8e12) / duration : 0;
}

function totalsOf(s: FlowStats, duration: number): TrafficTotals {
  return {
    offeredPdus: s.offeredPdus,
    offeredBytes: s.offeredBytes,
    droppedPdus: s.droppedPdus,
    droppedBytes: s.droppedBytes,
    deliveredPackets: s.deliveredPackets,
    deliveredBytes: s.deliveredBytes,
    deliveredPdus: s.deliveredPdus,
    deliveredPduBytes: s.deliveredPduBytes,
    pduDefects: s.pduDefects,
    throughputBps: rate(s.deliveredBytes, duration),
    payloadBps: rate(s.deliveredPduBytes, duration),
  };
}

function addAt(series: number[], bin: number, v: number): void {
  while (series.length <= bin) series.push(0);
  series[bin] = (series[bin] as number) + v;
}

/** The series with a bin for every interval up to `end`, empty ones as 0. */
function padded(series: readonly number[], end: number, interval: number): number[] {
  const bins = Math.ceil(end / interval);
  const out = series.slice(0, Math.max(bins, series.length));
  while (out.length < bins) out.push(0);
  return out;
}
