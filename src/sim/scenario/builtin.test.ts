import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { unreachable } from '../topology/walk.ts';
import { BUILTIN_SCENARIO_TEXT, builtinScenario } from './builtin.ts';
import { runScenario } from './run.ts';
import type { VariantRun } from './run.ts';

test('issue 7 §5 built-in scenario: scenarios/builtin.yaml is the text riodp sim runs', () => {
  assert.equal(readFileSync(new URL('../../../scenarios/builtin.yaml', import.meta.url), 'utf8'), BUILTIN_SCENARIO_TEXT);
});

test('issue 7 §5 built-in scenario: a two-stage fabric with hotspot and victim flows, run three ways', () => {
  const s = builtinScenario();
  assert.deepEqual(s.variants.map((v) => v.name), ['no congestion control', 'Part 9 XON/XOFF', 'VoQ backpressure']);
  const [none, part9, voq] = s.variants.map((v) => v.config);
  assert.equal(none?.switch.congestion ?? null, null);
  assert.equal(none?.switch.queueing, 'output-queued');
  assert.notEqual(part9?.switch.congestion, null);
  assert.equal(part9?.switch.queueing, 'output-queued');
  assert.equal(voq?.switch.congestion ?? null, null);
  assert.equal(voq?.switch.queueing, 'cioq-voq-backpressure');
  for (const v of s.variants) {
    assert.equal(v.fabric.switches.length, 2);
    assert.equal(unreachable(v.fabric), null);
    assert.deepEqual(v.config.traffic.map((t) => t.group), ['hotspot', 'victim']);
  }
  // The victim's path (host 3 → 5) shares the switch-to-switch link with the hotspot traffic from hosts 0-2.
  const f = s.variants[0]!.fabric;
  assert.equal(f.hosts[3]?.switch, f.hosts[0]?.switch);
  assert.notEqual(f.hosts[5]?.switch, f.hosts[3]?.switch);
  assert.equal(f.hosts[5]?.switch, f.hosts[4]?.switch);
});

test('issue 7 §4 Pfister & Norton tree saturation, built-in scenario: victims collapse without control, keep >= 90% with Part 9 XON/XOFF, and lose no throughput to head-of-line blocking with VoQ backpressure', () => {
  const run = runScenario(builtinScenario());
  const group = (v: VariantRun | undefined, name: string) => {
    const g = v?.groups.find((x) => x.name === name);
    assert.ok(g !== undefined);
    return g;
  };
  const [none, part9, voq] = run.variants;
  // Host 4's link carries the hotspot at its full rate in every variant.
  for (const v of run.variants) assert.ok(group(v, 'hotspot').deliveredBps > 2.3e9, v.name);
  assert.ok(group(none, 'victim').deliveredFraction < 0.3, `no control: ${group(none, 'victim').deliveredFraction}`);
  assert.ok(group(part9, 'victim').deliveredFraction >= 0.9, `Part 9: ${group(part9, 'victim').deliveredFraction}`);
  assert.ok(group(voq, 'victim').deliveredFraction >= 0.99, `VoQ: ${group(voq, 'victim').deliveredFraction}`);
  assert.ok((part9?.results.headline.ccpsSent ?? 0) > 0);
  assert.equal(part9?.results.headline.ccpDrops, 0);
  assert.equal(none?.results.headline.ccpsSent, 0);
  assert.ok((voq?.results.headline.voqSymbols ?? 0) > 0);
  assert.ok(group(part9, 'hotspot').xoffCount > 0);
  assert.equal(group(part9, 'victim').xoffCount, 0);
  assert.ok(part9.series.groups[0]?.xoff.flows.some((n) => n > 0));
  assert.ok(group(voq, 'victim').packetLatency.p99 < group(none, 'victim').packetLatency.p99 / 100);
});
