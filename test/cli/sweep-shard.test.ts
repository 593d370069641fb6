import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { riodpInProcess as riodp } from '../support/cli-in-process.ts';
import { riodp as spawnRiodp } from '../support/spawn.ts';
import { tinyScenario } from '../support/tiny-scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'riodp-shard-'));
const at = (...p: string[]): string => join(dir, ...p);
writeFileSync(at('tiny.yaml'), tinyScenario('12us'));
const GRID = 'name: tiny sweep\nscenario: tiny.yaml\nparameters:\n  variants: all\n  traffic.0.load: [0.3, 0.9]\n';
writeFileSync(at('grid.yaml'), GRID);
writeFileSync(at('other.yaml'), GRID.replace('0.9]', '0.8]'));

const read = (...p: string[]): string => readFileSync(at(...p), 'utf8');
/** The report page less the time it was generated, the one thing in it that is not a function of the results. */
const page = (d: string): string => read(d, 'index.html').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME');

async function ok(args: string[]): Promise<string> {
  const r = await riodp(args);
  assert.equal(r.stderr, '', args.join(' '));
  assert.equal(r.status, 0, args.join(' '));
  return r.stdout;
}

test('issue 21 item 1 riodp sweep: run locally, as emitted points run one by one then merged, and as 2 shards then merged, a grid gives byte-identical results.json, points.csv and curves.csv (issue 21 item 2) (and index.html but for its time)', async () => {
  await ok(['sweep', at('grid.yaml'), '--out', at('local'), '--workers', '1']);
  assert.match(await ok(['sweep', at('grid.yaml'), '--emit-points', at('points')]), /^tiny sweep: 4 point files in .*points \(grid [0-9a-f]{16}\)\n$/);
  const names = readdirSync(at('points'));
  assert.deepEqual(names, ['point-0000.json', 'point-0001.json', 'point-0002.json', 'point-0003.json']);
  const p1 = JSON.parse(read('points', names[1]!)) as { grid: { id: string; points: number }; index: number; variant: string; values: Record<string, unknown>; seed: number; scenario: { seed: number; variants?: unknown } };
  assert.deepEqual([p1.index, p1.variant, p1.values, p1.grid.points], [1, 'part9', { 'traffic.0.load': 0.9 }, 4]);
  assert.equal(p1.scenario.seed, p1.seed, 'the scenario carries the derived seed');
  assert.equal(p1.scenario.variants, undefined, 'a point is one variant');
  mkdirSync(at('results'));
  for (const n of names) await ok(['sweep', '--run-point', at('points', n), '--out', at('results', n)]);
  await ok(['sweep', '--merge', at('results'), '--out', at('merged')]);
  await ok(['sweep', at('grid.yaml'), '--shard', '0/2', '--out', at('shards'), '--workers', '1']);
  const second = JSON.parse(await ok(['sweep', at('grid.yaml'), '--shard', '1/2', '--out', at('shards'), '--workers', '1', '--json'])) as { shard: string; points: number[] };
  assert.deepEqual([second.shard, second.points], ['1/2', [1, 3]]);
  assert.deepEqual(readdirSync(at('shards')), names.map((n) => n.replace('.json', '.result.json')));
  await ok(['sweep', '--merge', at('shards'), '--out', at('sharded')]);
  for (const d of ['merged', 'sharded']) {
    assert.equal(read(d, 'results.json'), read('local', 'results.json'), `${d}/results.json`);
    assert.equal(read(d, 'points.csv'), read('local', 'points.csv'), `${d}/points.csv`);
    assert.equal(read(d, 'curves.csv'), read('local', 'curves.csv'), `${d}/curves.csv`);
    assert.equal(page(d), page('local'), `${d}/index.html`);
  }
  // The same point through stdin in another process: the same result, byte for byte.
  const piped = spawnRiodp(['sweep', '--run-point', '-'], read('points', names[2]!));
  assert.equal(piped.status, 0);
  assert.equal(piped.stdout, read('results', names[2]!));
});

