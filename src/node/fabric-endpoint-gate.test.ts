import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverAndOpenAll, FabricNet, fabricTrio } from '../../test/support/fabric-endpoint.ts';
import { octets, type11Node, type9Node } from '../../test/support/endpoint-net.ts';
import type { StreamRef } from '../session/types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Packet } from '../wire/packet.ts';
import { makeCcp } from '../wire/type7.ts';
import type { Type7Packet } from '../wire/type7.ts';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import { FabricEndpoint } from './fabric-endpoint.ts';
import type { FabricEndpointConfig, FabricEndpointInput, FabricEndpointOutput } from './fabric-endpoint.ts';

const PROTO = 0x1234;
const US = 1000;

function ccp(command: 'XOFF' | 'XON', tgtdestinationID: number, flowID: FlowIdLabel): Type7Packet {
  return makeCcp({ destinationID: 1, tgtdestinationID, tt: 1, command, flowID, soc: 0 });
}

function packetsOf(out: readonly FabricEndpointOutput[]): Packet[] {
  return out.flatMap((o) => (o.kind === 'packet' ? [o.packet] : []));
}

function drain(e: FabricEndpoint, now: number): Packet[] {
  const got: Packet[] = [];
  for (let i = 0; i < 10_000; i++) {
    const out = e.handle({ kind: 'pull' }, now);
    got.push(...packetsOf(out));
    if (out.some((o) => o.kind === 'idle')) return got;
  }
  throw new Error('never idle');
}

function gated(e: FabricEndpoint): unknown {
  return e.snapshot()['gated'];
}

interface Run {
  readonly net: FabricNet;
  /** PDUs delivered to 3 during the window, to 2 during it, MAINTENANCE responses 1 sent 2 during it. */
  readonly to3: number;
  readonly to2: number;
  readonly responses: number;
  readonly pdus2: readonly Uint8Array[];
  readonly pdus3: readonly Uint8Array[];
}

const N = 60;
const W = 400 * US;

/**
 * End point 1 queues N bulk PDUs of 4 KiB (16 segments) to each of 2 and 3 and runs 100 µs; then
 * (with `xoff`) a CCP stops (2, 0A) for W = 400 µs with the orphan period at 1 s, so only an XON
 * restarts it; 200 µs into the window node 2 reads node 1's registers again (discovery), which 1
 * answers with MAINTENANCE responses. After the XON everything settles.
 */
function bulk(xoff: boolean, extra: Partial<FabricEndpointConfig>): Run {
  const { net, to2, to3 } = fabricTrio(PROTO, { ccp: { orphanPeriod: 1_000_000_000 }, ...extra });
  const pdus2 = Array.from({ length: N }, (_, i) => octets(4096, i));
  const pdus3 = Array.from({ length: N }, (_, i) => octets(4096, 100 + i));
  for (let i = 0; i < N; i++) {
    net.input(1, { kind: 'send', stream: to2, pdu: pdus2[i] as Uint8Array });
    net.input(1, { kind: 'send', stream: to3, pdu: pdus3[i] as Uint8Array });
  }
  // 333 ns past a packet boundary: the XOFF comes in the middle of a PDU to 2.
  net.run(net.now + 100 * US + 333);
  const t0 = net.now;
  if (xoff) net.input(1, { kind: 'packet', packet: ccp('XOFF', 2, '0A') });
  net.run(t0 + 200 * US);
  net.input(2, { kind: 'discover', node: 1 });
  net.run(t0 + W);
  if (xoff) net.input(1, { kind: 'packet', packet: ccp('XON', 2, '0A') });
  net.settle();
  const within = (at: number): boolean => at > t0 && at <= t0 + W;
  return {
    net,
    to3: net.deliveriesTo(3).filter((d) => within(d.at)).length,
    to2: net.deliveriesTo(2).filter((d) => within(d.at)).length,
    responses: net.packets(1, 2, 8).filter((w) => within(w.at)).length,
    pdus2,
    pdus3,
  };
}

