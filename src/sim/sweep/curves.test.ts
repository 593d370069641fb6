import { test } from 'node:test';
import assert from 'node:assert/strict';
import { curvesCsv, saturatedPoints, SATURATION_EPSILON, SATURATION_LATENCY_FACTOR } from './curves.ts';
import { parseGrid } from './grid.ts';
import { groupLoad } from './metrics.ts';
import type { PointMetrics } from './metrics.ts';
import { sweepResults } from './output.ts';
import { gridPoints } from './points.ts';

test('issue 21 item 2 saturation: a point accepting less than offered × (1 − ε), or with mean latency above 10× its curve\'s lowest-load latency, is saturated', () => {
  assert.equal(SATURATION_EPSILON, 0.02);
  assert.equal(SATURATION_LATENCY_FACTOR, 10);
  const curve = [
    { offered: 0.1, accepted: 0.1, latency: 100 },
    { offered: 0.5, accepted: 0.495, latency: 999 }, // 1% short, latency under 10×: not saturated
    { offered: 0.7, accepted: 0.7, latency: 1001 }, // latency above 10× the zero-load 100 ns
    { offered: 0.9, accepted: 0.8, latency: 500 }, // accepts 89% of the offered load
    { offered: 1, accepted: null, latency: null }, // nothing delivered
  ];
  assert.deepEqual(saturatedPoints(curve), [false, false, true, true, true]);
  assert.deepEqual(saturatedPoints([{ offered: 0.2, accepted: 0.2, latency: null }, { offered: 0.4, accepted: 0.4, latency: 1e9 }]), [false, false], 'no zero-load latency: the latency rule does not apply');
  assert.deepEqual(saturatedPoints([{ offered: null, accepted: null, latency: 10 }, { offered: null, accepted: null, latency: 200 }]), [false, true], 'no offered load: the latency rule alone');
  assert.deepEqual(saturatedPoints([]), []);
});

test('issue 21 item 2 offered load of a flow group: the load its traffic entries share (group defaults to the pattern), null when they differ', () => {
  const traffic = [
    { group: 'hot', pattern: 'incast', load: 0.6 },
    { group: 'hot', pattern: 'uniform', load: 0.6 },
    { pattern: 'uniform', load: 0.2 },
    { group: 'mixed', pattern: 'uniform', load: 0.1 },
    { group: 'mixed', pattern: 'uniform', load: 0.3 },
  ] as const;
  assert.equal(groupLoad(traffic, 'hot'), 0.6);
  assert.equal(groupLoad(traffic, 'uniform'), 0.2);
  assert.equal(groupLoad(traffic, 'mixed'), null);
  assert.equal(groupLoad(traffic, 'none'), null);
});

test('issue 21 item 2 curves.csv: one row per (variant, group, point), sorted by variant, group, other parameters and offered load, with BookSim2-like offered, accepted, latency columns and saturated', () => {
  const g = parseGrid(`scenario:
  name: s
  seed: 7
  duration: 20us
  topology: { kind: switch, hosts: 4 }
  traffic:
    - { group: hot, pattern: incast, sink: 0, load: 0.5 }
parameters:
  traffic.0.load: [0.8, 0.2, 0.5]
  switch.speedup: [1, 2]
`, '.');
  const points = gridPoints(g);
  // Point latency 100 ns at load 0.2; at 0.8 speedup 1 accepts half, speedup 2 all but with 20× latency.
  const metrics: PointMetrics[] = points.map((p) => {
    const load = p.values['traffic.0.load'] as number;
    const speedup = p.values['switch.speedup'] as number;
    const high = load === 0.8;
    return {
      groups: [
        { name: 'hot', offeredGbps: load, deliveredGbps: load, deliveredFraction: high && speedup === 1 ? 0.5 : 1, p99LatencyNs: 300, meanLatencyNs: high && speedup === 2 ? 2000 : 100, offeredLoad: load },
        { name: 'cold', offeredGbps: 0, deliveredGbps: 0, deliveredFraction: 0, p99LatencyNs: null, meanLatencyNs: null, offeredLoad: null },
      ],
      ccpsSent: 0, voqSymbols: 0, events: 1,
    };
  });
  const lines = curvesCsv(g, sweepResults(g, points, metrics)).split('\r\n');
  assert.deepEqual(lines, [
    'group,traffic.0.load,switch.speedup,point,offered,accepted,latency,p99_latency,saturated',
    'hot,0.2,1,2,0.2,0.2,100,300,false',
    'hot,0.5,1,4,0.5,0.5,100,300,false',
    'hot,0.8,1,0,0.8,0.4,100,300,true',
    'hot,0.2,2,3,0.2,0.2,100,300,false',
    'hot,0.5,2,5,0.5,0.5,100,300,false',
    'hot,0.8,2,1,0.8,0.8,2000,300,true',
    'cold,0.2,1,2,,,,,false',
    'cold,0.5,1,4,,,,,false',
    'cold,0.8,1,0,,,,,false',
    'cold,0.2,2,3,,,,,false',
    'cold,0.5,2,5,,,,,false',
    'cold,0.8,2,1,,,,,false',
    '',
  ]);
});
