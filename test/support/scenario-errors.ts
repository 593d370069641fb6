import { parseScenario } from '../../src/sim/scenario/load.ts';
import { configErrors } from './config-errors.ts';

/** The one-line issues a scenario text is refused with; fails the test when it is accepted. */
export function scenarioErrors(text: string): string[] {
  return configErrors(() => parseScenario(text));
}
