#!/usr/bin/env node
// Runs every bench/*.bench.ts through tsx, one process each, in name order (docs/performance.md).
// Arguments filter by file name: `npm run bench -- streaming` runs bench/streaming.bench.ts only. A
// name that is a whole benchmark's picks that one alone (`sim` is sim.bench.ts, not sim-scale too).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const filters = process.argv.slice(2);
const all = readdirSync('bench').filter((n) => n.endsWith('.bench.ts'));
const picks = (f) => (all.includes(`${f}.bench.ts`) ? (n) => n === `${f}.bench.ts` : (n) => n.includes(f));
const files = all
  .filter((n) => filters.length === 0 || filters.some((f) => picks(f)(n)))
  .sort()
  .map((n) => join('bench', n));
if (files.length === 0) {
  console.error(`no bench file matches ${filters.join(', ')}`);
  process.exit(1);
}
let status = 0;
for (const f of files) {
  console.log(`\n## ${f}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', f], { stdio: 'inherit' });
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);
