import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureSimReport } from '../../../test/report/fixture.ts';
import { renderSimReport } from '../../report/html.ts';
import type { Reproduction } from '../../report/types.ts';
import { KAROL_1987, KAROL_LIMIT, KAROL_SLOTS } from './karol.ts';
import { outputQueuedWait } from './output-queued.ts';
import { PIM_LIMIT, pimOneIteration } from './pim.ts';
import { runReproductions, runReproductionsHere } from './suite.ts';
import { reproductionRows, reproductionSummary } from './suite-rows.ts';
import {
  ISLIP_CASE, ISLIP_SATURATION_ID, OQ_CASE, SUITE_SEEDS, TREE_DURATION, VOQ_SATURATION_CASE, WAVEFRONT_SATURATION_ID, karolId, reproductionTasks, treeId,
} from './suite-tasks.ts';
import type { ReproRun, ReproTask } from './suite-tasks.ts';
import type { TreeSaturationResult } from './tree-saturation.ts';

/** Small enough that the whole suite runs in well under a second on this machine. */
const SMALL = 0.01;
/** The suite's runs and rows. */
const RUNS = 34;

const small = runReproductionsHere({ scale: SMALL });

/** A run whose result meets every criterion exactly at the published figure. */
function fake(t: ReproTask): ReproRun {
  switch (t.kind) {
    case 'karol': {
      const n = t.options.n;
      const published = KAROL_1987[n] ?? null;
      const measured = published ?? (n === 16 ? 0.6023 : 0.5935);
      return { ...t, result: { n, arbitration: t.options.arbitration, measured, stdErr: 0.0008, published, limit: KAROL_LIMIT, perInput: [], slots: t.options.slots, events: 1 } };
    }
    case 'output-queued': {
      const theory = outputQueuedWait(t.options.n, t.options.p);
      return { ...t, result: { n: t.options.n, p: t.options.p, measured: theory, stdErr: 0.01, theory, throughput: t.options.p, cells: 1, slots: t.options.slots, events: 1 } };
    }
    case 'islip':
      return { ...t, result: { n: 16, load: 0.95, queueing: 'input-voq', measured: 0.95, stdErr: 0.001, offered: 0.95, dropped: 0, backlog: 0, slots: t.options.slots, events: 1 } };
    case 'pim': {
      const published = pimOneIteration(16);
      return { ...t, result: { n: 16, measured: published, stdErr: 0.001, published, limit: PIM_LIMIT, slots: t.options.slots, events: 1 } };
    }
    case 'voq-saturation':
      return { ...t, result: { n: 16, measured: 1, stdErr: 0, emptyVoqs: 0, voqCells: 251, slots: t.options.slots, events: 1 } };
    case 'tree': {
      const { pattern = 'hotspot', control, sources } = t.options;
      const bound = 1 / (1 + 0.25 * 15);
      const fifo = sources === 'fifo';
      const offered = pattern === 'split' ? 0.1487 : 0.352;
      const delivered = fifo ? bound * 0.75 * (15 / 16) : pattern === 'split' && control === 'none' ? 0.0625 : offered;
      const traffic = { offered, delivered };
      const result: TreeSaturationResult = {
        pattern, n: 16, h: 0.25, load: 0.5, control, sources, bound, perNode: fifo ? bound : 0.4, perNodeStdErr: 0.001,
        hot: { offered: 0.15, delivered: 0.0625 }, victims: traffic, victimStdErr: 0.001, treeVictims: traffic, otherVictims: traffic, counts: {}, events: 1,
      };
      return { ...t, result };
    }
  }
}

function fakeRuns(patch: (r: ReproRun) => ReproRun = (r) => r): ReproRun[] {
  return reproductionTasks().map((t) => patch(fake(t)));
}

/** The verdict of the row of `index` after changing one run. */
function verdict(id: string, change: (r: ReproRun) => ReproRun, index: (rows: readonly Reproduction[]) => number): boolean {
  const rows = reproductionRows(fakeRuns((r) => (r.id === id ? change(r) : r)));
  const row = rows[index(rows)];
  assert.ok(row !== undefined);
  return row.pass;
}

function rowOf(rows: readonly Reproduction[], source: string, quantity: string): number {
  const i = rows.findIndex((r) => r.source.startsWith(source) && r.quantity.includes(quantity));
  assert.ok(i >= 0, `${source}: ${quantity}`);
  return i;
}

function karol(r: ReproRun, measured: number): ReproRun {
  assert.ok(r.kind === 'karol');
  return { ...r, result: { ...r.result, measured } };
}

