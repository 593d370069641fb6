import { test } from 'node:test';
import assert from 'node:assert/strict';
import { octets } from '../../test/support/endpoint-net.ts';
import { dataWires, flowOf, level, streamStarts, tmCounters, tmEvents, tmPair, tmWires } from '../../test/support/fabric-tm.ts';
import { makeCcp } from '../wire/type7.ts';

/** Six PDUs of eight segments each (MTU 256) on the stream 1 → 2. */
function sixPdus(): Uint8Array[] {
  return Array.from({ length: 6 }, (_, i) => octets(2000, i + 1));
}

test('Part 10 §3.4.2, Table 4-4, §3.4.5 rule 4: an egress XOFF (its receive buffer at 250/255) stops the sender\'s stream queue through the switch, the PDU already started is finished whole and no PDU starts while off; XON restarts the queue and every PDU arrives in order', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC' });
  const t0 = net.now;
  const pdus = sixPdus();
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: to2, pdu });
  net.run(t0 + 12_000);
  level(net, 2, 1, 250);
  net.run(net.now + 40_000);
  const [closed] = tmEvents(net, 1, 'gate');
  assert.deepEqual(closed?.detail['open'], false, 'the XOFF closed the stream queue\'s gate at node 1');
  const offAt = closed.at;
  const deliveredWhileOff = net.deliveriesTo(2).length;
  assert.ok(deliveredWhileOff < pdus.length, 'PDUs are held at the source');
  assert.ok(dataWires(net, 1, 2).some((w) => w.at > offAt && w.packet.segment !== 'start'), 'the PDU under way when the XOFF came went on');
  const startsBefore = dataWires(net, 1, 2).filter((w) => w.packet.segment === 'start' && w.at <= offAt).length;
  assert.equal(deliveredWhileOff, startsBefore, 'every PDU started before the XOFF arrived whole, and only those');
  assert.equal(tmCounters(net, 1).ingress.gateViolations, 0);
  // The API's send window waits for the Type 9 `sent` event of each PDU: held PDUs give none.
  assert.equal(net.eventsOf('type9', 'sent', 1).filter((d) => d['unit'] === 'pdu').length, startsBefore);
  level(net, 2, 1, 0);
  net.settle();
  const opened = tmEvents(net, 1, 'gate')[1];
  assert.deepEqual(opened?.detail['open'], true);
  assert.equal(dataWires(net, 1, 2).filter((w) => w.packet.segment === 'start' && w.at > offAt && w.at < opened.at).length, 0, 'nothing started while off');
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  assert.deepEqual(tmWires(net, 2, 1).map((w) => w.packet.tm.message), ['XOFF', 'XON']);
  const c1 = tmCounters(net, 1);
  assert.deepEqual([c1.ingress.xoff, c1.ingress.xon, c1.endpoint.gateCloses, c1.endpoint.gateOpens, c1.endpoint.pdusHandedOn], [1, 1, 1, 1, 6]);
  const c2 = tmCounters(net, 2);
  assert.deepEqual([c2.egress.xoffSent, c2.egress.xonSent, c2.egress.pdus, c2.endpoint.levelInputs], [1, 1, 6, 2]);
});

test('Part 10 §3.4.5 protocol rule 1: "all TM transactions occur in the same flows as the data": the egress\'s XOFF/XON and the ingress\'s Q_STATUS carry the prio, CRF and VC of the stream\'s data segments', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC' });
  for (const pdu of sixPdus()) net.input(1, { kind: 'send', stream: to2, pdu });
  net.run(net.now + 12_000);
  level(net, 2, 1, 250);
  net.run(net.now + 20_000);
  level(net, 2, 1, 0);
  net.settle();
  const data = new Set(dataWires(net, 1, 2).map((w) => flowOf(w.packet)));
  assert.equal(data.size, 1);
  const toIngress = tmWires(net, 2, 1);
  const toEgress = tmWires(net, 1, 2);
  assert.ok(toIngress.length === 2 && toEgress.length > 0 && toEgress.every((w) => w.packet.tm.message === 'Q_STATUS'));
  for (const w of [...toIngress, ...toEgress]) assert.deepEqual(new Set([flowOf(w.packet)]), data, w.packet.tm.message);
  // §3.4.1 "the operand is always based on a VSID that is the target ... of the data": the egress names the sender's stream.
  assert.deepEqual(toIngress.map((w) => [w.packet.destinationID, w.packet.streamID]), [[1, to2.streamID], [1, to2.streamID]]);
  assert.deepEqual(toEgress.map((w) => [w.packet.destinationID, w.packet.streamID])[0], [2, to2.streamID]);
});

