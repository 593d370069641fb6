import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytes, cont, segmentsOf, single } from '../../test/support/type9-segments.ts';
import { carry, feed9, named, node9, pdus, wire9 } from '../../test/support/type9-link.ts';
import { Type9Conveyance } from './type9-conveyance.ts';
import type { Type9ConveyanceInput } from './type9-conveyance-types.ts';
import type { PduInput, SendPduOutput, SmpPriority } from './types.ts';

const A = 0x0a;
const B = 0x0b;
const MGMT = { conveyance: 'type9' as const, streamID: 0xfff0, cos: 0xe0 };

function message(to: number, b: Uint8Array, priority: SmpPriority = 'normal', id?: string): Type9ConveyanceInput {
  const m = { kind: 'send' as const, to, contact: MGMT, priority, bytes: b };
  return id === undefined ? m : { ...m, id };
}

function data(to: number, streamID: number, pdu: Uint8Array, id?: string): Type9ConveyanceInput {
  const d = { kind: 'send-pdu' as const, to, streamID, cos: 3, pdu };
  return id === undefined ? d : { ...d, id };
}

test('Annex 2 §3.3: a management message for a Type 9 contact is a PDU on the StreamID and COS the target advertised', () => {
  const a = node9(A);
  const b = node9(B);
  const m = bytes(24);
  feed9(a, message(B, m, 'normal', 'req'), 0);
  const [p] = carry(a, b, 0);
  assert.ok(p);
  assert.deepEqual([p.segment, p.tt, p.destinationID, p.sourceID, p.cos, 'streamID' in p ? p.streamID : -1], ['single', 1, B, A, 0xe0, 0xfff0]);
  assert.deepEqual(pdus(b), [{ kind: 'pdu', from: A, streamID: 0xfff0, cos: 0xe0, pdu: m }]);
  assert.deepEqual(named(a, 'sent'), [{ kind: 'event', name: 'sent', unit: 'message', to: B, streamID: 0xfff0, cos: 0xe0, length: 24, id: 'req' }]);
});

test('Annex 2 §4.3.5: the session engine\'s send-pdu output goes in as it is and a delivered PDU is its PduInput', () => {
  const a = node9(A);
  const b = node9(B);
  const output: SendPduOutput = { kind: 'send-pdu', to: B, streamID: 0x0007, cos: 2, pdu: bytes(300) };
  feed9(a, output, 0);
  carry(a, b, 0);
  const [got] = pdus(b);
  assert.ok(got);
  const input: PduInput = got;
  assert.deepEqual(input, { kind: 'pdu', from: A, streamID: 7, cos: 2, pdu: bytes(300) });
});

test('Annex 2 §3.7.2, Part 6 Tables 6-6/6-7: high messages go on the prio 1 flow, normal messages and data on flow 0A', () => {
  for (const [crfSupported, flow] of [[true, '0C'], [false, '0B']] as const) {
    const a = node9(A, { crfSupported });
    feed9(a, message(B, bytes(8), 'high'), 0);
    feed9(a, message(B, bytes(8), 'normal'), 0);
    feed9(a, data(B, 7, bytes(8)), 0);
    const ps = feed9(a, { kind: 'pull', max: 3 }, 0);
    assert.deepEqual(ps.map((p) => [p.prio, p.crf, p.vc]), [[1, 0, 0], [0, 0, 0], [0, 0, 0]], `crfSupported ${crfSupported}`);
    assert.equal(a.engine.snapshot()['highFlow'], flow);
  }
});

test('Annex 2 §4.3.4–§4.3.5, Part 10 §3.2.5: a DATA3 PDU goes without a header, cut by the Part 10 segmenter', () => {
  const a = node9(A, { mtu: 64 });
  const b = node9(B, { mtu: 64 });
  const pdu = bytes(150, 3);
  feed9(a, data(B, 0x0042, pdu, 'd'), 0);
  const ps = carry(a, b, 0);
  assert.deepEqual(ps.map((p) => [p.segment, p.payload.length]), [['start', 64], ['continuation', 64], ['end', 22]]);
  assert.deepEqual(pdus(b), [{ kind: 'pdu', from: A, streamID: 0x42, cos: 3, pdu }]);
  assert.deepEqual(named(a, 'sent').map((e) => [e['unit'], e['id']]), [['pdu', 'd']]);
});