function tree(r: ReproRun, delivered: number): ReproRun {
  assert.ok(r.kind === 'tree');
  return { ...r, result: { ...r.result, victims: { ...r.result.victims, delivered } } };
}

test('issue 7 §4, issue 20 (report): one row per published result in the order of §4: Karol Table I for N = 2..8 with each arbitration, the N → ∞ trend, the output-queued wait, iSLIP at load 0.95 and saturated, PIM, the wave front saturated and at load 0.95, then Pfister & Norton', () => {
  assert.equal(small.length, RUNS);
  const karolRows = small.slice(0, 21);
  assert.deepEqual(
    karolRows.map((r) => r.quantity.replace(/^.*N = (\d+), (\S+) arbitration$/, '$1 $2')),
    [2, 3, 4, 5, 6, 7, 8].flatMap((n) => ['random', 'round-robin', 'fixed'].map((a) => `${n} ${a}`)),
  );
  assert.deepEqual(karolRows.map((r) => r.published), [2, 3, 4, 5, 6, 7, 8].flatMap((n) => [KAROL_1987[n], KAROL_1987[n], KAROL_1987[n]]));
  assert.deepEqual(small.slice(21).map((r) => r.source.replace(/,.*$/, '')), [
    'Karol', 'Karol', 'McKeown (1999)', 'McKeown (1999)', 'Anderson', 'Tamir & Chi (1993)', 'Tamir & Chi (1993)', 'Pfister & Norton (1985)', 'Pfister & Norton (1985)', 'Pfister & Norton (1985)', 'Pfister & Norton (1985)', 'Pfister & Norton (1985)', 'Pfister & Norton (1985)',
  ]);
  assert.equal(small[21]?.published, KAROL_LIMIT);
  assert.equal(small[22]?.published, outputQueuedWait(OQ_CASE.n, OQ_CASE.p));
  assert.deepEqual(small.slice(23, 28).map((r) => r.quantity.replace(/^.*(offered load 0\.95|every VoQ holding cells|1 − \(1 − 1\/N\)\^N).*$/, '$1')), [
    'offered load 0.95', 'every VoQ holding cells', '1 − (1 − 1/N)^N', 'every VoQ holding cells', 'offered load 0.95',
  ]);
  assert.deepEqual([small[24]?.published, small[26]?.published], [1, 1]);
  for (const r of small) {
    assert.ok(Number.isFinite(r.measured) && Number.isFinite(r.published), r.quantity);
    assert.ok(r.stdErr !== undefined && Number.isFinite(r.stdErr) && r.stdErr >= 0, r.quantity);
    assert.match(r.run ?? '', /^seed \d+, \d+ (slots|packet times)/);
  }
});

test('issue 7 §4 (report size): at scale 1 every run has its test\'s seed and length (test/sim/repro-*.test.ts), so the report shows the figures the tests assert; a seed replaces them all', () => {
  const tasks = reproductionTasks();
  const get = (id: string): ReproTask | undefined => tasks.find((t) => t.id === id);
  const k = get(karolId(5, 'fixed'));
  assert.ok(k?.kind === 'karol');
  assert.deepEqual([k.options.seed, k.options.slots, k.options.warmup], [SUITE_SEEDS.karol, KAROL_SLOTS(5), 500]);
  const k32 = get(karolId(32, 'random'));
  assert.ok(k32?.kind === 'karol' && k32.options.slots === KAROL_SLOTS(32));
  const i = get('islip');
  assert.ok(i?.kind === 'islip');
  assert.deepEqual([i.options.seed, i.options.slots, i.options.warmup, i.options.n, i.options.load], [SUITE_SEEDS.islip, ISLIP_CASE.slots, ISLIP_CASE.warmup, 16, 0.95]);
  const q = get('output-queued');
  assert.ok(q?.kind === 'output-queued' && q.options.seed === SUITE_SEEDS.outputQueued && q.options.slots === OQ_CASE.slots);
  const fifo = get(treeId('hotspot', 'fifo', 'none'));
  const split = get(treeId('split', 'endpoint', 'voq-backpressure'));
  assert.ok(fifo?.kind === 'tree' && split?.kind === 'tree');
  assert.deepEqual([fifo.options.seed, fifo.options.duration, split.options.duration, split.options.warmup], [SUITE_SEEDS.tree, 2 * TREE_DURATION, TREE_DURATION, 5000]);
  const sat = [get(ISLIP_SATURATION_ID), get(WAVEFRONT_SATURATION_ID)];
  const c = VOQ_SATURATION_CASE;
  for (const v of sat) {
    assert.ok(v?.kind === 'voq-saturation');
    assert.deepEqual(
      [v.options.seed, v.options.sources, v.options.n, v.options.inputBuffer, v.options.slots, v.options.warmup],
      [SUITE_SEEDS.matchers, 'per-flow', 16, 256, c.slots, c.warmup],
    );
  }
  assert.deepEqual(sat.map((v) => (v?.kind === 'voq-saturation' ? v.options.matcher : undefined)), ['islip', 'wavefront']);
  assert.equal(tasks.length, RUNS);
  assert.ok(reproductionTasks({ seed: 42 }).every((t) => t.options.seed === 42));
  const halved = reproductionTasks({ scale: 0.5 }).find((t) => t.id === karolId(5, 'fixed'));
  assert.ok(halved?.kind === 'karol' && halved.options.slots === KAROL_SLOTS(5) / 2 && halved.options.warmup === 250);
  assert.throws(() => reproductionTasks({ scale: 0 }), RangeError);
  assert.throws(() => reproductionTasks({ scale: Number.NaN }), RangeError);
});

