#!/usr/bin/env node
// Runs every bench/*.bench.ts through tsx, one process each, in name order (docs/performance.md).
// Arguments filter by file name: `npm run bench -- streaming` runs bench/streaming.bench.ts only.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const filters = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((n) => n.endsWith('.bench.ts') && (filters.length === 0 || filters.some((f) => n.includes(f))))
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
