import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Run } from '../support/spawn.ts';
import { RIODP_ARGS } from '../support/riodp-entry.ts';

/**
 * `riodp sim` on the feature scenarios of scenarios/ (flow arbitration, traffic management,
 * session management), each cut to 20 µs of simulated time (the CLI has no duration option, so
 * the files are copied with a shorter `duration` and `warmup`). The three runs are spawned at
 * once: each renders a report, which takes seconds.
 */

const dir = mkdtempSync(join(tmpdir(), 'riodp-sim-features-'));

function shortened(name: string): string {
  const text = readFileSync(new URL(`../../scenarios/${name}.yaml`, import.meta.url), 'utf8');
  const short = text.replace(/^duration: .*$/m, 'duration: 20us').replace(/^warmup: .*$/m, 'warmup: 2us');
  assert.notEqual(short, text);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, short);
  return path;
}

function riodpAsync(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...RIODP_ARGS, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

const runs = Promise.all([
  riodpAsync(['sim', shortened('arbitration'), '--out', join(dir, 'arbitration')]),
  riodpAsync(['sim', shortened('tm'), '--out', join(dir, 'tm')]),
  riodpAsync(['sim', shortened('session'), '--out', join(dir, 'session'), '--json']),
]);

/** Counts of variant `name` in the run's results.json. */
function counts(out: string, name: string): Readonly<Record<string, number>> {
  const r = JSON.parse(readFileSync(join(dir, out, 'results.json'), 'utf8')) as { variants: { name: string; results: { counts: Record<string, number> } }[] };
  const v = r.variants.find((x) => x.name === name);
  assert.ok(v !== undefined, name);
  return v.results.counts;
}

/** The summary table's last `n` cells of the row of `variant` (names may hold spaces: matched as a prefix). */
function lastCells(stdout: string, variant: string, n: number): string[] {
  const line = stdout.split('\n').find((l) => l.startsWith(`${variant}  `));
  assert.ok(line !== undefined, variant);
  return line.trim().split(/\s+/).slice(-n);
}

test('issue 7 §5 riodp sim summary, Part 9 §2.4.7: scenarios/arbitration.yaml shows REQUESTs sent and grants (XON(ARB)) received, "-" for the variant without arbitration', async () => {
  const [r] = await runs;
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const header = r.stdout.split('\n')[1] ?? '';
  assert.match(header, /CCPs\s+VoQ symbols\s+REQUESTs\s+XON\(ARB\)$/);
  assert.deepEqual(lastCells(r.stdout, 'arbitration off', 2), ['-', '-']);
  for (const v of ['single-PDU', 'multi-PDU', 'multi-PDU, one context']) {
    const c = counts('arbitration', v);
    assert.ok((c['arb.requests'] ?? 0) > 0, v);
    assert.deepEqual(lastCells(r.stdout, v, 2), [String(c['arb.requests']), String(c['arb.granted'] ?? 0)], v);
  }
  const html = readFileSync(join(dir, 'arbitration', 'index.html'), 'utf8');
  assert.ok(html.includes('arbitration REQUESTs sent') && html.includes('arbitration grants received (XON(ARB))'), 'the report headline table has the rows');
});

test('issue 7 §5 riodp sim summary, Part 10 §3.4: scenarios/tm.yaml shows TM messages sent and received, and no columns for features no variant runs', async () => {
  const [, r] = await runs;
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const header = r.stdout.split('\n')[1] ?? '';
  assert.match(header, /CCPs\s+VoQ symbols\s+TM sent\s+TM received$/);
  assert.doesNotMatch(header, /REQUESTs|streams opened/);
  assert.deepEqual(lastCells(r.stdout, 'TM off', 2), ['-', '-']);
  for (const v of ['XON/XOFF', 'rate', 'credit']) {
    const c = counts('tm', v);
    assert.deepEqual(lastCells(r.stdout, v, 2), [String(c['tm.messages'] ?? 0), String(c['tm.received'] ?? 0)], v);
  }
  assert.ok((counts('tm', 'credit')['tm.messages'] ?? 0) > 0);
});

test('issue 7 §5 riodp sim --json, Annex 2: scenarios/session.yaml gives the streams opened and the mean stream setup time (ps) of the variants with session management', async () => {
  const [, , r] = await runs;
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const s = JSON.parse(r.stdout) as { variants: { name: string; session?: { streamsOpened: number; flowsOpened: number; meanSetupPs: number | null } }[] };
  assert.deepEqual(s.variants.map((v) => [v.name, v.session !== undefined]), [['no session management', false], ['Type 11 management', true], ['Type 9 management', true]]);
  for (const v of s.variants.slice(1)) {
    const c = counts('session', v.name);
    const flows = c['session.flowsOpened'] ?? 0;
    assert.ok(flows > 0, v.name);
    assert.deepEqual(v.session, { streamsOpened: c['session.opened'] ?? 0, flowsOpened: flows, meanSetupPs: (c['session.setupTime'] ?? 0) / flows });
  }
});
