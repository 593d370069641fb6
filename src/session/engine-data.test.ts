import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrDataOffset, smpBytes, smpData, STATUS_BIT } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { as, firstSend, openStream, rxOf, SessionNet, sessionPair } from '../../test/support/session-pair.ts';
import { ethernetAttributes } from './ethernet.ts';
import type { ProtocolSupport, SessionConfig } from './types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const ETH: ProtocolSupport = { protoID: 0x0102, attributes: ethernetAttributes({ mtu: 1500, mailbox: 2, mac: Uint8Array.of(0x00, 0xa0, 0x1e, 0, 0, 2) }) };
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 0xff);

function opened(src: Partial<SessionConfig>, dst: Partial<SessionConfig>, protoID = PROTO): { net: SessionNet; tx: NonNullable<ReturnType<typeof openStream>> } {
  const net = sessionPair(src, dst);
  net.input(1, { kind: 'request', to: 2, protoID });
  net.settle();
  const tx = openStream(net, 1, 2, protoID, 'd');
  assert.ok(tx, 'stream opened');
  return { net, tx };
}
const dataMessages = (net: SessionNet): SmpMessage[] => net.trace.flatMap((m) => (m.message && m.message.command.startsWith('DATA') ? [m.message] : []));

test('Annex 2 §4.3.1: a PDU larger than one message goes as Start, middle and End DATA segments and is delivered whole', () => {
  const { net, tx } = opened({ protocols: [P] }, { protocols: [P] });
  const pdu = bytes(10_000);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  const segs = dataMessages(net).map((m) => (m.command === 'DATA' ? m.segment : '?'));
  assert.deepEqual(segs, ['START', 'CONTINUATION', 'END']);
  assert.deepEqual(net.deliveries.map((d) => [d.stream, d.protoID, d.pdu]), [[rxOf(1, tx), PROTO, pdu]]);
  assert.equal(net.engine(1).counters().pdusSent, 1);
  assert.equal(net.engine(2).counters().pdusDelivered, 1);
});

test('Annex 2 §4.3.2, §3.5.3.9: a stream whose ACCEPT names DATA1 carries its PDUs in DATA1 messages', () => {
  const d1: ProtocolSupport = { ...P, dataHeaderFormat: 'DATA1' };
  const { net, tx } = opened({ protocols: [d1] }, { protocols: [d1] });
  const pdu = bytes(5000);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  assert.deepEqual(dataMessages(net).map((m) => m.command), ['DATA1', 'DATA1']);
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu]);
});

test('Annex 2 §4.3.3, §3.5.3.10: DATA2 streams get a dedicated mailbox named by CONVEYANCE in the ACCEPT and carry the implementation-specific octet', () => {
  const d2: ProtocolSupport = { ...P, dataHeaderFormat: 'DATA2', data2Octet: 0x42 };
  const { net, tx } = opened({ protocols: [d2] }, { protocols: [d2], dataMailboxes: [3] });
  const accept = as(net.trace.find((m) => m.command === 'ACCEPT')?.message, 'ACCEPT');
  assert.deepEqual(accept.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'DATA_HEADER_FORMAT', 'CONVEYANCE']);
  const pdu = bytes(300);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  const data = net.trace.filter((m) => m.command === 'DATA2');
  assert.equal(data.length, 1);
  assert.ok(data[0]?.message?.command === 'DATA2' && data[0].message.implementationSpecific === 0x42);
  assert.deepEqual(data[0].contact, { conveyance: 'type11', mailbox: 3 });
  assert.deepEqual(net.deliveries.map((d) => [d.stream, d.pdu]), [[rxOf(1, tx), pdu]]);
  // Without a free mailbox the second DATA2 OPEN is refused.
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'second' });
  net.settle();
  assert.deepEqual(net.eventsOf('refused', 1).map((e) => e.ref), ['second']);
});

