import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from './load.ts';
import { runScenario } from './run.ts';

const FILE = fileURLToPath(new URL('../../../scenarios/tm.yaml', import.meta.url));

test('Part 10 §3.4 in the simulator, scenarios/tm.yaml: with XON/XOFF, rate or credit the slow egress\'s backlog stays at the sources, the victim keeps its latency, TM messages are counted and nothing is lost', () => {
  const run = runScenario(loadScenarioFile(FILE));
  assert.deepEqual(run.variants.map((v) => v.name), ['TM off', 'XON/XOFF', 'rate', 'credit']);
  const byName = new Map(run.variants.map((v) => [v.name, v]));
  const outQueue = (name: string): number => byName.get(name)?.results.occupancy.find((o) => o.component === 's0/out0')?.meanPackets ?? NaN;
  const victimP99 = (name: string): number => byName.get(name)?.groups.find((g) => g.name === 'victim')?.packetLatency.p99 ?? NaN;
  const off = byName.get('TM off');
  assert.ok(off !== undefined);
  assert.equal(off.results.headline.tmMessages, 0);
  assert.ok(outQueue('TM off') > 8, `without TM the output queue to host 0 holds ${outQueue('TM off')} packets on average`);
  for (const v of run.variants) {
    // Links are lossless and no source queue overflows: no PDU dropped, none defective.
    assert.equal(v.results.aggregate.droppedPdus, 0, v.name);
    assert.equal(v.results.aggregate.pduDefects, 0, v.name);
    if (v.name === 'TM off') continue;
    assert.ok(outQueue(v.name) < outQueue('TM off') / 1.5, `${v.name}: output queue ${outQueue(v.name)} against ${outQueue('TM off')}`);
    assert.ok(victimP99(v.name) < victimP99('TM off') / 3, `${v.name}: victim p99 ${victimP99(v.name)} against ${victimP99('TM off')}`);
    const c = v.results.counts;
    assert.ok(v.results.headline.tmMessages > 100, v.name);
    assert.equal(v.results.headline.tmMessages, c['tm.messages']);
    assert.equal(c['tm.gate-violation'] ?? 0, 0, v.name);
    assert.equal(c['tm.pdu-without-credit'] ?? 0, 0, v.name);
  }
  const counts = (name: string) => byName.get(name)?.results.counts ?? {};
  assert.ok((counts('XON/XOFF')['tm.xoff'] ?? 0) > 20);
  assert.ok((counts('rate')['tm.rate'] ?? 0) > 100);
  assert.equal(counts('rate')['tm.xoff'] ?? 0, 0);
  assert.ok((counts('credit')['tm.allocate'] ?? 0) > 20);
});
