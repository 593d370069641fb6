import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { configErrors as lines } from '../../test/support/config-errors.ts';
import { ConfigError } from './issues.ts';
import { checkSchema, loadConfigFile } from './load.ts';

const schema = z.strictObject({ port: z.number().int(), host: z.string().default('127.0.0.1') });

class HostError extends ConfigError {}

test('issue 15 config loading: a value is checked against its schema, the schema\'s output returned, every problem thrown together', () => {
  assert.deepEqual(checkSchema(schema, { port: 1 }), { port: 1, host: '127.0.0.1' });
  assert.deepEqual(lines(() => checkSchema(schema, { port: 1.5, extra: 1 })).sort(), ['extra: unknown field', 'port: expected int, received number']);
  assert.deepEqual(lines(() => checkSchema(schema, { port: 'x' }, { prefix: ['config'] })), ['config.port: expected number, received string']);
  assert.deepEqual(lines(() => checkSchema(schema, {}, { error: HostError }), HostError), ['port: missing, expected number']);
});

test('issue 15 config loading: a file is read as YAML or JSON and checked with its folder; a file that cannot be read or is not YAML is one line, as the host\'s class', () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-config-'));
  writeFileSync(join(dir, 'a.yaml'), 'port: 7\n');
  writeFileSync(join(dir, 'b.json'), '{"port": 8, "host": "::1"}');
  assert.deepEqual(loadConfigFile(join(dir, 'a.yaml'), (v, d) => ({ ...checkSchema(schema, v), d })), { port: 7, host: '127.0.0.1', d: dir });
  assert.deepEqual(loadConfigFile(join(dir, 'b.json'), (v) => checkSchema(schema, v)), { port: 8, host: '::1' });
  const missing = join(dir, 'none.yaml');
  assert.deepEqual(lines(() => loadConfigFile(missing, (v) => v, HostError), HostError), [`cannot read ${missing} (ENOENT)`]);
  writeFileSync(join(dir, 'bad.yaml'), 'port: [1');
  assert.match(lines(() => loadConfigFile(join(dir, 'bad.yaml'), (v) => v)).join('\n'), /^not YAML: [^\n]*$/);
  rmSync(dir, { recursive: true, force: true });
});
