import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrPeriod, buildStatus, smpAccept, smpBytes, smpClose, smpOpen, smpStatus, STATUS_BIT } from '../wire/smp/index.ts';
import { SessionEngine } from './engine.ts';
import type { SmpStatus } from '../wire/smp/index.ts';
import { as, firstSend, openStream, rxOf, sessionPair } from '../../test/support/session-pair.ts';
import type { SessionNet } from '../../test/support/session-pair.ts';
import type { ProtocolSupport } from './types.ts';

const PROTO = 0x1234;
const MS = 1_000_000;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const net2 = (b: Partial<Parameters<typeof sessionPair>[1]> = {}): SessionNet => sessionPair({ protocols: [P] }, { protocols: [P], ...b });

/** A link that loses the first message of a command, then delivers everything. */
function loseFirst(net: SessionNet, command: string, match: (s: string) => boolean = () => true): void {
  let lost = false;
  net.link = (m) => {
    const line = m.message?.command === 'STATUS' ? `STATUS ${m.message.statusFlags.join('|')}` : m.command;
    if (!lost && m.command === command && match(line)) {
      lost = true;
      return [];
    }
    return [1];
  };
}

test('Annex 2 §3.7.1: a lost OPEN is recovered by its retry one REQUEST_RETRY_PERIOD later', () => {
  const net = net2();
  loseFirst(net, 'OPEN');
  const tx = openStream(net, 1, 2, PROTO, 'o');
  assert.ok(tx);
  assert.deepEqual(net.lines(), ['1>2 OPEN', '1>2 OPEN', '2>1 ACCEPT']);
  assert.equal((net.trace[1]?.at ?? 0) - (net.trace[0]?.at ?? 0), 250 * MS);
});

test('Annex 2 §3.7.1: a lost REQUEST or ADVERTISE is recovered by resending the REQUEST; with no answer at all the target is suspect', () => {
  for (const lose of ['REQUEST', 'ADVERTISE'] as const) {
    const net = net2();
    loseFirst(net, lose);
    net.input(1, { kind: 'request', to: 2 });
    net.settle();
    assert.deepEqual(net.lines(), lose === 'REQUEST' ? ['1>2 REQUEST', '1>2 REQUEST', '2>1 ADVERTISE'] : ['1>2 REQUEST', '2>1 ADVERTISE', '1>2 REQUEST', '2>1 ADVERTISE']);
    assert.equal(net.eventsOf('advertised', 1).length, 1);
    assert.deepEqual(net.eventsOf('timeout'), []);
  }
  const dead = net2();
  dead.link = () => [];
  dead.input(1, { kind: 'request', to: 2, protoID: PROTO });
  dead.settle();
  assert.deepEqual(dead.eventsOf('timeout', 1), [{ event: 'timeout', node: 2, command: 'REQUEST' }]);
  assert.deepEqual(dead.eventsOf('suspect', 1), [{ event: 'suspect', node: 2, reason: 'REQUEST timed out' }]);
});

test('Annex 2 §3.7.1: a lost CLOSE, and a lost STATUS Closed answering it, are recovered by retrying the CLOSE', () => {
  for (const lose of ['CLOSE', 'STATUS'] as const) {
    const net = net2();
    const tx = openStream(net, 1, 2, PROTO, 'c');
    assert.ok(tx);
    const from = net.trace.length;
    loseFirst(net, lose);
    net.input(1, { kind: 'close', stream: tx });
    net.settle();
    assert.deepEqual(net.lines().slice(from), lose === 'CLOSE'
      ? ['1>2 CLOSE', '1>2 CLOSE', '2>1 STATUS CLOSED']
      : ['1>2 CLOSE', '2>1 STATUS CLOSED', '1>2 CLOSE', '2>1 STATUS CLOSED']);
    assert.deepEqual(net.eventsOf('timeout'), []);
    assert.deepEqual(net.eventsOf('closed', 2), [{ event: 'closed', stream: rxOf(1, tx), cause: 'remote' }]);
  }
});

