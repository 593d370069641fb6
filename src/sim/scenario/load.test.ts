import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors as errors } from '../../../test/support/scenario-errors.ts';
import { buildFabric } from './build.ts';
import { parseScenario, withOverrides } from './load.ts';
import { deepMerge } from './merge.ts';

const MINIMAL = `
name: tiny
duration: 50us
topology: { kind: switch, hosts: 4 }
traffic:
  - { pattern: uniform, load: 0.5 }
`;

test('issue 7 §3 scenario schema: a minimal file takes every default', () => {
  const s = parseScenario(MINIMAL);
  assert.equal(s.name, 'tiny');
  assert.equal(s.variants.length, 1);
  const v = s.variants[0]!;
  assert.equal(v.name, 'tiny');
  const c = v.config;
  assert.equal(c.seed, 1);
  assert.equal(c.duration, 50_000_000);
  assert.equal(c.warmup, 0);
  assert.deepEqual(c.link, { lanes: 4, baud: 3.125, encoding: '8b10b', propagation: 0 });
  assert.deepEqual(c.linkOverrides, []);
  assert.deepEqual(c.switch, { speedup: 1, slot: null });
  // The switch element's own defaults (src/node/switch/config.ts) fill the rest.
  const sw = buildFabric(s).switches[0]?.config;
  assert.deepEqual([sw?.queueing, sw?.arbitration, sw?.byClass, sw?.inputBuffers[0], sw?.outputPackets, sw?.congestion.every((x) => x === null)], ['output-queued', 'round-robin', true, { packets: 8, reservePerPriority: 1 }, 32, true]);
  assert.deepEqual(c.endpoints.ccp, { orphanPeriod: 1_000_000_000 });
  assert.equal(c.endpoints.serviceTime, 0);
  assert.equal(c.traffic[0]?.sizes, 256);
  assert.equal(c.traffic[0].prio, 0);
  assert.deepEqual(c.output, {});
  assert.equal(v.fabric.hosts.length, 4);
  assert.equal(s.text, MINIMAL);
});

test('issue 16 item 3 (decision SW9): switch.maintenanceBudget takes the simulator\'s times (ps) and reaches every simulated switch; absent, a simulated switch has none', () => {
  const s = parseScenario(`${MINIMAL}switch: { maintenanceBudget: { burst: 4, interval: 10us } }\n`);
  assert.deepEqual(buildFabric(s).switches[0]?.config.maintenanceBudget, { burst: 4, interval: 10_000_000 });
  assert.equal(buildFabric(parseScenario(MINIMAL)).switches[0]?.config.maintenanceBudget, null);
  assert.deepEqual(errors(`${MINIMAL}switch: { maintenanceBudget: { burst: 0, interval: 0 } }\n`), [
    'switch.maintenanceBudget.burst: expected an integer 1..1048576',
    'switch.maintenanceBudget.interval: expected a time: ps as a number, or a string with ps, ns, us, ms or s ("10us"), above 0',
  ]);
});

test('issue 7 §3 scenario schema: an invalid file is refused with the path of each bad field and what was expected', () => {
  const got = errors(`
name: bad
duration: 2 parsecs
warmup: 1us
topology: { kind: switch, hosts: 1 }
link: { lanes: 3, baud: 3.2, encoding: 8b10b, colour: red }
switch:
  queueing: cioq-voq-backpressure
  inputBuffer: { packets: 3, reservePerPriority: 1 }
  congestion: { highWatermark: 4, lowWatermark: 4 }
traffic:
  - { pattern: hotspot, load: 1.5, sizes: 64b, prio: 3 }
  - { pattern: sideways, load: 0.1 }
`);
  assert.deepEqual(got, [
    'duration: expected a time: ps as a number, or a string with ps, ns, us, ms or s ("10us"), above 0',
    'topology.hosts: expected an integer 2..192',
    'link.lanes: expected one of 1, 2, 4, 8, 16',
    'link.baud: expected a baud rate in Gbaud from 1.25 to 25.78125, a multiple of 1/1024 (1.25, 2.5, 3.125, 5, 6.25, 10.3125, 12.5, 25.78125)',
    'link.colour: unknown field',
    "switch.inputBuffer.reservePerPriority: expected fewer than packets / 3 (Part 6 §6.12 rule 4: priority 0 keeps a place after the three higher priorities' reserves)",
    'switch.congestion.lowWatermark: expected less than highWatermark (Annex A.1 hysteresis)',
    'switch.voq: missing, expected VoQ settings {high, low} with queueing cioq-voq-backpressure',
    'traffic.0.sizes: expected a size ("256B"), {min, max}, or a list of {bytes, weight}',
    'traffic.0.prio: expected an integer 0..2',
    'traffic.1.pattern: expected one of uniform, hotspot, permutation, incast, onoff, transpose, bit-complement, bit-reverse, shuffle, tornado, neighbour',
  ].sort((a, b) => got.indexOf(a) - got.indexOf(b)));
});

test('issue 7 §3 scenario schema: cross-field rules (hotspot needs hotspot and h, incast a sink, warm-up before the end, load at most 1 with Bernoulli)', () => {
  const got = errors(`
name: bad
duration: 10us
warmup: 10us
topology: { kind: switch, hosts: 4 }
traffic:
  - { pattern: hotspot, load: 0.5 }
  - { pattern: incast, load: 1.5 }
  - { pattern: onoff, load: 0.6, peak: 0.5 }
`);
  assert.deepEqual(got.sort(), [
    'traffic.0.h: missing, expected the hotspot fraction h 0..1',
    'traffic.0.hotspot: missing, expected the hotspot host ID',
    'traffic.1.load: expected a fraction 0..1 with bernoulli arrivals',
    'traffic.1.sink: missing, expected the incast sink host ID',
    'traffic.2.load: expected at most peak with on/off arrivals',
    'warmup: expected a time before duration',
  ]);
});

