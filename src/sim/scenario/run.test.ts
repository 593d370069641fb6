import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataRate } from '../fabric/link-rate.ts';
import { buildFabric, defaultSampleInterval } from './build.ts';
import { parseScenario } from './load.ts';
import { resultFiles } from './results-file.ts';
import { runScenario, runVariant } from './run.ts';
import type { Progress } from './run.ts';

const TINY = `
name: tiny
seed: 5
duration: 100us
warmup: 10us
topology: { kind: leaf-spine, leaves: 2, spines: 2, hostsPerLeaf: 2 }
link: { lanes: 1, baud: 3.125 }
linkOverrides:
  - { match: "leaf*", lanes: 4 }
  - { match: "leaf1:3-*", propagation: 100ns }
traffic:
  - { group: victims, pattern: uniform, load: 0.3, sources: [0, 1], destinations: [2, 3] }
  - { group: burst, pattern: onoff, load: 0.2, sizes: { min: 64B, max: 512B }, sources: [2] }
  - { group: perm, pattern: permutation, load: 0.1, prio: 1, sizes: [{ bytes: 64B, weight: 3 }, { bytes: 1KiB, weight: 1 }] }
  - { group: sink, pattern: incast, sink: 0, load: 0.1, crf: 1 }
output: { sampleInterval: 5us }
`;

test('issue 7 §3 buildFabric: switches with the topology\'s routing tables, one end point per host, one link per topology link with its overrides', () => {
  const s = parseScenario(TINY);
  const b = buildFabric(s, 'tiny');
  assert.deepEqual(b.switches.map((x) => x.name), ['leaf0', 'leaf1', 'spine0', 'spine1']);
  assert.deepEqual(b.endpoints.map((e) => e.id), [0, 1, 2, 3]);
  // leaf0 → host 3: up to spine 3 mod 2 = 1 (port 2 + 1), next hop spine1's port to leaf 1.
  assert.deepEqual(b.switches[0]?.config.routes.get(3), { port: 3, next: 1 });
  const spec = new Map(b.links.map((l) => [l.name, l.spec]));
  assert.deepEqual(spec.get('h0'), { lanes: 1, baud: 3.125, encoding: '8b10b', propagation: 0 });
  assert.deepEqual(spec.get('leaf0:2-spine0:0'), { lanes: 4, baud: 3.125, encoding: '8b10b', propagation: 0 });
  // Later overrides win and merge field by field.
  assert.deepEqual(spec.get('leaf1:3-spine1:1'), { lanes: 4, baud: 3.125, encoding: '8b10b', propagation: 100_000 });
  assert.equal(b.collector.sampleInterval, 5_000_000);
  assert.equal(b.collector.warmup, 10_000_000);
  assert.deepEqual(b.collector.groups, ['victims', 'burst', 'perm', 'sink']);
});

test('issue 7 §3 traffic: each entry becomes sources on its hosts; permutation is a derangement; incast all to the sink; groups label their flows', () => {
  const b = buildFabric(parseScenario(TINY));
  const flows = b.flows.list();
  const group = (f: (typeof flows)[number]): string => b.collector.groups[b.collector.groupOf(f.index)] ?? '-';
  const byGroup = new Map<string, string[]>();
  for (const f of flows) byGroup.set(group(f), [...(byGroup.get(group(f)) ?? []), `${f.src}>${f.dst}/${f.prio}/${f.crf}`]);
  assert.deepEqual(byGroup.get('victims'), ['0>2/0/0', '0>3/0/0', '1>2/0/0', '1>3/0/0']);
  assert.deepEqual(byGroup.get('burst'), ['2>0/0/0', '2>1/0/0', '2>3/0/0']);
  const perm = (byGroup.get('perm') ?? []).map((k) => k.split('/')[0]!.split('>').map(Number));
  assert.equal(perm.length, 4);
  assert.deepEqual(perm.map(([s]) => s).sort(), [0, 1, 2, 3]);
  assert.deepEqual(perm.map(([, d]) => d).sort(), [0, 1, 2, 3]);
  for (const [s, d] of perm) assert.notEqual(s, d);
  assert.deepEqual(byGroup.get('sink'), ['1>0/0/1', '2>0/0/1', '3>0/0/1']);
  // Source link rate reaches the flow table (throughputFraction needs it).
  assert.equal(flows[0]?.linkRate, dataRate({ lanes: 1, baud: 3.125, encoding: '8b10b', propagation: 0 }));
});

