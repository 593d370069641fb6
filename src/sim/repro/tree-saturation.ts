/**
 * Pfister & Norton, "'Hot Spot' Contention and Combining in Multistage Interconnection
 * Networks", IEEE Trans. Computers C-34(10), 1985: tree saturation. Issue 7 §4: "with hotspot
 * fraction h and no congestion control, throughput per node bounded by 1/(1+h(N-1)) and
 * non-hotspot traffic collapses with it; with Part 9 XON/XOFF the non-hotspot (victim) flows
 * keep >= 90% of their offered load; with VoQ backpressure the head-of-line blocking across a
 * two-stage fabric disappears."
 *
 * The arithmetic. N sources each offer r packets per packet time; a fraction h of each source's
 * packets goes to the hot sink, the rest uniformly over all N sinks, hot sink included
 * (traffic/destinations.ts). The hot sink is asked for N·r·(h + (1 − h)/N) = r(1 + h(N − 1))
 * packets per packet time and can take 1. Above r = 1/(1 + h(N − 1)) its queue grows without
 * bound; with finite buffers it fills, then the buffers feeding it fill with packets for it,
 * and so on back to the sources: a tree of full buffers rooted at the hot sink. Once the tree
 * reaches the sources, a source whose head packet is for the hot sink sends nothing else, so
 * every source sends at the rate its hot packets leave: the hot sink's 1 packet per packet time
 * shared by N sources, 1/N each, i.e. a total of (1/N)/(h + (1 − h)/N) = 1/(1 + h(N − 1)) per
 * source, whatever r. The victims (packets not for the hot sink) are (1 − h)(N − 1)/N of that.
 *
 * Chosen here: N = 16 (k = 4: two stages of 8-port switches), h = 0.25, r = 0.5 per source.
 * Bound 1/(1 + 0.25 · 15) = 0.2105 packets per packet time per source, against 0.5 offered: the
 * hot sink is asked for 2.375 times what it can take. Victims offered 0.5 · 0.75 · 15/16 = 0.352
 * per source; in the saturated tree they get 0.2105 · 0.75 · 15/16 = 0.148, 42% of it.
 * Part 9 XON/XOFF stops the hot flows at their sources while the hot sink's queue is above its
 * watermark, so the tree never forms; VoQ backpressure holds the hot packets in the stage-1
 * switches' staging queues for the hot sink's port, so they no longer sit in front of victims
 * in the links and input buffers towards that stage-2 switch.
 *
 * Two kinds of source (fifo-source.ts): Pfister & Norton's FIFO source, which keeps the offered
 * mix and shows the bound; and the simulated end point, whose per-flow queues (served round
 * robin) are what Part 9 XON/XOFF acts on. Measured, those per-flow queues alone already keep
 * the victims of this traffic whole (a source whose hot queue is stuck sends its 15 victim flows
 * in turn, up to 15 victim packets per hot one, more than the 5.6 the victims need: 0.352
 * offered against the 1/16 hot packet per packet time that leaves), so the
 * congestion controls are also compared on a second pattern where they matter:
 *
 * 'split' (hot sources and victim sources): on every stage-1 switch, the sources on the first
 * half of its ports send only to the hot sink (load `load` each, default 0.5: 8 sources asking
 * 4 packets per packet time of the hot sink), those on the second half only to the other sinks
 * of the hot sink's stage-2 switch (load `victimLoad`, default 0.3). Every stage-1 switch's link
 * to that stage-2 switch then carries hot traffic, which can leave at 1/k = 0.25 per packet time
 * (the hot sink's share for one of the k links), and victim traffic, 2 × 0.3 = 0.6 offered.
 * Without congestion control the hot packets fill the stage-2 switch's input buffers and the
 * stage-1 output queues in front of them; a victim packet behind them waits for them: about one
 * victim per hot packet gets through (the stage-1 arbiter takes turns between the two kinds of
 * input), 0.25 of 0.6, some 40%. That is head-of-line blocking across the two stages; Part 9
 * XON/XOFF (the hot flows stop at their sources) and VoQ backpressure (the hot packets wait in
 * the stage-1 staging queue for the hot sink's port, no longer in front of the victims) both
 * remove it.
 */
import { RandomStreams } from '../kernel/random.ts';
import { Scheduler } from '../kernel/scheduler.ts';
import { FlowTable } from '../fabric/endpoint-flows.ts';
import { PacketIds } from '../fabric/endpoint-types.ts';
import { packetWireTime } from '../fabric/link-rate.ts';
import { BatchProbe, batchEstimate } from './batch-probe.ts';
import { runBatches } from './cell-switch.ts';
import { TREE_LINK, TREE_PACKET_BYTES, TREE_PAYLOAD, treeFabric } from './tree-fabric.ts';
import type { TreeControl, TreeSources } from './tree-fabric.ts';
import type { TrafficSpec } from '../traffic/generator.ts';

/** Wire time of one packet with its delimiter, ps, as the links (channel.ts) take it: the time unit of the loads here. */
export const TREE_PACKET_TIME = packetWireTime(TREE_LINK, TREE_PACKET_BYTES);

export type TreePattern = 'hotspot' | 'split';