test('Part 9 §2.4.5 rule 1 (decision FE10): while (2, 0A) is XOFF\'d for a long time, the bulk stream to 3 goes on at the full link rate (at least its rate without the XOFF), responses to 2 go on, the hold stays under 2 packets; after the XON the stream to 2 resumes and every PDU arrives whole and in order', () => {
  const reference = bulk(false, {});
  const r = bulk(true, {});
  // Without the XOFF the two streams share node 1's link; with it the stream to 3 has it alone.
  assert.ok(reference.to3 > 0 && r.to3 >= reference.to3, `to 3 during the window: ${r.to3} with the XOFF, ${reference.to3} without`);
  const linkRate = Math.floor(W / (16 * r.net.packetTime));
  assert.ok(r.to3 >= linkRate - 1, `to 3: ${r.to3} PDUs of 16 packets in ${W} ns (the link carries ${linkRate})`);
  assert.equal(r.to2, 0, 'nothing of (2, 0A) completes while stopped');
  assert.ok(r.responses > 0 && r.responses === reference.responses, 'the MAINTENANCE responses to 2 went as without the XOFF');
  const c = r.net.node(1).counters().fabric;
  assert.ok(c.held <= 2, `packets ever held: ${c.held}`);
  assert.deepEqual([c.released, c.discarded, c.blockedPulls, c.ccpIn, c.gates], [c.held, 0, 0, 2, 2]);
  assert.deepEqual(r.net.deliveriesTo(2).map((d) => d.pdu), r.pdus2);
  assert.deepEqual(r.net.deliveriesTo(3).map((d) => d.pdu), r.pdus3);
  assert.deepEqual(r.net.eventsOf('type9', 'idle-timeout'), [], 'no reassembly at 2 timed out');
  // The hold alone (decision FE1): the stopped bulk flow fills it within 64 pulls, then every flow waits, responses too.
  const hold = bulk(true, { gateFlows: false });
  assert.ok(hold.to3 < reference.to3 / 2, `hold alone: ${hold.to3} PDUs to 3`);
  assert.equal(hold.responses, 0);
  assert.equal(hold.net.node(1).counters().fabric.held, 64);
  assert.deepEqual(hold.net.deliveriesTo(2).map((d) => d.pdu), hold.pdus2);
});

test('Part 9 §2.4.5 rules 1–2, Part 10 §2.4 rule 1 (decisions FE10, FE12): a segment staged in the session stack before the XOFF came still comes out and is held; the XON releases it first and the PDU arrives whole', () => {
  const { net, to2 } = fabricTrio(PROTO);
  const e = net.node(1);
  const t = net.now;
  e.handle({ kind: 'send', stream: to2, pdu: octets(1000, 7) }, t);
  e.handle({ kind: 'packet', packet: maintenanceReadRequest({ tt: 1, destinationID: 1, sourceID: 2, srcTID: 5, byteOffset: 0, byteCount: 4 }) }, t);
  // The response goes first; the PDU's start segment waits in the session stack's transmit queue.
  assert.deepEqual(packetsOf(e.handle({ kind: 'pull' }, t)).map((p) => p.ftype), [8]);
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  assert.deepEqual(drain(e, t), []);
  assert.deepEqual(e.flows().find((f) => f.destinationID === 2 && f.flowID === '0A'), { destinationID: 2, flowID: '0A', state: 'xoff', held: 1 });
  assert.deepEqual([e.counters().fabric.held, e.counters().fabric.blockedPulls], [1, 1]);
  e.handle({ kind: 'packet', packet: ccp('XON', 2, '0A') }, t + 1);
  const sent = drain(e, t + 1);
  assert.deepEqual(sent.map((p) => (p.ftype === 9 ? p.segment : p.ftype)), ['start', 'continuation', 'continuation', 'end']);
  const delivered = sent.flatMap((p) => net.node(2).handle({ kind: 'packet', packet: p }, t + 2)).flatMap((o) => (o.kind === 'deliver' ? [o.pdu] : []));
  assert.deepEqual(delivered, [octets(1000, 7)]);
  assert.equal(e.counters().fabric.released, 1);
});

test('Part 9 §2.4.2.3 bounded counters (decision FE10): a destination no CCP named but sharing a stopped counter is gated when its first packet is held, and restarted when the counter returns to zero', () => {
  const { net, to3 } = fabricTrio(PROTO, { ccp: { counters: { mode: 'bounded', count: 1 } } });
  const e = net.node(1);
  const t = net.now;
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t);
  assert.deepEqual((gated(e) as { destinationID: number }[]).map((g) => g.destinationID), [2]);
  e.handle({ kind: 'send', stream: to3, pdu: octets(600, 3) }, t);
  assert.deepEqual(drain(e, t), []);
  assert.equal(e.counters().fabric.held, 1, 'one segment to 3 came out before 3 was known to be stopped');
  assert.deepEqual((gated(e) as { destinationID: number }[]).map((g) => g.destinationID), [2, 3]);
  e.handle({ kind: 'packet', packet: ccp('XON', 2, '0A') }, t + 1);
  assert.deepEqual(gated(e), []);
  const sent = drain(e, t + 1);
  assert.deepEqual(sent.map((p) => `${p.destinationID}:${p.ftype === 9 ? p.segment : p.ftype}`), ['3:start', '3:continuation', '3:end']);
  const delivered = sent.flatMap((p) => net.node(3).handle({ kind: 'packet', packet: p }, t + 2)).flatMap((o) => (o.kind === 'deliver' ? [o.pdu] : []));
  assert.deepEqual(delivered, [octets(600, 3)]);
});