test('Part 10 §3.4.5 rule 1 with Part 9 §2.4.5 rule 1: a TM packet is a request of its data\'s flow, so a CCP XOFF of that flow holds it at the source with the data; the CCP XON lets it go', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC' });
  const ccp = (command: 'XOFF' | 'XON') => makeCcp({ destinationID: 1, tgtdestinationID: 2, tt: 1, command, flowID: '0A', soc: 0 });
  net.input(1, { kind: 'packet', packet: ccp('XOFF') });
  const before = tmWires(net, 1, 2).length;
  for (const pdu of sixPdus()) net.input(1, { kind: 'send', stream: to2, pdu });
  net.run(net.now + 20_000);
  assert.equal(tmWires(net, 1, 2).length, before, 'the Q_STATUS waits with its data');
  assert.equal(streamStarts(net, 1, 2, to2.streamID).length, 0);
  assert.ok((net.node(1).snapshot().tm?.outbox.waiting ?? 0) > 0);
  net.input(1, { kind: 'packet', packet: ccp('XON') });
  net.settle();
  assert.ok(tmWires(net, 1, 2).length > before);
  assert.equal(net.deliveriesTo(2).length, 6);
});

test('Part 10 §3.4.5 rule 4 "The ingress may discard traffic should the egress not adequately permit that traffic onto the fabric": a stream queue holds tm.queuePdus PDUs; a send beyond is refused with event queue-full, and the queue level goes to the egress as Q_STATUS (Table 4-4 "n/255 full")', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC', queuePdus: 4 });
  // §3.4.1: the egress may stop a class (source + cos) before any of its data came; the stream's queue exists from its OPEN.
  level(net, 2, 1, 250);
  net.settle();
  assert.deepEqual(tmWires(net, 2, 1).map((w) => w.packet.tm.message), ['XOFF']);
  assert.equal(tmCounters(net, 1).ingress.xoff, 1);
  const pdus = Array.from({ length: 6 }, (_, i) => octets(100, i + 1));
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: to2, pdu });
  net.settle();
  assert.equal(net.deliveriesTo(2).length, 0);
  assert.deepEqual(tmEvents(net, 1, 'queue-full').map((e) => e.detail['bytes']), [100, 100]);
  assert.equal(tmCounters(net, 1).endpoint.queueFull, 2);
  const levels = tmWires(net, 1, 2).filter((w) => w.packet.tm.message === 'Q_STATUS').map((w) => w.packet.parameter2);
  assert.deepEqual(levels, [0, 64, 128, 191, 255], 'the empty queue at OPEN, then each quarter');
  level(net, 2, 1, 0);
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus.slice(0, 4));
});

test('Part 10 §4.3, §4.3.1 "No other combinations of these fields is permitted": a malformed TM packet is counted and reported, never thrown, and never reaches the session stack; one for another destinationID likewise', () => {
  const { net } = tmPair({ mode: 'BASIC' });
  const e = net.node(2);
  const base = {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 9, destinationID: 2, sourceID: 1, cos: 0, start: 0, end: 0, xh: 1, odd: 0, pad: 0,
    segment: 'tm', xtype: 0, streamID: 5, tmOp: 0, tmOpName: 'BASIC', rsrv: 0, wildcard: 0, mask: 0, parameter1: 0, parameter2: 0,
  } as const;
  const packetsIn = e.counters().endpoint.packetsIn;
  const received = tmCounters(net, 2).endpoint.tmReceived;
  const outs = [
    e.handle({ kind: 'packet', packet: { ...base, parameter1: 'x' } as never }, net.now),
    // Wildcard 0b010 is reserved (§4.3.1 Table 4-2).
    e.handle({ kind: 'packet', packet: { ...base, wildcard: 0b010, parameter1: 2 } as never }, net.now),
    e.handle({ kind: 'packet', packet: { ...base, destinationID: 9, parameter1: 2 } as never }, net.now),
  ];
  const names = outs.map((o) => o.flatMap((x) => (x.kind === 'event' && x.source === 'fabric' && x.detail.event === 'tm' ? [x.detail.name] : [])));
  assert.deepEqual(names, [['malformed'], ['reserved-message'], ['not-for-us']]);
  const c = tmCounters(net, 2).endpoint;
  assert.deepEqual([c.tmReceived - received, c.tmMalformed, c.tmNotForUs], [3, 2, 1]);
  assert.equal(e.counters().endpoint.packetsIn, packetsIn, 'the session stack saw none of them');
});

