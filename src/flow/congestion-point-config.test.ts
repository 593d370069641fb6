import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCongestionPointConfig } from './congestion-point-config.ts';
import type { CongestionPointConfig } from './congestion-point-types.ts';

const BASE: CongestionPointConfig = { role: 'switch', highWatermark: 8, lowWatermark: 2 };

function rejects(c: Partial<CongestionPointConfig> | Record<string, unknown>, message: RegExp): void {
  assert.throws(() => resolveCongestionPointConfig({ ...BASE, ...c }), (err: unknown) => err instanceof RangeError && message.test(err.message));
}

test('Part 9 Annex A.1, §2.4.2, §2.4.2.2: defaults — histogram of 1 flow, responses as fallback, 16 entries, fifo, CCPs at prio 3 CRF 1', () => {
  const r = resolveCongestionPointConfig(BASE);
  assert.deepEqual(r.policy, { kind: 'histogram', flows: 1 });
  assert.equal(r.responses, 'fallback');
  assert.equal(r.listCapacity, 16);
  assert.equal(r.restartOrder, 'fifo');
  assert.equal(r.restartStagger, 0);
  assert.equal(r.unit, 'packets');
  assert.equal(r.capacity, undefined);
  assert.deepEqual(r.ccpFlow, { prio: 3, crf: 1 });
  assert.equal(r.vcCount, 0);
  assert.equal(r.participants, undefined);
  assert.deepEqual(resolveCongestionPointConfig({ ...BASE, crfSupported: false }).ccpFlow, { prio: 3, crf: 0 });
});

test('Part 9 Annex A.1 a) "Provides sufficient hysteresis": the low watermark must lie below the high one', () => {
  rejects({ lowWatermark: 8 }, /^lowWatermark must be below highWatermark$/);
  rejects({ highWatermark: -1 }, /^highWatermark must be a non-negative integer$/);
  rejects({ lowWatermark: 1.5 }, /^lowWatermark must be a non-negative integer$/);
});

test('Part 9 Annex A.1 method 1 "selects the 1 to 5 transaction request flows": policy.flows outside 1..5 is rejected', () => {
  rejects({ policy: { kind: 'histogram', flows: 0 } }, /^policy\.flows must be an integer from 1 to 5$/);
  rejects({ policy: { kind: 'histogram', flows: 6 } }, /^policy\.flows/);
  rejects({ policy: { kind: 'random' } }, /^policy\.kind must be one of histogram, threshold$/);
  assert.deepEqual(resolveCongestionPointConfig({ ...BASE, policy: { kind: 'histogram', flows: 5 } }).policy, { kind: 'histogram', flows: 5 });
});

test('Part 9 §2.4.2.2: the controlled flow list holds at least one entry; other fields are checked by name', () => {
  rejects({ listCapacity: 0 }, /^listCapacity must be a positive integer$/);
  rejects({ capacity: 0 }, /^capacity must be a positive integer$/);
  rejects({ role: 'router' }, /^role must be one of switch, endpoint$/);
  rejects({ unit: 'cells' }, /^unit must be one of packets, bytes$/);
  rejects({ responses: 'never' }, /^responses must be one of fallback, ignore, equal$/);
  rejects({ restartOrder: 'random' }, /^restartOrder must be one of fifo, lifo$/);
  rejects({ restartStagger: -1 }, /^restartStagger must be a non-negative integer$/);
  rejects({ vcCount: 3 }, /^vcCount must be one of 0, 1, 2, 4, 8$/);
  rejects({ ccpFlow: { prio: 4, crf: 0 } }, /^ccpFlow\.prio must be an integer from 0 to 3$/);
  rejects({ ccpFlow: { prio: 3, crf: 2 } }, /^ccpFlow\.crf must be 0 or 1$/);
  rejects({ routes: { table: { 1: -2 } } }, /^routes\.table\[1\] must be a non-negative integer$/);
  rejects({ routes: { default: 1.5 } }, /^routes\.default must be a non-negative integer$/);
  rejects({ participants: [0, -1] }, /^participants\[1\] must be a non-negative integer$/);
  rejects({ crfSupported: 'yes' }, /^crfSupported must be a boolean$/);
});

test('Part 9 §4.3, §2.4.1: routes and participants are kept as given', () => {
  const r = resolveCongestionPointConfig({ ...BASE, routes: { table: { 3: 1, 7: 2 }, default: 0 }, participants: [1, 2] });
  assert.deepEqual([...r.routeTable], [[3, 1], [7, 2]]);
  assert.equal(r.defaultRoute, 0);
  assert.deepEqual(r.participants, [1, 2]);
});
