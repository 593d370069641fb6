import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionEndpoint } from '../../src/node/session-endpoint.ts';
import type { ProtocolSupport } from '../../src/session/types.ts';
import { discoverAndOpen, EndpointNet, octets, openedStream, type11Node, type9Node } from '../support/endpoint-net.ts';
import type { NodeOptions } from '../support/endpoint-net.ts';

const PROTO = 0x1234;
const KIB = 1024;
const SIZES = [1, 4 * KIB, 100 * KIB];

/** The SMP commands of the Type 11 messages node `from` sent to `to` (first segments only). */
function commands(net: EndpointNet, from: number, to: number): string[] {
  return net.packets(from, to, 11).flatMap((w) => {
    const p = w.packet;
    if (p.ftype !== 11 || (p.msglen > 0 && p.msgseg !== 0)) return [];
    const cmd = p.payload[0] ?? 0;
    return [cmd === 0x06 ? 'DATA' : cmd === 0x09 ? 'DATA1' : cmd === 0x0a ? 'DATA2' : `0x${cmd.toString(16)}`];
  });
}

/** Opens a stream 1 → 2 of a protocol the receiver gives `format`, sends a PDU of each size, returns the net. */
function carry(format: NonNullable<ProtocolSupport['dataHeaderFormat']>, receiver: NodeOptions = {}, sender: NodeOptions = {}, sizes = SIZES): { net: EndpointNet; pdus: Uint8Array[] } {
  const p: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: format };
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [p], discover: [2], ...sender }));
  net.add(type11Node(2, 2, { protocols: [p], discover: [1], ...receiver }));
  const tx = discoverAndOpen(net, 1, 2, PROTO);
  const pdus = sizes.map((n, i) => octets(n, i + 1));
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  return { net, pdus };
}

test('Annex 2 §4.3.1: over Type 11, DATA carries PDUs of 1 B and 4 KiB intact (S/E segments); 100 KiB is beyond DATA\'s 65535 octets and dropped', () => {
  const { net, pdus } = carry('DATA');
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus.slice(0, 2));
  assert.deepEqual(net.eventsOf('session', 'dropped', 1).map((e) => e['reason']), ['pdu-too-large: 102400 > 65535 for DATA']);
  // 1 B: one message; 4 KiB: 4084 + 12 octets in a first message (16 segments of 256), the rest in a second.
  assert.deepEqual(commands(net, 1, 2).filter((c) => c.startsWith('DATA')), ['DATA', 'DATA', 'DATA']);
  const first = net.packets(1, 2, 11).map((w) => w.packet).find((p) => p.ftype === 11 && p.msglen === 15);
  assert.ok(first?.ftype === 11);
  // Table 4-12: octet 8 is S+E+00+Length(4 bits): a Start segment has S = 1, E = 0.
  assert.deepEqual([first.payload[0], (first.payload[8] ?? 0) >> 6], [0x06, 0b10]);
});

test('Annex 2 §4.3.2: over Type 11, DATA1 carries PDUs of 1 B, 4 KiB and 100 KiB intact', () => {
  const { net, pdus } = carry('DATA1');
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  assert.equal(net.node(2).engineCounters().session.pdusDelivered, 3);
  // 100 KiB over messages of 4080 PDU octets (4096 - 16): 26 messages.
  assert.equal(commands(net, 1, 2).filter((c) => c === 'DATA1').length, 1 + 2 + 26);
  assert.deepEqual(net.eventsOf('session', 'dropped'), []);
});

test('Annex 2 §4.3.3, §3.5.3.10: over Type 11, DATA2 carries 1 B and 4 KiB to the mailbox the ACCEPT names; 100 KiB is beyond 16380 octets and dropped', () => {
  const { net, pdus } = carry('DATA2', { session: { dataMailboxes: [3] } });
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus.slice(0, 2));
  assert.deepEqual(net.eventsOf('session', 'dropped', 1).map((e) => e['reason']), ['pdu-too-large: 102400 > 16380 for DATA2']);
  const data2 = net.packets(1, 2, 11).filter((w) => w.packet.ftype === 11 && w.packet.mbox === 3);
  assert.ok(data2.length > 0, 'DATA2 goes to the dedicated mailbox 3');
  assert.deepEqual(commands(net, 1, 2).filter((c) => c.startsWith('DATA')), ['DATA2', 'DATA2', 'DATA2']);
});

