import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TopLevelSpec } from 'vega-lite';
import { renderVegaLite } from './vega-svg.ts';

/** A line chart clipped to its plot area, so the SVG carries a clip-path id. */
const spec: TopLevelSpec = {
  width: 200,
  height: 100,
  data: { values: [{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 2 }] },
  mark: { type: 'line', clip: true },
  encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
};

test('issue 7 §5 "charts rendered to SVG in Node with vega-lite": a spec becomes an SVG string without canvas or DOM, quietly', async () => {
  const { svg, warnings } = await renderVegaLite(spec, 'c');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /<\/svg>$/);
  assert.match(svg, /<path /);
  assert.deepEqual(warnings, []);
});

test('issue 7 §5 charts (decision): SVG ids are prefixed and renumbered, so inlined charts do not share clip paths', async () => {
  const { svg } = await renderVegaLite(spec, 'chart-a');
  const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length > 0, 'the clipped line has a clip path');
  assert.deepEqual(ids, ids.map((_, i) => `chart-a-${i + 1}`));
  const refs = [...svg.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]);
  assert.ok(refs.length > 0);
  for (const r of refs) assert.ok(ids.includes(r ?? ''), `reference ${String(r)} points at an id in the same SVG`);
});

test('issue 7 §5 charts: the same spec gives the same SVG however many charts were rendered before', async () => {
  const first = await renderVegaLite(spec, 'p');
  await renderVegaLite(spec, 'q');
  const [second, third] = await Promise.all([renderVegaLite(spec, 'p'), renderVegaLite(spec, 'p')]);
  assert.equal(second.svg, first.svg);
  assert.equal(third.svg, first.svg);
});

test('issue 7 §5 charts: vega-lite warnings are collected, not printed', async () => {
  const bad: TopLevelSpec = { data: { values: [{ a: 1 }] }, mark: 'point', encoding: { x: { field: 'a', type: 'quantitative' }, size: { field: 'a', type: 'nominal' } } };
  const { warnings } = await renderVegaLite(bad, 'w');
  assert.ok(warnings.length > 0);
  assert.ok(warnings.every((w) => w.startsWith('warn: ') || w.startsWith('error: ')));
});

test('issue 7 §5 charts: an id prefix that is not an XML name is refused', async () => {
  await assert.rejects(renderVegaLite(spec, '1x'), RangeError);
  await assert.rejects(renderVegaLite(spec, 'a"b'), RangeError);
});
