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
 * destinations (saturated-source.ts, as Karol's reproduction): the input buffers fill and every
 * virtual output queue holds cells, so every input requests every output each slot.
 */
import { batchEstimate } from './batch-probe.ts';
import { CELL_SLOT, cellSwitch, runBatches } from './cell-switch.ts';

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

/** Each input buffer: 16 cells per virtual output queue, none empty once full. */
const INPUT_BUFFER = 256;

export function pimSaturation(o: PimOptions): PimResult {
  const n = o.n ?? 16;
  const batches = o.batches ?? 20;
  const perBatch = Math.max(1, Math.floor(o.slots / batches));
  const f = cellSwitch({ seed: o.seed, n, sw: { queueing: 'input-voq', matcher: 'pim', iterations: 1 }, traffic: 'saturated', inputBuffer: INPUT_BUFFER });
  const values: number[] = [];
  let last = 0;
  const events = runBatches(f.sched, (o.warmup ?? 1000) * CELL_SLOT, perBatch * CELL_SLOT, batches, (k) => {
    const now = f.probe.totalPackets;
    if (k > 0) values.push((now - last) / (n * perBatch));
    last = now;
  });
  const est = batchEstimate(values);
  return { n, measured: est.mean, stdErr: est.stdErr, published: pimOneIteration(n), limit: PIM_LIMIT, slots: perBatch * batches, events };
}
