import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RandomStreams } from '../kernel/random.ts';
import { TrafficGenerator, meanPduTime } from './generator.ts';
import type { TrafficSpec } from './generator.ts';
import { UniformSize } from './sizes.ts';

/** 1 Gbit/s: 8000 ps per octet, 8 octets of header and delimiter per PDU. */
const pduTime = (bytes: number): number => 8000 * (bytes + 8);

function run(spec: TrafficSpec, n: number, seed = 1, self = 0): { at: number[]; dst: number[]; bytes: number[]; burst: boolean[] } {
  const g = new TrafficGenerator(spec, { self, streams: new RandomStreams(seed), pduTime });
  const out = { at: [] as number[], dst: [] as number[], bytes: [] as number[], burst: [] as boolean[] };
  for (let i = 0; i < n && g.next(); i++) {
    out.at.push(g.at);
    out.dst.push(g.dst);
    out.bytes.push(g.bytes);
    out.burst.push(g.burstStart);
  }
  return out;
}

/** Σ pduTime / elapsed time: the fraction of the link the PDUs would occupy. */
function realisedLoad(r: { at: number[]; bytes: number[] }, start = 0): number {
  const busy = r.bytes.reduce((s, b) => s + pduTime(b), 0);
  return busy / ((r.at[r.at.length - 1] as number) - start);
}

const uniform8 = { kind: 'uniform', ids: [0, 1, 2, 3, 4, 5, 6, 7] } as const;
const fixed64 = { kind: 'fixed', bytes: 64 } as const;

test('issue 7 §3 uniform Bernoulli per PDU time: one slot per PDU wire time, a PDU in each slot with probability = load', () => {
  const r = run({ load: 0.4, arrival: { kind: 'bernoulli' }, destinations: uniform8, size: fixed64 }, 50_000);
  const slot = pduTime(64);
  assert.ok(r.at.every((t) => t % slot === 0), 'every arrival on a slot boundary');
  assert.ok(r.at.every((t, i) => i === 0 || t > (r.at[i - 1] as number)), 'at most one PDU per slot');
  const load = realisedLoad(r);
  assert.ok(Math.abs(load - 0.4) < 0.01, `realised load ${load}`);
});

test('issue 7 §3 uniform Bernoulli per slot: p = load × slot / PDU time, refused above 1', () => {
  const slot = 100_000;
  const r = run({ load: 0.3, arrival: { kind: 'bernoulli', slot }, destinations: uniform8, size: fixed64 }, 50_000);
  assert.ok(r.at.every((t) => t % slot === 0));
  const load = realisedLoad(r);
  assert.ok(Math.abs(load - 0.3) < 0.01, `realised load ${load}`);
  // 0.9 × 10^6 / 576000 > 1: the slot cannot carry that load.
  assert.throws(() => run({ load: 0.9, arrival: { kind: 'bernoulli', slot: 1_000_000 }, destinations: uniform8, size: fixed64 }, 1), /lower the load or shorten the slot/);
});

test('issue 7 §3 Poisson arrivals: the realised load matches and gaps are exponential (coefficient of variation 1)', () => {
  const r = run({ load: 0.7, arrival: { kind: 'poisson' }, destinations: uniform8, size: fixed64 }, 100_000);
  const load = realisedLoad(r);
  assert.ok(Math.abs(load - 0.7) < 0.01, `realised load ${load}`);
  const gaps = r.at.slice(1).map((t, i) => t - (r.at[i] as number));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  assert.ok(Math.abs(sd / mean - 1) < 0.02, `CV ${sd / mean}`);
});

test('issue 7 §3 bursty on/off: geometric bursts of mean length at the link rate to one destination, average load as asked', () => {
  for (const off of ['exponential', 'geometric'] as const) {
    const r = run({ load: 0.25, arrival: { kind: 'onoff', meanBurst: 8, off }, destinations: uniform8, size: fixed64 }, 200_000, 3);
    const bursts = r.burst.filter((b) => b).length;
    assert.ok(Math.abs(r.at.length / bursts - 8) < 0.2, `${off}: mean burst ${r.at.length / bursts}`);
    for (let i = 1; i < r.at.length; i++) {
      if (r.burst[i]) continue;
      // Within a burst: back to back at the link rate, one destination.
      assert.ok(Math.abs((r.at[i] as number) - (r.at[i - 1] as number) - pduTime(64)) <= 1);
      assert.equal(r.dst[i], r.dst[i - 1]);
    }
    const load = realisedLoad(r);
    assert.ok(Math.abs(load - 0.25) < 0.01, `${off}: realised load ${load}`);
  }
  assert.throws(() => run({ load: 0.8, arrival: { kind: 'onoff', meanBurst: 4, peak: 0.5 }, destinations: uniform8, size: fixed64 }, 1), /load must not exceed arrival.peak/);
});

