import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reproductionsWanted, runSim } from '../../src/cli/sim.ts';
import type { SimFlags } from '../../src/cli/sim.ts';
import { riodp } from '../support/spawn.ts';
import { tinyScenario } from '../support/tiny-scenario.ts';

/**
 * `riodp sim` and the published-result reproductions (issue 7 §4 "shown in the report", §5). The
 * runs here are at --reproduce-scale 0.01 (a second or two); at scale 1 the suite's runs are the
 * ones test/sim/repro-*.test.ts asserts.
 */
const dir = mkdtempSync(join(tmpdir(), 'riodp-sim-repro-'));
const file = join(dir, 'tiny.yaml');
writeFileSync(file, tinyScenario('30us'));

interface Row { source: string; quantity: string; published: number; measured: number; stdErr: number; tolerance: string; pass: boolean; run: string }

test('issue 7 §5 riodp sim (decision): the reproductions are on by default with no scenario file and off with one; --reproduce and --no-reproduce override; --reproduce-scale implies them', () => {
  assert.equal(reproductionsWanted(undefined, {}), true);
  assert.equal(reproductionsWanted(file, {}), false);
  assert.equal(reproductionsWanted(file, { reproduce: true }), true);
  assert.equal(reproductionsWanted(undefined, { reproduce: false }), false);
  assert.equal(reproductionsWanted(file, { reproduceScale: 0.5 }), true);
});

test('issue 7 §4/§5 riodp sim --reproduce: a scenario\'s report gets the "Published results reproduced" section, results.json its rows under reproductions and stdout the one-line summary; results outside their tolerance are named and the exit status stays 0', () => {
  const a = riodp(['sim', file, '--reproduce', '--reproduce-scale', '0.01', '--out', join(dir, 'a')]);
  assert.deepEqual([a.status, a.stderr], [0, '']);
  const lines = a.stdout.trimEnd().split('\n');
  assert.equal(lines.at(-2), `report: ${join(dir, 'a', 'index.html')}`);
  // Runs this short leave some tolerances (not all 34 pass with these seeds): named on the line,
  // and still exit 0, since the run itself succeeded.
  const summary = /^published results: (\d+) of 34 within tolerance; outside: .+$/.exec(lines.at(-1) ?? '');
  assert.ok(summary !== null, lines.at(-1));
  assert.ok(Number(summary[1]) < 34);
  const results = resultsOf(join(dir, 'a'));
  assert.equal(results.scenario, 'tiny');
  assert.equal(results.reproductions.length, 34);
  assert.equal(results.reproductions.filter((r) => r.pass).length, Number(summary[1]));
  for (const r of results.reproductions) assert.deepEqual(Object.keys(r), ['source', 'quantity', 'published', 'measured', 'stdErr', 'tolerance', 'pass', 'run']);
  const html = readFileSync(join(dir, 'a', 'index.html'), 'utf8');
  assert.match(html, /<h2 id="reproductions">Published results reproduced<\/h2>/);
  assert.equal([...html.matchAll(/<td class="(pass|fail)">\1<\/td>/g)].length, 34);
});

test('issue 7 §5 riodp sim --seed replaces the reproductions\' seeds too (the scenario\'s own seed does not); --json gives their count passed', () => {
  // The tiny scenario's seed is 3, so --seed 3 leaves its variants as they were.
  const b = riodp(['sim', file, '--reproduce-scale', '0.01', '--seed', '3', '--json', '--out', join(dir, 'b')]);
  assert.deepEqual([b.status, b.stderr], [0, '']);
  const a = resultsOf(join(dir, 'a'));
  const r = resultsOf(join(dir, 'b'));
  assert.deepEqual(r.variants, a.variants);
  // Without --seed each run keeps its test's seed (Karol 7, output-queued 5, iSLIP 3, tree 11).
  assert.deepEqual([...new Set(a.reproductions.map((x) => x.run.replace(/,.*$/, '')))], ['seed 7', 'seed 5', 'seed 3', 'seed 11']);
  assert.ok(r.reproductions.every((x) => x.run.startsWith('seed 3, ')));
  assert.notDeepEqual(r.reproductions.map((x) => x.measured), a.reproductions.map((x) => x.measured));
  const json = JSON.parse(b.stdout) as { reproductions: { passed: number; total: number } };
  assert.deepEqual(json.reproductions, { passed: r.reproductions.filter((x) => x.pass).length, total: 34 });
});

/** runSim's usage errors come before its first await: stderr is captured synchronously around the call. */
async function usageError(f: string | undefined, flags: SimFlags): Promise<[number, string]> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => { lines.push(String(chunk)); return true; });
  let pending: Promise<number>;
  try {
    pending = runSim(f, flags);
  } finally {
    process.stderr.write = write;
  }
  return [await pending, lines.join('')];
}

test('issue 7 §5 riodp sim: a bad --reproduce-scale, or one with --no-reproduce, is one line and exit 2 before anything runs', async () => {
  const zero = riodp(['sim', file, '--reproduce-scale', '0', '--out', join(dir, 'bad')]);
  assert.equal(zero.status, 2);
  assert.match(zero.stderr, /'0' is not a positive number/);
  assert.deepEqual(await usageError(file, { json: false, reproduceScale: 1001 }), [2, 'riodp sim: --reproduce-scale: expected a number above 0 and at most 1000\n']);
  assert.deepEqual(await usageError(file, { json: false, reproduceScale: Number.NaN }), [2, 'riodp sim: --reproduce-scale: expected a number above 0 and at most 1000\n']);
  assert.deepEqual(await usageError(undefined, { json: false, reproduce: false, reproduceScale: 0.5 }), [2, 'riodp sim: --reproduce-scale: the reproductions are off (--no-reproduce)\n']);
  assert.equal(existsSync(join(dir, 'bad')), false);
});

function resultsOf(d: string): { scenario: string; variants: unknown; reproductions: Row[] } {
  return JSON.parse(readFileSync(join(d, 'results.json'), 'utf8')) as { scenario: string; variants: unknown; reproductions: Row[] };
}