test('Annex 2 §3.7.2, Part 10 §3.2.5 rule 1: a high message overtakes a data PDU being segmented; both streams arrive intact', () => {
  const a = node9(A, { mtu: 32 });
  const b = node9(B, { mtu: 32 });
  const pdu = bytes(200, 5);
  const status = bytes(48, 9);
  feed9(a, data(B, 1, pdu), 0);
  carry(a, b, 0, 2);
  feed9(a, message(B, status, 'high'), 1);
  const rest = carry(a, b, 1);
  assert.deepEqual(rest.map((p) => `${p.segment}@${p.prio}`).slice(0, 3), ['start@1', 'end@1', 'continuation@0']);
  assert.deepEqual(pdus(b).map((p) => [p.streamID, p.pdu]), [[0xfff0, status], [1, pdu]]);
});

test('Part 10 §3.2.3 (decision): on the one management stream a high message waits for the normal one queued before it', () => {
  const a = node9(A, { mtu: 32 });
  const b = node9(B, { mtu: 32 });
  feed9(a, message(B, bytes(64, 1), 'normal', 'open'), 0);
  feed9(a, message(B, bytes(16, 2), 'high', 'status'), 0);
  const ps = carry(a, b, 0);
  assert.deepEqual(ps.map((p) => `${p.segment}@${p.prio}`), ['start@0', 'end@0', 'single@1']);
  assert.deepEqual(named(a, 'sent').map((e) => e['id']), ['open', 'status']);
});

test('Part 10 §3.2.5 rule 1: PDUs of two data streams on one flow leave one whole PDU at a time, in queueing order', () => {
  const a = node9(A, { mtu: 32 });
  const b = node9(B, { mtu: 32 });
  feed9(a, data(B, 1, bytes(70, 1)), 0);
  feed9(a, data(B, 2, bytes(40, 2)), 0);
  feed9(a, data(B, 1, bytes(33, 3)), 0);
  const ps = carry(a, b, 0);
  assert.deepEqual(ps.map((p) => p.segment), ['start', 'continuation', 'end', 'start', 'end', 'start', 'end']);
  assert.deepEqual(pdus(b).map((p) => [p.streamID, p.pdu.length]), [[1, 70], [2, 40], [1, 33]]);
});

test('Part 10 §3.2.5 reassembly rule 1: segments of two sources interleaved at one receiver are kept apart by context', () => {
  const a = node9(A, { mtu: 32 });
  const c = node9(0x0c, { mtu: 32 });
  const b = node9(B, { mtu: 32 });
  feed9(a, data(B, 5, bytes(96, 1)), 0);
  feed9(c, data(B, 5, bytes(64, 2)), 0);
  for (let i = 0; i < 3; i++) {
    carry(a, b, i, 1);
    carry(c, b, i, 1);
  }
  assert.deepEqual(pdus(b).map((p) => [p.from, p.streamID, p.pdu]), [[0x0c, 5, bytes(64, 2)], [A, 5, bytes(96, 1)]]);
});

test('Annex 2 §3.3, Part 10 §3.2.4: a message for a Type 11 contact and a PDU the segmenter refuses are reported, not sent', () => {
  const a = node9(A, { defaultMaxPdu: 100 });
  feed9(a, { kind: 'send', to: B, contact: { conveyance: 'type11', mailbox: 0 }, priority: 'high', bytes: bytes(8) }, 0);
  feed9(a, message(B, bytes(8), 'urgent' as SmpPriority), 0);
  feed9(a, data(B, 1, new Uint8Array(0), 'empty'), 0);
  feed9(a, data(B, 1, bytes(101)), 0);
  feed9(a, data(B, 0x10000, bytes(8)), 0);
  assert.deepEqual(named(a, 'refused').map((e) => [e['unit'], e['reason'], e['id']]), [
    ['message', 'wrong-conveyance', undefined], ['message', 'invalid-priority', undefined], ['pdu', 'empty-pdu', 'empty'],
    ['pdu', 'above-max-pdu', undefined], ['pdu', 'invalid-stream-id', undefined],
  ]);
  assert.deepEqual(feed9(a, { kind: 'pull' }, 0), []);
  assert.deepEqual(a.log.at(-1), { kind: 'idle' });
  assert.equal(a.engine.counters().refused, 5);
});

