/**
 * Anderson, Owicki, Saxe & Thacker, "High-Speed Switch Scheduling for Local-Area Networks", ACM
 * TOCS 11(4), 1993: with one iteration of Parallel Iterative Matching and every input holding
 * cells for every output, each output grants one of the N inputs at random and an input is
 * matched when at least one output granted it, so a slot matches N(1 − (1 − 1/N)^N) pairs on
 * average: one-iteration PIM saturates at 1 − (1 − 1/N)^N per output, 1 − 1/e ≈ 0.632 for large
 * N (McKeown 1999, Fig. 6: PIM with one iteration saturates near 63%).
 *
 * Reproduced with the simulator's input-VoQ switch (`queueing: 'input-voq'`, `matcher: 'pim'`,
 * one iteration, slotted, no output queue) fed by always-backlogged sources with uniform
 * destinations (saturated-source.ts, as Karol's reproduction; voq-saturation.ts runs it). The
 * input buffers fill, but about 5% of the virtual output queues are empty at any time (measured
 * 0.047 with these 256-cell buffers): the formula does not notice, since with each request present
 * with probability q an output grants a given input with probability (1 − (1 − q)^N)/N, which
 * for q = 0.95 and N = 16 is 1/N to within 10⁻²⁰.
 */
import { voqSaturation } from './voq-saturation.ts';

export interface PimOptions {
  readonly seed: number;
  /** Default 16. */
  readonly n?: number;
  readonly slots: number;
  /** Default 1000 slots: the input buffers fill. */
  readonly warmup?: number;
  /** Default 20. */
  readonly batches?: number;
}

export interface PimResult {
  readonly n: number;
  /** Delivered cells per output per slot in the measured slots. */
  readonly measured: number;
  readonly stdErr: number;
  /** 1 − (1 − 1/N)^N. */
  readonly published: number;
  /** 1 − 1/e. */
  readonly limit: number;
  readonly slots: number;
  readonly events: number;
}

/** One-iteration PIM's saturation throughput per output for N ports: 1 − (1 − 1/N)^N. */
export function pimOneIteration(n: number): number {
  return 1 - (1 - 1 / n) ** n;
}

export const PIM_LIMIT = 1 - 1 / Math.E;

/** Each input buffer: 16 cells per virtual output queue on average (voq-saturation.ts: about 5% of them empty, which one-iteration PIM hardly notices). */
const INPUT_BUFFER = 256;

export function pimSaturation(o: PimOptions): PimResult {
  const n = o.n ?? 16;
  const r = voqSaturation({ seed: o.seed, n, matcher: 'pim', sources: 'fifo', inputBuffer: INPUT_BUFFER, slots: o.slots, warmup: o.warmup ?? 1000, ...(o.batches === undefined ? {} : { batches: o.batches }) });
  return { n, measured: r.measured, stdErr: r.stdErr, published: pimOneIteration(n), limit: PIM_LIMIT, slots: r.slots, events: r.events };
}