test('Annex 2 §4.3.1, Part 2 §2.3.1 (decision P13): with the Type 11 conveyance\'s segmentSize 64 the session engine cuts DATA to 16 segments of 64 octets: a 4 KiB PDU crosses intact; another session.type11SegmentSize is refused', () => {
  const { net, pdus } = carry('DATA', { type11: { segmentSize: 64 } }, { type11: { segmentSize: 64 } }, [4 * KIB]);
  assert.deepEqual(net.deliveriesTo(2).map((d) => d.pdu), pdus);
  assert.deepEqual(net.eventsOf('type11', 'refused'), []);
  assert.deepEqual(net.eventsOf('session', 'dropped'), []);
  // 16 × 64 = 1024 octets a message, 12 of them the DATA header: 1012 PDU octets, so five messages.
  assert.deepEqual(commands(net, 1, 2).filter((c) => c.startsWith('DATA')), ['DATA', 'DATA', 'DATA', 'DATA', 'DATA']);
  const data = net.packets(1, 2, 11).map((w) => w.packet).filter((p) => p.ftype === 11 && p.msglen > 0);
  assert.ok(data.length > 0 && data.every((p) => p.ftype === 11 && p.segmentSize === 64 && p.msglen <= 15 && p.payload.length <= 64));
  assert.equal(net.node(1).snapshot().type11?.segmentSize, 64);
  assert.throws(() => new SessionEndpoint(type11Node(1, 1, { session: { type11SegmentSize: 256 }, type11: { segmentSize: 64 } })), /^RangeError: session\.type11SegmentSize must equal the Type 11 conveyance's segmentSize \(64\)/);
  assert.doesNotThrow(() => new SessionEndpoint(type11Node(1, 1, { session: { type11SegmentSize: 64 }, type11: { segmentSize: 64 } })));
});

test('Annex 2 §4.3.4, §4.3.5: over Type 9, DATA3 PDUs (no header) of 1 B, 4 KiB and 64 KiB go through the Part 10 segmenter and reassembler intact; 100 KiB is beyond Part 10\'s 64 KiB', () => {
  const p: ProtocolSupport = { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' };
  const net = new EndpointNet();
  net.add(type9Node(1, 0xfff1, { protocols: [p], discover: [2] }));
  net.add(type9Node(2, 0xfff2, { protocols: [p], discover: [1] }));
  const tx = discoverAndOpen(net, 1, 2, PROTO);
  const pdus = [1, 4 * KIB, 64 * KIB, 100 * KIB].map((n, i) => octets(n, i + 7));
  for (const pdu of pdus) net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => [d.stream.streamID, d.pdu]), pdus.slice(0, 3).map((pdu) => [tx.streamID, pdu]));
  const refused = net.eventsOf('type9', 'refused', 1);
  assert.deepEqual(refused.map((e) => [e['unit'], e['reason'], e['length']]), [['pdu', 'pdu-too-long', 100 * KIB]]);
  // Everything between the two went as Type 9 segments (and Type 8 for discovery); data on the stream, management on 0xFFF2.
  assert.deepEqual([...new Set(net.trace.map((w) => w.packet.ftype))].sort((a, b) => a - b), [8, 9]);
  const starts = net.packets(1, 2, 9).flatMap((w) => (w.packet.ftype === 9 && 'streamID' in w.packet ? [w.packet.streamID] : []));
  assert.ok(starts.includes(0xfff2) && starts.includes(tx.streamID));
  // 64 KiB in segments of the 256-octet MTU.
  assert.equal(net.packets(1, 2, 9).filter((w) => w.packet.ftype === 9 && w.packet.segment !== 'single').length, 16 + 256);
});

test('Annex 2 §3.4.2: a conduit over Type 11 with both sides opening at once is one conduit of two streams; PDUs cross both ways', () => {
  const p: ProtocolSupport = { protoID: PROTO, attributes: [] };
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [p], discover: [2] }));
  net.add(type11Node(2, 2, { protocols: [p], discover: [1], tag: true }));
  for (const n of [1, 2]) net.input(n, { kind: 'discover' });
  net.settle();
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'a', conduit: true });
  net.input(2, { kind: 'open', to: 1, protoID: PROTO, ref: 'b', conduit: true });
  net.settle();
  const [c1] = net.eventsOf('session', 'conduit', 1);
  const [c2] = net.eventsOf('session', 'conduit', 2);
  assert.ok(c1 && c2);
  const tx1 = c1['tx'] as { streamID: number };
  const tx2 = c2['tx'] as { streamID: number };
  assert.equal(tx1.streamID, (c2['rx'] as { streamID: number }).streamID);
  assert.equal(tx2.streamID, (c1['rx'] as { streamID: number }).streamID);
  assert.equal(net.eventsOf('session', 'conduit').length, 2);
  // Each side sent its OPEN before either ACCEPT: OPEN (0x03), then the ACCEPT (0x04) of the other's OPEN.
  assert.deepEqual(commands(net, 1, 2), ['0x3', '0x4']);
  assert.deepEqual(commands(net, 2, 1), ['0x3', '0x4']);
  const firstAccept = net.trace.findIndex((w) => w.packet.ftype === 11 && w.packet.payload[0] === 0x04);
  assert.equal(net.trace.slice(0, firstAccept).filter((w) => w.packet.ftype === 11 && w.packet.payload[0] === 0x03).length, 2);
  assert.ok(openedStream(net, 1, 'a') && openedStream(net, 2, 'b'));
  const there = octets(5000, 1);
  const back = octets(300, 2);
  net.input(1, { kind: 'send', stream: { remote: 2, direction: 'tx', streamID: tx1.streamID }, pdu: there });
  net.input(2, { kind: 'send', stream: { remote: 1, direction: 'tx', streamID: tx2.streamID }, pdu: back });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => [d.stream.streamID, d.pdu]), [[tx1.streamID, there]]);
  assert.deepEqual(net.deliveriesTo(1).map((d) => [d.stream.streamID, d.pdu]), [[tx2.streamID, back]]);
});

