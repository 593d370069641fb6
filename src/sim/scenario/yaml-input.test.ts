import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScenarioError } from './issues.ts';
import { parseYamlText, readTextFile } from './yaml-input.ts';

function issuesOf(f: () => unknown): readonly { path: string; message: string }[] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ScenarioError);
    return e.issues;
  }
  assert.fail('no ScenarioError');
}

test('issue 7 §3 "an invalid file is refused with the path of each bad field": a file that cannot be read is one line at the field that named it, with the errno code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-yaml-'));
  const file = join(dir, 'ok.yaml');
  writeFileSync(file, 'name: x\n');
  assert.equal(readTextFile(file), 'name: x\n');
  const missing = join(dir, 'nope.yaml');
  assert.deepEqual(issuesOf(() => readTextFile(missing)), [{ path: '', message: `cannot read ${missing} (ENOENT)` }]);
  assert.deepEqual(issuesOf(() => readTextFile(dir, 'scenario')), [{ path: 'scenario', message: `cannot read ${dir} (EISDIR)` }]);
  rmSync(dir, { recursive: true, force: true });
});

test('issue 7 §3 "an invalid file is refused with the path of each bad field": text that is not YAML is one line, the parser\'s first line, at the field given', () => {
  assert.deepEqual(parseYamlText('a: [1, 2]\n'), { a: [1, 2] });
  const [bad] = issuesOf(() => parseYamlText('name: [unclosed', 'scenario'));
  assert.equal(bad?.path, 'scenario');
  assert.match(bad.message, /^not YAML: [^\n]*[^:\n]$/);
  assert.equal(issuesOf(() => parseYamlText('name: [unclosed')).length, 1);
});
