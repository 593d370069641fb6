// The TypeScript transform of `npm test` (scripts/test-loader.mjs): the .ts files of src/, test/
// and scripts/ transpiled once per run, by the esbuild that tsx runs on and with tsx's options,
// into a temporary folder that the loader hooks of each test process read instead of starting tsx.
// tsx costs about 0.3 CPU-s more per test process than these hooks (CONTRIBUTING.md, "Tests"), and
// npm test starts one process per test file.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';

/** The folders whose .ts files tests import or run (a file elsewhere is transpiled when loaded). */
const TREES = ['src', 'test', 'scripts'];

/** tsx's esbuild (tsx depends on it; riodp does not), or null when it cannot be loaded. */
export function loadEsbuild(root) {
  try {
    return createRequire(createRequire(join(root, 'package.json')).resolve('tsx'))('esbuild');
  } catch {
    return null;
  }
}

/**
 * The options tsx 4 gives esbuild for an ES module (its `transform`: target this Node, keepNames,
 * the tsconfig's compiler options), with the source map inline: its `sources` entry, the file's
 * base name, resolves against the module's own URL, so stack traces name the .ts file and line.
 */
export function transformOptions(file, tsconfigRaw) {
  return {
    loader: 'ts',
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    keepNames: true,
    sourcemap: 'inline',
    sourcesContent: false,
    sourcefile: basename(file),
    tsconfigRaw,
  };
}

export function readTsconfig(root) {
  try {
    return readFileSync(join(root, 'tsconfig.json'), 'utf8');
  } catch {
    return undefined;
  }
}

function tsFiles(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * Transpiles the .ts files under `root`'s TREES into a new temporary folder, `dir`/PATH.js for
 * `root`/PATH. `since` is the time the sources were read from: the hooks transpile again a file
 * modified after it. Returns null when esbuild cannot be loaded (the tests then run through tsx).
 */
export async function transpileTree(root) {
  const esbuild = loadEsbuild(root);
  if (esbuild === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'riodp-test-ts-'));
  try {
    const since = Date.now();
    const tsconfigRaw = readTsconfig(root);
    const files = TREES.flatMap((t) => tsFiles(join(root, t), []));
    const made = new Set();
    await Promise.all(
      files.map(async (f) => {
        const { code } = await esbuild.transform(readFileSync(f, 'utf8'), transformOptions(f, tsconfigRaw));
        const out = `${join(dir, relative(root, f))}.js`;
        const parent = dirname(out);
        if (!made.has(parent)) {
          mkdirSync(parent, { recursive: true });
          made.add(parent);
        }
        writeFileSync(out, code);
      }),
    );
    return { dir, since, files: files.length };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
