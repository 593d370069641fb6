import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadGridFile, parseGrid, valueLabel } from './grid.ts';
import { gridPoints, pointSeed } from './points.ts';
import { sweepCharts, sweepResults } from './output.ts';
import type { PointMetrics } from './metrics.ts';
import { workerFile } from './pool.ts';

const SCENARIO = `
  name: s
  seed: 7
  duration: 20us
  topology: { kind: switch, hosts: 4 }
  traffic:
    - { group: hot, pattern: incast, sink: 0, load: 0.5 }`;

const grid = (parameters: string, extra = ''): ReturnType<typeof parseGrid> => parseGrid(`scenario:${SCENARIO}\n${extra}parameters:\n${parameters}`, '.');

test('issue 7 §5 sweep grid: the points are the cartesian product in the grid file order, the last parameter varying fastest', () => {
  const g = grid('  traffic.0.load: [0.2, 0.4]\n  switch.speedup: [1, 2, 4]\n', 'x: switch.speedup\n');
  const points = gridPoints(g);
  assert.equal(g.x, 'switch.speedup');
  assert.equal(g.variantDimension, false);
  assert.deepEqual(points.map((p) => [p.values['traffic.0.load'], p.values['switch.speedup']]), [[0.2, 1], [0.2, 2], [0.2, 4], [0.4, 1], [0.4, 2], [0.4, 4]]);
  const doc = JSON.parse(points[5]!.text) as { switch: { speedup: number }; traffic: { load: number }[]; seed: number };
  assert.equal(doc.switch.speedup, 4, 'a missing mapping on the path is created');
  assert.equal(doc.traffic[0]!.load, 0.4);
  assert.equal(doc.seed, points[5]!.seed);
});

test('issue 7 §5 sweep determinism: a point seed is a 32-bit function of the scenario seed and the point index alone', () => {
  const points = gridPoints(grid('  traffic.0.load: [0.2, 0.4, 0.6]\n'));
  assert.deepEqual(points.map((p) => p.seed), [0, 1, 2].map((i) => pointSeed(7, i)));
  assert.equal(new Set(points.map((p) => p.seed)).size, 3);
  for (const s of [0, 1, 0xffffffff]) for (const i of [0, 1, 1000]) assert.ok(Number.isInteger(pointSeed(s, i)) && pointSeed(s, i) >= 0 && pointSeed(s, i) <= 0xffffffff);
  assert.notEqual(pointSeed(1, 0), pointSeed(2, 0));
});

test('issue 7 §5 sweep report: one curve per combination of the dimensions other than x, points in x order', () => {
  const g = grid('  traffic.0.load: [0.6, 0.2]\n  switch.speedup: [1, 2]\n');
  const points = gridPoints(g);
  const metrics: PointMetrics[] = points.map((p) => ({
    groups: [{ name: 'hot', offeredGbps: 1, deliveredGbps: p.values['traffic.0.load'] as number, deliveredFraction: 1, p99LatencyNs: null, meanLatencyNs: null, offeredLoad: null }],
    ccpsSent: 0, voqSymbols: 0, events: 1,
  }));
  const charts = sweepCharts(g, sweepResults(g, points, metrics));
  assert.deepEqual(charts.map((c) => c.metric), ['hot throughput (Gbit/s)', 'hot throughput (fraction of offered)', 'hot p99 latency (ns)']);
  assert.deepEqual(charts[0]!.curves.map((c) => [c.name, c.points]), [['switch.speedup=1', [[0.2, 0.2], [0.6, 0.6]]], ['switch.speedup=2', [[0.2, 0.2], [0.6, 0.6]]]]);
  assert.deepEqual(charts[2]!.curves.map((c) => c.points.length), [0, 0], 'a point with no latency has no marker');
});

test('issue 7 §5 sweep grid: a parameter value that is a mapping or null is labelled in YAML flow style', () => {
  assert.equal(valueLabel(null), 'null');
  assert.equal(valueLabel({ highWatermark: 8, lowWatermark: 4 }), '{ highWatermark: 8, lowWatermark: 4 }');
  assert.equal(valueLabel(0.5), '0.5');
});

test('issue 7 §5 sweep example: scenarios/sweep-load.yaml sweeps the hotspot load under the three variants (15 points)', () => {
  const g = loadGridFile(fileURLToPath(new URL('../../../scenarios/sweep-load.yaml', import.meta.url)));
  assert.equal(g.x, 'traffic.0.load');
  assert.deepEqual(g.variants.map((v) => v.name), ['no congestion control', 'Part 9 XON/XOFF', 'VoQ backpressure']);
  assert.equal(gridPoints(g).length, 15);
});

test('issue 7 §5 sweep workers: the worker file follows the module extension (worker.ts under tsx, worker.js in dist)', () => {
  assert.equal(workerFile('file:///p/src/sim/sweep/pool.ts'), '/p/src/sim/sweep/worker.ts');
  assert.equal(workerFile('file:///p/dist/sim/sweep/pool.js'), '/p/dist/sim/sweep/worker.js');
});

test('issue 7 §5 sweep grid: a scenario with variants makes them a dimension even when the grid does not list them', () => {
  const g = parseGrid(`scenario:${SCENARIO}\n  variants:\n    - { name: a }\n    - { name: b, overrides: { switch: { speedup: 2 } } }\nparameters:\n  traffic.0.load: [0.2, 0.4]\n`, '.');
  assert.equal(g.variantDimension, true);
  const points = gridPoints(g);
  assert.deepEqual(points.map((p) => [p.variant, p.values['traffic.0.load']]), [['a', 0.2], ['a', 0.4], ['b', 0.2], ['b', 0.4]]);
  assert.equal((JSON.parse(points[3]!.text) as { switch: { speedup: number } }).switch.speedup, 2);
});

test('issue 20 replications in a sweep: a point is one run, so replications above 1 are refused (they would run and report nothing)', () => {
  assert.throws(() => gridPoints(grid('  replications: [1, 3]\n')), /point 1 \(replications=3\): replications: expected none or 1 in a sweep/);
  assert.equal(gridPoints(grid('  replications: [1]\n')).length, 1);
});
