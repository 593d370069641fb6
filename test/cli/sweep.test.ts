import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { riodp } from '../support/spawn.ts';
import { tinyScenario } from '../support/tiny-scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'riodp-sweep-'));

const SCENARIO = tinyScenario('40us');

/** A path-referenced scenario, the variants as one dimension and the hotspot load as the other: 4 points. */
const GRID = `name: tiny sweep
scenario: tiny.yaml
parameters:
  variants: all
  traffic.0.load: [0.3, 0.9]
`;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

file('tiny.yaml', SCENARIO);

interface Results {
  grid: string;
  x: string;
  points: { index: number; variant: string; values: Record<string, unknown>; seed: number; groups: { name: string; deliveredGbps: number; deliveredFraction: number }[]; ccpsSent: number }[];
}

test('issue 7 §5 riodp sweep: every grid point runs and the report directory gets index.html with throughput-vs-load curves, results.json and points.csv; issue 21 item 2: and curves.csv', () => {
  const out = join(dir, 'w2');
  const r = riodp(['sweep', file('grid.yaml', GRID), '--out', out, '--workers', '2']);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^tiny sweep: 4 points in \d+\.\d s$/);
  assert.match(lines[2]!, /^part9 · traffic\.0\.load=0\.3\s/);
  assert.match(lines[5]!, /^off · traffic\.0\.load=0\.9\s/);
  assert.equal(lines[6], `report: ${join(out, 'index.html')}`);
  for (const f of ['index.html', 'results.json', 'points.csv', 'curves.csv']) assert.ok(existsSync(join(out, f)), f);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
  assert.equal(results.x, 'traffic.0.load');
  assert.deepEqual(results.points.map((p) => [p.index, p.variant, p.values['traffic.0.load']]), [[0, 'part9', 0.3], [1, 'part9', 0.9], [2, 'off', 0.3], [3, 'off', 0.9]]);
  assert.ok(results.points.every((p) => p.groups.map((g) => g.name).join() === 'hot,cold' && p.groups.every((g) => g.deliveredGbps > 0)));
  assert.equal(new Set(results.points.map((p) => p.seed)).size, 4, 'each point has its own seed');
  assert.ok(results.points[1]!.ccpsSent > 0);
  assert.equal(results.points[3]!.ccpsSent, 0);
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.ok(html.includes('hot throughput (Gbit/s) vs traffic.0.load'));
  assert.ok((html.match(/<svg/g) ?? []).length >= 6, 'one chart per flow group and metric');
  const csv = readFileSync(join(out, 'points.csv'), 'utf8').split('\r\n');
  assert.match(csv[0]!, /^point,variant,traffic\.0\.load,seed,hot offered Gbit\/s,hot Gbit\/s,hot fraction of offered,hot p99 ns,/);
  assert.equal(csv.length, 6);
  // issue 21 item 2 curves.csv: a row per (variant, group, point), each curve in offered-load order.
  const curves = readFileSync(join(out, 'curves.csv'), 'utf8').split('\r\n').map((l) => l.split(','));
  assert.equal(curves[0]!.join(), 'variant,group,traffic.0.load,point,offered,accepted,latency,p99_latency,saturated');
  assert.equal(curves.length, 10);
  assert.deepEqual(curves.slice(1, 9).map((r) => r.slice(0, 5).join()), [
    'part9,hot,0.3,0,0.3', 'part9,hot,0.9,1,0.9', 'part9,cold,0.3,0,0.1', 'part9,cold,0.9,1,0.1',
    'off,hot,0.3,2,0.3', 'off,hot,0.9,3,0.9', 'off,cold,0.3,2,0.1', 'off,cold,0.9,3,0.1',
  ]);
  for (const r of curves.slice(1, 9)) {
    assert.ok(Number(r[5]) > 0 && Number(r[6]) > 0 && Number(r[7]) > 0, r.join());
    assert.match(r[8]!, /^(true|false)$/);
  }
  assert.equal(curves[2]![8], 'true', 'incast at 0.9 into one sink accepts a third of it');
});

