import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioErrors as errors } from '../../../test/support/scenario-errors.ts';
import { SessionFeature } from '../../node/endpoint/session.ts';
import { buildFabric } from './build.ts';
import { loadScenarioFile, parseScenario } from './load.ts';
import { runBuilt } from './run.ts';

const WITH_SESSION = (session: string): string => `
name: s
duration: 50us
topology: { kind: switch, hosts: 3 }
endpoints: { session: ${session} }
traffic:
  - { pattern: uniform, load: 0.2 }
`;

interface FlowSetup { readonly flow: number; readonly openedAt: number | null; readonly setup: number | null; readonly firstPacketAt: number | null }

test('issue 7 §3, Annex 2: endpoints.session {} takes every default, in ps; absent, no end point runs session management', () => {
  const s = parseScenario(WITH_SESSION('{}'));
  assert.deepEqual(s.variants[0]?.config.endpoints.session, {
    conveyance: 'type11', mailbox: 0, streamID: 0xfff0, cos: 0, vendor: 0, protocolName: 'RIODPSM', request: true, hop: 0xff,
    refuse: [], nonParticipants: [], readTimeout: 100_000_000_000, retryPeriod: 250_000_000_000, timeoutPeriod: 1_000_000_000_000,
  });
  const times = parseScenario(WITH_SESSION('{ readTimeout: 10us, retryPeriod: 20us, timeoutPeriod: 1ms }')).variants[0]?.config.endpoints.session;
  assert.deepEqual([times?.readTimeout, times?.retryPeriod, times?.timeoutPeriod], [10_000_000, 20_000_000, 1_000_000_000]);
  const b = buildFabric(parseScenario(WITH_SESSION('{}')));
  assert.ok(b.endpoints.every((ep) => ep.features.some((f) => f instanceof SessionFeature)));
  const none = buildFabric(parseScenario(WITH_SESSION('{}').replace('endpoints: { session: {} }\n', '')));
  assert.ok(none.endpoints.every((ep) => ep.features.length === 0));
});

test('issue 7 §3, Annex 2: a bad endpoints.session is refused with the path of each bad field and what was expected', () => {
  const e = errors(WITH_SESSION('{ conveyance: type10, mailbox: 64, streamID: 0x10, protocolName: TOO-LONG, refuse: [-1], readTimeout: 0, bogus: 1 }'));
  const at = (path: string): string | undefined => e.find((m) => m.startsWith(`endpoints.session.${path}: `));
  assert.match(at('conveyance') ?? '', /expected one of type11, type9/);
  assert.match(at('mailbox') ?? '', /expected an integer 0\.\.63/);
  assert.match(at('streamID') ?? '', /expected an integer 57344\.\.65534/);
  assert.match(at('protocolName') ?? '', /expected a protocol name of 1 to 7 Latin-1 characters/);
  assert.match(at('refuse.0') ?? '', /expected a non-negative integer/);
  assert.match(at('readTimeout') ?? '', /expected a time/);
  assert.ok(e.some((m) => m.startsWith('endpoints.session') && m.includes('bogus')), e.join('\n'));
  assert.match(errors(WITH_SESSION('7')).join('\n'), /endpoints\.session: expected session settings/);
});

test('issue 7 §2, Annex 2 §2.3, Figure 3-1: scenarios/session.yaml: with session management every flow\'s stream opens, no data leaves before it, and the setup time is reported', () => {
  const scenario = loadScenarioFile('scenarios/session.yaml');
  assert.deepEqual(scenario.variants.map((v) => v.name), ['no session management', 'Type 11 management', 'Type 9 management']);
  const runs = scenario.variants.map((_, i) => {
    const b = buildFabric(scenario, i);
    return { b, run: runBuilt(b) };
  });
  const [off, t11, t9] = runs;
  assert.ok(off !== undefined && t11 !== undefined && t9 !== undefined);
  assert.deepEqual(off.run.results.counts, {}, 'no session traffic without session management');
  for (const { b, run } of [t11, t9]) {
    const flows = run.results.flows;
    const counts = run.results.counts;
    // Every host sends to the three others: 12 flows, 12 streams, each accepted by its destination.
    assert.equal(flows.length, 12);
    assert.deepEqual([counts['session.flowsOpened'], counts['session.opened'], counts['session.accepted']], [12, 12, 12], run.name);
    const mean = (counts['session.setupTime'] ?? 0) / 12;
    // Discovery's reads, REQUEST/ADVERTISE and OPEN/ACCEPT across leaf and spine: microseconds, well inside the run.
    assert.ok(mean > 1_000_000 && mean < 50_000_000, `${run.name}: mean setup ${mean} ps`);
    for (const ep of b.endpoints) {
      const f = ep.features.find((x) => x instanceof SessionFeature);
      assert.ok(f !== undefined);
      for (const s of f.snapshot()['flows'] as FlowSetup[]) {
        assert.ok(s.openedAt !== null && s.firstPacketAt !== null && s.firstPacketAt >= s.openedAt, `${run.name} flow ${s.flow}: ${JSON.stringify(s)}`);
      }
    }
    for (const fl of flows) assert.ok(fl.deliveredPackets > 0, `${run.name}: flow ${fl.flow} delivered`);
    // The PDUs that waited for their stream raise the mean latency over the run without session management.
    const latency = (r: typeof run): number => r.groups[0]?.packetLatency.mean ?? 0;
    assert.ok(latency(run) > latency(off.run), `${run.name}: ${latency(run)} vs ${latency(off.run)}`);
  }
  const packets = (r: typeof t11): number => r.run.results.counts['session.packets'] ?? 0;
  assert.ok(packets(t11) > 100 && packets(t9) > 100);
});
