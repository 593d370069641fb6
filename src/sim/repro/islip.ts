/**
 * McKeown, "The iSLIP Scheduling Algorithm for Input-Queued Switches", IEEE/ACM Trans.
 * Networking 7(2), 1999: with a virtual output queue per (input, output) and iSLIP matching, an
 * input-queued switch sustains 100% throughput under uniform i.i.d. Bernoulli traffic, with a
 * single iteration (the grant pointers desynchronise under load). Issue 7 §4: "VoQ with
 * one-iteration iSLIP: >= 0.95 throughput at offered load 0.95 (N=16)".
 *
 * Reproduced with the simulator's input-VoQ switch (`queueing: 'input-voq'`, `iterations: 1`,
 * slotted, no output queue) and end point sources with slotted Bernoulli arrivals, uniform over
 * the N outputs. The input buffers are deep (McKeown's VoQs are unbounded), so the end points'
 * own queues stay short. Reported: delivered cells per output per slot, the cells offered in the
 * same slots, and for contrast the same traffic through an input-FIFO switch, which saturates
 * near Karol's 0.6 (karol.ts) and so delivers far less than 0.95.
 */
import type { Queueing } from '../../node/switch/config-types.ts';
import type { VoqMatcher } from '../../node/switch/voq-matching.ts';
import { batchEstimate } from './batch-probe.ts';
import { CELL_SLOT, CELL_TIME, cellSwitch, runBatches } from './cell-switch.ts';

export interface IslipOptions {
  readonly seed: number;
  /** Default 16. */
  readonly n?: number;
  /** Offered load per input: a cell per slot with this probability. Default 0.95. */
  readonly load?: number;
  readonly slots: number;
  /** Default 'input-voq' (iSLIP); 'input-fifo' for the contrast. */
  readonly queueing?: Extract<Queueing, 'input-voq' | 'input-fifo'>;
  /** iSLIP iterations. Default 1. */
  readonly iterations?: number;
  /** The input-VoQ switch's matcher (voq-matching.ts). Default the switch's, iSLIP. */
  readonly matcher?: VoqMatcher;
  /** Default 5000 slots: the pointers desynchronise and the queues settle. */
  readonly warmup?: number;
  /** Default 20. */
  readonly batches?: number;
}

export interface IslipResult {
  readonly n: number;
  readonly load: number;
  readonly queueing: 'input-voq' | 'input-fifo';
  /** Delivered cells per output per slot in the measured slots. */
  readonly measured: number;
  readonly stdErr: number;
  /** Cells the sources offered per input per slot in the same slots. */
  readonly offered: number;
  /** Cells dropped at the sources (their queues full): none while the switch keeps up. */
  readonly dropped: number;
  /** Packets in the switch's input buffers at the end, all inputs together. */
  readonly backlog: number;
  readonly slots: number;
  readonly events: number;
}

export function islipRun(o: IslipOptions): IslipResult {
  const n = o.n ?? 16;
  const load = o.load ?? 0.95;
  const queueing = o.queueing ?? 'input-voq';
  const batches = o.batches ?? 20;
  const perBatch = Math.max(1, Math.floor(o.slots / batches));
  const f = cellSwitch({
    seed: o.seed,
    n,
    // Iterations and the matcher are an input-VoQ switch's (voq-matching.ts); the FIFO switch has neither.
    sw: queueing === 'input-voq' ? { queueing, iterations: o.iterations ?? 1, ...(o.matcher === undefined ? {} : { matcher: o.matcher }) } : { queueing },
    traffic: { load: (load * CELL_TIME) / CELL_SLOT, arrival: { kind: 'bernoulli', slot: CELL_SLOT } },
    inputBuffer: 4096,
  });
  const values: number[] = [];
  let lastDelivered = 0;
  let offeredAtStart = 0;
  let droppedAtStart = 0;
  const events = runBatches(f.sched, (o.warmup ?? 5000) * CELL_SLOT, perBatch * CELL_SLOT, batches, (k) => {
    if (k === 0) {
      offeredAtStart = f.probe.totalOffered;
      droppedAtStart = f.probe.totalDropped;
    } else values.push((f.probe.totalPackets - lastDelivered) / (n * perBatch));
    lastDelivered = f.probe.totalPackets;
  });
  const slots = perBatch * batches;
  const est = batchEstimate(values);
  let backlog = 0;
  for (let i = 0; i < n; i++) backlog += f.sw.inputOccupancy(i);
  const dropped = f.probe.totalDropped - droppedAtStart;
  return {
    n, load, queueing, measured: est.mean, stdErr: est.stdErr,
    offered: (f.probe.totalOffered - offeredAtStart) / (n * slots),
    dropped, backlog, slots, events,
  };
}
