import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureSimReport, fixtureSweepReport } from '../../test/report/fixture.ts';
import { renderSimReport, renderSweepReport } from './html.ts';
import type { SimReport } from './types.ts';

const simHtml = renderSimReport(fixtureSimReport);
const sweepHtml = renderSweepReport(fixtureSweepReport);

const NAMESPACES = ['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'];

function unescape(text: string): string {
  return text.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] ?? '');
}

function count(html: string, re: RegExp): number {
  return [...html.matchAll(re)].length;
}

test('issue 7 §5: every chart is inlined as an <svg> in a <figure> with a <figcaption>', async () => {
  const html = await simHtml;
  assert.equal(count(html, /<svg /g), 4);
  assert.equal(count(html, /<figure /g), 4);
  assert.equal(count(html, /<figcaption /g), 4);
  for (const id of ['throughput', 'latency', 'occupancy', 'xoff']) {
    assert.match(html, new RegExp(`<h3 id="${id}">[^<]+</h3>\\n<figure aria-labelledby="${id}-caption">\\n<svg role="img" aria-label="[^"]{20,}" xmlns=`));
  }
});

test('issue 7 §5 "self-contained HTML (no network)": no URL but the SVG namespaces, no script, no external style or font', async () => {
  for (const html of [await simHtml, await sweepHtml]) {
    const urls = new Set([...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]));
    assert.deepEqual([...urls].filter((u) => !NAMESPACES.includes(u)), []);
    assert.doesNotMatch(html, /<script|<iframe|<object|<embed|<img|@import|@font-face|\ssrc=/i);
    assert.deepEqual([...html.matchAll(/<link [^>]*>/g)].map((m) => m[0]), ['<link rel="icon" href="data:,">']);
    assert.deepEqual([...html.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1]).filter((u) => u?.startsWith('#') !== true), [], 'url() only for ids in the page');
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:">/);
  }
});

