import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors as errors } from '../../../test/support/scenario-errors.ts';
import { buildFabric } from './build.ts';
import { parseScenario } from './load.ts';

/** A base that turns every end point feature on, and variants that turn them off again with null. */
const ALL_ON = `
name: off
duration: 10us
topology: { kind: switch, hosts: 3 }
endpoints:
  session: { conveyance: type11, mailbox: 1 }
  arbitration: { mode: multi }
  tm: { mode: CREDIT }
traffic:
  - { pattern: uniform, load: 0.2 }
variants:
  - { name: all }
  - { name: no session, overrides: { endpoints: { session: null } } }
  - { name: no arbitration, overrides: { endpoints: { arbitration: null } } }
  - { name: no tm, overrides: { endpoints: { tm: null } } }
  - { name: none, overrides: { endpoints: { session: null, arbitration: null, tm: null } } }
`;

function featureNames(text: string, variant: string): string[][] {
  return buildFabric(parseScenario(text), variant).endpoints.map((ep) => ep.features.map((f) => f.name));
}

test('issue 7 §3 variants: null in a variant switches endpoints.session, endpoints.arbitration and endpoints.tm off, whatever the base turned on', () => {
  const s = parseScenario(ALL_ON);
  assert.deepEqual(s.variants.map((v) => v.name), ['all', 'no session', 'no arbitration', 'no tm', 'none']);
  const e = (name: string) => s.variants.find((v) => v.name === name)?.config.endpoints;
  assert.equal(e('all')?.session?.mailbox, 1);
  assert.equal(e('all')?.arbitration?.mode, 'multi');
  assert.equal(e('all')?.tm?.mode, 'CREDIT');
  assert.equal(e('no session')?.session, undefined);
  assert.equal(e('no session')?.arbitration?.mode, 'multi', 'the other features stay on');
  assert.equal(e('no arbitration')?.arbitration, undefined);
  assert.equal(e('no tm')?.tm, undefined);
  const three = ['session', 'arbitration', 'tm'];
  assert.deepEqual(featureNames(ALL_ON, 'all'), [three, three, three]);
  assert.deepEqual(featureNames(ALL_ON, 'no session'), Array.from({ length: 3 }, () => ['arbitration', 'tm']));
  assert.deepEqual(featureNames(ALL_ON, 'no arbitration'), Array.from({ length: 3 }, () => ['session', 'tm']));
  assert.deepEqual(featureNames(ALL_ON, 'no tm'), Array.from({ length: 3 }, () => ['session', 'arbitration']));
  assert.deepEqual(featureNames(ALL_ON, 'none'), [[], [], []]);
});

test('decision: null means off in the base scenario too, and a variant may turn a feature on over a null base', () => {
  const text = `
name: base-null
duration: 10us
topology: { kind: switch, hosts: 3 }
endpoints: { session: null, arbitration: null, tm: null }
traffic:
  - { pattern: uniform, load: 0.2 }
variants:
  - { name: off }
  - { name: arb, overrides: { endpoints: { arbitration: { resources: 2 } } } }
`;
  assert.deepEqual(featureNames(text, 'off'), [[], [], []]);
  assert.deepEqual(featureNames(text, 'arb'), [['arbitration'], ['arbitration'], ['arbitration']]);
  assert.equal(parseScenario(text).variants[1]?.config.endpoints.arbitration?.resources, 2);
});

test('issue 7 §3 "an invalid file is refused with the path of each bad field": a variant\'s feature settings are still checked when not null', () => {
  const text = ALL_ON.replace('  - { name: none, overrides: { endpoints: { session: null, arbitration: null, tm: null } } }\n', '  - { name: bad, overrides: { endpoints: { arbitration: { mode: both }, tm: false } } }\n');
  assert.deepEqual(errors(text), [
    'variants.4.overrides.endpoints.arbitration.mode: expected one of single, multi',
    'variants.4.overrides.endpoints.tm: expected tm settings {mode?, types?, rate?, amountBits?, lowCredits?, queueLevelBits?, levelBits?, levelPeriod?, policy?}',
  ]);
});