test('Part 10 §3.2.5: defects and idle time-outs of received segments are passed on as the reassembler reports them', () => {
  const b = node9(B, { mtu: 32, idleTimeout: 1000 });
  feed9(b, { kind: 'packet', packet: wire9(cont(bytes(32), { tt: 1, sourceID: A, destinationID: B })) }, 0);
  assert.deepEqual(named(b, 'defective-pdu').map((e) => [e['rule'], e['error']]), [[8, 'MISSING_DATA_STREAMING_CONTEXT']]);
  const [start] = segmentsOf(bytes(64), 32, 9, { tt: 1, sourceID: A, destinationID: B });
  assert.ok(start);
  const out = b.engine.handle({ kind: 'packet', packet: start }, 10);
  const timer = out.find((o) => o.kind === 'timer');
  assert.ok(timer);
  b.engine.handle({ kind: 'timer', name: timer.name }, 1010).forEach((o) => b.log.push(o));
  assert.deepEqual(named(b, 'idle-timeout').map((e) => e['received']), [32]);
  assert.equal(b.engine.counters().reassemblyEvents, 2);
  assert.deepEqual(pdus(b), []);
});

test('Part 3 §2.4, Annex 2 §7.3.2.1: segments for another node are dropped; configured multicast IDs are received', () => {
  const b = node9(B, { multicastIds: [0xfffe] });
  for (const destinationID of [0x77, 0xfffe, B]) {
    for (const p of segmentsOf(bytes(16, destinationID), 256, 0xf000, { tt: 1, sourceID: A, destinationID })) feed9(b, { kind: 'packet', packet: p }, 0);
  }
  assert.deepEqual(named(b, 'not-for-us').map((e) => e['destinationID']), [0x77]);
  assert.deepEqual(pdus(b).map((p) => p.pdu), [bytes(16, 0xfffe), bytes(16, B)]);
});

test('Part 10 §3.2.5 (decision): a single-segment PDU is delivered as a copy, not a view of the packet', () => {
  const b = node9(B);
  const p = single(bytes(16), 1, { tt: 1, sourceID: A, destinationID: B });
  feed9(b, { kind: 'packet', packet: p }, 0);
  p.payload.fill(0);
  assert.deepEqual(pdus(b)[0]?.pdu, bytes(16));
});

test('riodp engine contract: pulls, malformed inputs and the config are checked, never thrown on protocol input', () => {
  const a = node9(A);
  feed9(a, message(B, bytes(600), 'normal'), 0);
  assert.equal(feed9(a, { kind: 'pull', max: 5 }, 0).length, 3);
  feed9(a, { kind: 'pull', max: -1 }, 0);
  feed9(a, { kind: 'packet', packet: { segment: 'single' } } as never, 0);
  feed9(a, { kind: 'bogus' } as never, 0);
  assert.deepEqual(named(a, 'invalid-input').map((e) => e['detail']), [
    'pull: max -1 is not a positive integer', 'packet: not a decoded Type 9 packet', 'unknown input kind "bogus"',
  ]);
  const bad: [Record<string, unknown>, RegExp][] = [
    [{}, /^nodeId must be/],
    [{ nodeId: 1, highFlow: '9Z' }, /^highFlow must be a Part 9 Table 3-1 flow/],
    [{ nodeId: 1, normalFlow: 3 }, /^normalFlow must be/],
    [{ nodeId: 1, multicastIds: [0x10000] }, /^multicastIds\[0\] must be/],
    [{ nodeId: 1, mtu: 30 }, /^mtu must be a multiple of 4 from 32 to 256$/],
    [{ nodeId: 1, crfSupported: 'yes' }, /^crfSupported must be a boolean$/],
  ];
  for (const [config, re] of bad) {
    assert.throws(() => new Type9Conveyance(config as never), (e: unknown) => e instanceof RangeError && re.test(e.message), JSON.stringify(config));
  }
});

test('riodp engine contract: snapshot() is plain JSON with the segmenter and reassembler state', () => {
  const a = node9(A, { mtu: 32, multicastIds: [0xfffe] });
  feed9(a, data(B, 1, bytes(100)), 0);
  feed9(a, { kind: 'pull' }, 0);
  const snap = a.engine.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  assert.deepEqual([snap['highFlow'], snap['normalFlow'], snap['multicastIds']], ['0C', '0A', [0xfffe]]);
  assert.equal(snap.segmenter.flows.length, 1);
});