test('issue 7 §5 charts (decision): ids are unique across the page, so each chart clips to its own plot area', async () => {
  const ids = [...(await simHtml).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length);
  for (const m of (await simHtml).matchAll(/url\(#([^)]+)\)|href="#([^"]+)"/g)) assert.ok(ids.includes(m[1] ?? m[2]), `${m[0]} resolves`);
});

test('issue 7 §5 "escape all user text": titles, names and the scenario never reach the page as markup', async () => {
  const html = await simHtml;
  assert.doesNotMatch(html, /<flows>|<two-stage fabric>|<script>alert/);
  assert.match(html, /<title>Built-in scenario: hotspot &amp; victims &lt;two-stage fabric&gt;<\/title>/);
  assert.match(html, /<th scope="row">hotspot &lt;flows&gt; &amp; co: p99 \(ns\)<\/th>/);
  assert.match(html, /switch s2 input &quot;a&quot;/, 'a double quote inside an aria-label is escaped');
  const sweep = await sweepHtml;
  assert.match(sweep, /<td>&lt;xon-xoff&gt;<\/td>/);
  assert.doesNotMatch(sweep, /<grid>|<xon-xoff>/);
});

test('issue 7 §5 "the scenario itself": the scenario text is shown verbatim in a <pre>', async () => {
  const m = /<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(await simHtml);
  assert.ok(m !== null);
  assert.equal(unescape(m[1] ?? ''), fixtureSimReport.scenarioText);
  const g = /<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(await sweepHtml);
  assert.equal(unescape(g?.[1] ?? ''), fixtureSweepReport.gridText);
});

test('issue 7 §5 run facts: seed, simulated time, wall time, riodp version and generated date', async () => {
  const html = await simHtml;
  for (const [term, value] of [['seed', '42'], ['simulated time', '200 µs'], ['wall time', '3.25 s'], ['riodp version', '0.1.0'], ['generated', '2025-01-02T03:04:05.000Z']]) {
    assert.match(html, new RegExp(`<dt>${term}</dt><dd>${value}</dd>`));
  }
});

test('issue 7 §5 "the headline numbers in a table": variants as columns, one row per headline label', async () => {
  const html = await simHtml;
  const table = /<section aria-labelledby="headline">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  assert.match(table, /<thead><tr><th scope="col">quantity<\/th><th scope="col">no congestion control<\/th><th scope="col">Part 9 XON\/XOFF<\/th><th scope="col">VoQ backpressure<\/th><\/tr><\/thead>/);
  assert.match(table, /<tr><th scope="row">victim throughput \(Gbit\/s\)<\/th><td class="num">2.1<\/td><td class="num">9.3<\/td><td class="num">9.6<\/td><\/tr>/);
  assert.equal(count(table, /<tr><th scope="row">/g), 3);
});

test('issue 7 §5 headline table (decision): a label one variant lacks, or a non-finite value, shows a dash', async () => {
  const [a, b] = fixtureSimReport.variants;
  assert.ok(a !== undefined && b !== undefined);
  const html = await renderSimReport({ ...fixtureSimReport, variants: [{ ...a, headline: { only: 1, rate: NaN } }, b] });
  assert.match(html, /<tr><th scope="row">only<\/th><td class="num">1<\/td><td class="num missing" title="not measured">—<\/td><\/tr>/);
  assert.match(html, /<tr><th scope="row">rate<\/th><td class="num missing" title="not measured">—<\/td>/);
});

test('issue 7 §4/§5 reproductions: published vs measured with tolerance and a pass/fail verdict in words', async () => {
  const html = await simHtml;
  assert.match(html, /<caption>Published results and what this run measured: 1 of 2 within tolerance.<\/caption>/);
  assert.match(html, /<td class="num">0.75<\/td><td class="num">0.7493<\/td><td>±0.005<\/td><td class="pass">pass<\/td>/);
  assert.match(html, /<td class="num">0.6184<\/td><td class="num">0.6301<\/td><td>±0.005<\/td><td class="fail">fail<\/td>/);
  const without = Object.fromEntries(Object.entries(fixtureSimReport).filter(([k]) => k !== 'reproductions')) as unknown as SimReport;
  assert.doesNotMatch(await renderSimReport(without), /id="reproductions"/, 'no section when there is nothing to reproduce');
});

test('issue 7 §5 accessibility: one h1, labelled sections, table headers with scope, a contents list linking to every section', async () => {
  const html = await simHtml;
  assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
  assert.equal(count(html, /<h1>/g), 1);
  const sections = [...html.matchAll(/<section aria-labelledby="([^"]+)">\n<h[23] id="([^"]+)">/g)];
  assert.ok(sections.length >= 9);
  for (const s of sections) assert.equal(s[1], s[2]);
  const links = [...html.matchAll(/<li><a href="#([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(links, sections.map((s) => s[1]));
  assert.equal(count(html, /<th>/g), 0, 'every header cell has a scope');
});

test('issue 7 §5: the same report data gives the same page, byte for byte', async () => {
  assert.equal(await renderSimReport(fixtureSimReport), await simHtml);
  assert.equal(await renderSweepReport(fixtureSweepReport), await sweepHtml);
});

test('issue 7 §5 sweep: a chart per metric with the grid points table', async () => {
  const html = await sweepHtml;
  assert.equal(count(html, /<svg /g), 2);
  assert.equal(count(html, /<figcaption /g), 2);
  assert.match(html, /<thead><tr><th scope="col">load<\/th><th scope="col">cc<\/th><th scope="col">throughput<\/th><\/tr><\/thead>/);
  assert.match(html, /<dt>swept parameter<\/dt><dd>offered load<\/dd>/);
});

test('issue 7 §5 (decision): a run without variants or chart data still gives a page that says so', async () => {
  const empty: SimReport = { ...fixtureSimReport, variants: [] };
  const html = await renderSimReport(empty);
  assert.match(html, /The run has no variants\./);
  assert.equal(count(html, /<svg /g), 0);
  assert.match(html, /<li><strong>Throughput over time<\/strong>: No variant recorded delivered throughput\.<\/li>/);
});
