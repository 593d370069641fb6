#!/usr/bin/env node
// Lists the test files explicitly (Node 20's runner does not discover .ts files) and runs them
// through tsx. `--fuzz` runs only the property tests with millions of cases.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const fuzz = process.argv.includes('--fuzz');
// `--faults`: the fault-injection suite (test/faults/*.fault.ts): real processes stopped, killed
// and restarted, about two minutes, run by CI after the unit tests (docs/fabric-faults.md).
const faults = process.argv.includes('--faults');
const extra = process.argv.slice(2).filter((a) => a !== '--fuzz' && a !== '--faults');

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts') && (!fuzz || name.endsWith('.prop.test.ts'))) out.push(p);
  }
  return out;
}

const files = faults
  ? readdirSync('test/faults').filter((n) => n.endsWith('.fault.ts')).map((n) => join('test/faults', n)).sort()
  : ['src', 'test'].flatMap((d) => walk(d, [])).sort();
const env = { ...process.env };
if (fuzz) {
  env.FC_RUNS ??= '2000000';
  env.FC_SEED ??= String(Date.now() % 0x7fffffff);
  console.log(`fuzz: FC_RUNS=${env.FC_RUNS} FC_SEED=${env.FC_SEED}`);
}
// The fault cases time stalls and recoveries of real processes: one at a time.
const args = ['--import', 'tsx', '--test', `--test-concurrency=${faults ? 1 : 2}`, '--test-reporter=spec', ...extra, ...files];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', env });
process.exit(r.status ?? 1);
