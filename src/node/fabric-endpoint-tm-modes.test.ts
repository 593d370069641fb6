import { test } from 'node:test';
import assert from 'node:assert/strict';
import { octets } from '../../test/support/endpoint-net.ts';
import { dataWires, flowOf, level, streamStarts, tmCounters, tmPair, tmWires } from '../../test/support/fabric-tm.ts';
import type { TmPair } from '../../test/support/fabric-tm.ts';
import type { FabricTmConfig } from './endpoint/tm-config.ts';

/** The stream's PDU starts (first segments) node 1 sent, times relative to `t0`. */
function starts(p: TmPair, t0: number): number[] {
  return streamStarts(p.net, 1, 2, p.to2.streamID).map((at) => at - t0);
}

/** The ingress's view of the stream's queue (TmIngress snapshot). */
function ingressQueue(p: TmPair): { readonly averageRate: number; readonly on: boolean } {
  const q = p.net.node(1).snapshot().tm?.ingress.queues[0];
  if (q === undefined) throw new Error('no ingress queue');
  return q;
}

function sendAll(p: TmPair, pdus: readonly Uint8Array[]): void {
  for (const pdu of pdus) p.net.input(1, { kind: 'send', stream: p.to2, pdu });
}

for (const [name, tm] of [
  ['the default policy (16 credits, 2 AUs outstanding)', { mode: 'CREDIT' }],
  ['4 credits per AU, 2 AU numbers, 1 outstanding', { mode: 'CREDIT', policy: { credit: { credits: 4, auCount: 2, maxOutstanding: 1, lowCredits: 1 } } }],
] as const satisfies readonly (readonly [string, FabricTmConfig])[]) {
  test(`Part 10 §3.4.4, §3.4.5 rule 7, Figure 3-6: CREDIT mode end to end through the switch with ${name}: the stream waits for its first ALLOCATE, each CREDIT STATUS reaches the egress in order with the data (no AU assumed closed or open, no PDU without credit) and every PDU arrives in order`, () => {
    const p = tmPair(tm);
    const { net } = p;
    const t0 = net.now;
    const pdus = Array.from({ length: 32 }, (_, i) => octets(700, i + 1));
    sendAll(p, pdus.slice(0, 16));
    net.settle();
    sendAll(p, pdus.slice(16));
    net.settle();
    assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
    const firstAllocate = tmWires(net, 2, 1).find((w) => w.packet.tm.message === 'ALLOCATE');
    assert.ok(firstAllocate !== undefined && firstAllocate.at - t0 < (starts(p, t0)[0] ?? -1), 'no PDU before credit');
    const e = tmCounters(net, 2).egress;
    assert.deepEqual([e.pdus, e.pdusWithoutCredit, e.auAssumedClosed, e.auAssumedOpen, e.allocateLost, e.csUnknownAu], [32, 0, 0, 0, 0, 0]);
    assert.ok(e.allocations >= 2 && e.creditStatus >= 2, `allocations ${e.allocations}, CREDIT STATUS ${e.creditStatus}`);
    const i = tmCounters(net, 1).ingress;
    assert.deepEqual([i.gateViolations, i.pdusSent, i.allocations], [0, 32, e.allocations]);
    const flows = new Set([...tmWires(net, 1, 2), ...tmWires(net, 2, 1), ...dataWires(net, 1, 2).filter((w) => w.packet.segment === 'start' && w.packet.streamID === p.to2.streamID)].map((w) => flowOf(w.packet)));
    assert.equal(flows.size, 1, 'credit messages in the data\'s flow (§3.4.5 rule 1)');
  });
}

test('Part 10 §3.4.3, Table 4-5: RATE mode end to end: the ingress holds the stream to its average rate with tm: timers (50 MB/s: ten 4000-byte PDUs take over 0.6 ms, not the link\'s 0.2 ms)', () => {
  const rate = { average: 50_000_000, peak: 100_000_000, burst: 4096, peakBurst: 2048 };
  const pdus = Array.from({ length: 10 }, (_, i) => octets(4000, i + 1));
  const free = tmPair(undefined);
  const tf = free.net.now;
  sendAll(free, pdus);
  free.net.settle();
  const freeSpan = (starts(free, tf).at(-1) ?? 0) - (starts(free, tf)[0] ?? 0);
  const p = tmPair({ mode: 'RATE', rate });
  const t0 = p.net.now;
  sendAll(p, pdus);
  p.net.settle();
  assert.deepEqual(p.net.deliveriesTo(2).map((d) => d.pdu), pdus);
  const s = starts(p, t0);
  const span = (s.at(-1) ?? 0) - (s[0] ?? 0);
  // Nine PDUs after the first, less the bucket's depth, at 50 bytes per µs.
  const least = ((9 * 4000 - rate.burst) * 1e9) / rate.average;
  assert.ok(span >= least && freeSpan < least / 3, `span ${span} ns with TM, ${freeSpan} ns without; at least ${least}`);
  const c = tmCounters(p.net, 1);
  assert.ok(c.endpoint.gateCloses >= 5 && c.endpoint.gateCloses === c.endpoint.gateOpens);
  assert.equal(c.ingress.gateViolations, 0);
});

test('Part 10 §3.4.3, §3.4.5 rule 6: RATE mode, the egress\'s sampled receive buffer level (tm.levelPeriod) above its high watermark sends REDUCEs that lower the sender\'s rate; a level below its low watermark sends an INCREASE; all in the data\'s flow', () => {
  const p = tmPair({ mode: 'RATE', levelPeriod: 10_000, rate: { average: 50_000_000, burst: 4096 } });
  const { net } = p;
  const pdus = Array.from({ length: 12 }, (_, i) => octets(2000, i + 1));
  sendAll(p, pdus);
  net.run(net.now + 40_000);
  const initial = ingressQueue(p).averageRate;
  level(net, 2, 1, 200);
  net.run(net.now + 35_000);
  const reduced = ingressQueue(p).averageRate;
  level(net, 2, 1, 0);
  net.settle();
  const messages = tmWires(net, 2, 1).map((w) => w.packet.tm.message);
  assert.ok(messages.filter((m) => m === 'REDUCE').length >= 2 && messages.at(-1) === 'INCREASE', messages.join(' '));
  assert.ok(reduced < initial && ingressQueue(p).averageRate > reduced, `${initial} → ${reduced} → ${ingressQueue(p).averageRate}`);
  assert.equal(tmCounters(net, 1).ingress.rateChanges, messages.length);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  const data = flowOf(dataWires(net, 1, 2).find((w) => w.packet.segment === 'start' && w.packet.streamID === p.to2.streamID)!.packet);
  assert.ok(tmWires(net, 2, 1).every((w) => flowOf(w.packet) === data));
});
