import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TM_MODE_SETTINGS, TM_TYPES_SETTINGS, resolveTmMode, typesSupporting } from './tm-mode.ts';

test('Part 10 §3.4.5 rule 4 "Any supported modes shall be supported fully": typesSupporting lists exactly the TM types resolveTmMode accepts for a mode, fewest first', () => {
  for (const mode of TM_MODE_SETTINGS) {
    const accepted = TM_TYPES_SETTINGS.filter((types) => {
      try {
        resolveTmMode({ mode, types }, 'ingress');
        return true;
      } catch {
        return false;
      }
    });
    assert.deepEqual(typesSupporting(mode), accepted);
    assert.ok(accepted.length > 0);
  }
  assert.deepEqual(typesSupporting('BASIC'), ['BASIC', 'BASIC_RATE', 'BASIC_CREDIT', 'BASIC_RATE_CREDIT']);
});
