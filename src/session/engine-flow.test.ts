import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrPeriod, smpBytes, smpFlowControl, STATUS_BIT } from '../wire/smp/index.ts';
import { as, firstSend, openStream, rxOf, sessionPair } from '../../test/support/session-pair.ts';
import type { SessionNet } from '../../test/support/session-pair.ts';
import { ethernetAttributes } from './ethernet.ts';
import type { ProtocolSupport, StreamRef } from './types.ts';

const PROTO = 0x1234;
const MS = 1_000_000;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const pdu = (n: number): Uint8Array => Uint8Array.of(n, n, n, n);

function opened(p: ProtocolSupport = P, extra: { maxPendingPdus?: number } = {}): { net: SessionNet; tx: StreamRef; rx: StreamRef } {
  const net = sessionPair({ protocols: [p], ...extra }, { protocols: [p] });
  net.input(1, { kind: 'request', to: 2, protoID: p.protoID });
  net.settle();
  const tx = openStream(net, 1, 2, p.protoID, 'f');
  assert.ok(tx);
  return { net, tx, rx: rxOf(1, tx) };
}

test('Annex 2 §4.2.6: "The default state when a stream is opened is for traffic to be enabled": DATA goes without any XON', () => {
  const { net, tx } = opened();
  const from = net.trace.length;
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(1) });
  net.settle();
  assert.deepEqual(net.lines().slice(from), ['1>2 DATA']);
  assert.equal(net.deliveries.length, 1);
});

test('Annex 2 §4.2.6: one RTS for waiting data, retried every 250 ms until 1 s has elapsed, never a second RTS for more data', () => {
  const { net, tx, rx } = opened();
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 10);
  const start = net.now;
  const from = net.trace.length;
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(1) });
  net.run(start + 100 * MS);
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(2) });
  // The XON timeout (1 s by default) is longer than the run: the stream stays off.
  net.run(start + 990 * MS);
  const rts = net.trace.slice(from).filter((m) => m.command === 'FLOW_CONTROL');
  assert.deepEqual(rts.map((m) => m.at - start), [0, 250 * MS, 500 * MS, 750 * MS]);
  assert.ok(rts.every((m) => m.message?.command === 'FLOW_CONTROL' && m.message.flowControlName === 'RTS'));
  assert.equal(net.trace.slice(from).filter((m) => m.command === 'DATA').length, 0);
  assert.equal(net.eventsOf('rts', 2).length, 4);
  assert.equal(net.engine(1).counters().retries, 3);
});

test('Annex 2 §4.2.6: an XON with no XOFF before it (the XOFF may have been lost) is accepted', () => {
  const { net, tx } = opened();
  const xon = smpFlowControl({ flowControl: 'XON', sourceID: 2, streamID: tx.streamID, protoID: PROTO });
  const out = net.input(1, { kind: 'message', from: 2, bytes: smpBytes(xon) });
  assert.deepEqual(out.filter((o) => o.kind === 'send'), []);
  assert.deepEqual(net.eventsOf('xon', 1), [{ event: 'xon', stream: tx }]);
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(1) });
  net.settle();
  assert.equal(net.deliveries.length, 1);
});

test('Annex 2 §3.5.3.6: when no XON or XOFF follows an XOFF within FLOW_CONTROL_XON_TIMEOUT_PERIOD, transmission resumes', () => {
  const withTimeout: ProtocolSupport = { protoID: PROTO, attributes: [attrPeriod('FLOW_CONTROL_XON_TIMEOUT_PERIOD', 20_000)] };
  const { net, tx, rx } = opened(withTimeout);
  assert.equal(net.eventsOf('opened', 1)[0]?.stream.settings.xonTimeout, 20 * MS);
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 1);
  const xoffAt = net.now;
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(7) });
  net.run(xoffAt + 20 * MS - 2);
  assert.equal(net.deliveries.length, 0);
  net.run(xoffAt + 20 * MS + 10);
  assert.deepEqual(net.eventsOf('xon-timeout', 1), [{ event: 'xon-timeout', stream: tx }]);
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu(7)]);
});

test('Annex 2 §3.7.1, §3.5.3.6: a repeated XOFF restarts the XON timeout', () => {
  const withTimeout: ProtocolSupport = { protoID: PROTO, attributes: [attrPeriod('FLOW_CONTROL_XON_TIMEOUT_PERIOD', 20_000)] };
  const { net, tx, rx } = opened(withTimeout);
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 1);
  const first = net.now;
  net.run(first + 15 * MS);
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 1);
  const second = net.now;
  net.run(first + 25 * MS);
  assert.deepEqual(net.eventsOf('xon-timeout', 1), []);
  net.run(second + 20 * MS);
  assert.deepEqual(net.eventsOf('xon-timeout', 1), [{ event: 'xon-timeout', stream: tx }]);
});