test('issue 7 §3/§5 determinism (reproductions): the same seed gives the same figures on worker threads, reported run by run, as on this thread; another seed gives others', async () => {
  const done: number[] = [];
  const pooled = await runReproductions({ scale: SMALL, workers: 2, onDone: (d, total) => { done.push(d); assert.equal(total, RUNS); } });
  assert.deepEqual(pooled, small);
  assert.deepEqual(done, Array.from({ length: RUNS }, (_, i) => i + 1));
  const other = runReproductionsHere({ scale: SMALL, seed: 99 });
  assert.equal(other.length, small.length);
  assert.notDeepEqual(other.map((r) => r.measured), small.map((r) => r.measured));
});

test('issue 7 §5 (reproductions on worker threads): an aborted suite stops and rejects', async () => {
  const abort = new AbortController();
  abort.abort();
  await assert.rejects(runReproductions({ scale: SMALL, workers: 1, signal: abort.signal }));
  const later = new AbortController();
  let done = 0;
  const pending = runReproductions({ scale: SMALL, workers: 1, signal: later.signal, onDone: () => { done++; } });
  setImmediate(() => { later.abort(); });
  await assert.rejects(pending);
  assert.ok(done < RUNS, `${done} runs done`);
});

test('issue 7 §4/§5 report: the "Published results reproduced" section lists every result with its published and measured figure, standard error, tolerance, verdict and run', async () => {
  const html = await renderSimReport({ ...fixtureSimReport, reproductions: small });
  const section = html.slice(html.indexOf('<section aria-labelledby="reproductions">'), html.indexOf('<section aria-labelledby="scenario">'));
  assert.match(section, /<h2 id="reproductions">Published results reproduced<\/h2>/);
  const passed = small.filter((r) => r.pass).length;
  assert.ok(section.includes(`<caption>Published results and what this run measured: ${passed} of ${RUNS} within tolerance.</caption>`));
  assert.equal([...section.matchAll(/<td class="(pass|fail)">\1<\/td>/g)].length, RUNS);
  assert.equal([...section.matchAll(/<td class="fail">fail<\/td>/g)].length, RUNS - passed);
  assert.match(section, /<th scope="col">run<\/th>/);
  for (const r of small) {
    assert.ok(section.includes(r.quantity.replaceAll('&', '&amp;').replaceAll("'", '&#39;')), r.quantity);
    assert.ok(section.includes(`${r.measured.toPrecision(5).replace(/\.?0+$/, '')}\u00a0±\u00a0`), `${r.quantity}: ${r.measured}`);
  }
});

test('Karol, Hluchyj & Morgan 1987 Table I (report verdict): within ±0.005 of the published figure passes, beyond fails', () => {
  const id = karolId(2, 'round-robin');
  const at = (rows: readonly Reproduction[]): number => rowOf(rows, 'Karol', 'N = 2, round-robin');
  assert.equal(verdict(id, (r) => karol(r, 0.7549), at), true);
  assert.equal(verdict(id, (r) => karol(r, 0.7451), at), true);
  assert.equal(verdict(id, (r) => karol(r, 0.7551), at), false);
  assert.equal(verdict(id, (r) => karol(r, 0.7449), at), false);
});