test('issue 21 item 1 riodp sweep --merge: a missing point, results of another grid, a point twice with different results are refused with one line (exit 2); the same result twice is accepted', async () => {
  const fail = async (args: string[], pattern: RegExp): Promise<void> => {
    const r = await riodp(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.split('\n').length, 2, `one line: ${r.stderr}`);
  };
  const some = at('some');
  mkdirSync(some);
  for (const n of ['point-0000.json', 'point-0002.json']) copyFileSync(at('results', n), join(some, n));
  await fail(['sweep', '--merge', some, '--out', at('m1')], /^riodp sweep: --merge .*some: missing points 1, 3 of the 4 of "tiny sweep"$/m);
  copyFileSync(at('results', 'point-0001.json'), join(some, 'point-0001.json'));
  copyFileSync(at('results', 'point-0003.json'), join(some, 'point-0003.json'));
  copyFileSync(at('results', 'point-0003.json'), join(some, 'again-0003.json'));
  await ok(['sweep', '--merge', some, '--out', at('m2')]);
  assert.equal(read('m2', 'results.json'), read('local', 'results.json'));
  const changed = read('results', 'point-0003.json').replace(/"events":(\d+)/, (_, n: string) => `"events":${Number(n) + 1}`);
  writeFileSync(join(some, 'again-0003.json'), changed);
  await fail(['sweep', '--merge', some, '--out', at('m3')], /: point 3 twice with different results: again-0003\.json and point-0003\.json$/m);
  rmSync(join(some, 'again-0003.json'));
  await ok(['sweep', at('other.yaml'), '--emit-points', at('other')]);
  await ok(['sweep', '--run-point', at('other', 'point-0000.json'), '--out', join(some, 'z-other.json')]);
  await fail(['sweep', '--merge', some, '--out', at('m4')], /: results of 2 different grids: "tiny sweep" [0-9a-f]{16} \(4 files, e\.g\. point-0000\.json\), "tiny sweep" [0-9a-f]{16} \(1 file, e\.g\. z-other\.json\)$/m);
  await fail(['sweep', '--merge', at('points'), '--out', at('m5')], /: point-0000\.json: a sweep point, not its result \(run it with riodp sweep --run-point FILE\)$/m);
});

test('issue 21 item 1 riodp sweep: bad --shard values and options that cannot act together are refused with one line (exit 2)', async () => {
  const cases: [string[], RegExp][] = [
    [['sweep', at('grid.yaml'), '--shard', '3/2'], /^riodp sweep: --shard: expected i\/N with 0 <= i < N \(shard i of N, i from 0\), not "3\/2"\n$/],
    [['sweep', at('grid.yaml'), '--shard', '0/0'], /not "0\/0"\n$/],
    [['sweep', at('grid.yaml'), '--shard', '1'], /not "1"\n$/],
    [['sweep', '--merge', at('shards'), '--shard', '0/2'], /^riodp sweep: --shard runs a share of a grid's points, not with --merge\n$/],
    [['sweep', at('grid.yaml'), '--emit-points', at('e'), '--shard', '0/2'], /--shard runs a share of a grid's points, not with --emit-points\n$/],
    [['sweep', at('grid.yaml'), '--emit-points', at('e'), '--out', at('e2')], /^riodp sweep: --out: --emit-points writes into its own DIR\n$/],
    [['sweep', at('grid.yaml'), '--merge', at('shards')], /--merge takes no grid file/],
    [['sweep', '--run-point', at('points', 'point-0000.json'), '--json'], /--json: the result of --run-point is JSON already\n$/],
    [['sweep', '--run-point', at('points', 'point-0000.json'), '--merge', at('shards')], /--run-point and --merge are separate steps: give one\n$/],
    [['sweep'], /^riodp sweep: expected a grid file \(or --run-point FILE, or --merge DIR\)\n$/],
    [['sweep', '--run-point', at('grid.yaml')], /grid\.yaml: not JSON: /],
  ];
  for (const [args, pattern] of cases) {
    const r = await riodp(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, pattern, args.join(' '));
  }
});
