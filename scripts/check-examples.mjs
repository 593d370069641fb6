// Issue 18 item 2: every exported value (function, class, constant) of the seven entry points
// carries an `@example`, and every example is real code: each is extracted, its `riodp/...`
// imports pointed at the sources, type-checked with the project's strict options, and run.
// Types and interfaces are documented (TypeDoc's notDocumented check) and shown in use by the
// examples of the values that take or return them (docs/api.md).
//
// usage: node scripts/check-examples.mjs [--only NAME[,NAME…]] [--keep DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = opt('--only')?.split(',');
const keep = opt('--keep');

/** TypeDoc reflection kinds (typedoc/models/kind.ts). */
const KIND = { Module: 2, Namespace: 4, Variable: 32, Function: 64, Class: 128 };
const VALUE_KINDS = new Set([KIND.Variable, KIND.Function, KIND.Class]);
/** A line that marks an example as type-checked only, for code that needs a live fabric or process. */
const NO_RUN = /^\s*\/\/ example: not run\b/m;

const work = keep ? resolve(keep) : mkdtempSync(join(tmpdir(), 'riodp-examples-'));
mkdirSync(work, { recursive: true });
const apiJson = join(work, 'api.json');
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typedoc/bin/typedoc'), '--json', apiJson, '--disableSources', 'false', '--treatWarningsAsErrors', 'false', '--logLevel', 'Error'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
const api = JSON.parse(readFileSync(apiJson, 'utf8'));

function commentOf(r) {
  return r.comment ?? r.signatures?.[0]?.comment ?? r.children?.find((c) => c.kind === 512)?.signatures?.[0]?.comment;
}
function where(r) {
  const s = r.sources?.[0];
  return s ? `${s.fileName}:${s.line}` : '?';
}

/** @type {Map<string, {entry: string, name: string, where: string, code: string[]}>} */
const symbols = new Map();
const problems = [];
function visit(entry, r, prefix) {
  for (const c of r.children ?? []) {
    if (c.kind === KIND.Namespace) visit(entry, c, `${prefix}${c.name}.`);
    if (!VALUE_KINDS.has(c.kind)) continue;
    const name = `${prefix}${c.name}`;
    const key = `${where(c)}#${name}`;
    if (symbols.has(key)) continue;
    const tags = commentOf(c)?.blockTags?.filter((t) => t.tag === '@example') ?? [];
    const code = tags.map((t) => t.content.map((p) => p.text).join('').replace(/^\s*```\w*\n?/, '').replace(/\n?```\s*$/, ''));
    symbols.set(key, { entry, name, where: where(c), code });
  }
}
for (const m of api.children ?? []) if (m.kind === KIND.Module && m.name !== 'riodp') visit(m.name, m, '');

const entryFile = {
  riodp: 'src/index.ts',
  'riodp/wire': 'src/wire/index.ts',
  'riodp/registers': 'src/registers/index.ts',
  'riodp/engines': 'src/engines/index.ts',
  'riodp/node': 'src/node/index.ts',
  'riodp/sim': 'src/sim/index.ts',
  'riodp/net': 'src/net/index.ts',
};
const importRe = /(from\s+|import\s*\(\s*)(['"])(riodp(?:\/[a-z]+)?)\2/g;
const files = [];
let n = 0;
for (const s of symbols.values()) {
  if (only && !only.includes(s.name)) continue;
  if (s.code.length === 0) {
    problems.push(`${s.where}: ${s.entry} ${s.name}: no @example`);
    continue;
  }
  s.code.forEach((code, i) => {
    let bad;
    const body = code.replace(importRe, (all, head, q, spec) => {
      const f = entryFile[spec];
      if (!f) bad = spec;
      return f ? `${head}${q}${join(root, f.replace(/\.ts$/, '.js'))}${q}` : all;
    });
    if (bad) problems.push(`${s.where}: ${s.entry} ${s.name}: example imports '${bad}', not an entry point`);
    if (!/\bimport\b/.test(code)) problems.push(`${s.where}: ${s.entry} ${s.name}: example imports nothing from riodp`);
    const file = join(work, `ex${String(n++).padStart(4, '0')}.ts`);
    // `export {}` makes every example a module of its own, so names do not collide across files.
    writeFileSync(file, `${body}\nexport {};\n`);
    files.push({ file, s, run: !NO_RUN.test(code), index: i });
  });
}

writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  join(work, 'tsconfig.json'),
  JSON.stringify({
    extends: join(root, 'tsconfig.json'),
    compilerOptions: { rootDir: '/', noUnusedLocals: false, noEmit: true, typeRoots: [join(root, 'node_modules/@types')] },
    include: ['*.ts'],
  }),
);
const byFile = new Map(files.map((f) => [f.file, f]));
if (files.length > 0) {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(work, 'tsconfig.json')], { cwd: work, encoding: 'utf8' });
  for (const line of (tsc.stdout + tsc.stderr).split('\n')) {
    const m = /^(.*?\.ts)\((\d+),\d+\): (error .*)$/.exec(line);
    if (!m) continue;
    const f = byFile.get(resolve(work, m[1]));
    if (f) problems.push(`${f.s.where}: ${f.s.entry} ${f.s.name}: example line ${m[2]}: ${m[3]}`);
    else if (!m[1].startsWith(work)) problems.push(`(project source) ${line}`);
  }
  // Run the examples in one child process (tsx), each imported in turn; a throw is a problem.
  const toRun = files.filter((f) => f.run);
  const runner = join(work, 'run.mjs');
  writeFileSync(
    runner,
    `const files = ${JSON.stringify(toRun.map((f) => pathToFileURL(f.file).href))};
for (const f of files) {
  try { await import(f); } catch (e) { console.log('FAIL ' + f + ' ' + String(e && e.message ? e.message : e).split('\\n')[0]); }
}
process.exit(0);
`,
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', runner], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  if (run.error) problems.push(`running the examples: ${run.error.message}`);
  for (const line of run.stdout.split('\n')) {
    const m = /^FAIL (\S+) (.*)$/.exec(line);
    if (!m) continue;
    const f = byFile.get(fileURLToPath(m[1]));
    problems.push(`${f?.s.where}: ${f?.s.entry} ${f?.s.name}: example throws: ${m[2]}`);
  }
}
if (!keep) rmSync(work, { recursive: true, force: true });

const total = symbols.size;
const withExample = [...symbols.values()].filter((s) => s.code.length > 0).length;
for (const p of problems) console.error(p);
console.log(
  `check:examples: ${total} exported values, ${withExample} with an example; ${files.length} examples type-checked, ${files.filter((f) => f.run).length} run; ${problems.length} problem(s)`,
);
process.exit(problems.length === 0 ? 0 : 1);