test('Part 9 A.2, §2.4.2.3 (decisions FE2, FE10): an orphan restart and a link restart lift the gates with the flows they restart', () => {
  const { net, to2 } = fabricTrio(PROTO, { ccp: { orphanPeriod: 5000 } });
  const e = net.node(1);
  const t = net.now;
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0C') }, t);
  assert.deepEqual(gated(e), [{ destinationID: 2, flowIDs: ['0A', '0B', '0C'] }]);
  e.handle({ kind: 'send', stream: to2, pdu: octets(300, 1) }, t);
  assert.deepEqual(drain(e, t), []);
  e.handle({ kind: 'timer', name: 'ccp:orphan' }, t + 5000);
  assert.deepEqual(gated(e), []);
  assert.equal(drain(e, t + 5000).length, 2);
  e.handle({ kind: 'packet', packet: ccp('XOFF', 2, '0A') }, t + 6000);
  assert.deepEqual(gated(e), [{ destinationID: 2, flowIDs: ['0A'] }]);
  e.handle({ kind: 'link-down' }, t + 7000);
  assert.deepEqual(gated(e), []);
  assert.deepEqual(e.counters().fabric.gates, 3 + 3 + 1 + 1);
});

test('riodp engine contract (decision FE10): a gate input from a driver is the end point\'s counted invalid-input, not passed on; gateFlows must be a boolean', () => {
  const base = type9Node(1, 0xfff1, { protocols: [{ protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' }] });
  const e = new FabricEndpoint(base);
  const gate = { kind: 'gate', destinationID: 2, flowID: '0A', stopped: true } as unknown as FabricEndpointInput;
  assert.deepEqual(e.handle(gate, 0), [
    { kind: 'event', source: 'fabric', at: 0, detail: { event: 'invalid-input', detail: 'gate: the end point gates its flows from the CCPs it receives' } },
  ]);
  assert.equal(e.counters().fabric.invalidInputs, 1);
  assert.deepEqual(e.snapshot().endpoint.type9!.segmenter.stopped, []);
  assert.equal(e.snapshot()['gateFlows'], true);
  assert.throws(() => new FabricEndpoint({ ...base, gateFlows: 'yes' as unknown as boolean }), /^RangeError: gateFlows must be a boolean$/);
});

test('Part 9 §2.4.5 rule 1 (decisions FE11, FE12): Type 11 segments and discovery\'s MAINTENANCE reads are not gated but held; a stopped destination holds at most one message (16 segments, one letter) and its reads, while the message to 3 goes; after the XON everything arrives in order', () => {
  const net = new FabricNet();
  const DATA1 = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA1' } as const;
  net.add({ ...type11Node(1, 1, { protocols: [DATA1], discover: [2, 3] }), ccp: { orphanPeriod: 1_000_000_000 } });
  net.add(type11Node(2, 2, { protocols: [DATA1], discover: [1] }));
  net.add(type11Node(3, 3, { protocols: [DATA1], discover: [1] }));
  const [to2, to3] = discoverAndOpenAll(net, [[1, 2], [1, 3]], PROTO);
  const t0 = net.now;
  net.input(1, { kind: 'packet', packet: ccp('XOFF', 2, '0A') });
  const pdus2 = [octets(4096, 1), octets(4096, 2), octets(4096, 3)];
  for (const pdu of pdus2) net.input(1, { kind: 'send', stream: to2 as StreamRef, pdu });
  net.input(1, { kind: 'send', stream: to3 as StreamRef, pdu: octets(4096, 4) });
  net.input(1, { kind: 'discover', node: 2 });
  net.run(t0 + 500 * US);
  const e = net.node(1);
  assert.deepEqual(net.deliveriesTo(3).map((d) => d.pdu), [octets(4096, 4)]);
  assert.equal(net.packets(1, 2).filter((w) => w.at > t0).length, 0, 'nothing of (2, 0A) left');
  const held = e.flows().find((f) => f.destinationID === 2 && f.flowID === '0A')?.held ?? 0;
  const reads = e.counters().endpoint.readRequests;
  assert.ok(held >= 17 && held <= 16 + 4, `held to 2: ${held}: one message of 16 segments and discovery's reads`);
  assert.ok(e.snapshot().held < 64, 'the hold (heldLimit 64) never filled');
  net.input(1, { kind: 'packet', packet: ccp('XON', 2, '0A') });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus2);
  assert.ok(e.counters().endpoint.readRequests >= reads);
  assert.deepEqual(net.eventsOf('discovery', 'participant', 1).map((d) => d['node']), [2, 3, 2]);
  assert.equal(e.counters().fabric.released, e.counters().fabric.held);
});
