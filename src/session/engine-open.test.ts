import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attrOpenMessageNumber, attrPeriod, smpAccept, smpAdvertiseAttributes, smpBytes, smpOpen, smpRefuse, smpRequest, STATUS_BIT,
} from '../wire/smp/index.ts';
import type { SmpMessage, SmpOpen } from '../wire/smp/index.ts';
import { as, firstSend, openStream, sessionPair } from '../../test/support/session-pair.ts';
import { SessionEngine } from './engine.ts';
import type { ProtocolSupport, SessionConfig, SessionOutput } from './types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const BASE: SessionConfig = { nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [P] };

function engineWithPeer(config: Partial<SessionConfig> = {}): SessionEngine {
  const e = new SessionEngine({ ...BASE, ...config });
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, 0);
  return e;
}
const sent = (out: SessionOutput[]): SmpMessage[] => out.flatMap((o) => (o.kind === 'send' ? [o.message] : []));
const events = (out: SessionOutput[]): unknown[] => out.flatMap((o) => (o.kind === 'event' ? [o.detail] : []));
const msg = (from: number, m: SmpMessage) => ({ kind: 'message' as const, from, bytes: smpBytes(m) });
function omnOf(m: SmpMessage | undefined): number {
  const a = as(m, 'OPEN').attributes[0];
  assert.ok(a?.name === 'OPEN_MESSAGE_NUMBER');
  return a.openMessageNumber;
}
function acceptFor(open: SmpMessage | undefined, streamID: number): SmpMessage {
  return smpAccept({ destID: 2, streamID, open: open as SmpOpen });
}

test('Annex 2 §4.2.3, §3.5.3.7: parallel OPENs carry distinct OPEN_MESSAGE_NUMBERs, first, and each ACCEPT is matched by its number', () => {
  const e = engineWithPeer();
  const x = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'x' }, 0))[0];
  const y = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'y' }, 0))[0];
  assert.notEqual(omnOf(x), omnOf(y));
  // Answers in the reverse order.
  const ey = events(e.handle(msg(2, acceptFor(y, 5)), 1));
  const ex = events(e.handle(msg(2, acceptFor(x, 6)), 2));
  assert.deepEqual(ey.map((d) => (d as { ref?: string; stream: { streamID: number } })).map((d) => [d.ref, d.stream.streamID]), [['y', 5]]);
  assert.deepEqual(ex.map((d) => (d as { ref?: string; stream: { streamID: number } })).map((d) => [d.ref, d.stream.streamID]), [['x', 6]]);
});

test('Annex 2 §3.5.3.7: an ACCEPT no outstanding OPEN waits for is counted, reported, and its unknown stream closed', () => {
  const e = engineWithPeer();
  const open = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'x' }, 0))[0];
  e.handle(msg(2, acceptFor(open, 5)), 1);
  // A duplicate of the ACCEPT: the stream is ours, nothing more is sent.
  const dup = e.handle(msg(2, acceptFor(open, 5)), 2);
  assert.deepEqual(sent(dup), []);
  assert.deepEqual(events(dup), [{ event: 'dropped', reason: 'stale-accept', node: 2 }]);
  // An ACCEPT naming a number never sent and a stream we do not hold: closed again.
  const stray = smpAccept({ destID: 2, streamID: 9, protoID: PROTO, attributes: [attrOpenMessageNumber(0xabcdef)] });
  const out = e.handle(msg(2, stray), 3);
  const close = sent(out)[0];
  assert.ok(close?.command === 'CLOSE' && close.streamID === 9 && close.sourceID === 1 && close.destID === 2);
  // The right number from another node is no answer either.
  const open2 = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'z' }, 4))[0];
  e.handle(msg(3, acceptFor(open2, 7)), 5);
  assert.equal(e.counters().staleResponses, 3);
});

