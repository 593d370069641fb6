import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PT, SYMBOL, packet, singleSwitch } from '../../../test/support/sim-switch.ts';
import { RandomStreams } from '../kernel/random.ts';
import type { SwitchConfig } from './switch.ts';

const SLOT = PT + SYMBOL + 12_000;
const WARMUP = 500;
const SLOTS = 4000;

/**
 * Saturated N×N switch (every source always has a packet): delivered packets per output per slot,
 * measured after a warm-up. Destinations are drawn uniformly, or with `cyclic` each source visits
 * the outputs in turn, so that every VoQ of a saturated input always holds packets.
 */
function saturated(config: Omit<SwitchConfig, 'name' | 'routes' | 'ports' | 'buffers'>, n = 4, buffers = 64, cyclic = false): number {
  const f = singleSwitch({ ...config, ports: n, slot: SLOT, inputBuffer: { packets: buffers } });
  const streams = new RandomStreams(11);
  for (const end of f.ends) {
    const rng = streams.stream(`source:${end.id}`);
    let k = 0;
    end.generator = (now) => packet(f.ids, end.id, cyclic ? k++ % n : rng.int(n), { at: now });
  }
  for (const end of f.ends) end.out?.kick(0);
  f.sched.run({ until: WARMUP * SLOT });
  const before = f.ends.reduce((k, e) => k + e.received.length, 0);
  f.sched.run({ until: (WARMUP + SLOTS) * SLOT });
  const after = f.ends.reduce((k, e) => k + e.received.length, 0);
  return (after - before) / (n * SLOTS);
}

test('McKeown 1999 (iSLIP): a saturated 4x4 VoQ switch with one iSLIP iteration reaches 100% throughput under uniform traffic', () => {
  // Every VoQ backlogged: once the grant pointers have desynchronised, every output is matched in every slot.
  assert.equal(saturated({ queueing: 'input-voq', iterations: 1 }, 4, 64, true), 1);
  // Uniform random destinations through finite input buffers: a VoQ now and then runs empty.
  const t = saturated({ queueing: 'input-voq', iterations: 1 }, 4, 256);
  assert.ok(t > 0.99, `throughput ${t}`);
});

test('Karol, Hluchyj & Morgan 1987: a saturated 4x4 input-FIFO switch is limited by head-of-line blocking (0.6553)', () => {
  const t = saturated({ queueing: 'input-fifo', arbitration: 'random' });
  assert.ok(Math.abs(t - 0.6553) < 0.02, `throughput ${t}`);
});

test('issue 7 §2 output-queued: with speedup N a saturated switch keeps every output busy', () => {
  assert.equal(saturated({ queueing: 'output-queued', speedup: 4, outputBuffer: { packets: 64 } }, 4, 64, true), 1);
  // Uniform random destinations: finite output queues empty now and then while others are full.
  const t = saturated({ queueing: 'output-queued', speedup: 4, outputBuffer: { packets: 64 } });
  assert.ok(t > 0.98, `throughput ${t}`);
});
