import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStream, sessionPair } from '../../test/support/session-pair.ts';
import type { ProtocolSupport, StreamRef } from './types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };

function streamsOf(net: ReturnType<typeof sessionPair>, node: number): readonly StreamRef[] {
  return net.engine(node).snapshot().streams;
}

test('Annex 2 §3.7.1 (decision FF4): peer-lost closes every stream to the node locally, cause peer-lost, without CLOSE, and makes the node suspect', () => {
  const net = sessionPair({ protocols: [P], conduitRole: 'master' }, { protocols: [P], conduitRole: 'slave' });
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'c', conduit: true });
  net.settle();
  const [c] = net.eventsOf('conduit', 1);
  assert.ok(c);
  const tx = openStream(net, 1, 2, PROTO, 'plain');
  assert.ok(tx);
  assert.equal(streamsOf(net, 1).length, 3);
  const from = net.trace.length;
  net.input(1, { kind: 'peer-lost', node: 2, reason: 'port 2 uninitialized' });
  net.settle();
  // No message at all: "silently closed locally" (§3.7.1), the peer cannot take a CLOSE.
  assert.deepEqual(net.trace.slice(from), []);
  const closed = net.eventsOf('closed', 1);
  assert.deepEqual(closed.map((e) => e.cause), ['peer-lost', 'peer-lost', 'peer-lost']);
  assert.deepEqual(closed.map((e) => e.stream.streamID).sort(), [c.tx.streamID, c.rx.streamID, tx.streamID].sort());
  assert.deepEqual(net.eventsOf('suspect', 1), [{ event: 'suspect', node: 2, reason: 'port 2 uninitialized' }]);
  assert.deepEqual(streamsOf(net, 1), []);
  assert.deepEqual(net.engine(1).snapshot()['conduits'], []);
  assert.deepEqual(net.engine(1).snapshot()['pending'], []);
  // The peer itself heard nothing: its streams are still open (it is the one that is gone).
  assert.equal(streamsOf(net, 2).length, 3);
});

test('Annex 2 §3.7.1 (decision FF4): peer-lost of a node without streams only makes it suspect; other nodes\' streams stay', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'o');
  assert.ok(tx);
  net.input(1, { kind: 'peer-lost', node: 7, reason: 'gone' });
  net.settle();
  assert.deepEqual(net.eventsOf('closed', 1), []);
  assert.deepEqual(net.eventsOf('suspect', 1).map((e) => e.node), [7]);
  assert.equal(streamsOf(net, 1).length, 1);
});
