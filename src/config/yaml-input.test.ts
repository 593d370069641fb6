import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configErrors as lines } from '../../test/support/config-errors.ts';
import { ConfigError } from './issues.ts';
import type { Issue } from './issues.ts';
import { parseYamlText, readNamedFile, readTextFile, readYamlFile } from './yaml-input.ts';

class HostError extends ConfigError {}

test('issue 7 §3 "an invalid file is refused with the path of each bad field": a file that cannot be read is one line at the field that named it, with the errno code', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-yaml-'));
  const file = join(dir, 'ok.yaml');
  writeFileSync(file, 'name: x\n');
  assert.equal(readTextFile(file), 'name: x\n');
  const missing = join(dir, 'nope.yaml');
  assert.deepEqual(lines(() => readTextFile(missing)), [`cannot read ${missing} (ENOENT)`]);
  assert.deepEqual(lines(() => readTextFile(dir, 'scenario')), [`scenario: cannot read ${dir} (EISDIR)`]);
  rmSync(dir, { recursive: true, force: true });
});

test('issue 7 §3 "an invalid file is refused with the path of each bad field": text that is not YAML is one line, the parser\'s first line, at the field given', () => {
  assert.deepEqual(parseYamlText('a: [1, 2]\n'), { a: [1, 2] });
  assert.match(lines(() => parseYamlText('name: [unclosed', 'scenario')).join('\n'), /^scenario: not YAML: [^\n]*[^:\n]$/);
  assert.match(lines(() => parseYamlText('name: [unclosed')).join('\n'), /^not YAML: [^\n]*[^:\n]$/);
});

test('issue 15 config loading: a YAML or JSON file is read in one step, and its problems are thrown as the class the host asks for', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-yaml-'));
  const json = join(dir, 'c.json');
  writeFileSync(json, '{"a": {"b": [1, 2]}}');
  assert.deepEqual(readYamlFile(json), { a: { b: [1, 2] } });
  const missing = join(dir, 'nope.yaml');
  assert.deepEqual(lines(() => readYamlFile(missing, '', HostError), HostError), [`cannot read ${missing} (ENOENT)`]);
  writeFileSync(join(dir, 'bad.yaml'), 'a: [unclosed');
  assert.match(lines(() => readYamlFile(join(dir, 'bad.yaml'), 'file', HostError), HostError).join('\n'), /^file: not YAML: [^\n]*$/);
  rmSync(dir, { recursive: true, force: true });
});

test('issue 15 config loading: a file a configuration names is read relative to the configuration\'s folder; one that cannot be read is an issue at its field, as written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-yaml-'));
  writeFileSync(join(dir, 'key.hex'), '00ff');
  const issues: Issue[] = [];
  assert.equal(readNamedFile(dir, 'key.hex', 'tls.psk.keyFile', issues)?.toString('utf8'), '00ff');
  assert.equal(readNamedFile(dir, 'missing.pem', 'tls.cert.ca', issues), undefined);
  assert.deepEqual(issues, [{ path: 'tls.cert.ca', message: 'cannot read missing.pem (ENOENT)' }]);
  rmSync(dir, { recursive: true, force: true });
});
