#!/usr/bin/env node
// docs/conformance.md stays true (issue 18 item 6): every code reference in it (a backticked
// `file.ts` or `file.ts:Symbol/other`) names a file of the repository and symbols that file
// has, and every quoted test title ("…") is the start of, or a fragment of, a test in the
// repository. Names of files that no longer exist (history notes) are written in italics, not
// as code. `--index` also writes docs/conformance-index.md, clause → tests, from the test
// titles themselves; `--check-index` fails when that file is not what `--index` would write.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { conformanceIndex } from './conformance-index.mjs';

const root = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.git', 'riodp-report', '.fuzz-out']);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(relative(root, p));
  }
  return out;
}

const files = walk(root, []);
const texts = new Map();
const text = (f) => {
  let t = texts.get(f);
  if (t === undefined) {
    t = readFileSync(join(root, f), 'utf8');
    texts.set(f, t);
  }
  return t;
};
const testFiles = files.filter((f) => /\.test\.ts$|\.fault\.ts$/.test(f));
/** Test sources with string escapes undone, for title fragments. */
const testText = testFiles.map((f) => text(f).replace(/\\(['"`\\])/g, '$1')).join('\n');

/**
 * Titles written as template literals (`test(\`… ${x} …\`)`), as lists of their literal pieces: a
 * quoted title matches when it starts with the first piece and holds the others in order, the
 * `${…}` parts standing for anything, up to where the quote stops.
 */
const templates = [...testText.matchAll(/\b(?:test|it|describe)\(\s*`((?:[^`\\]|\\.)*)`/g)].map((m) => m[1].split(/\$\{[^}]*\}/));

function fitsTemplate(fragment, pieces) {
  const [first = '', ...rest] = pieces;
  if (!fragment.startsWith(first)) return first.startsWith(fragment);
  let pos = first.length;
  for (const piece of rest) {
    if (piece === '') continue;
    const at = fragment.indexOf(piece, pos);
    // The quote may end inside a ${…} or in this piece; only after a first piece long enough to
    // say which test it is.
    if (at < 0) return first.length >= 12;
    pos = at + piece.length;
  }
  return pos === fragment.length || rest.length > 0;
}

function isTitle(fragment) {
  return testText.includes(fragment) || templates.some((t) => t.length > 1 && fitsTemplate(fragment, t));
}

function candidates(path) {
  if (files.includes(path)) return [path];
  return files.filter((f) => f.endsWith(`/${path}`));
}

/** Names of files riodp writes, not files of the repository. */
const OUTPUTS = new Set(['results.json', 'points.csv', 'index.html']);
const ID = /[A-Za-z_$][\w$]*/g;
const problems = [];
const doc = text('docs/conformance.md');
const lines = doc.split('\n');
let refs = 0;
let titles = 0;
lines.forEach((line, i) => {
  const at = `docs/conformance.md:${i + 1}`;
  for (const m of line.matchAll(/`([\w./-]+\.(?:ts|mjs|js|md|yaml|json|sh))(?::([^`\s]+))?`/g)) {
    const [, path, symbols] = m;
    refs++;
    const found = candidates(path);
    if (found.length === 0 && OUTPUTS.has(path)) continue;
    if (found.length === 0) {
      problems.push(`${at}: no file ${path}`);
      continue;
    }
    if (symbols === undefined) continue;
    for (const id of symbols.match(ID) ?? []) {
      const word = new RegExp(`(?<![\\w$])${id.replace(/\$/g, '\\$')}(?![\\w$])`);
      if (!found.some((f) => word.test(text(f)))) problems.push(`${at}: ${path} has no ${id}`);
    }
  }
  // Test titles are quoted after a test file (`x.test.ts`: "title …"); the part before the first
  // ellipsis (or the whole title) must be in a test source.
  if (!line.startsWith('|')) return;
  const cells = line.split(/(?<!\\)\|/).map((c) => c.trim()).filter((c) => c !== '');
  // A quote inside a quoted title is written \" in the table.
  const tests = (cells.at(-1) ?? '').replace(/\\"/g, '\u0001');
  if (!/\.test\.ts`|\.fault\.ts`/.test(tests)) return;
  for (const m of tests.matchAll(/"([^"]{12,}?)"(?=[,;)|]|\s*$|\s+\(|\s+and\b|\s+—)/g)) {
    const fragment = m[1].split('…')[0].trim().replace(/\u0001/g, '"');
    if (fragment.length < 12) continue;
    titles++;
    if (!isTitle(fragment)) problems.push(`${at}: no test title with "${fragment.slice(0, 80)}"`);
  }
});

const mode = process.argv[2];
if (mode === '--index' || mode === '--check-index') {
  const index = conformanceIndex(testFiles.map((f) => ({ file: f, source: text(f) })));
  const current = files.includes('docs/conformance-index.md') ? text('docs/conformance-index.md') : '';
  if (mode === '--index') writeFileSync(join(root, 'docs/conformance-index.md'), index);
  else if (current !== index) problems.push('docs/conformance-index.md is out of date: run `npm run docs:conformance`');
}

for (const p of problems) console.error(p);
console.log(`docs/conformance.md: ${refs} code references, ${titles} test titles checked; ${problems.length} problems`);
process.exit(problems.length === 0 ? 0 : 1);
