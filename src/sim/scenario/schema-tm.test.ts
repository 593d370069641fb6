import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors } from '../../../test/support/scenario-errors.ts';
import { buildFabric } from './build.ts';
import { parseScenario } from './load.ts';

function scenario(tm: string): string {
  return `name: t
duration: 10us
topology: { kind: switch, hosts: 2 }
endpoints: { serviceTime: 100ns, tm: ${tm} }
traffic:
  - { pattern: uniform, load: 0.1 }
`;
}

function issues(tm: string): string[] {
  return scenarioErrors(scenario(tm));
}

test('issue 7 §3 endpoints.tm: `tm: {}` is BASIC with every default filled in, and reaches every end point', () => {
  const s = parseScenario(scenario('{}'));
  const tm = s.variants[0]?.config.endpoints.tm;
  assert.deepEqual(tm, {
    mode: 'BASIC',
    rate: { unit: 1_000_000_000_000, average: 125_000_000, peak: 250_000_000, burst: 65_536, peakBurst: 4096 },
    amountBits: 8, lowCredits: 2, queueLevelBits: 2, levelBits: 8,
    policy: {
      onOff: { high: 240, low: 128 },
      rate: { high: 160, low: 64, reduce: 32, increase: 16, rate: 'average' },
      credit: { credits: 16, auCount: 16, maxOutstanding: 2, lowCredits: 2 },
    },
  });
  const b = buildFabric(s);
  for (const ep of b.endpoints) assert.deepEqual(ep.features.map((f) => f.name), ['tm']);
  assert.equal(b.endpoints[0]?.snapshot()['features'] !== undefined, true);
});

test('issue 7 §3 endpoints.tm: units, sizes, partial policies and null switch parts off', () => {
  const s = parseScenario(scenario('{ mode: RATE, levelPeriod: 2us, rate: { unit: 1ms, average: 64KiB, minRate: 1KB }, policy: { onOff: null, rate: { reduce: 8 } } }'));
  const tm = s.variants[0]?.config.endpoints.tm;
  assert.ok(tm !== undefined);
  assert.equal(tm.levelPeriod, 2_000_000);
  assert.deepEqual([tm.rate?.unit, tm.rate?.average, tm.rate?.minRate], [1_000_000_000, 65_536, 1000]);
  assert.equal(tm.policy?.onOff, null);
  assert.deepEqual(tm.policy.rate, { high: 160, low: 64, reduce: 8, increase: 16, rate: 'average' });
  const ep = buildFabric(s).endpoints[0];
  assert.equal((ep?.snapshot().features['tm'] as { levelPeriod?: number } | undefined)?.levelPeriod, 2_000_000);
});

test('issue 7 §3 "refused with the path of each bad field and what was expected": bad tm settings', () => {
  assert.deepEqual(issues('{ mode: FAST }'), ['endpoints.tm.mode: expected one of DISABLED, BASIC, RATE, CREDIT, CREDIT_RATE']);
  assert.deepEqual(issues('{ mode: RATE, types: BASIC_CREDIT }'), ['endpoints.tm.types: expected TM types that support mode RATE (BASIC_RATE, BASIC_RATE_CREDIT)']);
  assert.deepEqual(issues('{ rate: { unit: 1500ps } }'), ['endpoints.tm.rate.unit: expected a time that is a whole number of ns (the rate period, "1s")']);
  assert.deepEqual(issues('{ rate: { average: 10, minRate: 20 } }'), ['endpoints.tm.rate.average: expected a rate from minRate (20) to maxRate (250000000)']);
  assert.deepEqual(issues('{ rate: { burst: 4MiB } }'), ['endpoints.tm.rate.burst: expected a smaller bucket: (burst + 65536) × unit in ns must stay below 2^51']);
  assert.deepEqual(issues('{ policy: { onOff: { high: 100, low: 100 } } }'), ['endpoints.tm.policy.onOff.low: expected a level below high (100)']);
  assert.deepEqual(issues('{ policy: { credit: { auCount: 2, maxOutstanding: 3 } } }'), ['endpoints.tm.policy.credit.maxOutstanding: expected at most auCount (2)']);
  assert.deepEqual(issues('{ queueLevelBits: 9 }'), ['endpoints.tm.queueLevelBits: expected an integer 0..8']);
  // The ingress's discard policy is not offered: a source drops PDUs only when its own queue is full.
  assert.equal(issues('{ discard: { mode: bound, maxQueued: 4 } }').length, 1);
  assert.deepEqual(issues('{ speed: 1 }').length, 1);
  assert.match(issues('{ speed: 1 }')[0] ?? '', /^endpoints\.tm/);
});
