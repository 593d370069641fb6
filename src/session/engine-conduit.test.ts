import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrConduitStream, attrPeriod, smpBytes, smpOpen } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { as, sessionPair } from '../../test/support/session-pair.ts';
import type { SessionNet } from '../../test/support/session-pair.ts';
import { SessionEngine } from './engine.ts';
import type { ConduitRole, ProtocolSupport, StreamRef } from './types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };

function pair(a: ConduitRole, b: ConduitRole): SessionNet {
  return sessionPair({ protocols: [P], conduitRole: a }, { protocols: [P], conduitRole: b });
}

/** CONDUIT_STREAM of a message as 0xTTTTRRRR. */
function cs(m: SmpMessage | undefined): string {
  const a = m?.command === 'OPEN' || m?.command === 'ACCEPT' ? m.attributes.find((x) => x.name === 'CONDUIT_STREAM') : undefined;
  return a?.name === 'CONDUIT_STREAM' ? `${hex4(a.transmitStreamID)}${hex4(a.receiveStreamID)}` : 'none';
}
const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

function streamsOf(net: SessionNet, node: number): StreamRef[] {
  return net.engine(node).snapshot().streams.map((s) => ({ remote: s.remote, direction: s.direction, streamID: s.streamID }));
}

test('Annex 2 §3.4.1: master/slave conduit: OPEN 0xFFFFFFFF, ACCEPT 0xFFFFSSSS, the slave\'s OPEN 0xFFFFSSSS, ACCEPT 0xSSSSMMMM', () => {
  const net = pair('master', 'slave');
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 ACCEPT', '2>1 OPEN', '1>2 ACCEPT']);
  const [open1, accept1, open2, accept2] = net.trace.map((m) => m.message);
  const s = accept1?.command === 'ACCEPT' ? accept1.streamID : -1;
  const mm = accept2?.command === 'ACCEPT' ? accept2.streamID : -1;
  assert.equal(cs(open1), 'ffffffff');
  assert.equal(cs(accept1), `ffff${hex4(s)}`);
  assert.equal(cs(open2), `ffff${hex4(s)}`);
  assert.equal(cs(accept2), `${hex4(s)}${hex4(mm)}`);
  assert.deepEqual(net.eventsOf('conduit', 1), [{ event: 'conduit', tx: { remote: 2, direction: 'tx', streamID: s }, rx: { remote: 2, direction: 'rx', streamID: mm }, protoID: PROTO }]);
  assert.deepEqual(net.eventsOf('conduit', 2), [{ event: 'conduit', tx: { remote: 1, direction: 'tx', streamID: mm }, rx: { remote: 1, direction: 'rx', streamID: s }, protoID: PROTO }]);
  // The application's OPEN reports its stream with its ref; the conduit peer is named once known.
  const opened = net.eventsOf('opened', 1).find((e) => e.ref === 'c');
  assert.equal(opened?.stream.streamID, s);
});

test('Annex 2 §3.4.1: a slave may not initiate a conduit; a master refuses a second OPEN it has no record of', () => {
  const net = pair('master', 'slave');
  net.input(2, { kind: 'open', to: 1, protoID: PROTO, ref: 's', conduit: true });
  assert.deepEqual(net.lines(), []);
  assert.deepEqual(net.eventsOf('dropped', 2), [{ event: 'dropped', reason: 'slave-may-not-initiate', node: 1 }]);
  const master = new SessionEngine({ nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [P], conduitRole: 'master' });
  const open = smpOpen({ sourceID: 2, protoID: PROTO, openMessageNumber: 1, attributes: [attrConduitStream(0xffff, 0x0005)] });
  const out = master.handle({ kind: 'message', from: 2, bytes: smpBytes(open) }, 0);
  const reply = out.find((o) => o.kind === 'send');
  assert.equal(reply?.kind === 'send' && reply.message.command, 'REFUSE');
});

test('Annex 2 §3.4.2: peers opening the same conduit at the same time end with one conduit of two streams on each side', () => {
  const net = pair('peers', 'peers');
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'm', conduit: true });
  net.input(2, { kind: 'open', to: 1, protoID: PROTO, ref: 'p', conduit: true });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 OPEN', '2>1 ACCEPT', '1>2 ACCEPT']);
  const [c1] = net.eventsOf('conduit', 1);
  const [c2] = net.eventsOf('conduit', 2);
  assert.ok(c1 && c2);
  assert.equal(c1.tx.streamID, c2.rx.streamID);
  assert.equal(c1.rx.streamID, c2.tx.streamID);
  assert.equal(streamsOf(net, 1).length, 2);
  assert.equal(streamsOf(net, 2).length, 2);
  assert.deepEqual(net.eventsOf('opened').filter((e) => e.ref !== undefined).map((e) => e.ref).sort(), ['m', 'p']);
});

