// Module hooks of scripts/test-loader.mjs (they run on Node's loader thread): a .ts module is the
// file `npm test` transpiled for this run (scripts/test-transpile.mjs), or, for a file outside it
// or modified since, transpiled here with the same options. The module keeps its own URL, so
// import.meta.url, the fixtures found from it and the worker files chosen by its extension are
// those of a run through tsx.
import { readFileSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEsbuild, readTsconfig, transformOptions } from './test-transpile.mjs';

/** @type {{ root: string, dir: string | null, since: number }} */
let run = { root: '', dir: null, since: 0 };
let esbuild;
let tsconfigRaw;

export function initialize(data) {
  run = data;
}

function transpiled(path) {
  if (run.dir === null || !path.startsWith(run.root + sep)) return null;
  try {
    if (statSync(path).mtimeMs > run.since) return null;
    return readFileSync(`${run.dir}${path.slice(run.root.length)}.js`, 'utf8');
  } catch {
    return null;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  let source = transpiled(path);
  if (source === null) {
    if (esbuild === undefined) {
      esbuild = loadEsbuild(run.root);
      if (esbuild === null) throw new Error(`test-loader: cannot load tsx's esbuild to transpile ${path}`);
      tsconfigRaw = readTsconfig(run.root);
    }
    source = esbuild.transformSync(readFileSync(path, 'utf8'), transformOptions(path, tsconfigRaw)).code;
  }
  return { format: 'module', source, shortCircuit: true };
}
