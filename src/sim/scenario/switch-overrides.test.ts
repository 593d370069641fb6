import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../config/issues.ts';
import { buildFabric } from './build.ts';
import { parseScenario } from './load.ts';
import { resultFiles } from './results-file.ts';
import { runScenario } from './run.ts';

// Two leaves of three hosts under one spine; each leaf has an incast onto its first host from its other two (1.6× the link), and a light permutation crosses the spine.
const BASE = `
name: per-switch
seed: 3
duration: 60us
warmup: 10us
topology: { kind: leaf-spine, leaves: 2, spines: 1, hostsPerLeaf: 3 }
traffic:
  - { group: sink0, pattern: incast, sink: 0, sources: [1, 2], load: 0.8 }
  - { group: sink3, pattern: incast, sink: 3, sources: [4, 5], load: 0.8 }
  - { group: across, pattern: permutation, load: 0.1 }
`;
// Speedup 4: the incast queues at the output, not at the inputs.
const FAST = `${BASE}switch: { speedup: 4 }\n`;

function maxOut(run: ReturnType<typeof runScenario>, component: string): number {
  const o = run.variants[0]?.results.occupancy.find((x) => x.component === component);
  assert.ok(o !== undefined, `no occupancy for ${component}`);
  return o.maxPackets;
}

test('issue 20 switches: a smaller output buffer on one switch caps its queue and not the other switches\'', () => {
  const same = runScenario(parseScenario(FAST));
  const small = runScenario(parseScenario(`${FAST}switches: { leaf0: { outputBuffer: { packets: 4 } } }\n`));
  // Without the override both incast queues grow past 4; with it leaf0's stays at most 4, leaf1's does not change.
  assert.ok(maxOut(same, 'leaf0/out0') > 4);
  assert.ok(maxOut(small, 'leaf0/out0') <= 4);
  assert.ok(maxOut(small, 'leaf1/out0') > 4);
});

test('issue 20 switches: per-port input buffers and congestion points act on that port only; later entries win; merge order switch < switches < ports', () => {
  const s = parseScenario(`${BASE}switch: { inputBuffer: { packets: 6 }, speedup: 2 }
switches:
  "leaf*": { speedup: 3, ports: { 1: { inputBuffer: { packets: 4 } } } }
  leaf1: { speedup: 4, ports: { 1: { inputBuffer: { packets: 5 } }, 0: { congestion: { highWatermark: 6, lowWatermark: 2 } } } }
`);
  const b = buildFabric(s);
  const [leaf0, leaf1, spine0] = b.switches;
  assert.ok(leaf0 !== undefined && leaf1 !== undefined && spine0 !== undefined);
  assert.deepEqual([leaf0.port(0).buffers.packets, leaf0.port(1).buffers.packets, leaf1.port(1).buffers.packets, spine0.port(1).buffers.packets], [6, 4, 5, 6]);
  assert.deepEqual([leaf0.config.speedup, leaf1.config.speedup, spine0.config.speedup], [3, 4, 2]);
  assert.deepEqual(leaf1.core.config.congestion.map((c) => c?.highWatermark ?? null), [6, null, null, null]);
  assert.deepEqual(leaf0.core.config.congestion.map((c) => c), [null, null, null, null]);
  // Only leaf1's port 0 watches its queue: the incast onto host 3 is XOFF'd, the one onto host 0 is not.
  const run = runScenario(s);
  const v = run.variants[0];
  assert.ok(v !== undefined);
  assert.ok(v.results.headline.ccpsSent > 0);
  const xoff = new Map(v.groups.map((g) => [g.name, g.xoffCount]));
  assert.ok((xoff.get('sink3') ?? 0) > 0);
  assert.equal(xoff.get('sink0'), 0);
  // results.json shows what each named switch ran with; the spine, named by no entry, is not listed.
  const json = JSON.parse(resultFiles(run)['results.json'] ?? '') as { variants: { switches?: Record<string, { speedup: number; inputBuffer: unknown } | undefined> }[] };
  const echoed = json.variants[0]?.switches;
  assert.ok(echoed !== undefined);
  assert.deepEqual(Object.keys(echoed), ['leaf0', 'leaf1']);
  assert.equal(echoed.leaf1?.speedup, 4);
  assert.deepEqual(echoed.leaf0?.inputBuffer, [{ packets: 6 }, { packets: 4 }, { packets: 6 }, { packets: 6 }]);
});