test('Annex 2 §7.3.1: under XOFF an Ethernet stream keeps the newest pending frames and drops the oldest', () => {
  const eth: ProtocolSupport = { protoID: 0x0102, attributes: ethernetAttributes({ mtu: 1500, mailbox: 9, mac: Uint8Array.of(0x00, 0xa0, 0x1e, 1, 2, 3) }) };
  const { net, tx, rx } = opened(eth, { maxPendingPdus: 2 });
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 1);
  for (let i = 1; i <= 4; i++) net.input(1, { kind: 'send', stream: tx, pdu: pdu(i) });
  assert.equal(net.engine(1).counters().pdusDropped, 2);
  // §3.3: RTS, like DATA, uses the stream's CONVEYANCE (a decision: XON and XOFF, sent by the receiver, use the management contact).
  const rts = net.trace.find((m) => m.message?.command === 'FLOW_CONTROL' && m.message.flowControlName === 'RTS');
  assert.deepEqual(rts?.contact, { conveyance: 'type11', mailbox: 9 });
  const xoff = net.trace.find((m) => m.message?.command === 'FLOW_CONTROL' && m.message.flowControlName === 'XOFF');
  assert.deepEqual(xoff?.contact, { conveyance: 'type11', mailbox: 1 });
  assert.equal(net.eventsOf('dropped', 1).filter((e) => e.reason === 'xoff-queue-full').length, 2);
  net.input(2, { kind: 'xon', stream: rx });
  net.settle();
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu(3), pdu(4)]);
  // §3.5.3.10: the DATA went to the CONVEYANCE mailbox the receiver advertised.
  const data = net.trace.filter((m) => m.command === 'DATA');
  assert.ok(data.every((m) => m.contact?.conveyance === 'type11' && m.contact.mailbox === 9));
});

test('Annex 2 §4.2.6: under XOFF a stream of another protocol keeps the oldest maxPendingPdus PDUs and drops new ones', () => {
  const { net, tx, rx } = opened(P, { maxPendingPdus: 2 });
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 1);
  for (let i = 1; i <= 4; i++) net.input(1, { kind: 'send', stream: tx, pdu: pdu(i) });
  net.input(2, { kind: 'xon', stream: rx });
  net.settle();
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu(1), pdu(2)]);
  assert.equal(net.engine(1).counters().pdusDropped, 2);
});

test('Annex 2 §3.8.3: a FLOW_CONTROL for a stream the recipient does not know is answered by STATUS Stream_Unknown, Closed', () => {
  const { net } = opened();
  const xoff = smpFlowControl({ flowControl: 'XOFF', sourceID: 2, streamID: 0x0333, protoID: PROTO });
  const out = net.engine(1).handle({ kind: 'message', from: 2, bytes: smpBytes(xoff) }, net.now);
  const st = as(firstSend(out).message, 'STATUS');
  assert.equal(st.status, STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED);
  assert.equal(st.streamID, 0x0333);
  assert.equal(st.cmdID, 0x07);
  assert.equal(net.engine(1).counters().statusStreamUnknown, 1);
});

test('Annex 2 §4.2.6: XON and XOFF are sent by a stream\'s receiver; asked of a transmit stream they are dropped', () => {
  const { net, tx } = opened();
  const out = net.input(1, { kind: 'xoff', stream: tx });
  assert.deepEqual(out.filter((o) => o.kind === 'send'), []);
  assert.deepEqual(net.eventsOf('dropped', 1), [{ event: 'dropped', reason: 'flow-control-is-sent-by-the-receiver', node: 2, stream: tx }]);
});

test('Annex 2 §3.7.2: FLOW_CONTROL is a high-priority message', () => {
  const { net, rx } = opened();
  const out = net.input(2, { kind: 'xoff', stream: rx });
  const s = out.find((o) => o.kind === 'send');
  assert.equal(s?.kind === 'send' && s.priority, 'high');
});

test('Annex 2 §3.7.1: DATA arriving on a stream its receiver has turned off is still delivered (the XOFF may be in transit or lost)', () => {
  const { net, tx, rx } = opened();
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(5) });
  net.input(2, { kind: 'xoff', stream: rx });
  net.settle(net.now + 5);
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu(5)]);
});