test('issue 7 §3 scenario schema: host IDs, link overrides and the transport size are checked against the built topology', () => {
  const got = errors(`
name: bad
duration: 10us
tt: 0
topology: { kind: leaf-spine, leaves: 20, spines: 2, hostsPerLeaf: 16 }
linkOverrides:
  - { match: "host*", lanes: 1 }
traffic:
  - { pattern: hotspot, load: 0.5, hotspot: 320, h: 0.1, sources: [0, 400] }
  - { pattern: incast, load: 0.5, sink: 3, sources: [3] }
`);
  assert.deepEqual(got.sort(), [
    'linkOverrides.0.match: expected a link name or pattern that matches a link (names look like h0, h1, leaf0:16-spine0:0)',
    'traffic.0.hotspot: expected a host ID 0..319 (the topology has 320 hosts)',
    'traffic.0.sources.1: expected a host ID 0..319 (the topology has 320 hosts)',
    'traffic.1.sources: expected at least one source other than the sink',
    'tt: expected 1 (Dev16): 320 hosts do not fit 8-bit device IDs',
  ]);
});

test('issue 7 §3 scenario schema: a topology the builders refuse is reported under topology', () => {
  assert.deepEqual(errors(`
name: bad
duration: 10us
topology: { kind: leaf-spine, leaves: 2, spines: 100, hostsPerLeaf: 100 }
traffic: [{ pattern: uniform, load: 0.1 }]
`), ['topology: hostsPerLeaf + spines give switches of 200 ports, more than 192']);
});

test('issue 7 §3 scenario schema: not YAML, or not a mapping, is one line', () => {
  assert.deepEqual(errors('name: [unclosed'), [errors('name: [unclosed')[0]!]);
  assert.match(errors('name: [unclosed')[0]!, /^not YAML: /);
  assert.deepEqual(errors('- a list'), ['expected a scenario mapping']);
});

test('issue 7 §3 variants (decision): a variant is the base deep-merged with its overrides; mappings merge, lists and null replace', () => {
  assert.deepEqual(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 }), { a: { b: 1, c: [3] }, d: 1, e: 2 });
  assert.deepEqual(deepMerge({ a: { b: 1 } }, { a: null }), { a: null });
  const s = parseScenario(`${MINIMAL}
switch: { congestion: { highWatermark: 6, lowWatermark: 2 } }
variants:
  - { name: off, overrides: { switch: { congestion: null } } }
  - { name: part9 }
  - name: voq
    overrides: { switch: { queueing: cioq-voq-backpressure, voq: { high: 6, low: 2 } }, seed: 9 }
`);
  assert.deepEqual(s.variants.map((v) => v.name), ['off', 'part9', 'voq']);
  assert.equal(s.variants[0]?.config.switch.congestion, null);
  assert.deepEqual(s.variants[1]?.config.switch.congestion, { highWatermark: 6, lowWatermark: 2 });
  assert.equal(s.variants[2]?.config.switch.queueing, 'cioq-voq-backpressure');
  assert.deepEqual(s.variants[2].config.switch.congestion, { highWatermark: 6, lowWatermark: 2 });
  assert.equal(s.variants[2].config.seed, 9);
  assert.equal(s.variants[0].config.seed, 1);
});

test('issue 7 §3 variants (decision): a bad override is reported under variants.<i>.overrides, a base problem once, names unique', () => {
  const got = errors(`
name: v
duration: 10us
topology: { kind: switch, hosts: 4 }
traffic: [{ pattern: uniform, load: 2 }]
variants:
  - { name: a, overrides: { switch: { queueing: cioq-voq-backpressure } } }
  - { name: b, overrides: { traffic: [{ pattern: uniform, load: 2 }] } }
  - { overrides: {} }
`);
  assert.deepEqual(got.sort(), [
    'traffic.0.load: expected a fraction 0..1 with bernoulli arrivals',
    'variants.0.overrides.switch.voq: missing, expected VoQ settings {high, low} with queueing cioq-voq-backpressure',
    'variants.2.name: missing, expected a non-empty string',
  ]);
  const named = errors(`${MINIMAL}
variants:
  - { name: a, overrides: { link: { lanes: 5 } } }
  - { name: a, overrides: { variants: [] } }
`);
  assert.deepEqual(named.sort(), [
    'variants.0.overrides.link.lanes: expected one of 1, 2, 4, 8, 16',
    'variants.1.name: expected a name no other variant has ("a" is taken)',
    'variants.1.overrides.variants: unknown field',
  ]);
});

test('issue 7 §5 riodp sim --seed/--out: the overrides replace every variant\'s seed and output directory', () => {
  const s = withOverrides(parseScenario(`${MINIMAL}\nvariants: [{ name: a }, { name: b, overrides: { seed: 4 } }]\n`), { seed: 77, dir: '/tmp/x' });
  assert.deepEqual(s.variants.map((v) => [v.config.seed, v.config.output.dir]), [[77, '/tmp/x'], [77, '/tmp/x']]);
});
