import type { Series, SimReport, SweepReport, VariantResult } from '../../src/report/types.ts';

/**
 * A report shaped like the built-in scenario's (issue 7 §5): a two-stage fabric with a hotspot
 * and victim flows, run without congestion control, with Part 9 XON/XOFF and with VoQ
 * backpressure. The numbers are made up but behave the way the three variants should, and the
 * names carry markup so that escaping is exercised everywhere a name is shown.
 */

function wave(name: string, level: number, swing: number, period: number, n = 40, dt = 5): Series {
  const points: [number, number][] = [];
  for (let i = 0; i < n; i++) points.push([i * dt, level + swing * Math.sin((2 * Math.PI * i) / period)]);
  return { name, points };
}

function ramp(name: string, top: number, n = 40, dt = 5): Series {
  const points: [number, number][] = [];
  for (let i = 0; i < n; i++) points.push([i * dt, Math.min(top, Math.floor((i * top) / 10))]);
  return { name, points };
}

function variant(name: string, victim: number, hotspot: number, queue: number, xoff: readonly Series[]): VariantResult {
  return {
    name,
    headline: {
      'victim throughput (Gbit/s)': victim,
      'hotspot throughput (Gbit/s)': hotspot,
      'victim p99 latency (ns)': Math.round(40_000 / victim),
    },
    throughput: [wave('victim flows', victim, 0.4, 9), wave('hotspot <flows> & co', hotspot, 0.2, 13)],
    latency: [
      { name: 'victim flows', count: 12_000, mean: 900 / victim, percentiles: { '50': 800 / victim, '99': 4000 / victim, '99.9': 9000 / victim } },
      { name: 'hotspot <flows> & co', count: 3_000, mean: 20_000, percentiles: { '50': 15_000, '99': 60_000, '99.9': 80_000 } },
    ],
    occupancy: [ramp('switch s1 port 3 output', queue), ramp('switch s2 input "a"', Math.ceil(queue / 2))],
    xoff,
    counts: { 'CCPs sent': xoff.length > 0 ? 120 : 0, 'VoQ symbols': name.includes('VoQ') ? 340 : 0 },
  };
}

export const fixtureSimReport: SimReport = {
  title: 'Built-in scenario: hotspot & victims <two-stage fabric>',
  generated: '2025-01-02T03:04:05.000Z',
  riodpVersion: '0.1.0',
  scenarioText: 'name: hotspot\n# a comment with <script>alert("x")</script> & friends\ntopology:\n  kind: leaf-spine\n',
  seed: 42,
  simulatedTime: 200,
  wallSeconds: 3.25,
  variants: [
    variant('no congestion control', 2.1, 9.5, 64, []),
    variant('Part 9 XON/XOFF', 9.3, 9.4, 12, [ramp('XOFF’d flows', 4), ramp('CCPs sent', 30)]),
    variant('VoQ backpressure', 9.6, 9.5, 8, [ramp('VoQ symbols', 25)]),
  ],
  reproductions: [
    { source: 'Karol, Hluchyj & Morgan (1987)', quantity: 'FIFO saturation throughput, N=2', published: 0.75, measured: 0.7493, tolerance: '±0.005', pass: true },
    { source: 'Karol, Hluchyj & Morgan (1987)', quantity: 'FIFO saturation throughput, N=8', published: 0.6184, measured: 0.6301, tolerance: '±0.005', pass: false },
  ],
};

export const fixtureSweepReport: SweepReport = {
  title: 'Load sweep <grid>',
  generated: '2025-01-02T03:04:05.000Z',
  riodpVersion: '0.1.0',
  gridText: 'load: [0.2, 0.5, 0.8]\ncc: [off, xon-xoff]\n',
  xLabel: 'offered load',
  charts: [
    {
      metric: 'throughput (fraction of link rate)',
      curves: [
        { name: 'cc off', points: [[0.2, 0.2], [0.5, 0.45], [0.8, 0.52]] },
        { name: 'cc xon-xoff', points: [[0.2, 0.2], [0.5, 0.5], [0.8, 0.78]] },
      ],
    },
    {
      metric: 'victim p99 latency (ns)',
      curves: [
        { name: 'cc off', points: [[0.2, 900], [0.5, 4000], [0.8, 30000]] },
        { name: 'cc xon-xoff', points: [[0.2, 900], [0.5, 1500], [0.8, 2600]] },
      ],
    },
  ],
  points: [
    { load: 0.2, cc: 'off', throughput: 0.2 },
    { load: 0.5, cc: 'off', throughput: 0.45 },
    { load: 0.8, cc: '<xon-xoff>', throughput: 0.78 },
  ],
};