test('Annex 2 §4.3.3: DATA2 arriving in a mailbox no stream owns is discarded and counted', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: Uint8Array.of(0x0a, 0, 0xc0, 2, 1, 2, 0, 0), mailbox: 7 }, 0);
  assert.deepEqual(out.filter((o) => o.kind === 'send'), []);
  assert.equal(net.engine(2).counters().dataDiscarded, 1);
});

test('Annex 2 §4.3.4, §3.3: over Type 9 the management messages use the advertised stream and DATA3 data goes as Type 9 PDUs', () => {
  const d3: ProtocolSupport = { ...P, dataHeaderFormat: 'DATA3' };
  const net = new SessionNet();
  net.add({ nodeId: 1, contact: { conveyance: 'type9', streamID: 0xe100, cos: 1 }, protocols: [d3] });
  net.add({ nodeId: 2, contact: { conveyance: 'type9', streamID: 0xe200, cos: 2 }, protocols: [d3] });
  net.connect();
  const tx = openStream(net, 1, 2, PROTO, 't9');
  assert.ok(tx);
  const open = net.trace[0];
  assert.deepEqual(open?.contact, { conveyance: 'type9', streamID: 0xe200, cos: 2 });
  const pdu = bytes(9000);
  const out = net.input(1, { kind: 'send', stream: tx, pdu });
  assert.deepEqual(out.flatMap((o) => (o.kind === 'send-pdu' ? [[o.to, o.streamID]] : [])), [[2, tx.streamID]]);
  net.settle();
  assert.deepEqual(net.deliveries.map((d) => [d.stream, d.pdu]), [[rxOf(1, tx), pdu]]);
});

test('Annex 2 §4.3.1, §3.8.3: DATA for a StreamID the receiver does not know is answered by STATUS with the Closed bit set', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const data = smpBytes(smpData({ sourceID: 1, streamID: 0x0123, payload: bytes(8) }));
  const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: data, mailbox: 2 }, 0);
  const st = as(firstSend(out).message, 'STATUS');
  assert.equal(st.status, STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED);
  assert.equal(st.cmdID, 0x06);
  assert.deepEqual(net.engine(2).counters(), { ...net.engine(2).counters(), dataDiscarded: 1, statusStreamUnknown: 1 });
});

test('Annex 2 §3.5.3.3: DATA_OFFSET Offset octets follow each DATA header and are not part of the delivered PDU', () => {
  const off: ProtocolSupport = { ...P, attributes: [attrDataOffset(4)] };
  const { net, tx } = opened({ protocols: [off] }, { protocols: [off] });
  const pdu = bytes(6000);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  const data = dataMessages(net);
  assert.ok(data.every((m) => m.command === 'DATA' && [...m.payload.subarray(0, 4)].every((b) => b === 0)));
  assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu]);
});

test('Annex 2 §7.3.2.2: without multicast a broadcast is unicast to every member on StreamID 0xF000 and delivered as broadcast', () => {
  const net = sessionPair({ protocols: [ETH] }, { protocols: [ETH] });
  const frame = bytes(60);
  net.input(1, { kind: 'broadcast', frame, members: [1, 2, 3] });
  net.settle();
  const data = net.trace.filter((m) => m.command === 'DATA');
  assert.deepEqual(data.map((m) => [m.to, m.message?.command === 'DATA' ? m.message.streamID : -1]), [[2, 0xf000]]);
  assert.deepEqual(net.deliveries.map((d) => [d.node, d.stream, d.protoID, d.pdu]), [[2, { remote: 1, direction: 'rx', streamID: 0xf000 }, 0x0102, frame]]);
  assert.deepEqual(net.eventsOf('dropped', 1).map((e) => [e.reason, e.node]), [['no-contact', 3]]);
});

