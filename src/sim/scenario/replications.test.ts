import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSimReport } from '../../report/html.ts';
import { replicationSeed } from '../kernel/stream-seed.ts';
import { interval95, studentT975 } from '../repro/batch-probe.ts';
import { parseScenario } from './load.ts';
import { simReport, variantResult } from './report-map.ts';
import { resultFiles } from './results-file.ts';
import { runScenario } from './run.ts';

test('issue 20 replications: Student t 0.975 quantiles (table to 30 degrees of freedom, then the Cornish–Fisher expansion) and the 95 % interval of a mean', () => {
  assert.equal(studentT975(1), 12.706204736);
  assert.equal(studentT975(9), 2.262157163);
  // Published values: t(0.975, 40) = 2.021075, t(0.975, 120) = 1.979930.
  assert.ok(Math.abs(studentT975(40) - 2.02107539) < 1e-5);
  assert.ok(Math.abs(studentT975(120) - 1.979930405) < 1e-6);
  assert.throws(() => studentT975(0), RangeError);
  // 1, 2, 3, 4, 5: mean 3, s = √2.5, stdErr = s/√5, half-width t(4) × stdErr.
  const ci = interval95([1, 2, 3, 4, 5]);
  assert.equal(ci.mean, 3);
  assert.ok(Math.abs(ci.halfWidth - 2.776445105 * Math.sqrt(2.5 / 5)) < 1e-12);
  assert.deepEqual([ci.low, ci.high], [ci.mean - ci.halfWidth, ci.mean + ci.halfWidth]);
});

test('issue 20 replications: replication 0 keeps the seed, the others derive theirs from the seed and their index only', () => {
  assert.equal(replicationSeed(7, 0), 7);
  const seeds = Array.from({ length: 8 }, (_, r) => replicationSeed(7, r));
  assert.deepEqual(seeds, Array.from({ length: 8 }, (_, r) => replicationSeed(7, r)));
  assert.equal(new Set(seeds).size, 8);
  for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 0 && s <= 0xffffffff);
  assert.notEqual(replicationSeed(8, 1), replicationSeed(7, 1));
});

const SCENARIO = (extra: string): string => `
name: reps
seed: 4
duration: 20us
warmup: 2us
topology: { kind: switch, hosts: 4 }
traffic:
  - { group: all, pattern: uniform, load: 0.6 }
${extra}`;

test('issue 20 replications: N runs with derived seeds give the groups\' means and 95 % intervals; the same seed gives the same figures; replication 0 is the plain run', () => {
  const plain = runScenario(parseScenario(SCENARIO(''))).variants[0];
  const a = runScenario(parseScenario(SCENARIO('replications: 4'))).variants[0];
  const b = runScenario(parseScenario(SCENARIO('replications: 4'))).variants[0];
  assert.ok(plain !== undefined && a !== undefined && b !== undefined);
  assert.deepEqual(a.replications, b.replications);
  const r = a.replications;
  assert.ok(r !== undefined);
  assert.equal(r.n, 4);
  assert.deepEqual(r.seeds, [4, replicationSeed(4, 1), replicationSeed(4, 2), replicationSeed(4, 3)]);
  assert.deepEqual(a.results, plain.results);
  const g = r.groups[0];
  assert.ok(g?.deliveredBps != null && g.latencyMean != null && g.latencyP99 != null && g.deliveredFraction != null);
  assert.equal(g.deliveredBps.values[0], plain.groups[0]?.deliveredBps);
  assert.equal(g.latencyP99.values[0], plain.groups[0]?.packetLatency.p99);
  assert.ok(g.deliveredBps.halfWidth > 0 && g.deliveredBps.low < g.deliveredBps.mean && g.deliveredBps.mean < g.deliveredBps.high);
  // Another seed moves every replication.
  const other = runScenario(parseScenario(SCENARIO('replications: 4').replace('seed: 4', 'seed: 5'))).variants[0]?.replications;
  assert.notDeepEqual(other?.groups[0]?.deliveredBps?.values, g.deliveredBps.values);
});

test('issue 20 replications: the confidence interval narrows with more replications', () => {
  const hw = (n: number): number => runScenario(parseScenario(SCENARIO(`replications: ${n}`))).variants[0]?.replications?.groups[0]?.latencyMean?.halfWidth ?? NaN;
  const few = hw(3);
  const many = hw(12);
  assert.ok(many < few / 2, `half-width ${many} with 12 replications, ${few} with 3`);
});

test('issue 20 replications: 1 or absent changes nothing in results.json, the CSVs or the report data; N ≥ 2 adds results.json replications and a report table', async () => {
  const none = runScenario(parseScenario(SCENARIO('')));
  const one = runScenario(parseScenario(SCENARIO('replications: 1')));
  assert.deepEqual(resultFiles(one), resultFiles(none));
  assert.deepEqual(one.variants.map(variantResult), none.variants.map(variantResult));
  const two = runScenario(parseScenario(SCENARIO('replications: 2')));
  const json = JSON.parse(resultFiles(two)['results.json'] ?? '') as { variants: ({ replications?: { n: number; groups: ({ name: string } | undefined)[] } } | undefined)[] };
  const rep = json.variants[0]?.replications;
  assert.ok(rep !== undefined);
  assert.deepEqual([rep.n, rep.groups[0]?.name], [2, 'all']);
  const ctx = { text: '', generated: 'now', version: 'test', wallSeconds: 0 };
  const html = await renderSimReport(simReport(two, ctx));
  assert.match(html, /id="replications"/);
  assert.match(html, /all throughput \(Gbit\/s\)<\/th><td class="num">[0-9.]+\u00a0±\u00a0[0-9.e-]+<\/td>/);
  assert.match(html, /reps \(2 runs\)/);
  assert.doesNotMatch(await renderSimReport(simReport(none, ctx)), /id="replications"/);
});

test('issue 20 replications: 0 or a non-integer is refused with its path', () => {
  assert.throws(() => parseScenario(SCENARIO('replications: 0')), /replications: /);
  assert.throws(() => parseScenario(SCENARIO('replications: 2.5')), /replications: /);
});
