/**
 * An input-VoQ switch at saturation, whichever matcher pairs its virtual output queues, and what
 * "saturated" has to mean for the published figures.
 *
 * McKeown, "The iSLIP Scheduling Algorithm for Input-Queued Switches", IEEE/ACM ToN 7(2), 1999:
 * when every virtual output queue holds cells, one-iteration iSLIP's grant pointers desynchronise
 * and every input is matched every slot: 100% per output. The wave front arbiter (Tamir & Chi
 * 1993) finds a maximal matching, which under a full request matrix is a perfect one: 100% as
 * well. One-iteration PIM (Anderson et al. 1993) reaches 1 − (1 − 1/N)^N (pim.ts).
 *
 * Two always-backlogged sources, on the same fabric (cell-switch.ts) and input buffer:
 * - 'per-flow': simulated end points offered their link's full rate. An end point keeps a queue
 *   per destination and serves them round robin (endpoint-source.ts); saturated, every one is
 *   backlogged, so every VoQ of the switch holds cells: the saturation of the analyses.
 * - 'fifo': Karol's always-backlogged FIFO, each cell's output drawn uniformly
 *   (saturated-source.ts). Once the input buffer shared by an input's VoQs is full, a cell enters
 *   only when one leaves (the link's credits): each VoQ gains a cell with probability 1/N per
 *   departure and loses one when the matcher serves it, whatever its length. The occupancies of
 *   an input's VoQs then wander over {x_1 + … + x_N = B} with nothing pulling them together (the
 *   matchers do not look at queue lengths): a zero-range process with a constant rate, whose
 *   equilibrium is near uniform over that set, so a VoQ is empty with probability about
 *   (N − 1)/(B + N − 1). Its request is missing from the matrix: iSLIP's pointers lose their
 *   desynchronisation and a maximal matching is no longer perfect, so both stay below 100% by an
 *   amount that shrinks as B grows. PIM's one-iteration figure hardly moves: an output grants
 *   whenever any of its N inputs requests it.
 *
 * `emptyVoqs` is the fraction of (input, output) queues holding no cell, sampled in the middle of
 * every measured slot.
 */
import type { VoqMatcher } from '../../node/switch/voq-matching.ts';
import { batchEstimate } from './batch-probe.ts';
import { CELL_SLOT, cellSwitch } from './cell-switch.ts';

export type VoqSaturationSources = 'per-flow' | 'fifo';

export interface VoqSaturationOptions {
  readonly seed: number;
  readonly matcher: VoqMatcher;
  readonly sources: VoqSaturationSources;
  /** Each input's buffer, shared by its VoQs, cells. */
  readonly inputBuffer: number;
  /** Default 16. */
  readonly n?: number;
  readonly slots: number;
  readonly warmup: number;
  /** Default 20. */
  readonly batches?: number;
}

export interface VoqSaturationResult {
  readonly n: number;
  /** Delivered cells per output per slot in the measured slots. */
  readonly measured: number;
  readonly stdErr: number;
  /** Fraction of the N² virtual output queues empty, over the measured slots. */
  readonly emptyVoqs: number;
  /** Mean cells in an input's VoQs over the measured slots (the buffer less the cell crossing and the priority reserve). */
  readonly voqCells: number;
  readonly slots: number;
  readonly events: number;
}

/**
 * About the fraction of VoQs empty when an input's B queued cells are spread uniformly over its N
 * VoQs (every composition of B into N parts equally likely): (N − 1)/(B + N − 1).
 */
export function uniformEmptyShare(n: number, cells: number): number {
  return (n - 1) / (cells + n - 1);
}

export function voqSaturation(o: VoqSaturationOptions): VoqSaturationResult {
  const n = o.n ?? 16;
  const batches = o.batches ?? 20;
  const perBatch = Math.max(1, Math.floor(o.slots / batches));
  const f = cellSwitch({
    seed: o.seed,
    n,
    // The wave front is maximal in one pass and takes no iteration count (voq-matching.ts).
    sw: { queueing: 'input-voq', matcher: o.matcher, ...(o.matcher === 'wavefront' ? {} : { iterations: 1 }) },
    // A PDU every cell time: more than a switch input takes (one a slot), so every flow queue fills.
    traffic: o.sources === 'fifo' ? 'saturated' : { load: 1, arrival: { kind: 'bernoulli' } },
    inputBuffer: o.inputBuffer,
  });
  const inputs = f.sw.core.inputs;
  let events = f.sched.run({ until: o.warmup * CELL_SLOT }).events;
  let slot = o.warmup;
  let last = f.probe.totalPackets;
  let empty = 0;
  let cells = 0;
  const values: number[] = [];
  for (let b = 0; b < batches; b++) {
    for (let k = 0; k < perBatch; k++, slot++) {
      events += f.sched.run({ until: slot * CELL_SLOT + CELL_SLOT / 2 }).events;
      for (const inp of inputs) {
        const counts = inp.voqCounts as Int32Array;
        // Every cell here is priority 0: the level-0 count of output q is its VoQ.
        for (let q = 0; q < n; q++) {
          const c = counts[q * 4] as number;
          if (c === 0) empty++;
          cells += c;
        }
      }
      events += f.sched.run({ until: (slot + 1) * CELL_SLOT }).events;
    }
    values.push((f.probe.totalPackets - last) / (n * perBatch));
    last = f.probe.totalPackets;
  }
  const slots = perBatch * batches;
  const est = batchEstimate(values);
  return { n, measured: est.mean, stdErr: est.stdErr, emptyVoqs: empty / (n * n * slots), voqCells: cells / (n * slots), slots, events };
}
