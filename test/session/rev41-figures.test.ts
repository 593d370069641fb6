import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStream, rxOf, sessionPair } from '../support/session-pair.ts';
import type { ProtocolSupport } from '../../src/session/types.ts';

/**
 * The message sequence figures as the rev 4.1 text (rev4.1/annex2-session-management.txt) lays them
 * out, where its rendering differs from rev 2.1's: node 1 is the data sender, node 2 the receiver.
 */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const MS = 1_000_000;
const pdu = (n: number): Uint8Array => Uint8Array.of(n, n, n, n);

test('Annex 2 §3.6.5 Figure 3-5 (rev 4.1 rendering): XON, three DATA, XOFF, RTS and its retry 250 ms later (§4.2.6), XON, the three held DATA', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'fig5');
  assert.ok(tx);
  const rx = rxOf(1, tx);
  const before = net.trace.length;
  net.input(2, { kind: 'xon', stream: rx });
  net.settle();
  for (const n of [0, 1, 2]) net.input(1, { kind: 'send', stream: tx, pdu: pdu(n) });
  net.settle();
  net.input(2, { kind: 'xoff', stream: rx });
  net.run(net.now + 5);
  for (const n of [3, 4, 5]) net.input(1, { kind: 'send', stream: tx, pdu: pdu(n) });
  const rtsAt = net.now;
  net.run(rtsAt + 300 * MS);
  net.input(2, { kind: 'xon', stream: rx });
  net.settle();
  const data = '1>2 DATA';
  assert.deepEqual(net.lines().slice(before), [
    '2>1 FLOW_CONTROL XON', data, data, data,
    '2>1 FLOW_CONTROL XOFF',
    '1>2 FLOW_CONTROL RTS', '1>2 FLOW_CONTROL RTS',
    '2>1 FLOW_CONTROL XON', data, data, data,
  ]);
  const rts = net.trace.filter((m) => m.message?.command === 'FLOW_CONTROL' && m.message.flowControlName === 'RTS').map((m) => m.at - rtsAt);
  assert.deepEqual(rts, [0, 250 * MS]);
  assert.deepEqual(net.deliveries.map((d) => [...d.pdu]), [0, 1, 2, 3, 4, 5].map((n) => [...pdu(n)]));
});

test('Annex 2 §3.6.3 Figure 3-3 (rev 4.1 rendering): Src sends DATA, then CLOSE and closes its side at once; Dest closes, discards the DATA that arrives after the CLOSE, answers STATUS Closed', () => {
  const net = sessionPair({ protocols: [P] }, { protocols: [P] });
  const tx = openStream(net, 1, 2, PROTO, 'fig3');
  assert.ok(tx);
  const before = net.trace.length;
  net.link = (m) => (m.command === 'DATA' ? [10] : [1]);
  net.input(1, { kind: 'send', stream: tx, pdu: pdu(9) });
  const out = net.input(1, { kind: 'close', stream: tx });
  assert.ok(out.some((o) => o.kind === 'event' && o.detail.event === 'closed' && o.detail.cause === 'local'), '"Close <StreamID>" at Src when the CLOSE leaves');
  net.settle();
  assert.deepEqual(net.lines().slice(before), ['1>2 DATA', '1>2 CLOSE', '2>1 STATUS CLOSED']);
  assert.deepEqual(net.deliveries, []);
  assert.equal(net.engine(2).counters().dataDiscarded, 1);
});
