import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors as errors } from '../../../test/support/scenario-errors.ts';
import { ArbitrationFeature } from '../../node/endpoint/arbitration.ts';
import type { EndpointArbitrationConfig } from '../../node/endpoint/arbitration.ts';
import { buildFabric } from './build.ts';
import type { BuiltFabric } from './build.ts';
import { loadScenarioFile, parseScenario } from './load.ts';
import { runBuilt } from './run.ts';
import type { VariantRun } from './run.ts';
import { arbitrationSettings } from './schema-arbitration.ts';

const BASE = `
name: arb
duration: 20us
topology: { kind: switch, hosts: 3 }
traffic:
  - { pattern: incast, sink: 0, load: 0.5 }
`;

function arbitrationOf(b: BuiltFabric, host: number): ArbitrationFeature {
  const f = b.endpoints[host]?.features.find((x) => x.name === 'arbitration');
  assert.ok(f instanceof ArbitrationFeature);
  return f;
}

test('docs/simulator.md "Flow arbitration" settings: endpoints.arbitration {} takes every default (times in ps), and every end point of the fabric runs it', () => {
  const parsed: EndpointArbitrationConfig = arbitrationSettings.parse({});
  assert.deepEqual(parsed, {
    mode: 'single', resources: 4, whenBusy: 'queue', maxQueued: null, pipelining: true, requestTimeout: 100_000_000, retryDelay: 10_000_000, idleTimeout: 1_000_000_000,
  });
  const s = parseScenario(`${BASE}endpoints: { arbitration: { mode: multi, resources: 2, requestTimeout: null, retryDelay: 2us, idleTimeout: 50us, maxQueued: 3 } }\n`);
  const settings = s.variants[0]?.config.endpoints.arbitration;
  assert.deepEqual(settings, {
    mode: 'multi', resources: 2, whenBusy: 'queue', maxQueued: 3, pipelining: true, requestTimeout: null, retryDelay: 2_000_000, idleTimeout: 50_000_000,
  });
  const b = buildFabric(s);
  for (let h = 0; h < 3; h++) assert.deepEqual(arbitrationOf(b, h).config, settings);
  // Without the field no end point runs arbitration.
  assert.ok(buildFabric(parseScenario(BASE)).endpoints.every((ep) => ep.features.length === 0));
});

test('issue 7 §3 "an invalid file is refused with the path of each bad field and what was expected": endpoints.arbitration', () => {
  const bad = `${BASE}endpoints: { arbitration: { mode: both, resources: 0, whenBusy: drop, maxQueued: -1, pipelining: 1, requestTimeout: 0, retryDelay: soon, idleTimeout: -5us, extra: 1 } }\n`;
  assert.deepEqual(errors(bad), [
    'endpoints.arbitration.mode: expected one of single, multi',
    'endpoints.arbitration.resources: expected an integer >= 1',
    'endpoints.arbitration.whenBusy: expected one of queue, reject',
    'endpoints.arbitration.maxQueued: expected a non-negative integer, or null for no bound',
    'endpoints.arbitration.pipelining: expected true or false',
    'endpoints.arbitration.requestTimeout: expected a time above 0, or null for no timeout',
    'endpoints.arbitration.retryDelay: expected a time: ps as a number, or a string with ps, ns, us, ms or s ("10us")',
    'endpoints.arbitration.idleTimeout: expected a time above 0, or null for no timeout',
    'endpoints.arbitration.extra: unknown field',
  ]);
  assert.deepEqual(errors(`${BASE}endpoints: { arbitration: on }\n`), [
    'endpoints.arbitration: expected arbitration settings {mode, resources, whenBusy, maxQueued, pipelining, requestTimeout, retryDelay, idleTimeout}',
  ]);
});

/** The switch output queue that feeds `host`'s link. */
function outputQueueTo(b: BuiltFabric, host: number): string {
  const l = b.variant.fabric.links.find((x) => x.kind === 'host' && x.host === host);
  assert.ok(l !== undefined);
  return `${b.switches[l.b.switch]?.name ?? '?'}/out${l.b.port}`;
}

