import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../config/issues.ts';
import { parseScenario } from './load.ts';
import { resultFiles } from './results-file.ts';
import { runScenario } from './run.ts';
import type { VariantRun } from './run.ts';

// Two stages, a hotspot group and a uniform group, Part 9 on: flows, groups, XOFF time and switch
// buffers all have something to count.
const BASE = `
name: output settings
seed: 3
duration: 60us
warmup: 10us
topology: { kind: leaf-spine, leaves: 2, spines: 2, hostsPerLeaf: 3 }
traffic:
  - { group: hot, pattern: incast, sink: 0, load: 0.5, sources: [1, 2, 3, 4] }
  - { group: rest, pattern: uniform, load: 0.2, sources: [5], destinations: [1, 2, 3] }
`;

function run(output: string): VariantRun {
  const v = runScenario(parseScenario(`${BASE}${output}`)).variants[0];
  assert.ok(v !== undefined);
  return v;
}

/** The figures that do not depend on the output settings. */
function shared(v: VariantRun): unknown {
  const r = v.results;
  return { events: v.events, groups: v.groups, aggregate: r.aggregate, counts: r.counts, headline: r.headline, throughput: r.throughputSeries, window: r.window };
}

test('issue 20 output.flows none: no per-flow rows or histograms; the aggregate, the groups, the counts and the events are those of flows all', () => {
  const all = run('output: { flows: all }\n');
  const none = run('output: { flows: none }\n');
  assert.ok(all.results.flows.length >= 7, 'the scenario has flows to leave out');
  assert.equal(none.results.flows.length, 0);
  assert.deepEqual(shared(none), shared(all));
  assert.ok(all.groups.every((g) => g.flows > 0) && none.groups.every((g, i) => g.flows === all.groups[i]?.flows), 'groups still count their flows');
  assert.ok(all.results.aggregate.deliveredPackets > 0 && all.results.aggregate.packetLatency.count > 0);
  // The buffers are untouched by flows: none.
  assert.deepEqual(none.results.occupancy, all.results.occupancy);
  const files = resultFiles({ name: 'x', variants: [none] });
  assert.equal(files['output-settings.flows.csv']?.trim().split('\n').length, 1, 'flows.csv keeps its header only');
  assert.equal(files['output-settings.latency.csv']?.trim().split('\n').length, 3, 'latency.csv keeps the header and the aggregate rows');
});

test('issue 20 output.occupancy top: every buffer\'s summary, the series of the buffers the report charts only; none: no buffer at all; the rest unchanged', () => {
  const all = run('');
  const top = run('output: { occupancy: top }\n');
  const none = run('output: { occupancy: none }\n');
  const charted = all.series.buffers.map((b) => b.component);
  assert.ok(charted.length > 0 && charted.length < all.results.occupancySeries.buffers.length, 'the report charts some of the buffers');
  assert.deepEqual(top.results.occupancy, all.results.occupancy);
  assert.deepEqual(top.results.occupancySeries.buffers.map((b) => b.component), charted);
  assert.deepEqual(top.series, all.series);
  assert.deepEqual([none.results.occupancy, none.results.occupancySeries.buffers, none.series.buffers], [[], [], []]);
  for (const v of [top, none]) {
    assert.deepEqual(shared(v), shared(all));
    assert.deepEqual(v.results.flows, all.results.flows);
  }
});

test('issue 20 output settings: an unknown value is one error naming the field and the choices', () => {
  assert.throws(() => parseScenario(`${BASE}output: { flows: some }\n`), (e: unknown) => e instanceof ConfigError && /output\.flows: expected one of all, none/.test(e.message));
  assert.throws(() => parseScenario(`${BASE}output: { occupancy: summary }\n`), (e: unknown) => e instanceof ConfigError && /output\.occupancy: expected one of all, top, none/.test(e.message));
});