test('issue 7 §3 traffic groups (decision): a flow two entries could use belongs to the group of the first entry; the default group is the pattern', () => {
  const b = buildFabric(parseScenario(`
name: g
duration: 10us
topology: { kind: switch, hosts: 3 }
traffic:
  - { pattern: uniform, load: 0.1, sources: [0] }
  - { group: hot, pattern: hotspot, hotspot: 2, h: 0.5, load: 0.1, sources: [0, 1] }
`));
  assert.deepEqual(b.collector.groups, ['uniform', 'hot']);
  const label = b.flows.list().map((f) => `${f.src}>${f.dst}:${b.collector.groups[b.collector.groupOf(f.index)] ?? '-'}`);
  assert.deepEqual(label, ['0>1:uniform', '0>2:uniform', '1>0:hot', '1>2:hot']);
});

test('issue 7 §3 hotspot (decision): the hotspot is among the uniform destinations even when `destinations` leaves it out (Pfister & Norton)', () => {
  const b = buildFabric(parseScenario(`
name: h
duration: 10us
topology: { kind: switch, hosts: 4 }
traffic:
  - { pattern: hotspot, hotspot: 3, h: 0.2, destinations: [1, 2], load: 0.1, sources: [0] }
`));
  assert.deepEqual(b.flows.list().map((f) => f.dst), [1, 2, 3]);
  const spec = b.endpoints[0]?.source.flows.map((f) => f.dst);
  assert.deepEqual(spec, [1, 2, 3]);
});

test('issue 7 §2 VoQ backpressure in a fabric (decision): symbols are generated on switch-to-switch ports only; staging queues default to the widest switch', () => {
  const b = buildFabric(parseScenario(`${TINY}\nswitch: { queueing: cioq-voq-backpressure, voq: { high: 4, low: 1 } }\n`));
  const leaf = b.switches[0]?.config.voq;
  assert.deepEqual(leaf?.generate, [2, 3]);
  assert.equal(leaf.stagingQueues, 4);
  assert.deepEqual(b.switches[2]?.config.voq?.generate, [0, 1]);
});

test('issue 7 §3 transport size (decision): Dev8 while every host ID fits 8 bits, else Dev16; switches assume the same', () => {
  const small = buildFabric(parseScenario(TINY));
  assert.equal(small.switches[0]?.config.tt, 0);
  const big = buildFabric(parseScenario(`
name: big
duration: 1us
topology: { kind: switch, hosts: 2 }
tt: 1
traffic: [{ pattern: uniform, load: 0.1 }]
`));
  assert.equal(big.switches[0]?.config.tt, 1);
  assert.equal(defaultSampleInterval(2_000_000_000), 10_000_000);
  assert.equal(defaultSampleInterval(10_000), 1000);
});

test('issue 7 §3 runScenario: every group offered and delivered, series from 0 to the end, progress every N ps', () => {
  const s = parseScenario(TINY);
  const seen: Progress[] = [];
  const r = runScenario(s, { progressEvery: 25_000_000, onProgress: (p) => seen.push(p) });
  assert.deepEqual(seen.map((p) => p.now), [25_000_000, 50_000_000, 75_000_000, 100_000_000]);
  assert.ok(seen.every((p) => p.end === 100_000_000 && p.variants === 1 && p.index === 0 && p.variant === 'tiny'));
  const v = r.variants[0]!;
  assert.ok(v.events > 1000);
  for (const g of v.groups) {
    assert.ok(g.flows > 0, g.name);
    assert.ok(g.offeredBps > 0 && g.deliveredBps > 0, g.name);
    assert.ok(g.deliveredFraction > 0.5 && g.deliveredFraction < 1.2, `${g.name} ${g.deliveredFraction}`);
    assert.ok(g.packetLatency.count > 0);
  }
  for (const g of v.series.groups) {
    assert.equal(g.delivered.length, 20);
    assert.equal(g.xoff.t.length, 21);
  }
  const total = v.series.groups.reduce((a, g) => a + g.delivered.reduce((x, y) => x + y, 0), 0);
  assert.equal(total, v.results.throughputSeries.aggregate.reduce((x, y) => x + y, 0));
  assert.ok(v.series.buffers.length > 0 && v.series.buffers.length <= 6);
  assert.ok(v.series.buffers.every((b) => /\/(in|out)\d+$/.test(b.component)));
});

test('issue 7 §3 determinism: the same seed gives identical results files; another seed does not', () => {
  const a = resultFiles(runScenario(parseScenario(TINY)));
  const b = resultFiles(runScenario(parseScenario(TINY)));
  assert.deepEqual(Object.keys(a), ['results.json', 'groups.csv', 'tiny.flows.csv', 'tiny.occupancy.csv', 'tiny.latency.csv']);
  assert.deepEqual(a, b);
  const c = runVariant(parseScenario(TINY.replace('seed: 5', 'seed: 6')).variants[0]!);
  const first = (JSON.parse(a['results.json']!) as { variants: { results: { flows: unknown } }[] }).variants[0]!;
  assert.notDeepEqual(c.results.flows, first.results.flows);
});
