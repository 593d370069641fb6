/**
 * Issue 15 "one configuration schema (zod) for switch and end point, shared by sim scenarios, the
 * switch/endpoint YAML of the software fabric": the end point sections a scenario's `endpoints`
 * and `riodp endpoint`'s file have in common take the same fields and give the same messages
 * (src/node/endpoint/ccp-schema.ts, session-schema.ts, tm-schema.ts, arbitration-schema.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors } from '../../../test/support/scenario-errors.ts';
import { EndpointConfigError, endpointConfig } from '../../net/endpoint-config.ts';

function scenarioIssues(endpoints: string): string[] {
  return scenarioErrors(`name: t
duration: 10us
topology: { kind: switch, hosts: 2 }
endpoints: ${endpoints}
traffic:
  - { pattern: uniform, load: 0.1 }
`).map((l) => l.replace(/^endpoints\./, ''));
}

function fabricIssues(file: Record<string, unknown>): string[] {
  try {
    endpointConfig({ nodeId: 1, switch: { port: 4000 }, ...file });
  } catch (e) {
    if (e instanceof EndpointConfigError) return e.message.split('\n');
    throw e;
  }
  return [];
}

test('issue 15 one schema: the ccp, management contact, session timer, tm and arbitration fields refuse the same values with the same words in a scenario and in riodp endpoint\'s file', () => {
  const same: [string, Record<string, unknown>][] = [
    ['{ ccp: { counterBits: 40 } }', { ccp: { counterBits: 40 } }],
    ['{ tm: { queueLevelBits: 9 } }', { tm: { queueLevelBits: 9 } }],
    ['{ tm: { mode: FAST } }', { tm: { mode: 'FAST' } }],
    ['{ tm: { policy: { credit: { auCount: 2, maxOutstanding: 3 } } } }', { tm: { policy: { credit: { auCount: 2, maxOutstanding: 3 } } } }],
    ['{ arbitration: { mode: many } }', { arbitration: { mode: 'many' } }],
    ['{ arbitration: { resources: 0 } }', { arbitration: { resources: 0 } }],
  ];
  for (const [scenario, file] of same) {
    const s = scenarioIssues(scenario);
    assert.equal(s.length, 1, `${scenario}: ${JSON.stringify(s)}`);
    assert.deepEqual(fabricIssues(file), s, scenario);
  }
  // The management contact: a scenario's endpoints.session, the file's management section.
  const [s] = scenarioIssues('{ session: { streamID: 5 } }');
  assert.deepEqual(fabricIssues({ management: { streamID: 5 } }), [s?.replace('session.', 'management.')]);
  assert.match(s ?? '', /^session\.streamID: expected an integer 57344\.\.65534/);
});