test('Annex 2 §3.7.1: a lost STATUS query, and a lost answer to it, are recovered by retrying the query', () => {
  for (const lose of ['query', 'answer'] as const) {
    const net = net2();
    const tx = openStream(net, 1, 2, PROTO, 's');
    assert.ok(tx);
    const from = net.trace.length;
    loseFirst(net, 'STATUS', (line) => line.includes('REQUEST_STATUS_OF_REMOTE') === (lose === 'query'));
    net.input(1, { kind: 'status-query', stream: tx });
    net.settle();
    const lines = net.lines().slice(from);
    assert.equal(lines.filter((l) => l.startsWith('1>2 STATUS')).length, 2);
    assert.equal(lines.at(-1), '2>1 STATUS STREAM_FUNCTIONAL|READY_TO_RECEIVE');
    assert.deepEqual(net.eventsOf('closed'), []);
  }
});

test('Annex 2 §3.7.1: REQUEST, OPEN and CLOSE retried with the negotiated REQUEST_RETRY_PERIOD where the stream has one', () => {
  const withPeriods: ProtocolSupport = { protoID: PROTO, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 40_000), attrPeriod('REQUEST_TIMEOUT_PERIOD', 100_000)] };
  const net = sessionPair({ protocols: [withPeriods] }, { protocols: [withPeriods] });
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'p');
  assert.ok(tx);
  net.link = (m) => (m.command === 'CLOSE' ? [] : [1]);
  const from = net.trace.length;
  net.input(1, { kind: 'close', stream: tx });
  net.settle();
  const closes = net.trace.slice(from).filter((m) => m.command === 'CLOSE').map((m) => m.at - (net.trace[from]?.at ?? 0));
  assert.deepEqual(closes, [0, 40 * MS, 80 * MS]);
  assert.deepEqual(net.eventsOf('timeout', 1), [{ event: 'timeout', node: 2, command: 'CLOSE' }]);
});

test('Annex 2 §3.7.1, §3.5.3.4-5: a dead peer: the OPEN is sent at 0, 250, 500 and 750 ms, times out at 1 s, and the target is suspect', () => {
  const net = net2();
  net.link = () => [];
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'dead' });
  net.settle();
  assert.deepEqual(net.trace.map((m) => m.at), [0, 250 * MS, 500 * MS, 750 * MS]);
  assert.equal(net.now, 1000 * MS);
  assert.deepEqual(net.eventsOf('timeout', 1), [{ event: 'timeout', node: 2, command: 'OPEN', ref: 'dead' }]);
  assert.deepEqual(net.eventsOf('suspect', 1), [{ event: 'suspect', node: 2, reason: 'OPEN timed out' }]);
  const c = net.engine(1).counters();
  assert.deepEqual([c.retries, c.timeouts, c.suspects], [3, 1, 1]);
  assert.deepEqual(net.engine(1).snapshot()['suspects'], [{ node: 2, reason: 'OPEN timed out' }]);
  // Rediscovery clears the suspicion (a decision).
  net.input(1, { kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } });
  assert.deepEqual(net.engine(1).snapshot()['suspects'], []);
});

test('Annex 2 §3.7.1: no answer to a STATUS query: the stream is closed locally without a message and the node is suspect', () => {
  const net = net2();
  const tx = openStream(net, 1, 2, PROTO, 'q');
  assert.ok(tx);
  net.link = () => [];
  const from = net.trace.length;
  net.input(1, { kind: 'status-query', stream: tx });
  net.settle();
  assert.deepEqual(net.lines().slice(from), Array(4).fill('1>2 STATUS STREAM_FUNCTIONAL|REQUEST_STATUS_OF_REMOTE'));
  assert.deepEqual(net.eventsOf('closed', 1), [{ event: 'closed', stream: tx, cause: 'status-timeout' }]);
  assert.deepEqual(net.eventsOf('suspect', 1).map((e) => e.node), [2]);
  assert.deepEqual(net.engine(1).snapshot()['streams'], []);
});