test('Annex 2 §3.8.2: after a REFUSE of an intermediate value the one further OPEN uses advertised values only, then the OPEN is refused', () => {
  const e = engineWithPeer();
  const adv = smpAdvertiseAttributes({
    sourceID: 2, destID: 1,
    protocols: [{ protoID: PROTO, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 100_000), attrPeriod('REQUEST_RETRY_PERIOD', 300_000)] }],
  });
  e.handle(msg(2, adv), 0);
  const first = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'r' }, 1))[0];
  const period = (m: SmpMessage | undefined): number => (m?.command === 'OPEN' && m.attributes[1]?.name === 'REQUEST_RETRY_PERIOD' ? m.attributes[1].microseconds : -1);
  assert.equal(period(first), 200_000);
  const r1 = e.handle(msg(2, smpRefuse({ destID: 2, open: first as SmpOpen })), 2);
  const second = sent(r1)[0];
  assert.equal(second?.command, 'OPEN');
  assert.notEqual(omnOf(second), omnOf(first));
  assert.equal(period(second), 100_000);
  assert.deepEqual(events(r1), []);
  const r2 = e.handle(msg(2, smpRefuse({ destID: 2, open: as(second, 'OPEN') })), 3);
  assert.deepEqual(sent(r2), []);
  assert.deepEqual(events(r2), [{ event: 'refused', ref: 'r', node: 2, protoID: PROTO }]);
});

test('Annex 2 §3.8.2: after a REFUSE of an intermediate value, later OPENs to that node do not try an intermediate value again ("A single attempt at intermediate values may be attempted")', () => {
  const e = engineWithPeer();
  const adv = smpAdvertiseAttributes({
    sourceID: 2, destID: 1,
    protocols: [{ protoID: PROTO, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 100_000), attrPeriod('REQUEST_RETRY_PERIOD', 300_000)] }],
  });
  e.handle(msg(2, adv), 0);
  const period = (m: SmpMessage | undefined): number => (m?.command === 'OPEN' && m.attributes[1]?.name === 'REQUEST_RETRY_PERIOD' ? m.attributes[1].microseconds : -1);
  const first = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'a' }, 1))[0];
  assert.equal(period(first), 200_000);
  const second = sent(e.handle(msg(2, smpRefuse({ destID: 2, open: as(first, 'OPEN') })), 2))[0];
  assert.equal(period(second), 100_000);
  e.handle(msg(2, acceptFor(second, 4)), 3);
  assert.deepEqual(e.snapshot().intermediateRefused, ['2/' + String(PROTO)]);
  // A later OPEN, and the ADVERTISE received again: the advertised value only, one attempt.
  e.handle(msg(2, adv), 4);
  const later = sent(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'b' }, 5))[0];
  assert.equal(period(later), 100_000);
  const out = e.handle(msg(2, smpRefuse({ destID: 2, open: as(later, 'OPEN') })), 6);
  assert.deepEqual(sent(out), []);
  assert.deepEqual(events(out), [{ event: 'refused', ref: 'b', node: 2, protoID: PROTO }]);
  // Another node may still be asked for an intermediate value.
  e.handle({ kind: 'contact', node: 3, contact: { conveyance: 'type11', mailbox: 3 } }, 7);
  e.handle(msg(3, smpAdvertiseAttributes({ ...adv, sourceID: 3 })), 7);
  assert.equal(period(sent(e.handle({ kind: 'open', to: 3, protoID: PROTO, ref: 'c' }, 8))[0]), 200_000);
});

test('Annex 2 §3.5.1.4, §3.8.3: a single-session target ACCEPTs a second OPEN with the same stream, then sends STATUS Stream_Functional', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [{ ...P, singleSession: true }] });
  const a = openStream(net, 1, 2, PROTO, 'a');
  const from = net.trace.length;
  const b = openStream(net, 1, 2, PROTO, 'b');
  assert.deepEqual(a, b);
  assert.deepEqual(net.lines().slice(from), ['1>2 OPEN', '2>1 ACCEPT', '2>1 STATUS STREAM_FUNCTIONAL|READY_TO_RECEIVE']);
  assert.equal(net.eventsOf('opened', 2).length, 1);
});

