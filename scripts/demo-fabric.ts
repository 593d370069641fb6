/**
 * `npm run demo:fabric` (issue 8 §4, docs/fabric-demo.md): one switch and three end points as
 * processes on loopback; discovery, a 10 MB file over a conduit, a hotspot with Part 9 XOFF/XON,
 * an end point killed mid-transfer and the others recovering. src/net/demo-fabric.ts runs it.
 *
 *   npm run demo:fabric
 *   npm run demo:fabric -- --size 2MB --seed 7 --keep
 *
 * Exit 0 when every check passed; 1 with one `demo-fabric: FAILED: …` line when one did not; 2 for
 * a bad option; 130/143 on SIGINT/SIGTERM. Every child process is stopped on every way out.
 *
 * The processes run riodp as the tests do (test/support/riodp-entry.ts): the compiled dist/ when
 * it is at least as new as every source file (as after `npm ci`), within `npm test` the CLI it
 * transpiled from src/, else src/ through tsx, so the demo never runs a stale dist/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Demo, prepareDir } from '../src/net/demo-fabric.ts';
import { RIODP_ARGS } from '../test/support/riodp-entry.ts';
import { parseSize } from '../src/net/demo-data.ts';
import { DemoError } from '../src/net/demo-procs.ts';

const USAGE = `usage: npm run demo:fabric -- [--size 10MB] [--flood 64MB] [--seed 1] [--lines 6] [--keep] [--pcap DIR]
  --size   bytes of each file A sends to B (suffixes kB, KiB, MB, MiB)
  --flood  bytes of the file C floods B with; it must still be sending when C is killed
           (only what is sent until then crosses the fabric)
  --seed   seed of the file generator (AES-256-CTR keystream)
  --lines  log lines shown per process and message (the rest are counted)
  --keep   keep the work folder (configurations, files, received files)
  --pcap   write captures of every process into DIR (switch.pcapng, A.pcapng, B.pcapng, C.pcapng;
           docs/pcapng.md): open them with riodp decode --pcap or Wireshark (contrib/wireshark)`;

function usage(message: string): never {
  process.stderr.write(`demo-fabric: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function options(): { size: number; flood: number; seed: number; lines: number; keep: boolean; pcap: string | undefined } {
  let v;
  try {
    v = parseArgs({
      options: { size: { type: 'string' }, flood: { type: 'string' }, seed: { type: 'string' }, lines: { type: 'string' }, keep: { type: 'boolean' }, pcap: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
  if (v.help === true) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const size = parseSize(v.size ?? '10MB');
  if (size === null || size < 1) usage(`--size must be a positive size, not '${String(v.size)}'`);
  const flood = parseSize(v.flood ?? '64MB');
  if (flood === null || flood < 1) usage(`--flood must be a positive size, not '${String(v.flood)}'`);
  const int = (s: string | undefined, d: number, what: string): number => {
    if (s === undefined) return d;
    if (!/^\d+$/.test(s) || !Number.isSafeInteger(Number(s))) usage(`${what} must be a non-negative integer, not '${s}'`);
    return Number(s);
  };
  return { size, flood, seed: int(v.seed, 1, '--seed'), lines: int(v.lines, 6, '--lines'), keep: v.keep === true, pcap: v.pcap };
}

const o = options();
if (o.pcap !== undefined) await mkdir(o.pcap, { recursive: true });
const dir = await mkdtemp(join(tmpdir(), 'riodp-demo-'));
await prepareDir(dir);
const demo = new Demo({
  dir,
  size: o.size,
  floodSize: o.flood,
  seed: o.seed,
  riodp: { command: process.execPath, args: [...RIODP_ARGS] },
  print: (line) => {
    process.stdout.write(`${line}\n`);
  },
  linesPerMessage: o.lines,
  ...(o.pcap === undefined ? {} : { pcapDir: resolve(o.pcap) }),
});
process.on('exit', () => {
  demo.killNow();
});

/** Set once the demo is ending: a signal and the end of the run must not both end it. */
const state = { ending: false };
async function end(code: number, line: string | null): Promise<never> {
  state.ending = true;
  await demo.stop();
  demo.summary();
  if (o.keep) process.stdout.write(`demo-fabric: files kept in ${dir}\n`);
  if (o.pcap !== undefined) process.stdout.write(`demo-fabric: captures in ${resolve(o.pcap)}\n`);
  else await rm(dir, { recursive: true, force: true });
  if (line !== null) (code === 0 ? process.stdout : process.stderr).write(`${line}\n`);
  process.exit(code);
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    if (!state.ending) void end(code, `demo-fabric: FAILED: interrupted by ${signal}`);
  });
}

const started = performance.now();
try {
  const checks = await demo.run();
  await end(0, `demo-fabric: all ${checks.length} checks passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  if (!state.ending) {
    const why = e instanceof DemoError ? e.message : `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    await end(1, `demo-fabric: FAILED: ${why}${o.keep ? '' : ' (--keep keeps the work folder)'}`);
  }
}
