/**
 * Issue 15 "Equivalence tests: the same small fabric and traffic (a hotspot with victims; a
 * flow-arbitrated transfer; a TM-credited stream) run in the simulator and through the node
 * elements driven by a manual clock give the same packets in the same order, and the software
 * fabric over loopback delivers the same PDUs" (test/support/equivalence.ts).
 *
 * "The same packets": per flow, the data segments reaching the destination (kind and payload
 * length, Part 10 §3.2) in the same order; the two hosts' clocks differ (wire time of X1 links in
 * the simulator, one packet per µs on the manual clock), so packets of different flows interleave
 * differently, and a host's own message streams (discovery and OPEN over Type 9 management streams
 * on the manual clock; none in the simulator) are not data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedPdus, runManual, runSim, runTcp } from '../support/equivalence.ts';
import type { Observed, Workload } from '../support/equivalence.ts';
import type { FabricCounters } from '../../src/node/fabric-endpoint.ts';

function sizes(w: Workload): Map<string, number[]> {
  return new Map([...expectedPdus(w)].map(([k, v]) => [k, v.map((p) => p.length)]));
}

function sorted<V>(m: Map<string, V>): [string, V][] {
  return [...m].sort((a, b) => a[0].localeCompare(b[0]));
}

function sameData(sim: Observed, manual: Observed, w: Workload): void {
  assert.deepEqual(sorted(sim.pdus), sorted(sizes(w)), 'simulator: every PDU, in order, per flow');
  assert.deepEqual(sorted(manual.pdus), sorted(sizes(w)), 'manual clock: every PDU, in order, per flow');
  assert.deepEqual(sorted(manual.segments), sorted(sim.segments), 'the same segments in the same order per flow');
}

async function sameOverTcp(w: Workload): Promise<readonly FabricCounters[]> {
  const got = await runTcp(w);
  assert.deepEqual(sorted(got.pdus), sorted(expectedPdus(w)), 'TCP loopback: every PDU, byte for byte, in order, per flow');
  return got.counters;
}

const HOTSPOT: Workload = {
  // 1 and 2 send to 3, whose port drains slowly; 1 also sends to 0 (the victim flow).
  pdus: Array.from({ length: 6 }, () => [[1, 3, 4000], [2, 3, 4000], [1, 0, 2000]] as const).flat(),
  switch: { congestion: [null, null, null, { highWatermark: 4, lowWatermark: 1 }] },
  slow: 3,
};

test('issue 15 equivalence, Part 9 §2.4.5, §2.4.6: a hotspot with a victim: the simulator and the manual clock deliver the same segments per flow; both stop the hot senders with XOFFs and the victim flow finishes first; TCP delivers the same PDUs', async () => {
  const sim = runSim(HOTSPOT).o;
  const manual = runManual(HOTSPOT).o;
  sameData(sim, manual, HOTSPOT);
  for (const [name, o] of [['simulator', sim], ['manual clock', manual]] as const) {
    assert.ok((o.xoffs.get(1) ?? 0) > 0 && (o.xoffs.get(2) ?? 0) > 0, `${name}: XOFFs at both hot senders ${JSON.stringify([...o.xoffs])}`);
    assert.deepEqual([...o.xoffTargets], [3], `${name}: every XOFF names the hotspot (3), none the victim's destination (0)`);
    assert.ok((o.lastAt.get('1>0') ?? Infinity) < (o.lastAt.get('1>3') ?? 0), `${name}: the victim flow is not held behind the hotspot`);
  }
  await sameOverTcp(HOTSPOT);
});

const ARBITRATED: Workload = {
  pdus: Array.from({ length: 4 }, (_, k) => [[1, 3, 1000 + 37 * k], [2, 3, 1000 + 37 * k]] as const).flat(),
  arbitration: { mode: 'single', resources: 1 },
};

test('issue 15 equivalence, Part 9 §2.4.7 rules 1, 5, 10: a flow-arbitrated transfer into one resource: the same segments per flow in both hosts, never two PDUs in reception at the destination; TCP delivers the same PDUs', async () => {
  const sim = runSim(ARBITRATED);
  const manual = runManual(ARBITRATED);
  sameData(sim.o, manual.o, ARBITRATED);
  assert.equal(sim.o.interleaved.get(3), 1, 'simulator: one PDU at a time into 3');
  assert.equal(manual.o.interleaved.get(3), 1, 'manual clock: one PDU at a time into 3');
  for (const n of [1, 2]) {
    const s = sim.endpoints[n]?.features.find((f) => f.name === 'arbitration')?.counters() ?? {};
    const m = manual.net.node(n).counters().arbitration ?? {};
    assert.equal(s['granted'], 4, `simulator node ${n}: a grant per PDU ${JSON.stringify(s)}`);
    assert.ok((m['granted'] ?? 0) >= 4 && m['granted'] === m['requests'], `manual node ${n}: a grant per PDU (and per OPEN over 0A) ${JSON.stringify(m)}`);
  }
  const tcp = await sameOverTcp(ARBITRATED);
  for (const n of [1, 2]) {
    const c = tcp[n]?.arbitration ?? {};
    assert.ok((c['granted'] ?? 0) >= 4 && c['refused'] === 0, `TCP node ${n}: a grant per PDU ${JSON.stringify(c)}`);
  }
  assert.equal(tcp[3]?.arbitration?.['maxAllocated'], 1, 'TCP: one PDU at a time into 3');
});

const CREDITED: Workload = {
  pdus: Array.from({ length: 24 }, () => [1, 2, 700] as const),
  tm: { mode: 'CREDIT' },
};

test('issue 15 equivalence, Part 10 §3.4.4, §3.4.5 rule 7: a TM-credited stream: the same segments in both hosts, no PDU without credit at either egress; TCP delivers the same PDUs', async () => {
  const sim = runSim(CREDITED);
  const manual = runManual(CREDITED);
  sameData(sim.o, manual.o, CREDITED);
  const simEgress = sim.endpoints[2]?.features.find((f) => f.name === 'tm')?.counters() ?? {};
  const manualEgress = manual.net.node(2).counters().tm?.egress;
  assert.deepEqual([simEgress['egress.pdus'], simEgress['egress.pdusWithoutCredit']], [24, 0], JSON.stringify(simEgress));
  assert.deepEqual([manualEgress?.pdus, manualEgress?.pdusWithoutCredit], [24, 0]);
  assert.ok((simEgress['egress.allocations'] ?? 0) >= 2 && (manualEgress?.allocations ?? 0) >= 2, 'credit allocated more than once in both');
  const tcp = await sameOverTcp(CREDITED);
  const e = tcp[2]?.tm?.egress;
  assert.deepEqual([e?.pdus, e?.pdusWithoutCredit], [24, 0], 'TCP: every PDU on credit');
});
