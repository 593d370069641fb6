import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrPeriod, smpBytes, smpStatus, STATUS_BIT } from '../wire/smp/index.ts';
import type { SmpStatus } from '../wire/smp/index.ts';
import { as, firstSend, openStream, rxOf, sessionPair } from '../../test/support/session-pair.ts';
import type { ProtocolSupport } from './types.ts';

/** Figures 3-1 to 3-5 of Annex 2 §3.6 as exact message sequences between node 1 (Source) and node 2 (Dest). */

const PROTO = 0x1234;
const ATTRS = [attrPeriod('REQUEST_RETRY_PERIOD', 100_000), attrPeriod('REQUEST_TIMEOUT_PERIOD', 800_000)];
const P: ProtocolSupport = { protoID: PROTO, attributes: ATTRS };
const pdu = (n: number): Uint8Array => Uint8Array.from({ length: 16 }, (_, i) => (n + i) & 0xff);

test('Annex 2 §3.6.1 Figure 3-1: REQUEST, ADVERTISE, OPEN with the advertised attributes, ACCEPT with the StreamID, then DATA on it', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'fig1');
  assert.ok(tx);
  for (let i = 0; i < 3; i++) net.input(1, { kind: 'send', stream: tx, pdu: pdu(i) });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 REQUEST', '2>1 ADVERTISE', '1>2 OPEN', '2>1 ACCEPT', '1>2 DATA', '1>2 DATA', '1>2 DATA']);
  const open = as(net.trace[2]?.message, 'OPEN');
  // §4.2.3 OPEN_MESSAGE_NUMBER first, then the ADVERTISE's attributes in its order (§3.8.2).
  assert.deepEqual(open.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'REQUEST_RETRY_PERIOD', 'REQUEST_TIMEOUT_PERIOD']);
  const accept = net.trace[3]?.message;
  assert.equal(accept?.command === 'ACCEPT' && accept.streamID, tx.streamID);
  assert.deepEqual(net.deliveries.map((d) => [d.node, d.stream, d.pdu]), [0, 1, 2].map((i) => [2, rxOf(1, tx), pdu(i)]));
});

test('Annex 2 §3.6.2 Figure 3-2: an OPEN the target does not allow is answered by REFUSE carrying the OPEN\'s attributes', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [{ ...P, acceptOpen: false }] });
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'fig2', attributes: ATTRS });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 REFUSE']);
  const open = as(net.trace[0]?.message, 'OPEN');
  const ref = as(net.trace[1]?.message, 'REFUSE');
  assert.deepEqual(ref.attributes.map((a) => [a.id, [...a.value]]), open.attributes.map((a) => [a.id, [...a.value]]));
  assert.deepEqual(net.eventsOf('refused', 1), [{ event: 'refused', ref: 'fig2', node: 2, protoID: PROTO }]);
});

test('Annex 2 §3.6.3 Figure 3-3: CLOSE from the data sender, DATA in transit discarded at Dest, STATUS Closed', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'fig3');
  assert.ok(tx);
  const sentBefore = net.trace.length;
  // The DATA is slower than the CLOSE on the link: it arrives after the stream was closed.
  net.link = (m) => (m.command === 'DATA' ? [10] : [1]);
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(0) });
  net.input(1, { kind: 'close', stream: tx });
  net.settle();
  assert.deepEqual(net.lines().slice(sentBefore), ['1>2 DATA', '1>2 CLOSE', '2>1 STATUS CLOSED']);
  const close = net.trace[sentBefore + 1]?.message;
  // §4.2.7 "the SourceID indicates the node sending data".
  assert.ok(close?.command === 'CLOSE' && close.sourceID === 1 && close.destID === 2 && close.streamID === tx.streamID);
  assert.equal(net.deliveries.length, 0);
  assert.equal(net.engine(2).counters().dataDiscarded, 1);
  assert.deepEqual(net.eventsOf('closed'), [
    { event: 'closed', stream: tx, cause: 'local' },
    { event: 'closed', stream: rxOf(1, tx), cause: 'remote' },
  ]);
  assert.equal(net.engine(1).counters().retries, 0);
});

test('Annex 2 §3.6.3 Figure 3-3: the receiver may also initiate the shutdown; the CLOSE still names the data sender as SourceID', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'fig3r');
  assert.ok(tx);
  const sentBefore = net.trace.length;
  net.input(2, { kind: 'close', stream: rxOf(1, tx) });
  // Data the sender sends before the CLOSE reaches it arrives at a closed stream.
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(1) });
  net.settle();
  assert.deepEqual(net.lines().slice(sentBefore), ['2>1 CLOSE', '1>2 DATA', '1>2 STATUS CLOSED']);
  const close = net.trace[sentBefore]?.message;
  assert.ok(close?.command === 'CLOSE' && close.sourceID === 1 && close.destID === 2);
  assert.equal(net.deliveries.length, 0);
  assert.equal(net.engine(2).counters().dataDiscarded, 1);
  assert.equal(net.engine(2).counters().statusStreamUnknown, 0);
});

