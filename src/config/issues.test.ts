import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ConfigError, formatIssue, zodIssues } from './issues.ts';

const schema = z.strictObject({
  load: z.number(),
  traffic: z.array(z.strictObject({ rate: z.number() })),
  kind: z.discriminatedUnion('type', [z.strictObject({ type: z.literal('a') }), z.strictObject({ type: z.literal('b') })]).optional(),
  routes: z.record(z.string().regex(/^\d+$/), z.number()).optional(),
});

function lines(value: unknown, prefix: readonly PropertyKey[] = [], invalidKey?: string): string[] {
  const r = schema.safeParse(value);
  assert.ok(!r.success);
  return zodIssues(r.error, prefix, invalidKey).map(formatIssue);
}

test('issue 7 §3 "the path of each bad field and what was expected": unknown keys one line each, a union names its choices, an absent field is "missing", list indices in the path', () => {
  assert.deepEqual(lines({ traffic: [{ rate: 'x' }], extra: 1, other: 2, kind: { type: 'c' } }).sort(), [
    'extra: unknown field',
    'kind.type: expected one of a, b',
    'load: missing, expected number',
    'other: unknown field',
    'traffic.0.rate: expected number, received string',
  ]);
});

test('issue 7 §3 "the path of each bad field": a prefix leads every path, and one without a path of its own is the prefix alone', () => {
  assert.deepEqual(lines([], ['config']), ['config: expected object, received array']);
  assert.deepEqual(lines({ load: 1, traffic: [], x: 0 }, ['variants', 2]), ['variants.2.x: unknown field']);
});

test('docs/model.md config errors: a refused record key takes the caller\'s message, or zod\'s wording without one', () => {
  assert.deepEqual(lines({ load: 1, traffic: [], routes: { x: 1 } }, [], 'expected a device ID in decimal digits as the key'), ['routes.x: expected a device ID in decimal digits as the key']);
  assert.equal(lines({ load: 1, traffic: [], routes: { x: 1 } }).length, 1);
});

test('issue 15 config errors: ConfigError holds every issue and its message is their lines; a subclass keeps its own name', () => {
  const e = new ConfigError([{ path: '', message: 'not YAML: x' }, { path: 'a.b', message: 'unknown field' }]);
  assert.equal(e.message, 'not YAML: x\na.b: unknown field');
  assert.equal(String(e), 'ConfigError: not YAML: x\na.b: unknown field');
  assert.deepEqual(Object.keys(e), ['issues']);
  class HostConfigError extends ConfigError {}
  Object.defineProperty(HostConfigError.prototype, 'name', { value: 'HostConfigError', writable: true, configurable: true });
  assert.match(String(new HostConfigError([{ path: 'x', message: 'y' }])), /^HostConfigError: x: y$/);
});
