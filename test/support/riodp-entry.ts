/**
 * How tests spawn the CLI: the arguments to give `node` before the CLI's own.
 *
 * From `bin/riodp.js` (dist/, what `npx riodp` runs; `npm ci` builds it) when every source file
 * has a compiled file at least as new, else from src/ through tsx (test/support/riodp.ts). A spawn
 * from dist/ starts in about 0.2 s against 0.6 s through tsx, and the CLI tests spawn hundreds of
 * times, which npm test's 10-minute budget feels. In CI dist/ is always fresh (`npm ci` builds it
 * just before); locally an edit after `npm run build` makes the tests run src/ again, so they never
 * test stale code. RIODP_TEST_FROM_SOURCE=1 forces src/.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const source = fileURLToPath(new URL('./riodp.ts', import.meta.url));
const bin = join(root, 'bin', 'riodp.js');

function mtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Whether dist/ holds a compiled file at least as new as each non-test source file. */
function distIsFresh(dir = join(root, 'src'), out = join(root, 'dist')): boolean {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!distIsFresh(path, join(out, e.name))) return false;
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
      const built = mtime(join(out, `${e.name.slice(0, -3)}.js`));
      const src = mtime(path);
      if (built === null || src === null || built < src) return false;
    }
  }
  return true;
}

export const FROM_DIST = process.env['RIODP_TEST_FROM_SOURCE'] !== '1' && mtime(bin) !== null && distIsFresh();

/** `node ...RIODP_ARGS ...cliArgs` runs the CLI. */
export const RIODP_ARGS: readonly string[] = FROM_DIST ? [bin] : ['--import', 'tsx', source];
