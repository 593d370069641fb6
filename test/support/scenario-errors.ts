import assert from 'node:assert/strict';
import { ScenarioError, formatIssue } from '../../src/sim/scenario/issues.ts';
import { parseScenario } from '../../src/sim/scenario/load.ts';

/** The one-line issues a scenario text is refused with; fails the test when it is accepted. */
export function scenarioErrors(text: string): string[] {
  try {
    parseScenario(text);
  } catch (e) {
    assert.ok(e instanceof ScenarioError, String(e));
    return e.issues.map(formatIssue);
  }
  assert.fail('the scenario was accepted');
}