export interface TreeSaturationOptions {
  readonly seed: number;
  /** Default 'hotspot' (Pfister & Norton: a fraction h of every source's traffic to the hot sink). */
  readonly pattern?: TreePattern;
  readonly control: TreeControl;
  readonly sources: TreeSources;
  /** Hotspot fraction. Default 0.25. */
  readonly h?: number;
  /** Offered packets per packet time per source ('split': per hot source). Default 0.5. */
  readonly load?: number;
  /** 'split': offered packets per packet time per victim source. Default 0.3. */
  readonly victimLoad?: number;
  /** Switch radix half: N = k². Default 4. */
  readonly k?: number;
  /** Measured packet times (after the warm-up). */
  readonly duration: number;
  /** Default 5000 packet times: long enough for the tree to form. */
  readonly warmup?: number;
  /** Default 20. */
  readonly batches?: number;
}

/** Per source, packets per packet time over the measured window. */
export interface TreeTraffic {
  readonly offered: number;
  readonly delivered: number;
}

export interface TreeSaturationResult {
  readonly pattern: TreePattern;
  readonly n: number;
  readonly h: number;
  readonly load: number;
  readonly control: TreeControl;
  readonly sources: TreeSources;
  /** Pfister & Norton's 1/(1 + h(N − 1)). */
  readonly bound: number;
  /** All traffic per source: delivered, with its batch-means standard error. */
  readonly perNode: number;
  readonly perNodeStdErr: number;
  readonly hot: TreeTraffic;
  /** Packets for every sink but the hot one. */
  readonly victims: TreeTraffic;
  readonly victimStdErr: number;
  /** The victims whose path shares the hot sink's stage-2 switch (sinks 1 … k − 1). */
  readonly treeVictims: TreeTraffic;
  /** The other victims (sinks on the other stage-2 switches). */
  readonly otherVictims: TreeTraffic;
  /** Named counts from the fabric (CCPs sent, VoQ symbols …), whole run. */
  readonly counts: Readonly<Record<string, number>>;
  readonly events: number;
}

const HOT = 0;

export function treeSaturation(o: TreeSaturationOptions): TreeSaturationResult {
  const k = o.k ?? 4;
  const n = k * k;
  const h = o.h ?? 0.25;
  const load = o.load ?? 0.5;
  const batches = o.batches ?? 20;
  const perBatch = Math.max(1, Math.floor(o.duration / batches));
  const sched = new Scheduler();
  const probe = new BatchProbe();
  const flows = new FlowTable();
  const ctx = { probe, streams: new RandomStreams(o.seed), flows, ids: new PacketIds() };
  const pattern = o.pattern ?? 'hotspot';
  const victimLoad = o.victimLoad ?? 0.3;
  const sinks = Array.from({ length: n }, (_, d) => d);
  const neighbours = sinks.slice(1, k);
  const traffic = (i: number): TrafficSpec => {
    const common = { arrival: { kind: 'bernoulli' }, size: { kind: 'fixed', bytes: TREE_PAYLOAD } } as const;
    if (pattern === 'hotspot') return { ...common, load, destinations: { kind: 'hotspot', ids: sinks, hotspot: HOT, h } };
    return i % k < k / 2 ? { ...common, load, destinations: { kind: 'fixed', dst: HOT } } : { ...common, load: victimLoad, destinations: { kind: 'uniform', ids: neighbours } };
  };
  treeFabric(sched, {
    k, control: o.control, sources: o.sources, traffic,
    inputBuffer: 8, outputQueue: 16, xoff: { high: 8, low: 4 }, voq: { high: 8, low: 4 }, queuePdus: 64,
  }, ctx);
  // Flow classes by destination: 0 hot, 1 victim on the hot sink's stage-2 switch, 2 other victim.
  const classOf = (dst: number): number => (dst === HOT ? 0 : dst < k ? 1 : 2);
  const start = { offered: [0, 0, 0], delivered: [0, 0, 0] };
  const totals = (): { offered: number[]; delivered: number[] } => {
    const t = { offered: [0, 0, 0], delivered: [0, 0, 0] };
    for (const f of flows.list()) {
      const c = classOf(f.dst);
      t.offered[c] = (t.offered[c] as number) + (probe.offeredPdus[f.index] ?? 0);
      t.delivered[c] = (t.delivered[c] as number) + (probe.deliveredPackets[f.index] ?? 0);
    }
    return t;
  };
  const perNode: number[] = [];
  const victims: number[] = [];
  let last = totals();
  const scale = n * perBatch;
  const events = runBatches(sched, (o.warmup ?? 5000) * TREE_PACKET_TIME, perBatch * TREE_PACKET_TIME, batches, (b) => {
    const t = totals();
    if (b === 0) {
      start.offered = t.offered;
      start.delivered = t.delivered;
    } else {
      const d = t.delivered.map((x, c) => x - (last.delivered[c] as number));
      perNode.push(((d[0] as number) + (d[1] as number) + (d[2] as number)) / scale);
      victims.push(((d[1] as number) + (d[2] as number)) / scale);
    }
    last = t;
  });
  const window = n * perBatch * batches;
  const of = (cs: readonly number[]): TreeTraffic => {
    let offered = 0;
    let delivered = 0;
    for (const c of cs) {
      offered += (last.offered[c] as number) - (start.offered[c] as number);
      delivered += (last.delivered[c] as number) - (start.delivered[c] as number);
    }
    return { offered: offered / window, delivered: delivered / window };
  };
  const all = batchEstimate(perNode);
  const vict = batchEstimate(victims);
  return {
    pattern, n, h, load, control: o.control, sources: o.sources,
    bound: 1 / (1 + h * (n - 1)),
    perNode: all.mean, perNodeStdErr: all.stdErr,
    hot: of([0]), victims: of([1, 2]), victimStdErr: vict.stdErr, treeVictims: of([1]), otherVictims: of([2]),
    counts: Object.fromEntries(probe.counts), events,
  };
}