test('Annex 2 §3.8.3: by default a second OPEN for the same protocol and source gets a new stream', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const a = openStream(net, 1, 2, PROTO, 'a');
  const b = openStream(net, 1, 2, PROTO, 'b');
  assert.ok(a && b && a.streamID !== b.streamID);
  assert.equal(net.eventsOf('opened', 2).length, 2);
});

test('Annex 2 §3.7.1, §3.5.3.7: an OPEN resent because its ACCEPT was lost gets the same ACCEPT again, not a second stream', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  let lost = false;
  net.link = (m) => {
    if (m.command === 'ACCEPT' && !lost) {
      lost = true;
      return [];
    }
    return [1];
  };
  const tx = openStream(net, 1, 2, PROTO, 'a');
  assert.ok(tx);
  assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 ACCEPT', '1>2 OPEN', '2>1 ACCEPT']);
  assert.equal(net.trace[0]?.bytes.join(), net.trace[2]?.bytes.join());
  assert.equal(net.trace[1]?.bytes.join(), net.trace[3]?.bytes.join());
  assert.equal(net.eventsOf('opened', 2).length, 1);
  assert.equal(net.engine(1).counters().retries, 1);
  // The retry came one REQUEST_RETRY_PERIOD (250 ms default) after the first OPEN.
  assert.equal((net.trace[2]?.at ?? 0) - (net.trace[0]?.at ?? 0), 250_000_000);
});

test('Annex 2 §3.5.2.5 Table 3-1: receive streamIDs come from 0x0000-0xDFFF; with none left the OPEN is refused', () => {
  const e = new SessionEngine({ ...BASE, nodeId: 2 });
  const ids = new Set<number>();
  // One OPEN's octets with the OPEN_MESSAGE_NUMBER value (octets 12-15: after the 8-octet header and the 32-bit attribute ID) changed each time.
  const bytes = smpBytes(smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 0 }));
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  for (let i = 0; i <= 0xdfff; i++) {
    view.setUint32(12, i + 1);
    const out = e.handle({ kind: 'message', from: 1, bytes }, 0);
    const m = sent(out)[0];
    if (m?.command !== 'ACCEPT') assert.fail(`OPEN ${i} answered ${m?.command}`);
    ids.add(m.streamID);
  }
  assert.equal(ids.size, 0xe000);
  assert.equal(Math.max(...ids), 0xdfff);
  const out = e.handle(msg(1, smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 0x10000 })), 0);
  assert.equal(sent(out)[0]?.command, 'REFUSE');
});

test('Annex 2 §4.2.4, §3.5.3.9: the ACCEPT has OPEN_MESSAGE_NUMBER first and the protocol\'s DATA_HEADER_FORMAT; both ends agree on the settings', () => {
  const withFormat: ProtocolSupport = { ...P, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 50_000)], dataHeaderFormat: 'DATA1', cos: 7 };
  const net = sessionPair({ protocols: [P] }, { protocols: [withFormat] });
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'f');
  assert.ok(tx);
  const accept = as(net.trace.find((m) => m.command === 'ACCEPT')?.message, 'ACCEPT');
  assert.deepEqual(accept.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'REQUEST_RETRY_PERIOD', 'DATA_HEADER_FORMAT']);
  assert.equal(accept.cos, 7);
  const [rxOpened] = net.eventsOf('opened', 2);
  const [txOpened] = net.eventsOf('opened', 1);
  assert.deepEqual(txOpened?.stream.settings, rxOpened?.stream.settings);
  assert.equal(txOpened?.stream.settings.dataHeaderFormat, 'DATA1');
  assert.equal(txOpened.stream.settings.retryPeriod, 50_000_000);
  assert.equal(txOpened.stream.cos, 7);
});

test('Annex 2 §3.5.3: an OPEN with an optional or vendor attribute the target does not understand is refused', () => {
  const e = new SessionEngine({ ...BASE, nodeId: 2 });
  const open = smpOpen({ sourceID: 1, protoID: PROTO, openMessageNumber: 1, attributes: [{ id: 0x78, value: new Uint8Array(7) }] });
  const out = e.handle(msg(1, open), 0);
  assert.equal(sent(out)[0]?.command, 'REFUSE');
});

