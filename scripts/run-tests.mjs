#!/usr/bin/env node
// Lists the test files explicitly (Node 20's runner does not discover .ts files) and runs them
// with the repository transpiled once for the run (scripts/test-loader.mjs; through tsx when
// esbuild cannot be loaded, or with RIODP_TEST_TSX=1). `--fuzz` runs only the property tests with
// millions of cases.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildTestCli, distIsFresh } from './test-cli.mjs';
import { transpileTree } from './test-transpile.mjs';

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

// The files that take longest in npm test, longest first (2026-11-29: per-test durations of the
// last CI run, 562 s, summed per file, and each file timed alone, CPU seconds at load average
// 8–13; most files take a few seconds). The runner starts files in the order given: started
// first, they overlap the many short files, instead of one core idling while a long file that
// happened to sort last ends. A long file not listed only costs that idle time.
const LONG = [
  // The fabric demo with --pcap and the checks of its captures (issue 19): about 60 s.
  'test/net/demo-fabric.test.ts',
  'test/wire/dispatch.prop.test.ts', // ~25–28 s
  'src/registers/fields.prop.test.ts', // 15–18 s
  'test/cli/model-streaming.test.ts',
  'test/cli/model.test.ts',
  'test/cli/sim.test.ts',
  'src/wire/type8.prop.test.ts', // ~12 s
  'src/wire/type13.prop.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/roundtrip.test.ts',
  // The Wireshark dissector against tshark (issue 19).
  'test/wireshark/symbols.test.ts',
  'src/wire/type9.prop.test.ts',
  'test/wireshark/live.test.ts',
  'src/wire/smp/index.prop.test.ts', // ~10 s
  'test/cli/sweep.test.ts',
  'test/cli/sweep-shard.test.ts', // ~15 s: three thread pools under tsx
  'src/wire/type7.prop.test.ts',
  'src/sim/repro/suite.test.ts',
  'test/sim/repro-karol.test.ts',
  'test/cli/model-voq.test.ts',
  'src/cli/endpoint-commands.test.ts',
  'test/cli/sim-repro.test.ts',
  'test/sim/repro-output-queued.test.ts',
  'src/wire/type11.prop.test.ts',
  'test/cli/segment.test.ts',
  'src/sim/fabric/switch.prop.test.ts',
  'test/wireshark/dissector.test.ts',
  'test/wireshark/fabric-capture.test.ts', // ~7 s
];

function longFirst(all) {
  const first = LONG.map((f) => join(f)).filter((f) => all.includes(f));
  return [...first, ...all.filter((f) => !first.includes(f))];
}

const files = faults
  ? readdirSync('test/faults').filter((n) => n.endsWith('.fault.ts')).map((n) => join('test/faults', n)).sort()
  : longFirst(['src', 'test'].flatMap((d) => walk(d, [])).sort());
const env = { ...process.env };
if (fuzz) {
  env.FC_RUNS ??= '2000000';
  env.FC_SEED ??= String(Date.now() % 0x7fffffff);
  console.log(`fuzz: FC_RUNS=${env.FC_RUNS} FC_SEED=${env.FC_SEED}`);
}
// The CLI the tests spawn, unless dist/ is fresh (test/support/riodp-entry.ts, scripts/test-cli.mjs);
// the property tests of --fuzz spawn none. And the repository transpiled for the test processes
// (and their worker threads), which read it instead of starting tsx: about 0.3 CPU-s less per
// process (CONTRIBUTING.md, "Tests"; scripts/test-loader.mjs). Both are built at once.
const root = fileURLToPath(new URL('..', import.meta.url));
const built = await Promise.allSettled([
  fuzz || env.RIODP_TEST_FROM_SOURCE === '1' || distIsFresh(root) ? null : buildTestCli(root),
  env.RIODP_TEST_TSX === '1' ? null : transpileTree(root),
]);
const [cli, ts] = built.map((b) => (b.status === 'fulfilled' ? b.value : null));
const temporary = [cli, ts].filter((b) => b !== null).map((b) => b.dir);
const failed = built.find((b) => b.status === 'rejected');
if (failed !== undefined) {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  throw failed.reason;
}
if (cli !== null) env.RIODP_TEST_CLI = cli.entry;
if (ts !== null) env.RIODP_TEST_TS = JSON.stringify({ dir: ts.dir, since: ts.since });
const loader = ts === null ? 'tsx' : pathToFileURL(join(root, 'scripts', 'test-loader.mjs')).href;
// The fault cases time stalls and recoveries of real processes: one at a time.
const args = ['--import', loader, '--test', `--test-concurrency=${faults ? 1 : 2}`, '--test-reporter=spec', ...extra, ...files];
// Ctrl-C reaches the test runner too: wait for it to stop, then remove the transpiled files.
process.on('SIGINT', () => {});
const r = spawnSync(process.execPath, args, { stdio: 'inherit', env });
for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
process.exit(r.status ?? 1);
