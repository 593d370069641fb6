/**
 * The mean wait of an output-queued switch under uniform Bernoulli traffic (Karol, Hluchyj &
 * Morgan 1987, output queueing): with N inputs each receiving a cell per slot with probability p,
 * addressed uniformly to the N outputs, and every cell reaching its output queue in the slot it
 * arrives (speedup N), the mean number of slots a cell waits in its output queue before its
 * transmission starts is
 *
 *     W = ((N − 1) / N) · p / (2 (1 − p))
 *
 * (issue 7 §4 "Output-queued switch mean wait … within 3%").
 *
 * Reproduced with the simulator's output-queued switch (`queueing: 'output-queued'`, speedup N,
 * slotted, output queues too long to fill) and end point sources with slotted Bernoulli arrivals
 * (traffic/arrivals.ts). The waiting time is read from the end-to-end latency the sinks report:
 * every other part of a cell's trip is fixed by the timing below, so W = (latency − L0) / slot
 * with L0 the latency of a cell that does not wait.
 *
 * Timing (S the slot, T the cell time, σ a control symbol time, S = T + 2σ, cell-switch.ts). A
 * source creates its cells at kS + 2σ + 1 ps, so that each reaches the switch 1 ps after a slot
 * boundary, (k + 1)S + 1: its T on the source link runs from 2σ + 1 to S + 1 within the slot,
 * before the sink's credit symbol of the slot would start (at T, after the output's cell), so no
 * symbol delays it. The crossbar decides every S/N and a transfer takes S/N (whole crossbar slots
 * of a speedup-N switch, switch-crossbar.ts); an output takes one transfer at a time, so the
 * j-th cell of the slot for an output is in its queue by (k + 1)S + (j + 1)S/N ≤ (k + 1 + j)S:
 * always before the slot boundary at which, queued behind j − 1 cells of its slot, it could
 * start. A cell that does not wait goes at (k + 2)S and is delivered T later:
 *     L0 = 2S + T − 2σ − 1.
 */
import { batchEstimate } from './batch-probe.ts';
import { CELL_SLOT, CELL_TIME, SYMBOL_TIME, cellSwitch, runBatches } from './cell-switch.ts';

export interface OutputQueuedOptions {
  readonly seed: number;
  readonly n: number;
  /** Arrival probability per input per slot, 0 < p < 1. */
  readonly p: number;
  readonly slots: number;
  /** Default 1000 slots. */
  readonly warmup?: number;
  /** Default 20. */
  readonly batches?: number;
}

export interface OutputQueuedResult {
  readonly n: number;
  readonly p: number;
  /** Mean wait in the output queue, slots. */
  readonly measured: number;
  readonly stdErr: number;
  /** ((N − 1)/N) · p / (2(1 − p)). */
  readonly theory: number;
  /** Delivered cells per output per slot (≈ p: the switch loses nothing). */
  readonly throughput: number;
  readonly cells: number;
  readonly slots: number;
  readonly events: number;
}

/** Karol et al. 1987, the output-queued switch's mean wait. */
export function outputQueuedWait(n: number, p: number): number {
  return ((n - 1) / n) * (p / (2 * (1 - p)));
}

/** Latency of a cell that does not wait (see the timing above). */
export const NO_WAIT_LATENCY = 2 * CELL_SLOT + CELL_TIME - 2 * SYMBOL_TIME - 1;

export function outputQueuedRun(o: OutputQueuedOptions): OutputQueuedResult {
  if (!(o.p > 0 && o.p < 1)) throw new RangeError('p must be between 0 and 1');
  const batches = o.batches ?? 20;
  const perBatch = Math.max(1, Math.floor(o.slots / batches));
  const f = cellSwitch({
    seed: o.seed,
    n: o.n,
    sw: { queueing: 'output-queued', speedup: o.n, outputBuffer: { packets: 4096 } },
    // Load is the fraction of the link's time: p cells of CELL_TIME per slot of CELL_SLOT.
    traffic: { load: (o.p * CELL_TIME) / CELL_SLOT, arrival: { kind: 'bernoulli', slot: CELL_SLOT }, start: 2 * SYMBOL_TIME + 1 },
  });
  const waits: number[] = [];
  let lastPackets = 0;
  let lastLatency = 0;
  let cells = 0;
  const events = runBatches(f.sched, (o.warmup ?? 1000) * CELL_SLOT, perBatch * CELL_SLOT, batches, (k) => {
    const dp = f.probe.totalPackets - lastPackets;
    const dl = f.probe.totalLatency - lastLatency;
    if (k > 0) {
      waits.push((dl / dp - NO_WAIT_LATENCY) / CELL_SLOT);
      cells += dp;
    }
    lastPackets = f.probe.totalPackets;
    lastLatency = f.probe.totalLatency;
  });
  const est = batchEstimate(waits);
  const slots = perBatch * batches;
  return { n: o.n, p: o.p, measured: est.mean, stdErr: est.stdErr, theory: outputQueuedWait(o.n, o.p), throughput: cells / (o.n * slots), cells, slots, events };
}
