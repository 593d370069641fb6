import { test } from 'node:test';
import assert from 'node:assert/strict';
import { islipRun } from '../../src/sim/repro/islip.ts';
import { PIM_LIMIT, pimOneIteration, pimSaturation } from '../../src/sim/repro/pim.ts';
import { scaled } from './repro-scale.ts';

/**
 * Issue 20 "Matchers … reproduce, as tests and in the report, their published uniform-traffic
 * saturation throughput with one iteration". Same seeds and lengths as the report's rows
 * (src/sim/repro/suite-tasks.ts).
 */
test('Anderson et al. 1993 (PIM): a saturated 16x16 VoQ switch with one PIM iteration carries 1 − (1 − 1/N)^N = 0.644 per output (→ 1 − 1/e = 0.632)', () => {
  const r = pimSaturation({ seed: 3, n: 16, slots: scaled(10_000), warmup: 1000 });
  const msg = `throughput ${r.measured.toFixed(4)} ± ${r.stdErr.toFixed(4)} against ${r.published.toFixed(4)}`;
  assert.ok(r.stdErr < 0.002, `run too short: ${msg}`);
  assert.ok(Math.abs(r.measured - pimOneIteration(16)) <= 0.005, msg);
  assert.ok(r.measured > PIM_LIMIT, msg);
});

test('Tamir & Chi 1993 (wave front arbiter): a 16x16 VoQ switch matched by the wave front carries the whole offered load at uniform Bernoulli load 0.95', () => {
  const r = islipRun({ seed: 3, n: 16, load: 0.95, slots: scaled(10_000), warmup: 5000, matcher: 'wavefront' });
  const msg = `throughput ${r.measured.toFixed(4)} ± ${r.stdErr.toFixed(4)}, offered ${r.offered.toFixed(4)}, backlog ${r.backlog}`;
  assert.equal(r.dropped, 0, msg);
  assert.ok(r.stdErr < 0.002, `run too short: ${msg}`);
  assert.ok(r.measured >= 0.998 * r.offered, msg);
  assert.ok(r.measured >= 0.95 - 0.003, msg);
});
