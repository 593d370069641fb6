/**
 * Karol, Hluchyj & Morgan, "Input Versus Output Queueing on a Space-Division Packet Switch",
 * IEEE Trans. Commun. COM-35(12), 1987, Table I: the saturation throughput of an N x N switch
 * with a FIFO queue at every input, fixed-size cells in slots, every input always backlogged and
 * every cell's output uniform over the N outputs (issue 7 §4 "0.7500 (N=2), 0.6825 (3), 0.6553
 * (4), 0.6399 (5), 0.6302 (6), 0.6234 (7), 0.6184 (8), 0.586 as N grows"; the limit is 2 − √2).
 *
 * The model's contention rule: when k head-of-line cells want one output, one of them is chosen
 * at random and the other k − 1 wait for the next slot. Round-robin and fixed priority reach the
 * same saturation throughput, and not by accident: under saturation the number of head-of-line
 * cells addressed to each output evolves the same way whichever contender an output takes, since
 * every output with a contender sends one cell and the cell that replaces it at the head of its
 * FIFO has a fresh uniform destination, independent of which input it is at. The policies differ
 * in who gets the throughput (fixed priority starves the high-numbered inputs), not in how much:
 * `perInput` shows it.
 *
 * Reproduced here with the simulator's input-FIFO switch (`queueing: 'input-fifo'`, no output
 * queue, slotted) fed by always-backlogged FIFO sources (saturated-source.ts, which says why not
 * an end point), so each switch input always has a head-of-line cell. Throughput is delivered cells per output per slot.
 */
import type { Arbitration } from '../../node/switch/arbiters.ts';
import { batchEstimate } from './batch-probe.ts';
import { CELL_SLOT, cellSwitch, runBatches, sentBy } from './cell-switch.ts';

/** Karol et al. 1987 Table I. */
export const KAROL_1987: Readonly<Record<number, number>> = { 1: 1, 2: 0.75, 3: 0.6825, 4: 0.6553, 5: 0.6399, 6: 0.6302, 7: 0.6234, 8: 0.6184 };
/** The N → ∞ limit (Karol et al. 1987, input queueing): 2 − √2. */
export const KAROL_LIMIT = 2 - Math.SQRT2;

/**
 * Measured slots for a batch-means standard error of about 0.0008 (measured with 20 batches of
 * 2000 slots: 0.0007–0.0013 for N = 2 … 8, 0.0008 for N = 16, 0.0005 for N = 32; the error falls
 * as 1/√slots).
 */
export function KAROL_SLOTS(n: number): number {
  return n <= 8 ? 60_000 : 40_000;
}

export interface KarolOptions {
  readonly seed: number;
  readonly n: number;
  readonly arbitration: Arbitration;
  /** Measured slots (after the warm-up). */
  readonly slots: number;
  /** Default 500 slots. */
  readonly warmup?: number;
  /** Batches for the standard error. Default 20. */
  readonly batches?: number;
}

export interface KarolResult {
  readonly n: number;
  readonly arbitration: Arbitration;
  /** Delivered cells per output per slot over the measured slots. */
  readonly measured: number;
  /** Batch-means standard error of `measured`. */
  readonly stdErr: number;
  /** Karol et al.'s figure for this N (Table I), or null beyond N = 8. */
  readonly published: number | null;
  readonly limit: number;
  /** Each input's share: cells it sent per slot. */
  readonly perInput: readonly number[];
  readonly slots: number;
  readonly events: number;
}

export function karolSaturation(o: KarolOptions): KarolResult {
  const batches = o.batches ?? 20;
  const perBatch = Math.max(1, Math.floor(o.slots / batches));
  const f = cellSwitch({
    seed: o.seed,
    n: o.n,
    sw: { queueing: 'input-fifo', arbitration: o.arbitration },
    traffic: 'saturated',
  });
  const values: number[] = [];
  const sentAtStart: number[] = [];
  let last = 0;
  const events = runBatches(f.sched, (o.warmup ?? 500) * CELL_SLOT, perBatch * CELL_SLOT, batches, (k) => {
    const now = f.probe.totalPackets;
    if (k === 0) for (const s of f.sources) sentAtStart.push(sentBy(s));
    else values.push((now - last) / (o.n * perBatch));
    last = now;
  });
  const slots = perBatch * batches;
  const est = batchEstimate(values);
  return {
    n: o.n,
    arbitration: o.arbitration,
    measured: est.mean,
    stdErr: est.stdErr,
    published: KAROL_1987[o.n] ?? null,
    limit: KAROL_LIMIT,
    perInput: f.sources.map((s, i) => (sentBy(s) - (sentAtStart[i] as number)) / slots),
    slots,
    events,
  };
}
