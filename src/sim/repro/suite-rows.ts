/**
 * The report's rows for issue 7 §4, from the runs of suite-tasks.ts: each published figure, what
 * the run measured with its batch-means standard error, the tolerance in words and the verdict.
 * The verdicts apply the criteria of test/sim/repro-*.test.ts, so a default `riodp sim` passes
 * exactly when those tests' assertions on the same runs would.
 */
import type { Reproduction } from '../../report/types.ts';
import { KAROL_1987, KAROL_LIMIT } from './karol.ts';
import { PIM_LIMIT } from './pim.ts';
import type { TreeSaturationResult } from './tree-saturation.ts';
import {
  ISLIP_ID, ISLIP_SATURATION_ID, KAROL_ARBITRATIONS, KAROL_SIZES, KAROL_TREND_SIZES, OQ_ID, PIM_ID, WAVEFRONT_ID, WAVEFRONT_SATURATION_ID, karolId, treeId,
} from './suite-tasks.ts';
import type { ReproRun } from './suite-tasks.ts';

/** Issue 7 §4 "within +/-0.005". */
export const KAROL_TOLERANCE = 0.005;
/** test/sim/repro-karol.test.ts: the trend N = 8 → 16 → 32 falls by these at least, and N = 32 ends this close above 2 − √2. */
export const KAROL_TREND = { fall8to16: 0.01, fall16to32: 0.003, aboveLimit: 0.01 } as const;
/** Issue 7 §4 "within 3%". */
export const OQ_TOLERANCE = 0.03;
/**
 * Issue 7 §4 ">= 0.95 throughput at offered load 0.95": the load the Bernoulli sources offer in
 * a run is itself 0.95 only within its sampling error (σ ≈ 0.0004 over 16 × 20 000 slots), so
 * the measured throughput is held to 0.95 − 0.003 and to 99.8% of the load offered in the same
 * slots (the queues still filling take the rest), as test/sim/repro-islip.test.ts does.
 */
export const ISLIP_FLOOR = 0.947;
export const ISLIP_OF_OFFERED = 0.998;
/**
 * test/sim/repro-voq-saturation.test.ts: one-iteration iSLIP and the wave front with every VoQ
 * fed, against the published 100%. A perfect matching every slot delivers exactly one cell per
 * output per slot, so the run measures 1.0000 with a batch standard error of 0 and any shortfall
 * is a pair left unmatched; the floor leaves 0.005 (about one pair in 12 slots of 16 ports), the
 * width of Karol's and PIM's tolerances. The row also asks that no VoQ was empty when sampled,
 * the condition of the published figure (an empty VoQ is a request missing: voq-saturation.ts).
 */
export const SATURATION_FLOOR = 0.995;
/** test/sim/repro-matchers.test.ts: one-iteration PIM within ±0.005 of 1 − (1 − 1/N)^N, as Karol's rows. */
export const PIM_TOLERANCE = 0.005;
/** test/sim/repro-tree-saturation.test.ts: the bound and the victims' collapse within ±0.01 per node. */
export const TREE_TOLERANCE = 0.01;
/** Issue 7 §4 "the non-hotspot (victim) flows keep >= 90% of their offered load". */
export const VICTIM_KEEP = 0.9;
/** Below this share the victims are blocked (test/sim/repro-tree-saturation.test.ts). */
export const VICTIM_BLOCKED = 0.5;

const KAROL = 'Karol, Hluchyj & Morgan (1987)';
const PFISTER = 'Pfister & Norton (1985)';

type RunOf<K extends ReproRun['kind']> = Extract<ReproRun, { kind: K }>;

/** Runs by id; a missing or mistyped run is a bug in the suite, not an input. */
class Runs {
  readonly #byId: ReadonlyMap<string, ReproRun>;

  constructor(runs: readonly ReproRun[]) {
    this.#byId = new Map(runs.map((r) => [r.id, r]));
  }

