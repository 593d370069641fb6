import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureSimReport } from '../../test/report/fixture.ts';
import { countRows, latencyRows, pointsTable, reproductionTable, variantTable } from './tables.ts';
import type { VariantResult } from './types.ts';

test('issue 7 §3/§5 latency table: per flow group its packets, mean and percentiles ascending, one value per variant', () => {
  const rows = latencyRows(fixtureSimReport.variants);
  assert.deepEqual(
    rows.slice(0, 5).map((r) => r.label),
    ['victim flows: packets', 'victim flows: mean (ns)', 'victim flows: p50 (ns)', 'victim flows: p99 (ns)', 'victim flows: p99.9 (ns)'],
  );
  assert.equal(rows.length, 10);
  for (const r of rows) assert.equal(r.values.length, 3);
});

test('issue 7 §5 tables (decision): a flow group or count one variant lacks is an empty cell for it, not a zero', () => {
  const [a, b] = fixtureSimReport.variants as [VariantResult, VariantResult];
  const variants = [{ ...a, latency: [], counts: { x: 1 } }, { ...b, counts: { y: 2 } }];
  const lat = latencyRows(variants);
  assert.deepEqual(lat[0]?.values, [undefined, 12_000]);
  assert.deepEqual(countRows(variants), [
    { label: 'x', values: [1, undefined] },
    { label: 'y', values: [undefined, 2] },
  ]);
});

test('issue 7 §5 tables: every header cell has a scope and the caption comes first', () => {
  const html = variantTable('cap <x>', 'q', ['A & B'], [{ label: 'r', values: [1.5] }]);
  assert.match(html, /^<table>\n<caption>cap &lt;x&gt;<\/caption>\n<thead><tr><th scope="col">q<\/th><th scope="col">A &amp; B<\/th><\/tr><\/thead>/);
  assert.match(html, /<tr><th scope="row">r<\/th><td class="num">1.5<\/td><\/tr>/);
});

test('issue 7 §5 sweep table: one column per key in first-seen order, strings escaped, missing keys as a dash', () => {
  const html = pointsTable([{ load: 0.5, cc: 'off' }, { load: 0.8, wm: 3 }]);
  assert.match(html, /<thead><tr><th scope="col">load<\/th><th scope="col">cc<\/th><th scope="col">wm<\/th><\/tr><\/thead>/);
  assert.match(html, /<tr><td class="num">0.8<\/td><td class="num missing" title="not measured">—<\/td><td class="num">3<\/td><\/tr>/);
});

test('issue 7 §4/§5 reproductions table: the measured value carries its standard error, and a run column (seed, length) appears when a row has one', () => {
  const row = { source: 'S', quantity: 'q', published: 0.75, measured: 0.74743, stdErr: 0.000904, tolerance: '±0.005', pass: true };
  const html = reproductionTable([{ ...row, run: 'seed 7, 60000 slots' }, { ...row, stdErr: Number.NaN }]);
  assert.match(html, /<th scope="col">result<\/th><th scope="col">run<\/th><\/tr><\/thead>/);
  assert.match(html, /<td class="num">0.75<\/td><td class="num">0.74743\u00a0±\u00a00.0009<\/td><td>±0.005<\/td><td class="pass">pass<\/td><td>seed 7, 60000 slots<\/td><\/tr>/);
  // A row without a run gets an empty cell; a standard error that is not finite is left out.
  assert.match(html, /<td class="num">0.74743<\/td><td>±0.005<\/td><td class="pass">pass<\/td><td><\/td><\/tr>/);
  assert.doesNotMatch(reproductionTable([row]), /scope="col">run</);
});
