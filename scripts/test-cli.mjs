// The CLI that tests spawn (test/support/riodp-entry.ts): dist/ when it is fresh, else, for
// `npm test`, src/ transpiled by the esbuild that tsx runs on, once per run. A spawn through tsx
// costs about 0.9 s of CPU, one of the transpiled CLI about 0.3 s (as one from dist/); the CLI
// tests spawn it hundreds of times.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Whether `root`/dist holds a compiled file at least as new as each non-test source file (and
 * bin/riodp.js exists): then the tests run what `npx riodp` runs, and never stale code.
 */
export function distIsFresh(root) {
  if (mtime(join(root, 'bin', 'riodp.js')) === null) return false;
  const fresh = (dir, out) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!fresh(path, join(out, e.name))) return false;
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const built = mtime(join(out, `${e.name.slice(0, -3)}.js`));
        const src = mtime(path);
        if (built === null || src === null || built < src) return false;
      }
    }
    return true;
  };
  return fresh(join(root, 'src'), join(root, 'dist'));
}

function sources(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/**
 * Transpiles `root`/src file by file into a new temporary folder laid out as the package is
 * (dist/, package.json for the version riodp prints and "type": "module", node_modules linked), so
 * that import.meta.url-relative paths and the worker files of sweep/pool.ts and repro/suite.ts
 * resolve as in dist/. No type check: the same transform tsx applies to each file when it runs
 * src/. Returns the folder and the entry (`node ENTRY ...args`), or null when tsx's esbuild
 * cannot be loaded (the tests then run src/ through tsx).
 */
export async function buildTestCli(root) {
  let esbuild;
  try {
    esbuild = createRequire(createRequire(join(root, 'package.json')).resolve('tsx'))('esbuild');
  } catch {
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'riodp-test-cli-'));
  try {
    copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // Every import stays external and each file is its own output: bundle mode only so that the
    // plugin can rewrite relative '.ts' specifiers to '.js', as tsc's rewriteRelativeImportExtensions.
    const rewrite = {
      name: 'ts-specifiers',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (a) => {
          if (a.kind === 'entry-point') return undefined;
          return { path: a.path.startsWith('.') ? a.path.replace(/\.ts$/, '.js') : a.path, external: true };
        });
      },
    };
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: sources(join(root, 'src'), []).map((p) => relative(root, p)),
      outbase: 'src',
      outdir: join(dir, 'dist'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      tsconfig: join(root, 'tsconfig.json'),
      plugins: [rewrite],
      logLevel: 'warning',
    });
    const entry = join(dir, 'riodp.js');
    writeFileSync(entry, "import { main } from './dist/cli/main.js';\n\nprocess.exitCode = await main(process.argv.slice(2));\n");
    return { dir, entry };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
