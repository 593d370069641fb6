import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configErrors as lines } from '../../../test/support/config-errors.ts';
import { loadGridFile, parseGrid } from './grid.ts';

const PARAMETERS = 'parameters: { traffic.0.load: [0.2, 0.4] }\n';

test('issue 7 §5 riodp sweep grid: the scenario file a grid names is refused at "scenario" when it cannot be read, is not YAML or is not a mapping', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-grid-'));
  assert.deepEqual(lines(() => parseGrid(`scenario: nope.yaml\n${PARAMETERS}`, dir)), [`scenario: cannot read ${join(dir, 'nope.yaml')} (ENOENT)`]);
  writeFileSync(join(dir, 'bad.yaml'), 'name: [unclosed');
  const [notYaml] = lines(() => parseGrid(`scenario: bad.yaml\n${PARAMETERS}`, dir));
  assert.match(notYaml ?? '', /^scenario: not YAML: /);
  writeFileSync(join(dir, 'list.yaml'), '- 1\n');
  assert.deepEqual(lines(() => parseGrid(`scenario: list.yaml\n${PARAMETERS}`, dir)), [`scenario: expected ${join(dir, 'list.yaml')} to hold a scenario mapping`]);
  rmSync(dir, { recursive: true, force: true });
});

test('issue 7 §5 riodp sweep grid: a grid file that cannot be read or is not YAML is one line without a path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-grid-'));
  const missing = join(dir, 'grid.yaml');
  assert.deepEqual(lines(() => loadGridFile(missing)), [`cannot read ${missing} (ENOENT)`]);
  writeFileSync(missing, 'parameters: [unclosed');
  assert.match(lines(() => loadGridFile(missing))[0] ?? '', /^not YAML: /);
  rmSync(dir, { recursive: true, force: true });
});
