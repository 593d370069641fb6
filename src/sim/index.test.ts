import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ConfigError, loadScenarioFile, parseGrid, parseScenario } from './index.ts';

/** What `fn` threw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return assert.fail('expected a throw');
}

test('riodp/sim exports ConfigError: what parseScenario, loadScenarioFile and parseGrid throw is caught with instanceof from the entry, every bad field an issue', () => {
  const bad = thrown(() => parseScenario('duration: 20 apples\ntopology: { kind: switch, hosts: 4 }\ntraffic: [{ pattern: incast, sink: 0, load: 1.5 }]\n'));
  assert.ok(bad instanceof ConfigError);
  assert.equal(bad.name, 'ConfigError');
  assert.deepEqual(bad.issues.map((i) => i.path), ['name', 'duration', 'traffic.0.load']);
  const missing = thrown(() => loadScenarioFile(join(tmpdir(), 'riodp-no-such-scenario.yaml')));
  assert.ok(missing instanceof ConfigError);
  assert.equal(missing.issues.length, 1);
  assert.ok(thrown(() => parseGrid('scenario: 3\n', tmpdir())) instanceof ConfigError);
});