test('Annex 2 §3.8.3: a rebooted peer answers DATA with Stream_Unknown; the stream closes and every other stream to it is re-verified', () => {
  const net = net2();
  const a = openStream(net, 1, 2, PROTO, 'a');
  const b = openStream(net, 1, 2, PROTO, 'b');
  const back = openStream(net, 2, 1, PROTO, 'back');
  assert.ok(a && b && back);
  net.reboot(2);
  net.input(2, { kind: 'contact', node: 1, contact: { conveyance: 'type11', mailbox: 1 } });
  const from = net.trace.length;
  net.input(1, { kind: 'send', stream: a, pdu: Uint8Array.of(1) });
  net.settle();
  assert.deepEqual(net.lines().slice(from), [
    '1>2 DATA',
    '2>1 STATUS STREAM_UNKNOWN|CLOSED',
    '1>2 STATUS STREAM_FUNCTIONAL|READY_TO_RECEIVE|REQUEST_STATUS_OF_REMOTE',
    '1>2 STATUS STREAM_FUNCTIONAL|REQUEST_STATUS_OF_REMOTE',
    '2>1 STATUS STREAM_UNKNOWN|CLOSED',
    '2>1 STATUS STREAM_UNKNOWN|CLOSED',
  ]);
  assert.deepEqual(net.eventsOf('closed', 1).map((e) => [e.stream.streamID, e.stream.direction, e.cause]).sort(), [
    [a.streamID, 'tx', 'stream-unknown'],
    [b.streamID, 'tx', 'stream-unknown'],
    [back.streamID, 'rx', 'stream-unknown'],
  ].sort());
  assert.deepEqual(net.engine(1).snapshot()['streams'], []);
  assert.deepEqual(net.eventsOf('suspect'), []);
});

test('Annex 2 §3.8.3: with reverifyOnStreamUnknown false a Stream_Unknown closes only its own stream', () => {
  const net = sessionPair({ protocols: [P], reverifyOnStreamUnknown: false }, { protocols: [P] });
  const a = openStream(net, 1, 2, PROTO, 'a');
  const b = openStream(net, 1, 2, PROTO, 'b');
  assert.ok(a && b);
  net.reboot(2);
  const from = net.trace.length;
  net.input(1, { kind: 'send', stream: a, pdu: Uint8Array.of(1) });
  net.settle();
  assert.deepEqual(net.lines().slice(from), ['1>2 DATA', '2>1 STATUS STREAM_UNKNOWN|CLOSED']);
  assert.equal(net.engine(1).snapshot().streams.length, 1);
});

test('Annex 2 §3.8.3: the verify command queries every stream to a node', () => {
  const net = net2();
  const a = openStream(net, 1, 2, PROTO, 'a');
  const back = openStream(net, 2, 1, PROTO, 'back');
  assert.ok(a && back);
  const from = net.trace.length;
  net.input(1, { kind: 'verify', node: 2 });
  net.settle();
  assert.equal(net.lines().slice(from).filter((l) => l.startsWith('1>2 STATUS') && l.includes('REQUEST_STATUS_OF_REMOTE')).length, 2);
  assert.equal(net.lines().slice(from).filter((l) => l.startsWith('2>1 STATUS STREAM_FUNCTIONAL')).length, 2);
});

test('Annex 2 §4.2.8: the answer to a query never carries Request_Status_of_Remote', () => {
  const net = net2();
  const tx = openStream(net, 1, 2, PROTO, 'a');
  assert.ok(tx);
  net.input(2, { kind: 'status-query', stream: rxOf(1, tx) });
  net.settle();
  const answers = net.trace.filter((m) => m.from === 1 && m.message?.command === 'STATUS').map((m) => m.message as SmpStatus);
  assert.equal(answers.length, 1);
  assert.equal((answers[0]?.status ?? 0) & STATUS_BIT.REQUEST_STATUS_OF_REMOTE, 0);
  // §3.6.4: the data sender answers for its end: functional, nothing waiting.
  assert.equal(answers[0]?.status, STATUS_BIT.STREAM_FUNCTIONAL);
});