test('Annex 2 §3.6.4 Figure 3-4: a query of a known stream is answered with its state and the ProtoID and attributes that opened it', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'fig4');
  assert.ok(tx);
  const sentBefore = net.trace.length;
  net.input(1, { kind: 'status-query', stream: tx });
  net.settle();
  assert.deepEqual(net.lines().slice(sentBefore), ['1>2 STATUS STREAM_FUNCTIONAL|REQUEST_STATUS_OF_REMOTE', '2>1 STATUS STREAM_FUNCTIONAL|READY_TO_RECEIVE']);
  const query = net.trace[sentBefore]?.message as SmpStatus;
  assert.equal(query.contextSpecificData.length, 0);
  const answer = net.trace[sentBefore + 1]?.message as SmpStatus;
  assert.equal(answer.streamID, tx.streamID);
  assert.equal(answer.streamProtocol?.protoID, PROTO);
  assert.deepEqual(answer.streamProtocol.attributes.map((a) => a.name), ['REQUEST_RETRY_PERIOD', 'REQUEST_TIMEOUT_PERIOD']);
  assert.equal(net.engine(1).snapshot().pending.length, 0);
});

test('Annex 2 §3.6.4 Figure 3-4: a query of a stream that is not open is answered <Stream Unknown, Closed>', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const q = smpStatus({ sourceID: 1, streamID: 0x0777, status: ['STREAM_FUNCTIONAL', 'READY_TO_RECEIVE', 'DATA_READY_TO_SEND', 'REQUEST_STATUS_OF_REMOTE'] });
  const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: smpBytes(q) }, 0);
  const sends = out.filter((o) => o.kind === 'send');
  assert.equal(sends.length, 1);
  const m = as(sends[0]?.kind === 'send' ? sends[0].message : undefined, 'STATUS');
  assert.equal(m.streamID, 0x0777);
  assert.equal(m.status, STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED);
  assert.equal(m.contextSpecificData.length, 0);
});

test('Annex 2 §3.6.4 Figure 3-4: a bad command is answered by STATUS Command_Unknown quoting it; a malformed STATUS is dropped', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const bad = Uint8Array.from([0x55, 0x01, 0xde, 0xad, 0xbe, 0xef, 0x12, 0x34, 0x56]);
  const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: bad }, 0);
  const reply = as(firstSend(out).message, 'STATUS');
  assert.equal(reply.status, STATUS_BIT.COMMAND_UNKNOWN);
  assert.equal(reply.cmdID, 0x55);
  assert.deepEqual([...reply.contextSpecificData.subarray(0, bad.length)], [...bad]);
  assert.equal(reply.contextSpecificData.length, 16);
  // The fourth example: "Drop the malformed STATUS packet".
  const badStatus = Uint8Array.from([0x10, 0x01, 0x00, 0x05, 0x00, 0x01, 0x00, 0x02]);
  const dropped = net.engine(2).handle({ kind: 'message', from: 1, bytes: badStatus }, 1);
  assert.equal(dropped.filter((o) => o.kind === 'send').length, 0);
  assert.ok(dropped.some((o) => o.kind === 'event' && o.detail.event === 'malformed' && o.detail.node === 1));
  assert.equal(net.engine(2).counters().malformed, 1);
});

test('Annex 2 §3.6.5 Figure 3-5: XON, DATA, XOFF, one RTS for the waiting data, XON, then the held DATA', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'fig5');
  assert.ok(tx);
  const rx = rxOf(1, tx);
  const sentBefore = net.trace.length;
  net.input(2, { kind: 'xon', stream: rx });
  net.settle();
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(0) });
  net.settle();
  net.input(2, { kind: 'xoff', stream: rx });
  net.settle(net.now + 5);
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(1) });
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(2) });
  net.settle(net.now + 5);
  net.input(2, { kind: 'xon', stream: rx });
  net.settle(net.now + 5);
  assert.deepEqual(net.lines().slice(sentBefore), [
    '2>1 FLOW_CONTROL XON',
    '1>2 DATA',
    '2>1 FLOW_CONTROL XOFF',
    '1>2 FLOW_CONTROL RTS',
    '2>1 FLOW_CONTROL XON',
    '1>2 DATA',
    '1>2 DATA',
  ]);
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu(0), pdu(1), pdu(2)]);
  assert.deepEqual(net.eventsOf('rts', 2), [{ event: 'rts', stream: rx }]);
});
