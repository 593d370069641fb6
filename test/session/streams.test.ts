import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smpBytes, smpData, smpOpen, STATUS_BIT } from '../../src/wire/smp/index.ts';
import { as, firstSend, openStream, rxOf, SessionNet, sessionPair } from '../support/session-pair.ts';
import type { ProtocolSupport } from '../../src/session/types.ts';

/**
 * Stream identity and lifetime rules of Annex 2 §2.3, §3.5.2 and §4.2.3–§4.2.5 that the engine's
 * own tests do not single out: node 1 is the Source, node 2 the Dest (test/support/session-pair.ts).
 */

const A = 0x1234;
const B = 0x2345;
const PA: ProtocolSupport = { protoID: A, attributes: [] };
const PB: ProtocolSupport = { protoID: B, attributes: [] };
const SECOND = 1_000_000_000;

test('Annex 2 §2.3: "A stream may be persistent, existing even though there is no data to transfer": an idle stream stays open on both sides for an hour', () => {
  const net = sessionPair({ protocols: [PA] }, { protocols: [PA] });
  const tx = openStream(net, 1, 2, A, 'idle');
  assert.ok(tx, 'stream opened');
  const sentBefore = net.trace.length;
  net.run(net.now + 3600 * SECOND);
  assert.equal(net.trace.length, sentBefore, 'nothing is sent while the stream is idle');
  assert.deepEqual(net.eventsOf('closed'), []);
  const streams = (node: number): readonly unknown[] => net.engine(node).snapshot().streams;
  assert.equal(streams(1).length, 1);
  assert.equal(streams(2).length, 1);
  net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(1, 2, 3) });
  net.settle();
  assert.deepEqual(net.deliveries.map((d) => [d.stream, [...d.pdu]]), [[rxOf(1, tx), [1, 2, 3]]]);
});

test('Annex 2 §3.5.2.5: "The combination of <SourceID><DestID><ProtoID><StreamID> must always be unique": OPENs from two sources for two protocols get four different StreamIDs', () => {
  const net = new SessionNet();
  for (const nodeId of [1, 2, 3]) net.add({ nodeId, contact: { conveyance: 'type11', mailbox: nodeId }, protocols: [PA, PB] });
  net.connect();
  const opened = [
    openStream(net, 1, 2, A, 'a1'),
    openStream(net, 1, 2, B, 'b1'),
    openStream(net, 3, 2, A, 'a3'),
    openStream(net, 3, 2, B, 'b3'),
  ];
  const ids = opened.map((s) => {
    assert.ok(s, 'stream opened');
    return s.streamID;
  });
  assert.equal(new Set(ids).size, 4);
  for (const id of ids) assert.ok(id >= 0x0000 && id <= 0xdfff, 'an application StreamID (Table 3-1)');
});

test('Annex 2 §3.5.2.2, §4.2.3 (decision): an OPEN is answered to the node it came from (the transport source); a header SourceID naming another node is not what the answer follows', () => {
  const net = sessionPair({ protocols: [PA] }, { protocols: [PA] });
  const open = smpOpen({ sourceID: 7, protoID: A, openMessageNumber: 5 });
  const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: smpBytes(open), mailbox: 2 }, 0);
  const sent = firstSend(out);
  assert.equal(sent.to, 1);
  assert.deepEqual(sent.contact, { conveyance: 'type11', mailbox: 1 });
  const accept = as(sent.message, 'ACCEPT');
  const streams = net.engine(2).snapshot().streams;
  assert.deepEqual(streams.map((s) => [s.remote, s.direction, s.streamID]), [[1, 'rx', accept.streamID]]);
});

test('Annex 2 §4.2.4, §4.2.5: "For ACCEPT and REFUSE messages, the DestID is the nodeID of the receiver, which is the system sending the ACCEPT or REFUSE message", with ack and nack type 0 (normal)', () => {
  const net = sessionPair({ protocols: [PA, PB] }, { protocols: [PA, { ...PB, acceptOpen: false }] });
  openStream(net, 1, 2, A, 'yes');
  openStream(net, 1, 2, B, 'no');
  const accept = as(net.trace.find((m) => m.command === 'ACCEPT')?.message, 'ACCEPT');
  const refuse = as(net.trace.find((m) => m.command === 'REFUSE')?.message, 'REFUSE');
  assert.equal(accept.destID, 2);
  assert.equal(accept.ackType, 0);
  assert.equal(refuse.destID, 2);
  assert.equal(refuse.nackType, 0);
  assert.deepEqual(net.eventsOf('refused', 1).map((e) => e.ref), ['no']);
});

test('Annex 2 §3.5.2.5 (decision): reserved StreamIDs are pre-defined only by protocol chapters; DATA on 0xF001, or on 0xF000 without Ethernet, is answered Stream_Unknown', () => {
  const net = sessionPair({ protocols: [PA] }, { protocols: [PA] });
  for (const streamID of [0xf001, 0xf000]) {
    const data = smpBytes(smpData({ sourceID: 1, mailbox: 2, streamID, payload: Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9) }));
    const out = net.engine(2).handle({ kind: 'message', from: 1, bytes: data, mailbox: 2 }, 0);
    const st = as(firstSend(out).message, 'STATUS');
    assert.equal(st.streamID, streamID);
    assert.equal(st.status, STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.CLOSED);
    assert.equal(out.filter((o) => o.kind === 'deliver').length, 0);
  }
  // The application cannot send on a reserved StreamID it did not open either.
  const out = net.input(1, { kind: 'send', stream: { remote: 2, direction: 'tx', streamID: 0xf001 }, pdu: Uint8Array.of(1) });
  assert.equal(out.filter((o) => o.kind === 'send').length, 0);
  assert.ok(out.some((o) => o.kind === 'event' && o.detail.event === 'dropped' && o.detail.reason === 'unknown-stream'));
});