test('Karol, Hluchyj & Morgan 1987, N → ∞ (report verdict, decision): the trend passes when the throughput falls from N = 8 to 16 to 32 and N = 32 ends above 2 − √2 by less than 0.01', () => {
  const at = (rows: readonly Reproduction[]): number => rowOf(rows, 'Karol, Hluchyj & Morgan (1987), N → ∞', 'N = 32');
  assert.equal(verdict('none', (r) => r, at), true);
  assert.equal(verdict(karolId(32, 'random'), (r) => karol(r, KAROL_LIMIT + 0.0101), at), false);
  assert.equal(verdict(karolId(32, 'random'), (r) => karol(r, KAROL_LIMIT - 0.0001), at), false);
  assert.equal(verdict(karolId(16, 'random'), (r) => karol(r, 0.6184 - 0.0099), at), false);
  assert.equal(verdict(karolId(16, 'random'), (r) => karol(r, 0.5935 + 0.0029), at), false);
});

test('Karol, Hluchyj & Morgan 1987, output queueing (report verdict): the mean wait passes within 3% of ((N − 1)/N)·p/(2(1 − p))', () => {
  const at = (rows: readonly Reproduction[]): number => rowOf(rows, 'Karol, Hluchyj & Morgan (1987), output queueing', 'mean wait');
  const wait = (f: number) => (r: ReproRun): ReproRun => (r.kind === 'output-queued' ? { ...r, result: { ...r.result, measured: r.result.theory * f } } : r);
  assert.equal(verdict('output-queued', wait(1.029), at), true);
  assert.equal(verdict('output-queued', wait(0.971), at), true);
  assert.equal(verdict('output-queued', wait(1.031), at), false);
  assert.equal(verdict('output-queued', wait(0.969), at), false);
});

test('Anderson et al. 1993 PIM and Tamir & Chi 1993 (report verdicts, issue 20): PIM within ±0.005 of 1 − (1 − 1/N)^N; the wave front held to iSLIP\'s criteria', () => {
  const at = (rows: readonly Reproduction[]): number => rowOf(rows, 'Anderson', 'saturation throughput');
  const pim = (measured: number) => (r: ReproRun): ReproRun => (r.kind === 'pim' ? { ...r, result: { ...r.result, measured } } : r);
  const p16 = pimOneIteration(16);
  assert.equal(verdict('pim', pim(p16 + 0.0049), at), true);
  assert.equal(verdict('pim', pim(p16 - 0.0051), at), false);
  assert.equal(verdict('pim', pim(PIM_LIMIT), at), false);
  const wf = (rows: readonly Reproduction[]): number => rowOf(rows, 'Tamir & Chi', 'offered load 0.95');
  const carried = (measured: number) => (r: ReproRun): ReproRun => (r.kind === 'islip' ? { ...r, result: { ...r.result, measured } } : r);
  assert.equal(verdict('wavefront', carried(0.9495), wf), true);
  assert.equal(verdict('wavefront', carried(0.94), wf), false);
});

test('McKeown 1999 iSLIP and Tamir & Chi 1993 at saturation (report verdicts, issue 20): with every VoQ fed each row passes at >= 0.995 of the published 100% with no VoQ empty in any measured slot', () => {
  const sat = (measured: number, emptyVoqs = 0) => (r: ReproRun): ReproRun => (r.kind === 'voq-saturation' ? { ...r, result: { ...r.result, measured, emptyVoqs } } : r);
  for (const [id, source] of [[ISLIP_SATURATION_ID, 'McKeown'], [WAVEFRONT_SATURATION_ID, 'Tamir & Chi']] as const) {
    const at = (rows: readonly Reproduction[]): number => rowOf(rows, source, 'every VoQ holding cells');
    assert.equal(verdict(id, sat(1), at), true, id);
    assert.equal(verdict(id, sat(0.995), at), true, id);
    assert.equal(verdict(id, sat(0.9949), at), false, id);
    // A VoQ left empty removes the published figure's condition, whatever the throughput.
    assert.equal(verdict(id, sat(0.999, 0.0001), at), false, id);
  }
  const rows = reproductionRows(fakeRuns());
  const islip = rows[rowOf(rows, 'McKeown', 'every VoQ holding cells')];
  const wf = rows[rowOf(rows, 'Tamir & Chi', 'every VoQ holding cells')];
  assert.deepEqual([islip?.published, wf?.published], [1, 1]);
  assert.match(islip?.run ?? '', /^seed 3, 3000 slots after 1000, end points offered their full link rate/);
});

