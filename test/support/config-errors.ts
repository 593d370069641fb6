import assert from 'node:assert/strict';
import { ConfigError, formatIssue } from '../../src/config/issues.ts';
import type { ConfigErrorClass } from '../../src/config/issues.ts';

/** The "path: expectation" lines `f` is refused with, as `error` (ConfigError or a host's subclass); fails the test when `f` returns. */
export function configErrors(f: () => unknown, error: ConfigErrorClass = ConfigError): string[] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof error, String(e));
    return e.issues.map(formatIssue);
  }
  assert.fail(`no ${error.name}`);
}
