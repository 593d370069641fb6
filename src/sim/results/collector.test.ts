import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlowTable } from '../fabric/endpoint-flows.ts';
import { Collector } from './collector.ts';
import { COUNT } from './count-names.ts';

test('issue 7 §3 throughput: delivered octets in the window over its length, the warm-up excluded', () => {
  const flows = new FlowTable();
  const f = flows.register(1, 2, 0, 0, '0A');
  (flows.get(f) as { linkRate: number }).linkRate = 1e9;
  const c = new Collector({ warmup: 1_000_000, flows });
  c.packetDelivered(f, 999_999, 1000, 5);
  for (let t = 1_000_000; t < 3_000_000; t += 100_000) c.packetDelivered(f, t, 100, 10);
  c.finish(3_000_000);
  const r = c.results();
  assert.deepEqual(r.window, { warmup: 1_000_000, end: 3_000_000, duration: 2_000_000 });
  const row = r.flows[0];
  assert.ok(row !== undefined);
  assert.equal(row.deliveredPackets, 20);
  assert.equal(row.deliveredBytes, 2000);
  // 2000 octets in 2 µs = 8 Gbit/s; the source link carries 1 Gbit/s.
  assert.equal(row.throughputBps, 8e9);
  assert.equal(row.throughputFraction, 8);
  assert.equal(r.aggregate.throughputBps, 8e9);
  assert.equal(row.packetLatency.max, 10, 'the packet before the warm-up is not in the latencies');
  assert.deepEqual([row.src, row.dst, row.prio, row.crf, row.flowID], [1, 2, 0, 0, '0A']);
});

test('issue 7 §3 offered load: the wire time of the PDUs generated over the window; PDUs dropped at the source are offered too', () => {
  const c = new Collector();
  c.offered(0, 0, 100, 250, true);
  c.offered(0, 10, 100, 250, false);
  c.offered(0, 20, 100, 250, true);
  c.pduDelivered(0, 600, 100, 600);
  c.pduDelivered(0, 700, 100, 680);
  c.finish(1000);
  const row = c.results().flows[0];
  assert.ok(row !== undefined);
  assert.equal(row.offeredPdus, 3);
  assert.equal(row.offeredBytes, 300);
  assert.equal(row.droppedPdus, 1);
  assert.equal(row.droppedBytes, 100);
  assert.equal(row.offeredLoad, 0.75);
  assert.equal(row.deliveredPdus, 2);
  assert.equal(row.payloadBps, (200 * 8e12) / 1000);
  assert.equal(row.pduLatency.mean, 640);
  assert.equal(row.throughputFraction, null, 'no link rate known');
});

test('issue 7 §3 XOFF time per flow: stopped time inside the window, an XOFF still open at the end counted up to it', () => {
  const c = new Collector({ warmup: 10 });
  c.xoff(3, 5, true);
  c.xoff(3, 15, false);
  c.xoff(3, 20, true);
  c.xoff(3, 22, true);
  c.xoff(1, 12, false);
  c.finish(30);
  const r = c.results();
  const f3 = r.flows[3];
  assert.ok(f3 !== undefined);
  // [10, 15] and [20, 30].
  assert.equal(f3.xoffTime, 15);
  assert.equal(f3.xoffFraction, 0.75);
  assert.equal(f3.xoffCount, 1, 'the XOFF begun in the warm-up is not counted');
  assert.equal(r.flows[1]?.xoffTime, 0);
  assert.equal(r.aggregate.xoffTime, 15);
  assert.equal(r.flows.length, 4);
  assert.equal(r.flows[0]?.src, null, 'an unregistered flow has no labels');
});