test('issue 20 switches: without a switches section results.json has no switches field (output unchanged)', () => {
  const json = JSON.parse(resultFiles(runScenario(parseScenario(BASE)))['results.json'] ?? '') as { variants: Record<string, unknown>[] };
  assert.equal('switches' in (json.variants[0] ?? {}), false);
});

function issues(text: string): string[] {
  try {
    parseScenario(text);
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    return e.issues.map((i) => `${i.path}: ${i.message}`);
  }
  assert.fail('expected a ConfigError');
}

test('issue 20 switches: a key naming no switch, a port a switch lacks, a bad field and a merged switch that breaks the switch block\'s rules are refused with their paths', () => {
  assert.deepEqual(issues(`${BASE}switches: { leaf9: {} }\n`), ['switches.leaf9: expected switch names or patterns that name a switch ("leaf9" names none; the topology has 3: leaf0, leaf1, spine0)']);
  assert.deepEqual(issues(`${BASE}switches: { "leaf0, core*": {} }\n`), ['switches.leaf0, core*: expected switch names or patterns that name a switch ("core*" names none; the topology has 3: leaf0, leaf1, spine0)']);
  assert.deepEqual(issues(`${BASE}switches: { spine0: { ports: { 2: { inputBuffer: { packets: 4 } } } } }\n`), ['switches.spine0.ports.2: expected a linked port of spine0 (2 ports, linked: 0..1)']);
  assert.deepEqual(issues(`${BASE}switches: { leaf0: { ports: { x: {} } } }\n`).length, 1);
  assert.deepEqual(issues(`${BASE}switches: { leaf0: { buffer: 3 } }\n`), ['switches.leaf0.buffer: unknown field']);
  assert.deepEqual(issues(`${BASE}switches: { leaf0: { ports: { 0: { outputBuffer: { packets: 2 } } } } }\n`), ['switches.leaf0.ports.0.outputBuffer: unknown field']);
  assert.deepEqual(issues(`${BASE}switch: { outputBuffer: { packets: 16 } }\nswitches: { "leaf0,leaf1": { queueing: input-fifo } }\n`), [
    'switches.leaf0,leaf1.outputBuffer.packets: leaf0: expected 0 or 1 with an input-queued switch',
  ]);
});

test('issue 20 switches: a port\'s link settings set the rate of the link at that port, over link and linkOverrides; the two ends of a link between switches must agree', () => {
  const s = parseScenario(`${BASE}linkOverrides: [{ match: "h*", baud: 6.25 }]
switches:
  leaf0: { ports: { 0: { link: { lanes: 1 } }, 3: { link: { baud: 1.25, propagation: 50ns } } } }
  spine0: { ports: { 0: { link: { baud: 1.25 } } } }
`);
  const spec = new Map(buildFabric(s).links.map((l) => [l.name, l.spec]));
  assert.deepEqual(spec.get('h0'), { lanes: 1, baud: 6.25, encoding: '8b10b', propagation: 0 });
  assert.deepEqual(spec.get('h1'), { lanes: 4, baud: 6.25, encoding: '8b10b', propagation: 0 });
  assert.deepEqual(spec.get('leaf0:3-spine0:0'), { lanes: 4, baud: 1.25, encoding: '8b10b', propagation: 50_000 });
  assert.deepEqual(spec.get('leaf1:3-spine0:1'), { lanes: 4, baud: 3.125, encoding: '8b10b', propagation: 0 });
  const json = JSON.parse(resultFiles(runScenario(s))['results.json'] ?? '') as { variants: { switches?: Record<string, { links?: unknown } | undefined> }[] };
  assert.deepEqual(json.variants[0]?.switches?.leaf0?.links, { 0: { lanes: 1 }, 3: { baud: 1.25, propagation: 50_000 } });
  assert.deepEqual(issues(`${BASE}switches:
  leaf0: { ports: { 3: { link: { baud: 1.25 } } } }
  spine0: { ports: { 0: { link: { baud: 2.5 } } } }
`), ['switches.spine0.ports.0.link.baud: expected the value the link\'s other end has: leaf0:3-spine0:0 has baud 1.25 at leaf0 port 3']);
});
