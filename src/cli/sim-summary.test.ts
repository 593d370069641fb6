import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tinyScenario } from '../../test/support/tiny-scenario.ts';
import { parseScenario } from '../sim/scenario/load.ts';
import { runScenario } from '../sim/scenario/run.ts';
import { summaryJson, summaryTable } from './sim-summary.ts';

test('issue 20 replications: riodp sim\'s summary shows mean±half-width per group and its JSON the replications; without them the summary is as before', () => {
  const base = tinyScenario('40us').replace(/variants:[\s\S]*/, '');
  const plain = runScenario(parseScenario(base));
  const reps = runScenario(parseScenario(`${base}replications: 3\n`));
  const table = summaryTable(reps, 'index.html', 0);
  assert.match(table, /replications: mean±half-width of the 95 % confidence interval over 3 runs/);
  assert.match(table.split('\n')[3] ?? '', /^tiny +[0-9.]+±[0-9.]+ +[0-9.]+±[0-9.]+ /);
  assert.doesNotMatch(summaryTable(plain, 'index.html', 0), /±|replications/);
  const json = summaryJson(reps, 'index.html', [], 0) as { variants: { replications?: { n: number } }[] };
  assert.equal(json.variants[0]?.replications?.n, 3);
  assert.equal('replications' in ((summaryJson(plain, 'index.html', [], 0) as { variants: object[] }).variants[0] ?? {}), false);
});
