import { test } from 'node:test';
import assert from 'node:assert/strict';
import { octets } from '../../test/support/endpoint-net.ts';
import { tmCounters, tmEvents, tmPair, tmWires } from '../../test/support/fabric-tm.ts';

test('Part 10 §3.4.2, Table 4-4 (TmCommandInput): an application\'s egress XOFF by hand stops the sender\'s stream queue through the switch and its XON restarts it; every PDU arrives in order', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC', policy: { onOff: null } });
  const pdus = Array.from({ length: 4 }, (_, i) => octets(1000, i + 1));
  const to = { peer: 1, cos: 0, streamID: to2.streamID, wildcard: 0b000, mask: 0 };
  net.input(2, { kind: 'tm-command', side: 'egress', to, command: { message: 'XOFF' } });
  net.run(net.now + 20_000);
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: to2, pdu });
  net.run(net.now + 40_000);
  assert.equal(net.deliveriesTo(2).length, 0, 'held at the source while off');
  assert.deepEqual(tmEvents(net, 1, 'gate').map((e) => e.detail['open']), [false]);
  net.input(2, { kind: 'tm-command', side: 'egress', to, command: { message: 'XON' } });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  assert.deepEqual(tmWires(net, 2, 1).map((w) => w.packet.tm.message), ['XOFF', 'XON']);
  assert.deepEqual([tmCounters(net, 2).egress.xoffSent, tmCounters(net, 2).egress.xonSent], [1, 1]);
});

test('Part 10 §3.4.5 rule 5 "An ingress may "insist" by sending repeated Q_STATUS messages" (TmCommandInput): an ingress command on an open transmit stream sends its Q_STATUS again; one on a stream with no TM queue is an invalid-input', () => {
  const { net, to2 } = tmPair({ mode: 'BASIC' });
  const before = tmWires(net, 1, 2).filter((w) => w.packet.tm.message === 'Q_STATUS').length;
  net.input(1, { kind: 'tm-command', side: 'ingress', stream: to2, command: { message: 'Q_STATUS' } });
  net.settle();
  assert.equal(tmWires(net, 1, 2).filter((w) => w.packet.tm.message === 'Q_STATUS').length, before + 1);
  const out = net.input(1, { kind: 'tm-command', side: 'ingress', stream: { remote: 2, direction: 'tx', streamID: 0x7777 }, command: { message: 'Q_STATUS' } });
  assert.ok(out.some((o) => o.kind === 'event' && o.source === 'fabric' && o.detail.event === 'invalid-input'));
});

test('Part 10 §3.4.5 Supported Functionality rule 1 (TmCommandInput): without tm a tm-command is an invalid-input, never an exception', () => {
  const { net, to2 } = tmPair(undefined);
  const out = net.input(1, { kind: 'tm-command', side: 'ingress', stream: to2, command: { message: 'Q_STATUS' } });
  assert.ok(out.some((o) => o.kind === 'event' && o.source === 'fabric' && o.detail.event === 'invalid-input' && /no traffic management/.test(o.detail.detail)));
});
