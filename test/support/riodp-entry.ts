/**
 * How tests spawn the CLI: the arguments to give `node` before the CLI's own.
 *
 * From `bin/riodp.js` (dist/, what `npx riodp` runs; `npm ci` builds it) when every source file
 * has a compiled file at least as new. Else from the CLI `npm test` transpiled from src/ for this
 * run (scripts/test-cli.mjs; its entry in RIODP_TEST_CLI). Else (a test file run on its own) from
 * src/ through tsx (test/support/riodp.ts). A spawn from dist/ or the transpiled CLI costs about
 * 0.3 s of CPU against 0.9 s through tsx, and the CLI tests spawn hundreds of times, which npm
 * test's 10-minute budget feels. In CI dist/ is always fresh (`npm ci` builds it just before);
 * locally an edit after `npm run build` makes the tests run src/ again, so they never test stale
 * code. RIODP_TEST_FROM_SOURCE=1 forces src/ through tsx.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../../scripts/test-cli.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = fileURLToPath(new URL('./riodp.ts', import.meta.url));
const bin = join(root, 'bin', 'riodp.js');
const fromSource = process.env['RIODP_TEST_FROM_SOURCE'] === '1';
const transpiled = process.env['RIODP_TEST_CLI'];

export const FROM_DIST = !fromSource && distIsFresh(root);

/** `node ...RIODP_ARGS ...cliArgs` runs the CLI. */
export const RIODP_ARGS: readonly string[] = FROM_DIST ? [bin] : !fromSource && transpiled !== undefined && transpiled !== '' ? [transpiled] : ['--import', 'tsx', source];
