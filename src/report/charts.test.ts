import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureSimReport, fixtureSweepReport } from '../../test/report/fixture.ts';
import { listText, renderCharts, simChartPlans, sweepChartPlans } from './charts.ts';
import type { SimReport } from './types.ts';

test('issue 7 §5: a sim report charts throughput over time, latency percentiles, buffer occupancy and XOFF activity', () => {
  const { plans, omitted } = simChartPlans(fixtureSimReport);
  assert.deepEqual(plans.map((p) => p.id), ['throughput', 'latency', 'occupancy', 'xoff']);
  assert.deepEqual(omitted, []);
  for (const p of plans) {
    assert.ok(p.caption.length > 0 && p.alt.length > 0);
    for (const v of ['no congestion control', 'VoQ backpressure']) assert.ok(p.alt.includes(v), `${p.id}: alt text names ${v}`);
  }
});

test('issue 7 §5 charts (decision): a variant without data for a chart is named in its caption', () => {
  const xoff = simChartPlans(fixtureSimReport).plans.find((p) => p.id === 'xoff');
  assert.ok(xoff !== undefined);
  assert.match(xoff.caption, /No data for “no congestion control”/);
});

test('issue 7 §5 charts (decision): a chart no variant has data for is listed as omitted with the reason', () => {
  const r: SimReport = { ...fixtureSimReport, variants: fixtureSimReport.variants.map((v) => ({ ...v, xoff: [], latency: [] })) };
  const { plans, omitted } = simChartPlans(r);
  assert.deepEqual(plans.map((p) => p.id), ['throughput', 'occupancy']);
  assert.deepEqual(omitted.map((o) => o.id), ['xoff', 'latency']);
  for (const o of omitted) assert.match(o.reason, /^No variant recorded /);
});

test('issue 7 §5 sweep: one metric-vs-parameter chart per metric', () => {
  const { plans, omitted } = sweepChartPlans(fixtureSweepReport);
  assert.deepEqual(plans.map((p) => p.id), ['sweep-1', 'sweep-2']);
  assert.equal(plans[0]?.title, 'throughput (fraction of link rate) vs offered load');
  assert.deepEqual(omitted, []);
  const empty = sweepChartPlans({ ...fixtureSweepReport, charts: [{ metric: 'm', curves: [{ name: 'c', points: [] }] }] });
  assert.deepEqual(empty.plans, []);
  assert.deepEqual(empty.omitted.map((o) => o.id), ['sweep-1']);
});

test('issue 7 §5: every planned chart renders to an SVG without vega warnings', async () => {
  const charts = await renderCharts([...simChartPlans(fixtureSimReport).plans, ...sweepChartPlans(fixtureSweepReport).plans]);
  assert.equal(charts.length, 6);
  for (const c of charts) {
    assert.match(c.svg, /^<svg /, c.id);
    assert.deepEqual(c.warnings, [], c.id);
  }
});

test('issue 7 §5 alt text: lists read "a, b and c"', () => {
  assert.equal(listText([]), '');
  assert.equal(listText(['a']), 'a');
  assert.equal(listText(['a', 'b']), 'a and b');
  assert.equal(listText(['a', 'b', 'c']), 'a, b and c');
});