test('Annex 2 §4.2.1, §4.2.2: REQUEST for the protocol list, for one protocol, and for an unsupported one', () => {
  const e = new SessionEngine({ ...BASE, nodeId: 2, protocols: [P, { protoID: 0x0102, attributes: [] }] });
  const list = sent(e.handle(msg(1, smpRequest({ sourceID: 1, destID: 2, protoID: 0xffff })), 0))[0];
  assert.ok(list?.command === 'ADVERTISE' && list.s === 1 && list.a === 0);
  assert.deepEqual(list.protocols.map((p) => p.protoID), [PROTO, 0x0102]);
  const one = sent(e.handle(msg(1, smpRequest({ sourceID: 1, destID: 2, protoID: PROTO })), 0))[0];
  assert.ok(one?.command === 'ADVERTISE' && one.s === 1 && one.a === 1);
  const none = sent(e.handle(msg(1, smpRequest({ sourceID: 1, destID: 2, protoID: 0x4444 })), 0))[0];
  assert.ok(none?.command === 'ADVERTISE' && none.s === 0 && none.a === 0 && none.protocols.length === 0);
});

test('Annex 2 §3.8.1: without REQUEST/ADVERTISE support a REQUEST is answered by STATUS Command_Unknown, which settles the REQUEST', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P], requestAdvertise: false });
  net.input(1, { kind: 'request', to: 2 });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 REQUEST', '2>1 STATUS COMMAND_UNKNOWN']);
  const st = net.trace[1]?.message;
  assert.ok(st?.command === 'STATUS' && st.status === STATUS_BIT.COMMAND_UNKNOWN && st.quotedCommand?.command === 'REQUEST');
  assert.deepEqual(net.eventsOf('timeout'), []);
  assert.equal(net.engine(1).counters().retries, 0);
  // §3.8.1 "No system may refuse to establish a connection based solely on the fact that no REQUEST command had been previously received".
  assert.ok(openStream(net, 1, 2, PROTO, 'o'));
});

test('Annex 2 §3.3: a command for a node whose contact is unknown is dropped (the node must be discovered first)', () => {
  const e = new SessionEngine(BASE);
  const out = e.handle({ kind: 'open', to: 9, protoID: PROTO, ref: 'n' }, 0);
  assert.deepEqual(sent(out), []);
  assert.deepEqual(events(out), [{ event: 'dropped', reason: 'no-contact', node: 9 }]);
});

test('Annex 2 §3.3: an answer to a node with no known contact goes to the node it came from (the transport source, not the header SourceID) through this end point\'s own conveyance (a decision)', () => {
  const e = new SessionEngine({ ...BASE, nodeId: 2, contact: { conveyance: 'type9', streamID: 0x40, cos: 3 } });
  // The management stream is known by its StreamID; the PDU's COS is not looked at (a decision).
  // The header names node 7; the conveyance says node 5 sent it (decision X1).
  const out = e.handle({ kind: 'pdu', from: 5, streamID: 0x40, cos: 0, pdu: smpBytes(smpOpen({ sourceID: 7, protoID: PROTO, openMessageNumber: 1 })) }, 0);
  const s = firstSend(out);
  assert.equal(s.to, 5);
  assert.deepEqual(s.contact, { conveyance: 'type9', streamID: 0x40, cos: 3 });
  assert.equal(s.message.command, 'ACCEPT');
  assert.equal(s.priority, 'high');
});

test('Annex 2 §4.2.2: an ADVERTISE "not supported" (S=0) names no protocol and settles the oldest REQUEST to that node (a decision)', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  net.input(1, { kind: 'request', to: 2, protoID: 0x4444 });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 REQUEST', '2>1 ADVERTISE']);
  assert.deepEqual(net.engine(1).snapshot()['pending'], []);
  assert.deepEqual(net.eventsOf('timeout'), []);
});