test('Annex 2 §4.2.7, §3.5.1.8: a CLOSE for a stream the receiver does not hold is still answered with STATUS Closed (a decision)', () => {
  const net = net2();
  const close = smpClose({ sourceID: 2, destID: 1, streamID: 0x0444 });
  const out = net.engine(1).handle({ kind: 'message', from: 2, bytes: smpBytes(close) }, 0);
  const s = as(firstSend(out).message, 'STATUS');
  assert.equal(s.status, STATUS_BIT.CLOSED);
  assert.equal(s.streamID, 0x0444);
  assert.equal(s.cmdID, 0x08);
});

test('Annex 2 §4.2.7: both ends closing the same stream at once settle each other\'s CLOSE', () => {
  const net = net2();
  const tx = openStream(net, 1, 2, PROTO, 'x');
  assert.ok(tx);
  net.input(1, { kind: 'close', stream: tx });
  net.input(2, { kind: 'close', stream: rxOf(1, tx) });
  net.settle();
  assert.deepEqual(net.eventsOf('timeout'), []);
  assert.equal(net.engine(1).counters().retries + net.engine(2).counters().retries, 0);
  assert.deepEqual(net.eventsOf('closed').map((e) => e.cause), ['local', 'local']);
});

test('Annex 2 §4.2.8: an OPEN answered by STATUS Command_Unknown quoting it is refused at once, without retries', () => {
  const net = net2();
  const out = net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'v' });
  const open = firstSend(out);
  const unknown = smpStatus({ sourceID: 2, streamID: 0xffff, status: 0, quote: open.bytes });
  net.input(1, { kind: 'message', from: 2, bytes: smpBytes(unknown) });
  assert.deepEqual(net.eventsOf('refused', 1), [{ event: 'refused', ref: 'v', node: 2, protoID: PROTO }]);
  assert.deepEqual(net.engine(1).snapshot()['pending'], []);
});

test('Annex 2 §4.2.8 Table 4-10: a query names its stream by StreamID only; the querier\'s Ready to Receive or Data Ready to Send says which end it is (a decision)', () => {
  const e = new SessionEngine({ nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [P] });
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, 0);
  const acc = as(firstSend(e.handle({ kind: 'message', from: 2, bytes: smpBytes(smpOpen({ sourceID: 2, protoID: PROTO, openMessageNumber: 1 })) }, 0)).message, 'ACCEPT');
  const open = as(firstSend(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 't' }, 0)).message, 'OPEN');
  // The remote assigns our transmit stream the same StreamID as our receive stream.
  e.handle({ kind: 'message', from: 2, bytes: smpBytes(smpAccept({ destID: 2, streamID: acc.streamID, open })) }, 0);
  const ask = (status: number): number => as(firstSend(e.handle({ kind: 'message', from: 2, bytes: smpBytes(buildStatus({ sourceID: 2, streamID: acc.streamID, status: status >>> 0 })) }, 0)).message, 'STATUS').status;
  const Q = STATUS_BIT.REQUEST_STATUS_OF_REMOTE | STATUS_BIT.STREAM_FUNCTIONAL;
  assert.equal(ask(Q | STATUS_BIT.READY_TO_RECEIVE), STATUS_BIT.STREAM_FUNCTIONAL);
  assert.equal(ask(Q | STATUS_BIT.DATA_READY_TO_SEND), STATUS_BIT.STREAM_FUNCTIONAL | STATUS_BIT.READY_TO_RECEIVE);
  assert.equal(ask(Q), STATUS_BIT.STREAM_FUNCTIONAL | STATUS_BIT.READY_TO_RECEIVE);
});