test('McKeown 1999 iSLIP (report verdict, decision): passes at >= 0.947 and >= 99.8% of the load offered in the same slots with nothing dropped', () => {
  const at = (rows: readonly Reproduction[]): number => rowOf(rows, 'McKeown', 'offered load 0.95');
  const islip = (measured: number, offered: number, dropped = 0) => (r: ReproRun): ReproRun => (r.kind === 'islip' ? { ...r, result: { ...r.result, measured, offered, dropped } } : r);
  assert.equal(verdict('islip', islip(0.9495, 0.9501), at), true);
  assert.equal(verdict('islip', islip(0.9469, 0.948), at), false);
  assert.equal(verdict('islip', islip(0.955, 0.9575), at), false);
  assert.equal(verdict('islip', islip(0.95, 0.95, 1), at), false);
});

test('Pfister & Norton 1985 (report verdicts): the bound and the victims\' collapse within ±0.01 per node; XON/XOFF and VoQ backpressure keep >= 90% of the victims\' load; without control the two-stage blocking holds them below 50%', () => {
  const fifo = treeId('hotspot', 'fifo', 'none');
  const perNode = (v: number) => (r: ReproRun): ReproRun => (r.kind === 'tree' ? { ...r, result: { ...r.result, perNode: v } } : r);
  const bound = 1 / (1 + 0.25 * 15);
  const boundRow = (rows: readonly Reproduction[]): number => rowOf(rows, 'Pfister & Norton (1985)', 'the bound');
  assert.equal(verdict(fifo, perNode(bound + 0.0099), boundRow), true);
  assert.equal(verdict(fifo, perNode(bound - 0.0101), boundRow), false);
  const collapse = (rows: readonly Reproduction[]): number => rowOf(rows, 'Pfister & Norton (1985)', 'collapses');
  assert.equal(verdict(fifo, (r) => tree(r, 0.148 + 0.0099), collapse), true);
  assert.equal(verdict(fifo, (r) => tree(r, 0.2), collapse), false);
  const voq = treeId('split', 'endpoint', 'voq-backpressure');
  const voqRow = (rows: readonly Reproduction[]): number => rowOf(rows, 'Pfister & Norton (1985), VoQ backpressure', 'disappears');
  assert.equal(verdict(voq, (r) => tree(r, 0.1487 * 0.9), voqRow), true);
  assert.equal(verdict(voq, (r) => tree(r, 0.1487 * 0.89), voqRow), false);
  const xon = treeId('hotspot', 'endpoint', 'xon-xoff');
  const xonRow = (rows: readonly Reproduction[]): number => rowOf(rows, 'Pfister & Norton (1985), Part 9 XON/XOFF', 'hotspot h = 0.25');
  assert.equal(verdict(xon, (r) => tree(r, 0.352 * 0.89), xonRow), false);
  const none = treeId('split', 'endpoint', 'none');
  const noneRow = (rows: readonly Reproduction[]): number => rowOf(rows, 'Pfister & Norton (1985), two stages', 'no congestion control');
  assert.equal(verdict(none, (r) => r, noneRow), true);
  assert.equal(verdict(none, (r) => tree(r, 0.1487 * 0.51), noneRow), false);
  // 'split' without control: one victim per hot packet, 1/k per link against (k/2) × 0.3 offered.
  const rows = reproductionRows(fakeRuns());
  assert.equal(rows[noneRow(rows)]?.published, 0.25 / 0.6);
});

test('issue 7 §4/§5 riodp sim summary: one line, "published results: N of M within tolerance", naming the results outside it', () => {
  const rows = reproductionRows(fakeRuns());
  assert.ok(rows.every((r) => r.pass));
  assert.equal(reproductionSummary(rows), 'published results: 34 of 34 within tolerance');
  const one = reproductionRows(fakeRuns((r) => (r.id === karolId(3, 'fixed') ? karol(r, 0.7) : r)));
  assert.equal(
    reproductionSummary(one),
    'published results: 33 of 34 within tolerance; outside: Karol, Hluchyj & Morgan (1987), Table I: input-FIFO saturation throughput per output, N = 3, fixed arbitration',
  );
  assert.doesNotMatch(reproductionSummary(one), /\n/);
});

test('issue 7 §4 (report, decision): a missing run is a bug in the suite and throws rather than showing a row without a measurement', () => {
  const runs = fakeRuns().filter((r) => r.id !== 'islip');
  assert.throws(() => reproductionRows(runs), /no islip run islip/);
});