test('Part 10 §3.4.5 Supported Functionality rule 1 "Supporting traffic management is entirely optional": without tm no TM packet is sent, counters() has no tm part and snapshot().tm is null, a tm-level is an invalid input and a received TM packet goes to the session stack as before', () => {
  const { net, to2 } = tmPair(undefined);
  for (const pdu of sixPdus()) net.input(1, { kind: 'send', stream: to2, pdu });
  level(net, 2, 1, 250);
  net.settle();
  assert.equal(net.deliveriesTo(2).length, 6, 'nothing stops the stream');
  assert.equal(tmWires(net, 1, 2).length + tmWires(net, 2, 1).length, 0);
  assert.deepEqual(Object.keys(net.node(1).counters()), ['fabric', 'endpoint', 'engines', 'ccp']);
  assert.equal(net.node(1).snapshot()['tm'], null);
  assert.deepEqual(net.eventsOf('fabric', 'invalid-input', 2).map((d) => d['detail']), ['tm-level: this end point has no traffic management (tm)']);
  const packet = {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 9, destinationID: 1, sourceID: 2, cos: 0, start: 0, end: 0, xh: 1, odd: 0, pad: 0,
    segment: 'tm', xtype: 0, streamID: to2.streamID, tmOp: 0, tmOpName: 'BASIC', rsrv: 0, wildcard: 0, mask: 0, parameter1: 2, parameter2: 0,
  } as never;
  const before = net.node(1).counters().engines.type9?.segmentsReceived ?? 0;
  net.input(1, { kind: 'packet', packet });
  assert.ok((net.node(1).counters().engines.type9?.segmentsReceived ?? 0) > before, 'the Type 9 conveyance took it');
});

test('issue 8 §1 configuration: tm fields are checked when the end point is built; a bad one is a RangeError naming it', async () => {
  const { FabricEndpoint } = await import('./fabric-endpoint.ts');
  const { type9Node } = await import('../../test/support/endpoint-net.ts');
  const base = type9Node(1, 0xfff1);
  assert.throws(() => new FabricEndpoint({ ...base, tm: { queuePdus: 0 } }), /^RangeError: tm\.queuePdus must be a positive integer$/);
  assert.throws(() => new FabricEndpoint({ ...base, tm: { levelPeriod: -1 } }), /^RangeError: tm\.levelPeriod must be/);
  assert.throws(() => new FabricEndpoint({ ...base, tm: { mode: 'FAST' as never } }), /^RangeError: tm\.mode/);
  assert.throws(() => new FabricEndpoint({ ...base, tm: 3 as never }), /^RangeError: tm must be a mapping$/);
  assert.equal(new FabricEndpoint({ ...base, tm: null as never }).snapshot()['tm'], null, 'null (from YAML) is no TM');
  const e = new FabricEndpoint({ ...base, tm: {} });
  const snap = JSON.parse(JSON.stringify(e.snapshot())) as { tm: { mode: string; queuePdus: number } };
  assert.deepEqual([snap.tm.mode, snap.tm.queuePdus], ['BASIC', 16]);
});

test('Annex 2 §3.5.1.8 CLOSE with Part 10 §3.4.5 rule 4 (decision FT12): PDUs held in a stream queue when the stream closes are dropped and reported, never sent on the closed stream; a tm-level out of range is an invalid input', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC' });
  level(net, 2, 1, 250);
  net.settle();
  for (let i = 0; i < 3; i++) net.input(1, { kind: 'send', stream: to2, pdu: octets(300, i + 1) });
  net.input(1, { kind: 'close', stream: to2 });
  net.settle();
  assert.ok(net.eventsOf('session', 'closed', 1).length > 0);
  assert.deepEqual(tmEvents(net, 1, 'discarded').map((e) => e.detail['pdus']), [3]);
  assert.equal(tmCounters(net, 1).endpoint.pdusDiscarded, 3);
  assert.equal(streamStarts(net, 1, 2, to2.streamID).length, 0);
  assert.equal(net.deliveriesTo(2).length, 0);
  net.input(2, { kind: 'tm-level', sourceID: 1, cos: 0, level: 256 });
  assert.deepEqual(net.eventsOf('fabric', 'invalid-input', 2).map((d) => d['detail']), ['tm-level: level is not an integer from 0 to 255']);
  assert.equal(tmCounters(net, 2).endpoint.invalidLevels, 1);
});
