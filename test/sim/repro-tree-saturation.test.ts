import { test } from 'node:test';
import assert from 'node:assert/strict';
import { treeSaturation } from '../../src/sim/repro/tree-saturation.ts';
import type { TreeSaturationResult } from '../../src/sim/repro/tree-saturation.ts';
import { scaled } from './repro-scale.ts';

/**
 * Issue 7 §4, Pfister & Norton 1985 tree saturation, on a two-stage fabric of 8-port switches
 * (N = 16, tree-fabric.ts). The arithmetic of every figure is in tree-saturation.ts. Runs: a
 * warm-up of 5000 packet times (the tree forms within ~1000), then 10 000 measured, 20 batches;
 * the batch-means standard errors are asserted small against the margins tested.
 */
const DURATION = scaled(10_000);
const SEED = 11;

function share(r: TreeSaturationResult): number {
  return r.victims.delivered / r.victims.offered;
}

function describe(r: TreeSaturationResult): string {
  return `${r.pattern}/${r.sources}/${r.control}: per node ${r.perNode.toFixed(4)} ± ${r.perNodeStdErr.toFixed(4)} (bound ${r.bound.toFixed(4)}), hot ${r.hot.delivered.toFixed(4)}/${r.hot.offered.toFixed(4)}, victims ${r.victims.delivered.toFixed(4)} ± ${r.victimStdErr.toFixed(4)} of ${r.victims.offered.toFixed(4)} offered`;
}

test('Pfister & Norton 1985: with hotspot fraction h and no congestion control the throughput per node is 1/(1 + h(N − 1)) and the non-hotspot traffic collapses with it (N = 16, h = 0.25, offered 0.5)', () => {
  const r = treeSaturation({ seed: SEED, control: 'none', sources: 'fifo', duration: 2 * DURATION });
  const msg = describe(r);
  assert.ok(r.perNodeStdErr < 0.0025, `run too short: ${msg}`);
  // Reached, not just bounded: the hot sink is busy all the time and every source runs at its share.
  assert.ok(Math.abs(r.perNode - r.bound) <= 0.01, msg);
  assert.ok(Math.abs(r.hot.delivered - 1 / 16) <= 0.002, msg);
  // The victims get (1 − h)(N − 1)/N of the bound, 0.148 of the 0.352 they offer: 42%.
  assert.ok(share(r) < 0.5, msg);
  assert.ok(Math.abs(r.victims.delivered - r.bound * 0.75 * (15 / 16)) <= 0.01, msg);
});

test('Part 9 §2.4.5–§2.4.6 (XON/XOFF) against Pfister & Norton 1985: with congestion points on the switches and the CCP reaction at the end points the victim flows keep >= 90% of their offered load', () => {
  const r = treeSaturation({ seed: SEED, control: 'xon-xoff', sources: 'endpoint', duration: DURATION });
  const msg = `${describe(r)}, CCPs ${r.counts['ccp.sent'] ?? 0}`;
  assert.ok(r.victimStdErr < 0.005, `run too short: ${msg}`);
  assert.ok(share(r) >= 0.9, msg);
  assert.ok((r.counts['ccp.sent'] ?? 0) > 0, msg);
  // The hot sink stays busy: XOFF throttles the hot flows, it does not starve them.
  assert.ok(r.hot.delivered > 0.9 / 16, msg);
});

test('Pfister & Norton 1985 with simulated end points (decision): per-flow queues served round robin already keep the victims of uniform hotspot traffic whole, without congestion control', () => {
  const r = treeSaturation({ seed: SEED, control: 'none', sources: 'endpoint', duration: DURATION });
  const msg = describe(r);
  assert.ok(share(r) >= 0.95, msg);
  // The hot flows still get only the hot sink's 1/N each; the rest is dropped at the sources.
  assert.ok(Math.abs(r.hot.delivered - 1 / 16) <= 0.002, msg);
  assert.ok(r.perNode > 1.5 * r.bound, msg);
});

test('VoQ Backpressure §1 against Pfister & Norton 1985 (decision): with FIFO sources the blocking is at the sources, which switch-to-switch backpressure does not reach; the bound stays', () => {
  const r = treeSaturation({ seed: SEED, control: 'voq-backpressure', sources: 'fifo', duration: DURATION });
  const msg = describe(r);
  assert.ok(Math.abs(r.perNode - r.bound) <= 0.01, msg);
  assert.ok(share(r) < 0.5, msg);
});

test('VoQ Backpressure §1, Part 9: hot and victim sources on every stage-1 switch, no congestion control: head-of-line blocking across the two stages holds the victims to about the hot packets\' rate (~40%)', () => {
  const r = treeSaturation({ seed: SEED, pattern: 'split', control: 'none', sources: 'endpoint', duration: DURATION });
  const msg = describe(r);
  assert.ok(r.victimStdErr < 0.003, `run too short: ${msg}`);
  assert.ok(share(r) < 0.5, msg);
});

test('Part 9 XON/XOFF, hot and victim sources: the victims get >= 90% of their offered load back', () => {
  const r = treeSaturation({ seed: SEED, pattern: 'split', control: 'xon-xoff', sources: 'endpoint', duration: DURATION });
  const msg = describe(r);
  assert.ok(r.victimStdErr < 0.003, `run too short: ${msg}`);
  assert.ok(share(r) >= 0.9, msg);
});

test('VoQ Backpressure §2.3, §4.3 b, hot and victim sources: the head-of-line blocking across the two stages disappears and the victims get >= 90% of their offered load', () => {
  const r = treeSaturation({ seed: SEED, pattern: 'split', control: 'voq-backpressure', sources: 'endpoint', duration: DURATION });
  const msg = `${describe(r)}, VoQ symbols ${r.counts['voq.symbolsSent'] ?? 0}`;
  assert.ok(r.victimStdErr < 0.003, `run too short: ${msg}`);
  assert.ok(share(r) >= 0.9, msg);
  assert.ok((r.counts['voq.blocked'] ?? 0) > 0, msg);
});