interface Outcome {
  readonly run: VariantRun;
  readonly victim: number;
  readonly incastBps: number;
  /** Most packets ever queued for host 4's link. */
  readonly hotQueue: number;
  readonly count: (name: string) => number;
  /** Peak of resources held at once, per host. */
  readonly maxAllocated: number[];
  readonly defects: number;
}

function outcome(b: BuiltFabric): Outcome {
  const run = runBuilt(b);
  const group = (name: string): NonNullable<VariantRun['groups'][number]> => {
    const g = run.groups.find((x) => x.name === name);
    assert.ok(g !== undefined);
    return g;
  };
  const queue = outputQueueTo(b, 4);
  return {
    run,
    victim: group('victim').deliveredFraction,
    incastBps: group('incast').deliveredBps,
    hotQueue: run.results.occupancy.find((o) => o.component === queue)?.maxPackets ?? 0,
    count: (name) => run.results.counts[name] ?? 0,
    maxAllocated: b.endpoints.map((ep) => ep.features.find((f) => f.name === 'arbitration')?.counters()['maxAllocated'] ?? 0),
    defects: b.endpoints.reduce((n, ep) => n + ep.counters().pduDefects, 0),
  };
}

test('scenarios/arbitration.yaml, Part 9 §2.4.7 preamble and rule 10: single-PDU arbitration keeps the incast out of the fabric and the victim at its load; multi-PDU grants bound senders, not data, and need one context to do the same', () => {
  const s = loadScenarioFile(new URL('../../../scenarios/arbitration.yaml', import.meta.url).pathname);
  assert.deepEqual(s.variants.map((v) => v.name), ['arbitration off', 'single-PDU', 'multi-PDU', 'multi-PDU, one context']);
  const [off, single, multi, multiOne] = s.variants.map((v) => outcome(buildFabric(s, v.name))) as [Outcome, Outcome, Outcome, Outcome];
  // Off: host 4's output queue (32 packets) fills and the victim collapses behind it (tree saturation).
  assert.equal(off.hotQueue, 32);
  assert.ok(off.victim < 0.5, `victim without arbitration: ${off.victim}`);
  assert.equal(Object.keys(off.run.results.counts).filter((k) => k.startsWith('arb.')).length, 0);
  // Single-PDU, two resources: at most two PDUs of four segments head for host 4 at once.
  assert.ok(single.hotQueue <= 8, `host 4 queue ${single.hotQueue}`);
  assert.ok(single.victim > 0.95, `victim with single-PDU arbitration: ${single.victim}`);
  assert.ok(single.incastBps > 0.95 * off.incastBps, 'host 4\'s link stays busy');
  assert.ok(single.count('arb.requests') > 300 && single.count('arb.released') === 0);
  // Multi-PDU, two resources: few REQUESTs, every grant given back, and host 4's queue fills again.
  assert.ok(multi.count('arb.requests') < single.count('arb.requests') / 10);
  assert.ok(multi.count('arb.released') > 0 && multi.count('arb.released') <= multi.count('arb.granted'));
  assert.equal(multi.hotQueue, 32);
  assert.ok(multi.victim < single.victim - 0.05, `victim with multi-PDU grants: ${multi.victim}`);
  // Multi-PDU, one resource: one sender at a time, which host 4's link carries.
  assert.ok(multiOne.hotQueue <= 8 && multiOne.victim > 0.95, `one context: queue ${multiOne.hotQueue}, victim ${multiOne.victim}`);
  for (const [name, o, resources] of [['single-PDU', single, 2], ['multi-PDU', multi, 2], ['multi-PDU, one context', multiOne, 1]] as const) {
    assert.equal(o.maxAllocated[4], resources, `${name}: host 4 used its resources`);
    assert.ok(o.maxAllocated.every((m) => m <= resources), `${name}: no host granted beyond its resources`);
    assert.deepEqual([o.count('arb.refused'), o.count('arb.unexpectedSegments'), o.defects], [0, 0, 0], name);
    assert.ok(o.count('arb.waitPs') > 0, `${name}: the incast waited for grants`);
  }
});
