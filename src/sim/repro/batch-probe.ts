/**
 * What the reproductions measure, and how precisely.
 *
 * `BatchProbe` is the end points' `EndpointProbe` (src/sim/fabric/endpoint-types.ts) reduced to
 * running per-flow totals (packets and octets offered and delivered, the sum of packet
 * latencies): a reproduction reads them at batch boundaries and differences them, so that a
 * batch costs no allocation and a packet costs three additions.
 *
 * Statistical care (issue 7 §4: "within ±0.005", "within 3%"): consecutive slots of a switch are
 * correlated (queues carry over), so the standard error of a long-run mean is estimated by the
 * method of batch means (Law & Kelton, "Simulation Modeling and Analysis"): the measured
 * window is cut into B equal batches, long against the queues' relaxation time, whose means are
 * then close to independent; the standard error is the sample standard deviation of the batch
 * means over √B.
 */
import type { EndpointProbe } from '../fabric/endpoint-types.ts';

export class BatchProbe implements EndpointProbe {
  /** Per flow (index into the simulation's FlowTable), grown on first sight. */
  offeredPdus = new Float64Array(64);
  droppedPdus = new Float64Array(64);
  offeredBytes = new Float64Array(64);
  deliveredPackets = new Float64Array(64);
  deliveredBytes = new Float64Array(64);
  latencySum = new Float64Array(64);
  /** Over every flow: PDUs generated (accepted or dropped), dropped, and delivered packets. */
  totalOffered = 0;
  /** PDUs a full source queue dropped. */
  totalDropped = 0;
  totalPackets = 0;
  totalLatency = 0;
  readonly counts = new Map<string, number>();

  occupancy(): void {
    // The reproductions read buffer occupancy from the components themselves when they need it.
  }

  count(name: string, by = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + by);
  }

  xoff(): void {
    // XOFF time is the results collector's (src/sim/results/collector.ts); throughput is what is reproduced here.
  }

  /** PDUs generated (`offeredPdus`, `totalOffered`), and those a full source queue dropped. */
  offered(flow: number, _now: number, bytes: number, _wireTime: number, accepted: boolean): void {
    this.#fit(flow);
    this.offeredPdus[flow] = (this.offeredPdus[flow] as number) + 1;
    this.offeredBytes[flow] = (this.offeredBytes[flow] as number) + bytes;
    this.totalOffered++;
    if (!accepted) {
      this.droppedPdus[flow] = (this.droppedPdus[flow] as number) + 1;
      this.totalDropped++;
    }
  }

  packetDelivered(flow: number, _now: number, bytes: number, latency: number): void {
    this.#fit(flow);
    this.deliveredPackets[flow] = (this.deliveredPackets[flow] as number) + 1;
    this.deliveredBytes[flow] = (this.deliveredBytes[flow] as number) + bytes;
    this.latencySum[flow] = (this.latencySum[flow] as number) + latency;
    this.totalPackets++;
    this.totalLatency += latency;
  }

  pduDelivered(): void {
    // Every reproduction sends single-packet PDUs: the packet figures are the PDU figures.
  }

  pduDefect(): void {
    this.count('pdu.defects');
  }

  #fit(flow: number): void {
    if (flow < this.deliveredPackets.length) return;
    let n = this.deliveredPackets.length;
    while (n <= flow) n *= 2;
    const grow = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.offeredPdus = grow(this.offeredPdus);
    this.droppedPdus = grow(this.droppedPdus);
    this.offeredBytes = grow(this.offeredBytes);
    this.deliveredPackets = grow(this.deliveredPackets);
    this.deliveredBytes = grow(this.deliveredBytes);
    this.latencySum = grow(this.latencySum);
  }
}

export interface BatchEstimate {
  /** Mean of the batch means (equal batches: the mean over the whole window). */
  readonly mean: number;
  /** Standard error of `mean`: the batch means' sample standard deviation / √B. */
  readonly stdErr: number;
  readonly batches: readonly number[];
}

/** Batch-means estimate from B ≥ 2 batch means. */
export function batchEstimate(batches: readonly number[]): BatchEstimate {
  const b = batches.length;
  if (b < 2) throw new RangeError('batches must be at least 2');
  let sum = 0;
  for (const x of batches) sum += x;
  const mean = sum / b;
  let ss = 0;
  for (const x of batches) ss += (x - mean) * (x - mean);
  return { mean, stdErr: Math.sqrt(ss / (b - 1) / b), batches: [...batches] };
}

/** Student t 0.975 quantiles for 1 … 30 degrees of freedom (two-sided 95 %). */
const T975 = [
  12.706204736, 4.30265273, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852,
  2.20098516, 2.17881283, 2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.10092204, 2.093024054, 2.085963447,
  2.079613845, 2.073873068, 2.06865761, 2.063898562, 2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
];

/**
 * The 0.975 quantile of Student's t with `df` degrees of freedom: the table up to 30, then the
 * Cornish–Fisher expansion about the normal quantile (Abramowitz & Stegun 26.7.5), within 1e-5
 * there.
 */
export function studentT975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError('degrees of freedom must be a positive integer');
  const t = T975[df - 1];
  if (t !== undefined) return t;
  const z = 1.959963984540054;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3);
}

/** A mean with its two-sided 95 % confidence interval. */
export interface Interval95 {
  readonly n: number;
  readonly mean: number;
  readonly stdErr: number;
  /** t(0.975, n − 1) × stdErr: the interval is mean ± halfWidth. */
  readonly halfWidth: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The 95 % Student t confidence interval of the mean of n ≥ 2 independent, identically
 * distributed values (independent replications; batch means long enough to be close to
 * independent): the `batchEstimate` mean and standard error, times t(0.975, n − 1).
 */
export function interval95(values: readonly number[]): Interval95 {
  const est = batchEstimate(values);
  const halfWidth = studentT975(values.length - 1) * est.stdErr;
  return { n: values.length, mean: est.mean, stdErr: est.stdErr, halfWidth, low: est.mean - halfWidth, high: est.mean + halfWidth };
}
