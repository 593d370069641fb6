import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { riodp } from '../support/spawn.ts';
import { tinyScenario } from '../support/tiny-scenario.ts';
import type { Run } from '../support/spawn.ts';

const dir = mkdtempSync(join(tmpdir(), 'riodp-sim-'));

const TINY = tinyScenario('60us');

let tiny: Run | undefined;

/** The run of TINY into <dir>/tiny, shared by the tests that read it (each spawn renders a report: seconds). */
function tinyRun(): Run {
  tiny ??= riodp(['sim', scenario('tiny.yaml', TINY), '--out', join(dir, 'tiny')]);
  return tiny;
}

function scenario(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test('issue 7 §5 riodp sim: a scenario file runs and writes index.html, results.json and CSVs, with a summary table on stdout', () => {
  const out = join(dir, 'tiny');
  const r = tinyRun();
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^tiny: 2 variants of 60us simulated in \d+\.\d s$/);
  assert.match(lines[1]!, /^variant\s+hot Gbit\/s\s+hot p99 µs\s+cold Gbit\/s\s+cold p99 µs\s+CCPs\s+VoQ symbols$/);
  assert.match(lines[2]!, /^part9\s/);
  assert.match(lines[3]!, /^off\s/);
  assert.equal(lines[4], `report: ${join(out, 'index.html')}`);
  for (const f of ['index.html', 'results.json', 'groups.csv', 'part9.flows.csv', 'part9.occupancy.csv', 'part9.latency.csv', 'off.flows.csv']) assert.ok(existsSync(join(out, f)), f);
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.ok(html.includes('<svg'), 'charts are inlined as SVG');
  assert.ok(html.includes('highWatermark: 4'), 'the scenario text is shown');
  assert.doesNotMatch(html, /id="reproductions"/, 'a scenario file runs without the reproductions unless asked');
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { scenario: string; variants: { name: string; seed: number; groups: { name: string }[]; results: { headline: { ccpsSent: number } } }[] };
  assert.equal(results.scenario, 'tiny');
  assert.deepEqual(results.variants.map((v) => [v.name, v.seed, v.groups.map((g) => g.name)]), [['part9', 3, ['hot', 'cold']], ['off', 3, ['hot', 'cold']]]);
  assert.ok(results.variants[0]!.results.headline.ccpsSent > 0);
  assert.equal(results.variants[1]!.results.headline.ccpsSent, 0);
});

test('issue 7 §3 determinism, riodp sim: the same seed writes an identical results.json (--json prints the summary as JSON); --seed replaces the scenario seed', () => {
  const file = scenario('det.yaml', TINY);
  const b = riodp(['sim', file, '--out', join(dir, 'b'), '--json']);
  const c = riodp(['sim', file, '--out', join(dir, 'c'), '--seed', '99']);
  assert.deepEqual([tinyRun().status, b.status, c.status], [0, 0, 0]);
  const text = (d: string, f = 'results.json'): string => readFileSync(join(dir, d, f), 'utf8');
  for (const f of ['results.json', 'groups.csv', 'part9.flows.csv', 'part9.occupancy.csv', 'off.latency.csv']) assert.equal(text('tiny', f), text('b', f), f);
  assert.notEqual(text('tiny'), text('c'));
  assert.ok((JSON.parse(text('c')) as { variants: { seed: number }[] }).variants.every((v) => v.seed === 99));
  const s = JSON.parse(b.stdout) as { scenario: string; report: string; files: string[]; variants: { name: string; groups: { name: string; deliveredFraction: number }[]; ccpsSent: number; voqSymbols: number }[] };
  assert.equal(s.scenario, 'tiny');
  assert.equal(s.report, join(dir, 'b', 'index.html'));
  assert.equal(s.files[0], join(dir, 'b', 'index.html'));
  assert.deepEqual(s.variants.map((v) => v.name), ['part9', 'off']);
  assert.ok(s.variants[0]!.ccpsSent > 0);
  assert.ok(s.variants.every((v) => v.groups.every((g) => g.deliveredFraction > 0)));
});

test('issue 7 §3 riodp sim: an invalid scenario is refused with exit 2 and one line per bad field, naming its path', () => {
  const file = scenario('bad.yaml', 'name: bad\nduration: soon\ntopology: { kind: torus }\ntraffic: []\n');
  const r = riodp(['sim', file, '--out', join(dir, 'bad')]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(r.stderr.trimEnd().split('\n').sort(), [
    `riodp sim: ${file}: duration: expected a time: ps as a number, or a string with ps, ns, us, ms or s ("10us"), above 0`,
    `riodp sim: ${file}: topology.kind: expected one of switch, leaf-spine, butterfly, ring, mesh`,
    `riodp sim: ${file}: traffic: expected at least one traffic entry`,
  ]);
  assert.equal(existsSync(join(dir, 'bad')), false);
});

test('issue 7 §5 riodp sim: a missing file, a bad --seed and an unwritable report directory are one line each, non-zero', () => {
  const missing = riodp(['sim', join(dir, 'nope.yaml')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^riodp sim: .*nope\.yaml: cannot read .*nope\.yaml \(ENOENT\)\n$/);
  const seed = riodp(['sim', '--seed', 'x']);
  assert.equal(seed.status, 2);
  const big = riodp(['sim', scenario('s.yaml', TINY), '--seed', '4294967296']);
  assert.deepEqual([big.status, big.stderr], [2, 'riodp sim: --seed: expected an integer 0..4294967295\n']);
  const blocker = join(dir, 'file-not-dir');
  writeFileSync(blocker, 'x');
  const unwritable = riodp(['sim', scenario('w.yaml', TINY), '--out', join(blocker, 'sub')]);
  assert.equal(unwritable.status, 1);
  assert.match(unwritable.stderr, /^riodp sim: cannot write the report to .*file-not-dir\/sub: .*\n$/);
  assert.equal(unwritable.stderr.split('\n').length, 2);
});

test('issue 7 §5 riodp sim with no argument runs the built-in scenario three ways; no progress line when stderr is not a terminal; --no-reproduce leaves out the reproductions', () => {
  const out = join(dir, 'builtin');
  const r = riodp(['sim', '--out', out, '--no-reproduce']);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const lines = r.stdout.split('\n');
  assert.match(lines[0]!, /^two-stage hotspot: 3 variants of 4ms simulated in /);
  assert.deepEqual(lines.slice(2, 5).map((l) => l.replace(/\s{2,}.*$/, '')), ['no congestion control', 'Part 9 XON/XOFF', 'VoQ backpressure']);
  assert.ok(existsSync(join(out, 'index.html')));
  assert.ok(existsSync(join(out, 'voq-backpressure.flows.csv')));
  assert.doesNotMatch(r.stdout, /published results/);
  assert.doesNotMatch(readFileSync(join(out, 'index.html'), 'utf8'), /id="reproductions"/);
  assert.equal(Object.hasOwn(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as object, 'reproductions'), false);
});
