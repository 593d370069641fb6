import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, withScriptedPeer } from '../../../test/support/sim-endpoint.ts';
import { tmFeature } from '../../../test/support/sim-tm.ts';
import { RATE_LEVEL_PERIOD, SIM_TM_CLOCK, makeTmEngines } from '../../node/endpoint/tm-config.ts';
import type { EndpointTmConfig } from '../../node/endpoint/tm-config.ts';

const FACTS = { id: 1, tt: 0, crfSupported: true };

function snapshotOf(tm: EndpointTmConfig): Record<string, unknown> {
  const { ep } = withScriptedPeer(bench(), { name: 'ep1', id: 1, buffers: { packets: 8 }, tm });
  return tmFeature(ep).snapshot();
}

test('Part 10 §5.5.1 Table 5-6: both engines run in the configured mode, BASIC by default', () => {
  assert.equal(snapshotOf({})['mode'], 'BASIC');
  assert.equal(snapshotOf({ mode: 'CREDIT_RATE' })['mode'], 'CREDIT_RATE');
  const e = makeTmEngines(FACTS, { mode: 'RATE' }, SIM_TM_CLOCK);
  assert.deepEqual([e.ingress.mode(), e.egress.mode()], ['RATE', 'RATE']);
});

test('Part 10 §3.4.3: rates are bytes per rate.unit ps (default 1 s), on an engine clock of ns; minRate defaults to 1/100 of the average, maxRate to the larger initial rate', () => {
  const rate = (tm: EndpointTmConfig): Record<string, number> => (snapshotOf(tm)['ingress'] as { rate: Record<string, number> }).rate;
  assert.deepEqual(rate({ mode: 'RATE' }), { unit: 1_000_000_000, average: 125_000_000, peak: 250_000_000, burst: 65_536, peakBurst: 4096, minRate: 1_250_000, maxRate: 250_000_000 });
  assert.equal(rate({ mode: 'RATE', rate: { average: 300_000_000, peak: 200_000_000 } })['maxRate'], 300_000_000);
  assert.equal(rate({ mode: 'RATE', rate: { maxRate: 2 ** 40 } })['maxRate'], 2 ** 40);
  assert.equal(rate({ mode: 'RATE', rate: { unit: 1_000_000, average: 100 } })['unit'], 1000);
  assert.equal(rate({ mode: 'RATE', rate: { average: 50, minRate: 7 } })['minRate'], 7);
  assert.equal(rate({ mode: 'RATE', rate: { average: 50 } })['minRate'], 1);
});

test('Part 10 §3.4.5 rule 6 (escalating REDUCE): the egress samples its level every 1 µs in the rate modes, at every change otherwise', () => {
  assert.equal(snapshotOf({ mode: 'BASIC' })['levelPeriod'], 0);
  assert.equal(snapshotOf({ mode: 'CREDIT' })['levelPeriod'], 0);
  assert.equal(snapshotOf({ mode: 'RATE' })['levelPeriod'], RATE_LEVEL_PERIOD);
  assert.equal(snapshotOf({ mode: 'CREDIT_RATE' })['levelPeriod'], RATE_LEVEL_PERIOD);
  assert.equal(snapshotOf({ mode: 'RATE', levelPeriod: 0 })['levelPeriod'], 0);
  assert.equal(snapshotOf({})['queueLevelBits'], 2);
});

test('engine contract (constructor config): a bad setting is a RangeError naming the tm field, the engines\' own checks included', () => {
  const bad = (tm: unknown, message: RegExp): void => {
    assert.throws(() => makeTmEngines(FACTS, tm as EndpointTmConfig, SIM_TM_CLOCK), (e: unknown) => e instanceof RangeError && message.test(e.message));
  };
  bad(null, /^tm must be a mapping$/);
  bad({ rate: { unit: 1500 } }, /^tm\.rate\.unit must be a whole number of ns/);
  bad({ rate: { unit: 0 } }, /^tm\.rate\.unit must be a positive integer$/);
  bad({ mode: 'FAST' }, /^tm\.mode must be one of/);
  bad({ mode: 'RATE', types: 'BASIC' }, /^tm\.mode must be supported by types/);
  bad({ queueLevelBits: 9 }, /^tm\.queueLevelBits must be an integer from 0 to 8$/);
  bad({ levelPeriod: -1 }, /^tm\.levelPeriod must be a non-negative integer$/);
  bad({ policy: { onOff: { high: 10, low: 20 } } }, /^tm\.policy\.onOff\.low must be/);
  bad({ rate: { average: 10, minRate: 20 } }, /^tm\.rate\.average must be/);
});
