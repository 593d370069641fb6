import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverAndOpenAll, FabricNet } from '../../test/support/fabric-endpoint.ts';
import { octets, type9Node } from '../../test/support/endpoint-net.ts';
import { DS_CONTROL_OFFSET, decodeDsControl, getMtuBytes } from '../registers/data-streaming.ts';
import type { ProtocolSupport } from '../session/types.ts';
import { TT } from '../wire/header.ts';
import { maintenanceWriteRequest } from '../wire/type8-build.ts';
import type { Type9Packet } from '../wire/type9-types.ts';

/**
 * Part 10 §5.5.1 (issue 18 item 5 b): an MTU written by a MAINTENANCE write to the Data Streaming
 * Logical Layer Control CSR (0x48) of a running fabric end point acts on its segmenter and its
 * reassembler, not only on the register.
 */

const PROTO = 0x1234;
const DATA3: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };

/** End points 1 and 2 (Type 9, MTU 256 as configured), stream 1 → 2 open. */
function pair(): { net: FabricNet; to2: NonNullable<ReturnType<typeof discoverAndOpenAll>[number]> } {
  const net = new FabricNet();
  for (const [n, s, peer] of [[1, 0xfff1, 2], [2, 0xfff2, 1]] as const) net.add({ ...type9Node(n, s, { protocols: [DATA3], discover: [peer] }), type9: { mtu: 256 } });
  const [to2] = discoverAndOpenAll(net, [[1, 2]], PROTO);
  assert.ok(to2);
  return { net, to2 };
}

/** The CSR word with `mtu` (encoding, 4-byte units) in bits 24–31 and the node's other fields kept. */
function writeMtu(net: FabricNet, node: number, encoding: number): void {
  const word = (net.node(node).registers.readWord(DS_CONTROL_OFFSET) & ~0xff) | encoding;
  const data = Uint8Array.of(word >>> 24, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
  const peer = node === 1 ? 2 : 1;
  net.input(node, { kind: 'packet', packet: maintenanceWriteRequest({ tt: TT.dev8, destinationID: node, sourceID: peer, srcTID: 9, byteOffset: DS_CONTROL_OFFSET, data }) });
  net.settle();
}

/** Payload sizes of the data segments 1 sent to 2 from trace index `from` on. */
function sizes(net: FabricNet, from: number): number[] {
  return net.packets(1, 2, 9).slice(from).flatMap((w) => {
    const p = w.packet as Type9Packet;
    return p.segment === 'tm' || p.segment === 'extended' ? [] : [p.payload.length];
  });
}

/** The MTU of the node's segmenter and of its reassembler, as its snapshot shows them. */
function mtus(net: FabricNet, node: number): number[] {
  const s = (net.node(node).snapshot()['endpoint'] as { type9: { segmenter: { mtu: number }; reassembler: { mtu: number } } }).type9;
  return [s.segmenter.mtu, s.reassembler.mtu];
}

test('Part 10 §5.5.1 Table 5-6 MTU: a MAINTENANCE write of the MTU to 0x48 of a running end point reaches its segmenter and its reassembler; PDUs are then cut and judged at that MTU and arrive whole', () => {
  const { net, to2 } = pair();
  const before = octets(300, 1);
  const opened = net.packets(1, 2, 9).length;
  net.input(1, { kind: 'send', stream: to2, pdu: before });
  net.settle();
  assert.deepEqual(sizes(net, opened), [256, 44]);
  const seen = net.packets(1, 2, 9).length;
  for (const n of [1, 2]) {
    writeMtu(net, n, 0x10);
    assert.equal(getMtuBytes(net.node(n).registers), 64, 'the register reads back the MTU written');
    assert.deepEqual(mtus(net, n), [64, 64], `node ${n}: segmenter and reassembler`);
  }
  const after = octets(150, 2);
  net.input(1, { kind: 'send', stream: to2, pdu: after });
  net.settle();
  assert.deepEqual(sizes(net, seen), [64, 64, 22]);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), [before, after]);
});

test('Part 10 §5.5.1 Table 5-6 MTU (decision): a MAINTENANCE write of a reserved MTU encoding is stored and reads back, and the engines keep the MTU they had', () => {
  const { net, to2 } = pair();
  writeMtu(net, 1, 0x41);
  const csr = decodeDsControl(net.node(1).registers.readWord(DS_CONTROL_OFFSET));
  assert.deepEqual([csr.mtu, csr.mtuBytes], [0x41, null]);
  assert.deepEqual(mtus(net, 1), [256, 256]);
  const pdu = octets(300, 3);
  const seen = net.packets(1, 2, 9).length;
  net.input(1, { kind: 'send', stream: to2, pdu });
  net.settle();
  assert.deepEqual(sizes(net, seen), [256, 44]);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), [pdu]);
});
