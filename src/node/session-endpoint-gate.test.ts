import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointNet, octets, openedStream, type11Node, type9Node } from '../../test/support/endpoint-net.ts';
import type { ProtocolSupport } from '../session/types.ts';
import { SessionEndpoint } from './session-endpoint.ts';
import type { SessionEndpointInput } from './session-endpoint-types.ts';

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

test('Part 9 §2.4.5 rule 1 at the source: a gate input stops the end point\'s Type 9 flow to one destination; its PDU stays queued while the PDU to another destination goes; restarted, it arrives whole', () => {
  const net = new EndpointNet();
  net.add(type9Node(1, 0xfff1, { protocols: [P], discover: [2, 3] }));
  net.add(type9Node(2, 0xfff2, { protocols: [P], discover: [1] }));
  net.add(type9Node(3, 0xfff3, { protocols: [P], discover: [1] }));
  for (const n of [1, 2, 3]) net.input(n, { kind: 'discover' });
  net.settle();
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'a' });
  net.input(1, { kind: 'open', to: 3, protoID: PROTO, ref: 'b' });
  net.settle();
  const to2 = openedStream(net, 1, 'a');
  const to3 = openedStream(net, 1, 'b');
  assert.ok(to2 !== undefined && to3 !== undefined);
  const since = net.now;
  assert.deepEqual(net.input(1, { kind: 'gate', destinationID: 2, flowID: '0A', stopped: true }), []);
  net.input(1, { kind: 'send', stream: to2, pdu: octets(1000, 1) });
  net.input(1, { kind: 'send', stream: to3, pdu: octets(1000, 2) });
  net.settle();
  assert.deepEqual(net.deliveriesTo(3).map((d) => d.pdu), [octets(1000, 2)]);
  assert.deepEqual(net.deliveriesTo(2), []);
  assert.deepEqual(net.packets(1, 2, 9).filter((w) => w.at >= since), [], 'nothing of (2, 0A) left');
  net.input(1, { kind: 'gate', destinationID: 2, flowID: '0A', stopped: false });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), [octets(1000, 1)]);
});

test('Part 9 §2.4.5 rule 1 (decision FE11): without a Type 9 conveyance a gate has nothing to stop and is ignored; a malformed gate is the Type 9 conveyance\'s invalid-input', () => {
  const t11 = new SessionEndpoint(type11Node(1, 1, { protocols: [P] }));
  assert.deepEqual(t11.handle({ kind: 'gate', destinationID: 2, flowID: '0A', stopped: true }, 0), []);
  assert.equal(t11.counters().invalidInputs, 0);
  const t9 = new SessionEndpoint(type9Node(1, 0xfff1, { protocols: [P] }));
  const out = t9.handle({ kind: 'gate', destinationID: 2, flowID: 'XY', stopped: true } as unknown as SessionEndpointInput, 0);
  assert.deepEqual(out.map((o) => (o.kind === 'event' ? [o.source, o.detail] : o.kind)), [['type9', { name: 'invalid-input', detail: 'gate: 2/"XY" stopped true is not a flow and a boolean' }]]);
  const stopped = t9.snapshot().type9?.segmenter.stopped;
  assert.deepEqual(stopped, []);
});