  get<K extends ReproRun['kind']>(id: string, kind: K): RunOf<K> {
    const r = this.#byId.get(id);
    if (r?.kind !== kind) throw new Error(`reproduction suite: no ${kind} run ${id}`);
    return r as RunOf<K>;
  }
}

function karolRun(k: RunOf<'karol'>): string {
  return `seed ${k.options.seed}, ${k.result.slots} slots after ${k.options.warmup ?? 500}`;
}

function karolRows(runs: Runs): Reproduction[] {
  const rows: Reproduction[] = [];
  for (const n of KAROL_SIZES) {
    for (const arbitration of KAROL_ARBITRATIONS) {
      const k = runs.get(karolId(n, arbitration), 'karol');
      const published = KAROL_1987[n] as number;
      rows.push({
        source: `${KAROL}, Table I`,
        quantity: `input-FIFO saturation throughput per output, N = ${n}, ${arbitration} arbitration`,
        published,
        measured: k.result.measured,
        stdErr: k.result.stdErr,
        tolerance: `±${KAROL_TOLERANCE}`,
        pass: Math.abs(k.result.measured - published) <= KAROL_TOLERANCE,
        run: karolRun(k),
      });
    }
  }
  const [n16, n32] = KAROL_TREND_SIZES as [number, number];
  const t8 = runs.get(karolId(8, 'random'), 'karol').result;
  const k16 = runs.get(karolId(n16, 'random'), 'karol');
  const k32 = runs.get(karolId(n32, 'random'), 'karol');
  const [t16, t32] = [k16.result, k32.result];
  rows.push({
    source: `${KAROL}, N → ∞`,
    quantity: `input-FIFO saturation throughput as N grows, towards 2 − √2: N = ${n32}, random arbitration`,
    published: KAROL_LIMIT,
    measured: t32.measured,
    stdErr: t32.stdErr,
    tolerance:
      `falls with N (N = 8: ${t8.measured.toFixed(4)}, ${n16}: ${t16.measured.toFixed(4)}, by > ${KAROL_TREND.fall8to16} then > ${KAROL_TREND.fall16to32}) ` +
      `and ends above the limit by < ${KAROL_TREND.aboveLimit}`,
    pass:
      t16.measured < t8.measured - KAROL_TREND.fall8to16 &&
      t32.measured < t16.measured - KAROL_TREND.fall16to32 &&
      t32.measured > KAROL_LIMIT &&
      t32.measured - KAROL_LIMIT < KAROL_TREND.aboveLimit,
    run: `${karolRun(k32)} (N = ${n16}: ${t16.slots} slots)`,
  });
  return rows;
}

function outputQueuedRow(q: RunOf<'output-queued'>): Reproduction {
  const r = q.result;
  return {
    source: `${KAROL}, output queueing`,
    quantity: `mean wait in the output queue, ((N − 1)/N)·p/(2(1 − p)) slots, N = ${r.n}, p = ${r.p}`,
    published: r.theory,
    measured: r.measured,
    stdErr: r.stdErr,
    tolerance: `±${OQ_TOLERANCE * 100}%`,
    pass: Math.abs(r.measured / r.theory - 1) <= OQ_TOLERANCE,
    run: `seed ${q.options.seed}, ${r.slots} slots after ${q.options.warmup ?? 1000}`,
  };
}

const MCKEOWN = 'McKeown (1999), one-iteration iSLIP';
const TAMIR_CHI = 'Tamir & Chi (1993), wave front arbiter (maximal matching)';

