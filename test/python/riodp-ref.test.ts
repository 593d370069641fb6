import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RIODP_ARGS } from '../support/riodp-entry.ts';

/**
 * The Python client of `riodp serve` (issue 18 item 4): python/test_riodp_ref.py, run with the
 * system python3's unittest against this checkout's `riodp serve`. python3 is required: without
 * it this test fails, naming what is missing, rather than being skipped.
 */
const python = fileURLToPath(new URL('../../python/', import.meta.url));

test('issue 18 item 4: python3 -m unittest test_riodp_ref passes (the client, its errors, pipelining, --listen, the example scoreboard)', () => {
  const r = spawnSync('python3', ['-m', 'unittest', '-v', 'test_riodp_ref'], {
    cwd: python,
    encoding: 'utf8',
    env: { ...process.env, RIODP_SERVE_COMMAND: JSON.stringify([process.execPath, ...RIODP_ARGS, 'serve']), PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 300_000,
  });
  if (r.error !== undefined) {
    const code = (r.error as NodeJS.ErrnoException).code;
    assert.fail(code === 'ENOENT' ? 'python3 is not on PATH: the Python client tests (python/test_riodp_ref.py) need it' : `python3 could not run: ${r.error.message}`);
  }
  assert.equal(r.status, 0, `python3 -m unittest failed:\n${r.stderr}`);
  assert.match(r.stderr, /^Ran (\d+) tests? in /m);
  assert.match(r.stderr, /^OK$/m);
  assert.doesNotMatch(r.stderr, /skipped/);
});