test('Annex 2 §3.3: mixed system: a Type 9-only node and a Type 11-only node each reach a node advertising Type 9 in its block and Type 11 in its Component Tag, over their own conveyance', () => {
  const p: ProtocolSupport = { protoID: PROTO, attributes: [] };
  const net = new EndpointNet();
  // A (1): Type 9 only. B (2): both, Type 9 block + Type 11 Component Tag. C (3): Type 11 only.
  net.add(type9Node(1, 0xfff1, { protocols: [p], discover: [2] }));
  net.add({
    nodeId: 2,
    advertisement: { blocks: [{ contact: { conveyance: 'type9', streamID: 0xfff2, cos: 0 } }], componentTag: { conveyance: 'type11', mailbox: 2 } },
    // Its session engine's own contact is the Type 11 one: Type 9 PDUs on 0xFFF2 are still its messages.
    session: { protocols: [p], contact: { conveyance: 'type11', mailbox: 2 } },
    discovery: { targets: [{ node: 1 }, { node: 3 }] },
  });
  net.add({ ...type11Node(3, 3, { protocols: [p], discover: [2] }), conveyances: ['type11'] });
  const fromA = discoverAndOpen(net, 1, 2, PROTO, 'a');
  net.input(3, { kind: 'open', to: 2, protoID: PROTO, ref: 'c' });
  net.input(2, { kind: 'open', to: 1, protoID: PROTO, ref: 'b-a' });
  net.input(2, { kind: 'open', to: 3, protoID: PROTO, ref: 'b-c' });
  net.settle();
  const fromC = openedStream(net, 3, 'c');
  const toA = openedStream(net, 2, 'b-a');
  const toC = openedStream(net, 2, 'b-c');
  assert.ok(fromC && toA && toC);
  assert.deepEqual(net.eventsOf('discovery', 'participant', 1).map((e) => [e['node'], e['source'], (e['contact'] as { conveyance: string }).conveyance]), [[2, 'block', 'type9']]);
  assert.deepEqual(net.eventsOf('discovery', 'participant', 3).map((e) => [e['node'], e['source'], (e['contact'] as { conveyance: string }).conveyance]), [[2, 'component-tag', 'type11']]);
  const pdus = [octets(10, 1), octets(2000, 2), octets(20, 3), octets(3000, 4)];
  net.input(1, { kind: 'send', stream: fromA, pdu: pdus[0]! });
  net.input(2, { kind: 'send', stream: toA, pdu: pdus[1]! });
  net.input(3, { kind: 'send', stream: fromC, pdu: pdus[2]! });
  net.input(2, { kind: 'send', stream: toC, pdu: pdus[3]! });
  net.settle();
  assert.deepEqual(net.deliveriesTo(2).map((d) => [d.stream.remote, d.pdu]), [[1, pdus[0]], [3, pdus[2]]]);
  assert.deepEqual(net.deliveriesTo(1).map((d) => d.pdu), [pdus[1]]);
  assert.deepEqual(net.deliveriesTo(3).map((d) => d.pdu), [pdus[3]]);
  const kinds = (a: number, b: number) => [...new Set(net.trace.filter((w) => (w.from === a && w.to === b) || (w.from === b && w.to === a)).map((w) => w.packet.ftype))].sort((a, b) => a - b);
  assert.deepEqual(kinds(1, 2), [8, 9], 'A and B: Type 9 only');
  assert.deepEqual(kinds(2, 3), [8, 11, 13], 'B and C: Type 11 only');
  assert.deepEqual(net.eventsOf('endpoint', 'no-conveyance'), []);
});