function islipRow(i: RunOf<'islip'>): Reproduction {
  const r = i.result;
  return {
    source: i.options.matcher === 'wavefront' ? TAMIR_CHI : MCKEOWN,
    quantity: `VoQ switch throughput per output at offered load ${r.load}, N = ${r.n}`,
    published: r.load,
    measured: r.measured,
    stdErr: r.stdErr,
    tolerance: `≥ ${ISLIP_FLOOR} and ≥ ${ISLIP_OF_OFFERED * 100}% of the ${r.offered.toFixed(4)} offered in the same slots, none dropped`,
    pass: r.measured >= ISLIP_FLOOR && r.measured >= ISLIP_OF_OFFERED * r.offered && r.dropped === 0,
    run: `seed ${i.options.seed}, ${r.slots} slots after ${i.options.warmup ?? 5000}`,
  };
}

/** Full saturation with every VoQ holding cells (voq-saturation.ts 'per-flow'): the published 100%. */
function saturationRow(v: RunOf<'voq-saturation'>): Reproduction {
  const r = v.result;
  const o = v.options;
  return {
    source: o.matcher === 'wavefront' ? TAMIR_CHI : MCKEOWN,
    quantity: `VoQ switch saturation throughput per output with every VoQ holding cells (100% under uniform traffic), N = ${r.n}`,
    published: 1,
    measured: r.measured,
    stdErr: r.stdErr,
    tolerance: `≥ ${SATURATION_FLOOR}, every VoQ holding cells in every measured slot (share empty: ${r.emptyVoqs === 0 ? '0' : r.emptyVoqs.toPrecision(2)})`,
    pass: r.measured >= SATURATION_FLOOR && r.emptyVoqs === 0,
    run: `seed ${o.seed}, ${r.slots} slots after ${o.warmup}, end points offered their full link rate (a backlogged queue per destination), ${o.inputBuffer}-cell input buffers`,
  };
}

function pimRow(p: RunOf<'pim'>): Reproduction {
  const r = p.result;
  return {
    source: 'Anderson, Owicki, Saxe & Thacker (1993), one-iteration PIM',
    quantity: `VoQ switch saturation throughput per output, 1 − (1 − 1/N)^N (→ 1 − 1/e = ${PIM_LIMIT.toFixed(4)}), N = ${r.n}`,
    published: r.published,
    measured: r.measured,
    stdErr: r.stdErr,
    tolerance: `±${PIM_TOLERANCE}`,
    pass: Math.abs(r.measured - r.published) <= PIM_TOLERANCE,
    run: `seed ${p.options.seed}, ${r.slots} slots after ${p.options.warmup ?? 1000}, saturated sources`,
  };
}

function share(r: TreeSaturationResult): { value: number; stdErr: number } {
  return { value: r.victims.delivered / r.victims.offered, stdErr: r.victimStdErr / r.victims.offered };
}

function treeRun(t: RunOf<'tree'>): string {
  const sources = t.options.sources === 'fifo' ? 'FIFO sources' : 'simulated end points';
  return `seed ${t.options.seed}, ${t.options.duration} packet times after ${t.options.warmup ?? 5000}, ${sources}`;
}

/** The victims' share a run keeps, held to ≥ VICTIM_KEEP. */
function keptRow(t: RunOf<'tree'>, source: string, quantity: string): Reproduction {
  const s = share(t.result);
  return { source, quantity, published: VICTIM_KEEP, measured: s.value, stdErr: s.stdErr, tolerance: `≥ ${VICTIM_KEEP}`, pass: s.value >= VICTIM_KEEP, run: treeRun(t) };
}