test('issue 7 §3 buffer occupancy over time: time-weighted mean and maximum over the window, and a series sampled at the interval', () => {
  const c = new Collector({ warmup: 100, sampleInterval: 100 });
  c.occupancy('sw1:in0', 50, 4, 400);
  c.occupancy('sw1:in0', 150, 2, 200);
  c.occupancy('sw1:in0', 250, 0, 0);
  c.occupancy('ep:rx', 300, 1, 10);
  c.occupancy('ep:rx', 300, 0, 0);
  c.finish(500);
  const r = c.results();
  // 4 over [100, 150), 2 over [150, 250), 0 to 500: (200 + 200) / 400.
  assert.deepEqual(r.occupancy[0], { component: 'sw1:in0', meanPackets: 1, maxPackets: 4, meanBytes: 100, maxBytes: 400 });
  assert.deepEqual(r.occupancy[1], { component: 'ep:rx', meanPackets: 0, maxPackets: 1, meanBytes: 0, maxBytes: 10 });
  const s = r.occupancySeries.buffers[0];
  assert.ok(s !== undefined);
  assert.deepEqual(s.t, [0, 100, 200, 300, 400, 500]);
  assert.deepEqual(s.packets, [0, 4, 2, 0, 0, 0]);
  assert.equal(r.occupancySeries.interval, 100);
});

test('issue 7 §3 counts: every named counter, with the CCP, VoQ symbol, TM message, CCP drop and PDU defect headline', () => {
  const c = new Collector({ warmup: 100 });
  c.count(COUNT.ccpSent, 3);
  c.count(COUNT.ccpDropped);
  c.count(COUNT.voqSymbols, 7);
  c.count('switch.other');
  c.pduDefect(2, 50);
  c.pduDefect(2, 150);
  c.pduDefect(-1, 160);
  c.finish(200);
  const r = c.results();
  assert.deepEqual(r.headline, { ccpsSent: 3, ccpsReceived: 0, ccpDrops: 1, voqSymbols: 7, tmMessages: 0, pduDefects: 3 });
  assert.deepEqual(r.counts, { 'ccp.dropped': 1, 'ccp.sent': 3, 'pdu.defects': 3, 'switch.other': 1, 'voq.symbolsSent': 7 });
  assert.equal(r.flows[2]?.pduDefects, 1, 'per flow, the window only');
  assert.equal(r.aggregate.pduDefects, 2, 'with the defect of an unknown flow');
});

test('issue 7 §3 throughput over time: octets delivered per interval from 0, in total and per flow when asked', () => {
  const c = new Collector({ sampleInterval: 1000, flowSeries: true });
  c.packetDelivered(0, 10, 100, 1);
  c.packetDelivered(1, 999, 50, 1);
  c.packetDelivered(0, 2500, 100, 1);
  c.finish(4000);
  const r = c.results();
  assert.deepEqual(r.throughputSeries.aggregate, [150, 0, 100, 0]);
  assert.deepEqual(r.throughputSeries.flows, { 0: [100, 0, 100, 0], 1: [50, 0, 0, 0] });
  assert.deepEqual(JSON.parse(JSON.stringify(c)), JSON.parse(JSON.stringify(r)), 'toJSON is the results');
  assert.throws(() => new Collector().results(), /finish\(end\) before results/);
  assert.throws(() => new Collector({ sampleInterval: 0 }), /sampleInterval must be a positive integer/);
});

test('issue 20 Collector.buffer: a buffer\'s handle records what occupancy(name) records, the record made at its first report (the buffers keep their order); none with buffers false', () => {
  const reports: [string, number, number, number][] = [['b', 0, 1, 64], ['a', 500, 2, 128], ['b', 1000, 0, 0], ['a', 1500, 1, 64]];
  const byName = new Collector({ sampleInterval: 500 });
  for (const [name, t, p, b] of reports) byName.occupancy(name, t, p, b);
  const byHandle = new Collector({ sampleInterval: 500 });
  const handles = { a: byHandle.buffer('a'), b: byHandle.buffer('b'), unused: byHandle.buffer('unused') };
  for (const [name, t, p, b] of reports) handles[name as 'a' | 'b'].occupancy(t, p, b);
  for (const c of [byName, byHandle]) c.finish(2000);
  const r = byHandle.results();
  assert.deepEqual(r.occupancy.map((o) => o.component), ['b', 'a'], 'first report order; a handle never used makes no record');
  assert.deepEqual([r.occupancy, r.occupancySeries], [byName.results().occupancy, byName.results().occupancySeries]);
  assert.equal(r.occupancy[1]?.maxPackets, 2);
  const off = new Collector({ buffers: false });
  off.buffer('a').occupancy(0, 5, 320);
  off.occupancy('b', 0, 5, 320);
  off.finish(10);
  assert.deepEqual([off.results().occupancy, off.results().occupancySeries.buffers], [[], []]);
});