test('issue 7 §3 uniform destinations: every other end point equally often, never the source itself', () => {
  const r = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: uniform8, size: fixed64 }, 70_000, 5, 3);
  const counts = new Map<number, number>();
  for (const d of r.dst) counts.set(d, (counts.get(d) ?? 0) + 1);
  assert.equal(counts.has(3), false);
  assert.deepEqual([...counts.keys()].sort((a, b) => a - b), [0, 1, 2, 4, 5, 6, 7]);
  for (const c of counts.values()) assert.ok(Math.abs(c / 70_000 - 1 / 7) < 0.006, `share ${c / 70_000}`);
});

test('issue 7 §3 hotspot fraction h: the hotspot gets h + (1 − h)/M of a source\'s PDUs, the rest uniform', () => {
  const ids = [10, 11, 12, 13, 14];
  const r = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: { kind: 'hotspot', ids, hotspot: 14, h: 0.2 }, size: fixed64 }, 100_000, 7, 10);
  const hot = r.dst.filter((d) => d === 14).length / r.dst.length;
  // M = 4 destinations besides the source: 0.2 + 0.8 / 4 = 0.4.
  assert.ok(Math.abs(hot - 0.4) < 0.006, `hotspot share ${hot}`);
  for (const d of [11, 12, 13]) {
    const share = r.dst.filter((x) => x === d).length / r.dst.length;
    assert.ok(Math.abs(share - 0.2) < 0.006, `share of ${d}: ${share}`);
  }
  // The hotspot itself sends uniform traffic.
  const h = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: { kind: 'hotspot', ids, hotspot: 14, h: 0.9 }, size: fixed64 }, 40_000, 7, 14);
  for (const d of [10, 11, 12, 13]) assert.ok(Math.abs(h.dst.filter((x) => x === d).length / 40_000 - 0.25) < 0.01);
});

test('issue 7 §3 PDU sizes: draws come from the named size stream only, so the arrival times do not depend on the size distribution', () => {
  const a = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: uniform8, size: fixed64 }, 1000, 9);
  const b = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: uniform8, size: { kind: 'uniform', min: 64, max: 64 } }, 1000, 9);
  assert.deepEqual(a.at, b.at);
  assert.deepEqual(a.dst, b.dst);
  const c = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: uniform8, size: fixed64 }, 1000, 9);
  assert.deepEqual(a, c, 'the same seed replays exactly');
});

test('issue 7 §3 offered load: the mean PDU time is exact over the size distribution, and no PDU arrives at or after stop', () => {
  assert.equal(meanPduTime(new UniformSize(1, 3), pduTime), 8000 * 10);
  const r = run({ load: 0.5, arrival: { kind: 'poisson' }, destinations: uniform8, size: { kind: 'uniform', min: 32, max: 1024 }, start: 1_000_000, stop: 50_000_000_000 }, 1_000_000);
  assert.ok((r.at[0] as number) >= 1_000_000);
  assert.ok((r.at[r.at.length - 1] as number) < 50_000_000_000);
  const load = realisedLoad(r, 1_000_000);
  assert.ok(Math.abs(load - 0.5) < 0.03, `realised load ${load}`);
  assert.deepEqual(run({ load: 0, arrival: { kind: 'poisson' }, destinations: uniform8, size: fixed64 }, 10).at, []);
  assert.deepEqual(run({ load: 0, arrival: { kind: 'bernoulli' }, destinations: uniform8, size: fixed64 }, 10).at, []);
  assert.throws(() => run({ load: -1, arrival: { kind: 'poisson' }, destinations: uniform8, size: fixed64 }, 1), /load must be a non-negative number/);
});