test('Annex 2 §3.4.2: a peer that receives the other\'s conduit OPEN before sending its own degenerates into master/slave', () => {
  const net = pair('peers', 'peers');
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'm', conduit: true });
  net.settle();
  assert.deepEqual(net.lines(), ['1>2 OPEN', '2>1 ACCEPT', '2>1 OPEN', '1>2 ACCEPT']);
  // The other side asking for the same conduit later finds it complete and opens a second one.
  assert.equal(net.eventsOf('conduit').length, 2);
});

test('Annex 2 §4.2.7, §3.5.1.8: closing one stream of a conduit closes both, with a CLOSE for each, on both sides', () => {
  const net = pair('master', 'slave');
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  net.settle();
  const [c] = net.eventsOf('conduit', 1);
  assert.ok(c);
  const from = net.trace.length;
  net.input(1, { kind: 'close', stream: c.tx });
  net.settle();
  const closes = net.trace.slice(from).filter((m) => m.from === 1 && m.message?.command === 'CLOSE').map((m) => (m.message?.command === 'CLOSE' ? m.message.streamID : -1));
  assert.deepEqual(closes.sort(), [c.tx.streamID, c.rx.streamID].sort());
  // Node 2, not knowing whether node 1 closes the other stream too, sends its own CLOSE for it; every CLOSE is answered.
  const answered = net.trace.slice(from).filter((m) => m.message?.command === 'STATUS').length;
  assert.equal(answered, net.trace.slice(from).filter((m) => m.message?.command === 'CLOSE').length);
  assert.equal(net.engine(1).counters().retries + net.engine(2).counters().retries, 0);
  assert.deepEqual(streamsOf(net, 1), []);
  assert.deepEqual(streamsOf(net, 2), []);
  assert.deepEqual(net.eventsOf('closed', 1).map((e) => e.cause), ['local', 'conduit']);
  assert.deepEqual(net.engine(1).snapshot().conduits.length, 0);
  assert.deepEqual(net.engine(2).snapshot().conduits.length, 0);
});

test('Annex 2 §3.5.1.8: a CLOSE received for one stream of a conduit closes the conduit; the other stream gets a CLOSE too', () => {
  const net = pair('peers', 'peers');
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  net.settle();
  const [c2] = net.eventsOf('conduit', 2);
  assert.ok(c2);
  net.input(2, { kind: 'close', stream: c2.rx });
  net.settle();
  assert.deepEqual(streamsOf(net, 1), []);
  assert.deepEqual(streamsOf(net, 2), []);
  assert.deepEqual(net.eventsOf('closed', 1).map((e) => e.cause).sort(), ['conduit', 'remote']);
});

test('Annex 2 §3.7.1, §3.4.3: a conduit OPEN whose ACCEPT is lost is resent and answered with the same streams', () => {
  const net = pair('master', 'slave');
  let dropped = 0;
  net.link = (m) => (m.command === 'ACCEPT' && dropped++ === 0 ? [] : [1]);
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  net.settle();
  assert.equal(net.eventsOf('conduit').length, 2);
  assert.equal(streamsOf(net, 1).length, 2);
  assert.equal(streamsOf(net, 2).length, 2);
  assert.equal(net.eventsOf('timeout').length, 0);
});

test('Annex 2 §3.4.3: the conduit procedure\'s own OPEN carries the other node\'s advertised attributes, else this node\'s own (a decision)', () => {
  const withAttr: ProtocolSupport = { protoID: PROTO, attributes: [attrPeriod('REQUEST_TIMEOUT_PERIOD', 700_000)] };
  const net = sessionPair({ protocols: [withAttr], conduitRole: 'master' }, { protocols: [withAttr], conduitRole: 'slave' });
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true, attributes: [attrPeriod('REQUEST_TIMEOUT_PERIOD', 700_000)] });
  net.settle();
  const slaveOpen = as(net.trace[2]?.message, 'OPEN');
  assert.deepEqual(slaveOpen.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'REQUEST_TIMEOUT_PERIOD', 'CONDUIT_STREAM']);
  assert.equal(net.eventsOf('conduit').length, 2);
});

test('Annex 2 §3.5.1.8, §3.4.3: a conduit closed while its OPEN is out: the stream a late ACCEPT opens is closed at once (a decision)', () => {
  const net = pair('peers', 'peers');
  // Node 2's ACCEPT is slow; its own OPEN arrives first and completes node 1's half.
  net.link = (m) => (m.command === 'ACCEPT' && m.from === 2 ? [100] : [1]);
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  net.run(10);
  const [rx] = streamsOf(net, 1);
  assert.equal(rx?.direction, 'rx');
  net.input(1, { kind: 'close', stream: rx });
  net.settle();
  const c = net.eventsOf('opened', 1).find((e) => e.ref === 'c');
  assert.ok(c);
  assert.deepEqual(net.eventsOf('closed', 1).map((e) => [e.stream.direction, e.cause]), [['rx', 'local'], ['tx', 'conduit']]);
  assert.deepEqual(streamsOf(net, 1), []);
  assert.deepEqual(streamsOf(net, 2), []);
});
