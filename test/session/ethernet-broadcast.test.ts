import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ethernetAttributes } from '../../src/session/ethernet.ts';
import { SessionNet } from '../support/session-pair.ts';
import type { Contact, ProtocolSupport } from '../../src/session/types.ts';

/** Annex 2 §7.3.2.2–§7.3.2.3: what a receiver of broadcast traffic does with it. */

const eth = (node: number): ProtocolSupport => ({
  protoID: 0x0102,
  attributes: ethernetAttributes({ mtu: 1500, mailbox: node, mac: Uint8Array.of(0x00, 0xa0, 0x1e, 0, 0, node) }),
});
const frame = Uint8Array.from({ length: 64 }, (_, i) => 0xff - i);

function ring(contact: (node: number) => Contact): SessionNet {
  const net = new SessionNet();
  for (const nodeId of [1, 2, 3]) net.add({ nodeId, contact: contact(nodeId), protocols: [eth(nodeId)] });
  net.connect();
  return net;
}

test('Annex 2 §7.3.2.3: "broadcast servers must not re-transmit incoming broadcast messages received on the broadcast StreamID 0xF000": each member delivers the frame once and sends nothing', () => {
  for (const contact of [(n: number): Contact => ({ conveyance: 'type11', mailbox: n }), (n: number): Contact => ({ conveyance: 'type9', streamID: 0xe000 + n, cos: 1 })]) {
    const net = ring(contact);
    net.input(1, { kind: 'broadcast', frame, members: [1, 2, 3] });
    net.settle();
    assert.ok(net.trace.length >= 2);
    assert.ok(net.trace.every((m) => m.from === 1), 'only the originator transmits');
    assert.deepEqual(
      net.deliveries.map((d) => [d.node, d.stream, d.protoID, [...d.pdu]]),
      [2, 3].map((node) => [node, { remote: 1, direction: 'rx', streamID: 0xf000 }, 0x0102, [...frame]]),
    );
  }
});