test('Annex 2 §7.3.2.1: with multicast a broadcast over Type 9 is one PDU on StreamID 0xF000 to destination ID 0xFFFE (16-bit IDs) or 0xFE (8-bit)', () => {
  for (const [bits, dest] of [[16, 0xfffe], [8, 0xfe]] as const) {
    const net = new SessionNet();
    net.add({ nodeId: 1, contact: { conveyance: 'type9', streamID: 0xe100, cos: 1 }, protocols: [ETH], multicast: true, deviceIdBits: bits });
    net.add({ nodeId: 2, contact: { conveyance: 'type9', streamID: 0xe200, cos: 2 }, protocols: [ETH], deviceIdBits: bits });
    net.connect();
    const frame = bytes(64);
    net.input(1, { kind: 'broadcast', frame });
    net.settle();
    assert.deepEqual(net.trace.map((m) => [m.command, m.to, m.streamID]), [['PDU', dest, 0xf000]]);
    assert.deepEqual(net.deliveries.map((d) => [d.node, d.stream, d.protoID, d.pdu]), [[2, { remote: 1, direction: 'rx', streamID: 0xf000 }, 0x0102, frame]]);
    assert.deepEqual(net.eventsOf('multicast-unavailable'), []);
  }
});

test('Annex 2 §7.3.2, decision T20: an end point whose conveyance is Type 11 broadcasts by unicast on StreamID 0xF000 even with multicast configured, and says so', () => {
  const net = sessionPair({ protocols: [ETH], multicast: true }, { protocols: [ETH] });
  const frame = bytes(60);
  net.input(1, { kind: 'broadcast', frame, members: [2] });
  net.settle();
  assert.deepEqual(net.trace.map((m) => [m.command, m.to, m.message?.command === 'DATA' ? m.message.streamID : -1]), [['DATA', 2, 0xf000]]);
  assert.deepEqual(net.deliveries.map((d) => [d.node, d.stream, d.pdu]), [[2, { remote: 1, direction: 'rx', streamID: 0xf000 }, frame]]);
  assert.deepEqual(net.eventsOf('multicast-unavailable', 1), [
    { event: 'multicast-unavailable', reason: 'Type 11 takes no multicast: broadcast by unicast on StreamID 0xF000 (§7.3.2.2)' },
  ]);
});

test('Annex 2 §3.5.2.5, §3.8.2: vendor-specific StreamIDs 0xE000-0xEFFF carry DATA without an OPEN (delivered under ProtoID 0x0101)', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const pdu = bytes(20);
  net.input(1, { kind: 'send', stream: { remote: 2, direction: 'tx', streamID: 0xe001 }, pdu });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 DATA']);
  assert.deepEqual(net.deliveries.map((d) => [d.stream, d.protoID, d.pdu]), [[{ remote: 1, direction: 'rx', streamID: 0xe001 }, 0x0101, pdu]]);
});

test('Annex 2 §7.2.1: an Ethernet frame longer than the stream\'s MTU is not sent', () => {
  const { net, tx } = opened({ protocols: [ETH] }, { protocols: [ETH] }, 0x0102);
  net.input(1, { kind: 'send', stream: tx, pdu: bytes(1501) });
  net.input(1, { kind: 'send', stream: tx, pdu: bytes(1500) });
  net.settle();
  assert.deepEqual(net.deliveries.map((d) => d.pdu.length), [1500]);
  assert.equal(net.eventsOf('dropped', 1)[0]?.reason, 'pdu-over-mtu: 1501 > 1500');
});

test('Annex 2 §3.5.2.5: the application\'s PDU for a stream that is not open is dropped and counted', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  net.input(1, { kind: 'send', stream: { remote: 2, direction: 'tx', streamID: 4 }, pdu: bytes(4) });
  assert.deepEqual(net.lines(), []);
  assert.equal(net.engine(1).counters().pdusDropped, 1);
});

test('Annex 2 §4.3.4, §3.8.3: a Type 9 PDU on a stream the receiver does not know is answered by STATUS naming CMD 0x0B (DATA3)', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const st = as(firstSend(net.engine(2).handle({ kind: 'pdu', from: 1, streamID: 0x0456, cos: 0, pdu: bytes(8) }, 0)).message, 'STATUS');
  assert.equal(st.status, STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED);
  assert.equal(st.cmdID, 0x0b);
  assert.equal(st.streamID, 0x0456);
});