function treeRows(runs: Runs): Reproduction[] {
  const fifoRun = runs.get(treeId('hotspot', 'fifo', 'none'), 'tree');
  const fifo = fifoRun.result;
  const splitNone = runs.get(treeId('split', 'endpoint', 'none'), 'tree');
  const mix = `hotspot h = ${fifo.h}, N = ${fifo.n}, offered ${fifo.load} per node`;
  // tree-saturation.ts: the victims are (1 − h)(N − 1)/N of what a saturated tree lets through.
  const victimBound = fifo.bound * (1 - fifo.h) * ((fifo.n - 1) / fifo.n);
  // tree-saturation.ts 'split': one victim per hot packet crosses to the hot sink's stage-2
  // switch; hot packets leave at 1/k per link, against k/2 victim sources × victimLoad offered.
  const k = splitNone.options.k ?? 4;
  const blockedShare = 1 / k / ((k / 2) * (splitNone.options.victimLoad ?? 0.3));
  const blocked = share(splitNone.result);
  return [
    {
      source: PFISTER,
      quantity: `throughput per node with no congestion control, ${mix}: the bound 1/(1 + h(N − 1))`,
      published: fifo.bound,
      measured: fifo.perNode,
      stdErr: fifo.perNodeStdErr,
      tolerance: `±${TREE_TOLERANCE}`,
      pass: Math.abs(fifo.perNode - fifo.bound) <= TREE_TOLERANCE,
      run: treeRun(fifoRun),
    },
    {
      source: PFISTER,
      quantity: `non-hotspot throughput per node with no congestion control, ${mix}: collapses with the bound to (1 − h)(N − 1)/N of it`,
      published: victimBound,
      measured: fifo.victims.delivered,
      stdErr: fifo.victimStdErr,
      tolerance: `±${TREE_TOLERANCE}`,
      pass: Math.abs(fifo.victims.delivered - victimBound) <= TREE_TOLERANCE,
      run: treeRun(fifoRun),
    },
    keptRow(runs.get(treeId('hotspot', 'endpoint', 'xon-xoff'), 'tree'), `${PFISTER}, Part 9 XON/XOFF`, `victim flows' delivered / offered load with Part 9 XON/XOFF, ${mix}`),
    {
      source: `${PFISTER}, two stages (riodp's analysis, tree-saturation.ts)`,
      quantity: 'victim flows\' delivered / offered load with hot and victim sources, no congestion control: head-of-line blocking across the two stages holds them to the hot packets\' rate',
      published: blockedShare,
      measured: blocked.value,
      stdErr: blocked.stdErr,
      tolerance: `< ${VICTIM_BLOCKED} (blocked)`,
      pass: blocked.value < VICTIM_BLOCKED,
      run: treeRun(splitNone),
    },
    keptRow(runs.get(treeId('split', 'endpoint', 'xon-xoff'), 'tree'), `${PFISTER}, Part 9 XON/XOFF`, 'victim flows\' delivered / offered load with hot and victim sources, Part 9 XON/XOFF'),
    keptRow(
      runs.get(treeId('split', 'endpoint', 'voq-backpressure'), 'tree'),
      `${PFISTER}, VoQ backpressure`,
      'victim flows\' delivered / offered load with hot and victim sources, VoQ backpressure: the head-of-line blocking across the two stages disappears',
    ),
  ];
}

/** One row per published result, in the order of issue 7 §4, issue 20's matchers after iSLIP's row (saturation rows between the load-0.95 ones). */
export function reproductionRows(runs: readonly ReproRun[]): Reproduction[] {
  const byId = new Runs(runs);
  return [
    ...karolRows(byId), outputQueuedRow(byId.get(OQ_ID, 'output-queued')), islipRow(byId.get(ISLIP_ID, 'islip')),
    saturationRow(byId.get(ISLIP_SATURATION_ID, 'voq-saturation')), pimRow(byId.get(PIM_ID, 'pim')),
    saturationRow(byId.get(WAVEFRONT_SATURATION_ID, 'voq-saturation')), islipRow(byId.get(WAVEFRONT_ID, 'islip')), ...treeRows(byId),
  ];
}

/** The line `riodp sim` prints: "published results: 34 of 34 within tolerance", naming any outside. */
export function reproductionSummary(rows: readonly Reproduction[]): string {
  const failed = rows.filter((r) => !r.pass);
  const head = `published results: ${rows.length - failed.length} of ${rows.length} within tolerance`;
  return failed.length === 0 ? head : `${head}; outside: ${failed.map((r) => `${r.source}: ${r.quantity}`).join('; ')}`;
}
