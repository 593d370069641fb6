import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summaryJson, summaryTable } from '../../cli/sim-summary.ts';
import { endpointFeatures, featureNumbers, featuresOfAny } from './feature-summary.ts';
import { parseScenario } from './load.ts';
import { headline } from './report-map.ts';
import { runScenario } from './run.ts';
import type { ScenarioRun, VariantRun } from './run.ts';

/** Incast of 1 KiB Part 10 PDUs; one variant per end point feature (TM with a slow sink, so that its egress has something to say). */
const TEXT = `
name: features
duration: 30us
topology: { kind: switch, hosts: 3 }
endpoints: { sar: true }
traffic:
  - { group: incast, pattern: incast, sink: 0, load: 0.5, sizes: 1KiB }
variants:
  - { name: none }
  - { name: arb, overrides: { endpoints: { arbitration: {} } } }
  - { name: tm, overrides: { endpoints: { tm: {}, serviceTime: 400ns } } }
  - { name: session, overrides: { endpoints: { session: {} } } }
`;

let shared: ScenarioRun | undefined;
function run(): ScenarioRun {
  shared ??= runScenario(parseScenario(TEXT));
  return shared;
}
function variant(name: string): VariantRun {
  const v = run().variants.find((x) => x.name === name);
  assert.ok(v !== undefined, name);
  return v;
}
const count = (v: VariantRun, name: string): number => v.results.counts[name] ?? 0;

test('issue 7 §2 end point features: a run records which features its end points run (session, arbitration, tm)', () => {
  assert.deepEqual(run().variants.map((v) => [v.name, v.features]), [['none', []], ['arb', ['arbitration']], ['tm', ['tm']], ['session', ['session']]]);
  assert.deepEqual(endpointFeatures({ session: undefined, arbitration: undefined, tm: undefined }), []);
  assert.deepEqual(featuresOfAny(run().variants), ['session', 'arbitration', 'tm']);
  assert.deepEqual(featuresOfAny([variant('none'), variant('tm')]), ['tm']);
});

test('Part 9 §2.4.7 flow arbitration numbers: REQUESTs sent (arb.requests) and grants received (arb.granted, XON(ARB))', () => {
  const v = variant('arb');
  assert.deepEqual(featureNumbers(v), { arbitration: { requestsSent: count(v, 'arb.requests'), grantsReceived: count(v, 'arb.granted') } });
  assert.ok(count(v, 'arb.requests') > 0 && count(v, 'arb.granted') > 0);
  assert.deepEqual(featureNumbers(variant('none')), {}, 'a variant without a feature has no numbers for it');
});

test('Part 10 §3.4 traffic management numbers: TM messages sent (tm.messages) and received (tm.received) by the end points', () => {
  const v = variant('tm');
  assert.deepEqual(featureNumbers(v), { tm: { messagesSent: count(v, 'tm.messages'), messagesReceived: count(v, 'tm.received') } });
  assert.ok(count(v, 'tm.messages') > 0);
});

test('Annex 2 session management numbers: streams opened (session.opened) and the mean setup time (session.setupTime / session.flowsOpened)', () => {
  const v = variant('session');
  const flows = count(v, 'session.flowsOpened');
  assert.ok(flows > 0);
  assert.deepEqual(featureNumbers(v), { session: { streamsOpened: count(v, 'session.opened'), flowsOpened: flows, meanSetupPs: count(v, 'session.setupTime') / flows } });
  // No flow let go: no mean.
  assert.deepEqual(featureNumbers({ features: ['session'], results: { counts: {} } }), { session: { streamsOpened: 0, flowsOpened: 0, meanSetupPs: null } });
});

test('issue 7 §5 riodp sim summary: feature columns appear only when some variant runs the feature; "-" for a variant without it', () => {
  const lines = summaryTable(run(), 'r/index.html', 0.1).split('\n');
  assert.match(lines[1] ?? '', /^variant\s+incast Gbit\/s\s+incast p99 µs\s+CCPs\s+VoQ symbols\s+streams opened\s+mean setup µs\s+REQUESTs\s+XON\(ARB\)\s+TM sent\s+TM received$/);
  const cells = (name: string): string[] => (lines.find((l) => l.startsWith(`${name} `)) ?? '').trim().split(/\s+/).slice(-6);
  const arb = featureNumbers(variant('arb')).arbitration;
  const tm = featureNumbers(variant('tm')).tm;
  const session = featureNumbers(variant('session')).session;
  assert.deepEqual(cells('none'), ['-', '-', '-', '-', '-', '-']);
  assert.deepEqual(cells('arb'), ['-', '-', String(arb?.requestsSent), String(arb?.grantsReceived), '-', '-']);
  assert.deepEqual(cells('tm'), ['-', '-', '-', '-', String(tm?.messagesSent), String(tm?.messagesReceived)]);
  assert.deepEqual(cells('session'), [String(session?.streamsOpened), ((session?.meanSetupPs ?? NaN) / 1e6).toFixed(2), '-', '-', '-', '-']);
  const onlyTm: ScenarioRun = { name: 'x', variants: [variant('none'), variant('tm')] };
  const header = summaryTable(onlyTm, 'r/index.html', 0.1).split('\n')[1] ?? '';
  assert.match(header, /VoQ symbols\s+TM sent\s+TM received$/);
  assert.doesNotMatch(header, /REQUESTs|streams opened/);
  const none: ScenarioRun = { name: 'x', variants: [variant('none')] };
  assert.match(summaryTable(none, 'r/index.html', 0.1).split('\n')[1] ?? '', /VoQ symbols$/);
});

test('issue 7 §5 riodp sim --json and the report headline table carry the feature numbers of the variants that run them', () => {
  const json = summaryJson(run(), 'r/index.html', [], 0.1) as { variants: Record<string, unknown>[] };
  const byName = new Map(json.variants.map((v) => [v['name'], v]));
  assert.deepEqual(byName.get('arb')?.['arbitration'], featureNumbers(variant('arb')).arbitration);
  assert.deepEqual(byName.get('tm')?.['tm'], featureNumbers(variant('tm')).tm);
  assert.deepEqual(byName.get('session')?.['session'], featureNumbers(variant('session')).session);
  assert.ok(!('arbitration' in (byName.get('none') ?? {})) && !('tm' in (byName.get('none') ?? {})) && !('session' in (byName.get('none') ?? {})));
  const arb = headline(variant('arb'));
  assert.equal(arb['arbitration REQUESTs sent'], count(variant('arb'), 'arb.requests'));
  assert.equal(arb['arbitration grants received (XON(ARB))'], count(variant('arb'), 'arb.granted'));
  const tm = headline(variant('tm'));
  assert.equal(tm['TM messages sent'], count(variant('tm'), 'tm.messages'));
  assert.equal(tm['TM messages received'], count(variant('tm'), 'tm.received'));
  const s = headline(variant('session'));
  assert.equal(s['session streams opened'], count(variant('session'), 'session.opened'));
  assert.equal(s['session mean stream setup (ns)'], (featureNumbers(variant('session')).session?.meanSetupPs ?? NaN) / 1000);
  assert.deepEqual(Object.keys(headline(variant('none'))).filter((k) => /arbitration|TM|session/.test(k)), []);
});