test('issue 7 §5 riodp sweep determinism: --workers 1 and --workers 2 write the same results.json (seed per point from the scenario seed and the point index)', () => {
  const grid = file('grid.yaml', GRID);
  const one = riodp(['sweep', grid, '--out', join(dir, 'w1'), '--workers', '1', '--json']);
  const two = existsSync(join(dir, 'w2', 'results.json')) ? undefined : riodp(['sweep', grid, '--out', join(dir, 'w2'), '--workers', '2']);
  assert.equal(one.status, 0);
  if (two !== undefined) assert.equal(two.status, 0);
  const text = (d: string): string => readFileSync(join(dir, d, 'results.json'), 'utf8');
  assert.equal(text('w1'), text('w2'));
  const s = JSON.parse(one.stdout) as { grid: string; report: string; workers: number; points: unknown[] };
  assert.equal(s.grid, 'tiny sweep');
  assert.equal(s.workers, 1);
  assert.equal(s.report, join(dir, 'w1', 'index.html'));
  assert.equal(s.points.length, 4);
});

test('issue 7 §5 riodp sweep: an invalid grid is refused with exit 2 and one "path: expectation" line per problem', () => {
  const bad = file('bad.yaml', 'scenario: tiny.yaml\nparameters:\n  traffic.0.load: 0.5\n  variants: [part9, nope]\ncolour: red\n');
  const r = riodp(['sweep', bad, '--out', join(dir, 'bad')]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^riodp sweep: .*bad\.yaml: colour: unknown field$/m);
  const second = riodp(['sweep', file('bad2.yaml', 'scenario: tiny.yaml\nparameters:\n  traffic.0.load: 0.5\n  variants: [part9, nope]\n'), '--out', join(dir, 'bad')]);
  assert.equal(second.status, 2);
  assert.match(second.stderr, /: parameters\.traffic\.0\.load: expected a non-empty list of values$/m);
  const third = riodp(['sweep', file('bad3.yaml', 'scenario: tiny.yaml\nparameters:\n  variants: [part9, nope]\n  traffic.0.load: [0.5]\n'), '--out', join(dir, 'bad')]);
  assert.equal(third.status, 2);
  assert.match(third.stderr, /: parameters\.variants\.1: expected one of the scenario's variants \("part9", "off"\), not "nope"$/m);
  assert.ok(!existsSync(join(dir, 'bad')), 'nothing is written for a refused grid');
});

test('issue 7 §5 riodp sweep: a grid point the scenario schema refuses is reported with its point, its values and the scenario path (exit 2)', () => {
  const grid = file('badpoint.yaml', 'scenario: tiny.yaml\nparameters:\n  traffic.0.load: [0.5, 7]\n  traffic.4.load: [0.1]\n');
  const r = riodp(['sweep', grid, '--out', join(dir, 'badpoint')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /: parameters\.traffic\.4\.load: point 0 \(part9 · traffic\.0\.load=0\.5 · traffic\.4\.load=0\.1\): expected an index below 2 into traffic, not "4"$/m);
  assert.match(r.stderr, /: point 1 \(part9 · traffic\.0\.load=7 · traffic\.4\.load=0\.1\): traffic\.0\.load: /m);
  const noX = riodp(['sweep', file('nox.yaml', 'scenario: tiny.yaml\nparameters:\n  variants: all\n'), '--out', join(dir, 'nox')]);
  assert.equal(noX.status, 2);
  assert.match(noX.stderr, /: parameters: expected a parameter whose values are all numbers, to draw the curves against$/m);
  const workers = riodp(['sweep', join(dir, 'grid.yaml'), '--workers', '0']);
  assert.equal(workers.status, 2);
  assert.match(workers.stderr, /--workers: expected a positive integer/);
});
