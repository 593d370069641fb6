import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { riodp } from '../support/spawn.ts';
import { DOORBELL } from './vectors.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

test('riodp --version prints the package version and exits 0', () => {
  const r = riodp(['--version']);
  assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${VERSION}\n`, '']);
});

test('riodp --help and decode --help print usage on stdout and exit 0', () => {
  const top = riodp(['--help']);
  assert.equal(top.status, 0);
  assert.equal(top.stderr, '');
  assert.match(top.stdout, /^Usage: riodp \[options\] \[command\]/);
  assert.match(top.stdout, /^ {2}decode \[options\] \[hex\.\.\.\]/m);
  assert.match(top.stdout, /^ {2}encode \[options\] \[json\.\.\.\]/m);
  const sub = riodp(['decode', '--help']);
  assert.equal(sub.status, 0);
  for (const option of ['--layer <layer>', '--link <link>', '--voq-format <format>', '--voq-group-size <n>', '--lenient', '--json']) {
    assert.ok(sub.stdout.includes(option), `decode --help lists ${option}`);
  }
});

/** Usage errors: exit 2, a message on stderr, nothing on stdout, no item decoded. */
function usageError(args: string[], message: RegExp): void {
  const r = riodp(args, `${DOORBELL}\n`);
  assert.equal(r.status, 2, `riodp ${args.join(' ')}`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, message);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
}

test('usage errors exit 2: unknown option, unknown command, no command', () => {
  usageError(['decode', '--bogus', DOORBELL], /unknown option '--bogus'/);
  usageError(['frob'], /unknown command 'frob'/);
  usageError([], /Usage: riodp/);
});

test('usage errors exit 2: --layer and --link outside their choices', () => {
  usageError(['decode', '--layer', 'physical'], /'--layer <layer>' argument 'physical' is invalid.*serial, transport, symbol, smp/);
  usageError(['encode', '--link', 'cs96'], /'--link <link>' argument 'cs96' is invalid/);
});

test('Part 12 §5.1.2.2 Table 5-3: --voq-group-size is a bit count 0..6; 7 and non-numbers are usage errors (exit 2)', () => {
  usageError(['decode', '--layer', 'symbol', '--voq-format', 'part12-rev4.1', '--voq-group-size', '7'], /'7' is not a bit count 0\.\.6/);
  // Number('') is 0: an empty value must not pass as the reset value.
  usageError(['decode', '--layer', 'symbol', '--voq-format', 'part12-rev4.1', '--voq-group-size', ''], /'' is not a bit count 0\.\.6/);
});
