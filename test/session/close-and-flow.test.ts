import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStream, rxOf, sessionPair } from '../support/session-pair.ts';
import type { ProtocolSupport } from '../../src/session/types.ts';

/** Annex 2 §3.5.1.8 (CLOSE) and §3.7.1 (XOFF loss) between node 1 (data sender) and node 2 (data receiver). */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const MS = 1_000_000;

test('Annex 2 §3.7.1: "the implementation may send additional FLOW_CONTROL XOFF messages": a repeated xoff sends a second XOFF, which restarts the sender\'s XON timeout', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'x');
  assert.ok(tx);
  const rx = rxOf(1, tx);
  const before = net.trace.length;
  const t0 = net.now;
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(t0 + 800 * MS);
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(t0 + 1500 * MS);
  assert.deepEqual(net.lines().slice(before), ['2>1 FLOW_CONTROL XOFF', '2>1 FLOW_CONTROL XOFF']);
  assert.deepEqual(net.eventsOf('xon-timeout', 1), [], 'the second XOFF restarted the 1 s timeout');
  net.run(t0 + 1900 * MS);
  assert.deepEqual(net.eventsOf('xon-timeout', 1), [{ event: 'xon-timeout', stream: tx }]);
});

test('Annex 2 §3.5.1.8: "After sending a CLOSE message, the system must be able to receive, without error, messages in transit at the time the CLOSE was sent": an XOFF crossing the CLOSE is answered Stream_Unknown (a decision), nothing is malformed or suspect, nothing reopens', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'c');
  assert.ok(tx);
  const before = net.trace.length;
  net.link = (m) => (m.command === 'FLOW_CONTROL' ? [5] : [1]);
  net.input(2, { kind: 'xoff', stream: rxOf(1, tx) });
  net.input(1, { kind: 'close', stream: tx });
  net.settle();
  assert.deepEqual(net.lines().slice(before), ['2>1 FLOW_CONTROL XOFF', '1>2 CLOSE', '2>1 STATUS CLOSED', '1>2 STATUS STREAM_UNKNOWN|CLOSED']);
  for (const node of [1, 2]) {
    assert.equal(net.engine(node).counters().malformed, 0);
    assert.equal(net.engine(node).counters().suspects, 0);
    assert.deepEqual(net.engine(node).snapshot()['streams'], []);
  }
});

test('Annex 2 §3.5.1.8: "After reception of a CLOSE message, the stream specified must no longer be used": the data sender\'s PDU for a stream its receiver closed is dropped, not sent', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'r');
  assert.ok(tx);
  net.input(2, { kind: 'close', stream: rxOf(1, tx) });
  net.settle();
  const before = net.trace.length;
  const out = net.input(1, { kind: 'send', stream: tx, pdu: Uint8Array.of(1, 2, 3) });
  net.settle();
  assert.equal(net.trace.length, before);
  assert.ok(out.some((o) => o.kind === 'event' && o.detail.event === 'dropped' && o.detail.reason === 'unknown-stream'));
  assert.equal(net.engine(1).counters().pdusDropped, 1);
  assert.deepEqual(net.eventsOf('closed', 1), [{ event: 'closed', stream: tx, cause: 'remote' }]);
});
