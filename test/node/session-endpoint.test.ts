import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionEndpoint } from '../../src/node/session-endpoint.ts';
import type { SessionEndpointOutput } from '../../src/node/session-endpoint.ts';
import { COMPONENT_TAG_OFFSET } from '../../src/registers/component-tag.ts';
import { STANDARD_OFFSETS } from '../../src/registers/standard.ts';
import { TT } from '../../src/wire/header.ts';
import { segmentAt } from '../../src/streaming/segment-pdu.ts';
import { messageSegment } from '../../src/wire/type11.ts';
import { messageResponse, response } from '../../src/wire/type13.ts';
import { maintenanceReadRequest, maintenanceResponse, maintenanceWriteRequest } from '../../src/wire/type8-build.ts';
import type { Type8Response } from '../../src/wire/type8.ts';
import { EndpointNet, MS, openedStream, type11Node, type9Node } from '../support/endpoint-net.ts';

const PROTO = 0x1234;
const P = { protoID: PROTO, attributes: [] };
const packets = (out: readonly SessionEndpointOutput[]) => out.flatMap((o) => (o.kind === 'packet' ? [o.packet] : []));
const endpointEvents = (out: readonly SessionEndpointOutput[]) => out.flatMap((o) => (o.kind === 'event' && o.source === 'endpoint' ? [o.detail] : []));
const word = (r: Type8Response, lane: number): number => new DataView(r.payload.buffer, r.payload.byteOffset + lane, 4).getUint32(0);

function pullAll(e: SessionEndpoint, now: number): SessionEndpointOutput[] {
  const all: SessionEndpointOutput[] = [];
  for (;;) {
    const out = e.handle({ kind: 'pull' }, now);
    all.push(...out);
    if (!out.some((o) => o.kind === 'packet')) return all;
  }
}

test('Annex 2 §3.2: the end point\'s registers advertise participation after initialisation: the block\'s Advertisement CSR, or the Component Tag CSR alone', () => {
  const block = new SessionEndpoint(type11Node(1, 1));
  const tag = new SessionEndpoint(type11Node(2, 2, { tag: true }));
  const b = block.participation();
  assert.equal(b.participating, true);
  assert.deepEqual(b.blocks.map((x) => [x.contact, x.initStage, x.lockVal]), [[{ conveyance: 'type11', mailbox: 1 }, 0, 0xffff]]);
  assert.equal(b.componentTag, null);
  const t = tag.participation();
  assert.deepEqual([t.participating, t.blocks.length, t.componentTag], [true, 0, { conveyance: 'type11', mailbox: 2 }]);
  // The Base Device ID CSR holds the node's 16-bit ID (Part 3 §3.1.6, bits 16-31).
  const out = tag.handle({ kind: 'packet', packet: maintenanceReadRequest({ tt: TT.dev16, destinationID: 2, sourceID: 1, srcTID: 1, byteOffset: STANDARD_OFFSETS.baseDeviceId, byteCount: 4 }) }, 0);
  assert.deepEqual(out, []);
  const [r] = packets(tag.handle({ kind: 'pull' }, 0));
  assert.ok(r?.ftype === 8 && r.transactionName === 'MAINTENANCE_READ_RESPONSE');
  // Offset 0x60 is the first word of its double-word (wdptr 0, Table 4-3).
  assert.equal(word(r, 0) & 0xffff, 2);
});

test('Annex 2 §3.3, Part 3 §2.5: two end points find each other by MAINTENANCE reads (one with the EF block, one with the Component Tag only), with the hop_count given', () => {
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [P], discover: [2], hop: 3 }));
  net.add(type11Node(2, 2, { protocols: [P], discover: [1], tag: true }));
  net.input(1, { kind: 'discover' });
  net.input(2, { kind: 'discover' });
  net.settle();
  const found = (n: number) => net.eventsOf('discovery', 'participant', n).map((e) => [e['node'], e['source'], e['contact']]);
  assert.deepEqual(found(1), [[2, 'component-tag', { conveyance: 'type11', mailbox: 2 }]]);
  assert.deepEqual(found(2), [[1, 'block', { conveyance: 'type11', mailbox: 1 }]]);
  const reads = net.packets(1, 2, 8).filter((w) => w.packet.ftype === 8 && w.packet.transactionName === 'MAINTENANCE_READ_REQUEST');
  assert.ok(reads.length > 0);
  assert.ok(reads.every((w) => w.packet.ftype === 8 && w.packet.hopCount === 3));
  assert.ok(reads.some((w) => w.packet.ftype === 8 && 'byteOffset' in w.packet && w.packet.byteOffset === COMPONENT_TAG_OFFSET), 'the Component Tag CSR is read');
  // Every read is answered by the other end point's registers (Part 3 §2.5: responses carry hop_count 0xFF).
  const answers = net.packets(2, 1, 8).filter((w) => w.packet.ftype === 8 && w.packet.transactionName === 'MAINTENANCE_READ_RESPONSE');
  assert.equal(answers.length, reads.length);
  assert.ok(answers.every((w) => w.packet.ftype === 8 && w.packet.transactionName === 'MAINTENANCE_READ_RESPONSE' && w.packet.status === 0 && w.packet.hopCount === 0xff));
  assert.deepEqual([net.node(1).counters().readRequests, net.node(1).counters().readResponses, net.node(2).counters().maintenanceReads], [reads.length, reads.length, reads.length]);
});

test('Annex 2 §3.3: "the end point is then expected to contact remote end points": a participant discovery reports becomes the session engine\'s contact', () => {
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [P], discover: [2] }));
  net.add(type11Node(2, 2, { protocols: [P], discover: [1], tag: true }));
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'early' });
  assert.deepEqual(net.eventsOf('session', 'dropped', 1), [{ event: 'dropped', reason: 'no-contact', node: 2 }]);
  net.input(1, { kind: 'discover' });
  net.input(2, { kind: 'discover' });
  net.settle();
  const contacts = (n: number) => net.node(n).snapshot().session.contacts;
  assert.deepEqual(contacts(1), [{ node: 2, contact: { conveyance: 'type11', mailbox: 2 } }]);
  assert.deepEqual(contacts(2), [{ node: 1, contact: { conveyance: 'type11', mailbox: 1 } }]);
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'late' });
  net.settle();
  assert.ok(openedStream(net, 1, 'late'));
  // The OPEN went to the mailbox the Component Tag CSR advertises.
  const open = net.packets(1, 2, 11).find((w) => w.packet.ftype === 11 && w.packet.payload[0] === 0x03);
  assert.equal(open?.packet.ftype === 11 && open.packet.mailbox, 2);
});

test('Part 1 §4.1.10, Annex 2 §5.2.2: the end point answers MAINTENANCE writes and reads of its own registers from the network', () => {
  const e = new SessionEndpoint(type11Node(2, 2));
  const base = e.participation().blocks[0]?.base ?? -1;
  const lock = Uint8Array.of(0, 0, 0x12, 0x34);
  e.handle({ kind: 'packet', packet: maintenanceWriteRequest({ tt: TT.dev16, destinationID: 2, sourceID: 7, srcTID: 4, byteOffset: base + 4, data: lock }) }, 0);
  e.handle({ kind: 'packet', packet: maintenanceReadRequest({ tt: TT.dev16, destinationID: 2, sourceID: 7, srcTID: 5, byteOffset: base + 4, byteCount: 4 }) }, 0);
  const [w, r] = packets(pullAll(e, 0));
  assert.ok(w?.ftype === 8 && w.transactionName === 'MAINTENANCE_WRITE_RESPONSE' && w.status === 0 && w.targetTID === 4 && w.destinationID === 7);
  assert.ok(r?.ftype === 8 && r.transactionName === 'MAINTENANCE_READ_RESPONSE' && r.targetTID === 5);
  assert.equal(word(r, 4), 0x1234, 'Lock_Val now holds the remote writer\'s value');
  assert.equal(e.participation().blocks[0]?.lockVal, 0x1234);
  assert.deepEqual([e.counters().maintenanceWrites, e.counters().maintenanceReads], [1, 1]);
});

test('Part 6 §6.12, Annex 2 §3.7.2: a pull hands out responses first, then high-priority management, then maintenance reads, then normal messages', () => {
  const e = new SessionEndpoint(type11Node(1, 1, { protocols: [P], discover: [3] }));
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, 0);
  e.handle({ kind: 'contact', node: 4, contact: { conveyance: 'type11', mailbox: 3 } }, 0);
  e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'o' }, 0);
  // An unassigned <CMD> 0x20 from node 4: answered DONE by Type 11, STATUS Command_Unknown by the session (§3.5.2.1).
  const unknown = messageSegment({ tt: TT.dev16, destinationID: 1, sourceID: 4, letter: 1, mailbox: 1, payload: Uint8Array.of(0x20, 1, 0, 0, 0, 0, 0, 0) });
  e.handle({ kind: 'packet', packet: unknown }, 0);
  e.handle({ kind: 'packet', packet: maintenanceReadRequest({ tt: TT.dev16, destinationID: 1, sourceID: 2, srcTID: 9, byteOffset: 0, byteCount: 4 }) }, 0);
  e.handle({ kind: 'discover' }, 0);
  const order = packets(pullAll(e, 0)).map((p) => {
    if (p.ftype === 8) return p.transactionName;
    if (p.ftype === 13) return 'MESSAGE_RESPONSE';
    if (p.ftype === 11) return `MESSAGE 0x${(p.payload[0] ?? 0).toString(16)} prio ${p.prio}`;
    return `ftype ${p.ftype}`;
  });
  assert.deepEqual(new Set(order.slice(0, 2)), new Set(['MESSAGE_RESPONSE', 'MAINTENANCE_READ_RESPONSE']));
  // STATUS 0x10 at prio 1, the discovery read, then the OPEN (0x03) at prio 0.
  assert.deepEqual(order.slice(2), ['MESSAGE 0x10 prio 1', 'MAINTENANCE_READ_REQUEST', 'MESSAGE 0x3 prio 0']);
});

test('Annex 2 §3.3: a PDU on a management stream this end point advertises is a management message, whatever its COS', () => {
  const e = new SessionEndpoint(type9Node(5, 0xfff0));
  e.handle({ kind: 'contact', node: 1, contact: { conveyance: 'type9', streamID: 0xfff1, cos: 0 } }, 0);
  // An unassigned <CMD> 0x20 on stream 0xFFF0 at COS 7: STATUS Command_Unknown goes back on node 1's stream.
  const header = { tt: TT.dev16, destinationID: 5, sourceID: 1, cos: 7, streamID: 0xfff0, vc: 0, prio: 0, crf: 0 };
  e.handle({ kind: 'packet', packet: segmentAt(header, Uint8Array.of(0x20, 1, 0, 0, 0, 0, 0, 0), 0, 256) }, 0);
  const [status] = packets(pullAll(e, 0));
  assert.ok(status?.ftype === 9 && status.segment === 'single');
  assert.deepEqual([status.destinationID, status.streamID, status.payload[0]], [1, 0xfff1, 0x10]);
  assert.equal(e.engineCounters().session.messagesIn, 1);
});

test('Annex 2 §3.8.3, §3.3: `discover` with a node reads that node alone (again), with its hop_count', () => {
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [P] }));
  net.add(type11Node(2, 2, { protocols: [P] }));
  net.input(1, { kind: 'discover', node: 2, hop: 7 });
  net.settle();
  assert.deepEqual(net.eventsOf('discovery', 'participant', 1).map((e) => e['node']), [2]);
  const reads = net.packets(1, 2, 8);
  assert.ok(reads.length > 0 && reads.every((w) => w.packet.ftype === 8 && w.packet.hopCount === 7));
  net.input(1, { kind: 'discover', node: 2 });
  net.settle();
  assert.equal(net.eventsOf('discovery', 'participant', 1).length, 2);
});

test('engine contract: packets the end point has no use for are counted and reported, never thrown', () => {
  const e = new SessionEndpoint(type9Node(5, 0xfff0));
  const ev = (p: unknown) => endpointEvents(e.handle({ kind: 'packet', packet: p as never }, 0));
  assert.deepEqual(ev(maintenanceReadRequest({ tt: TT.dev16, destinationID: 6, sourceID: 1, srcTID: 0, byteOffset: 0, byteCount: 4 })), [{ event: 'not-for-us', ftype: 8, destinationID: 6, sourceID: 1 }]);
  assert.deepEqual(ev(messageSegment({ tt: TT.dev16, destinationID: 5, sourceID: 1, letter: 0, mailbox: 1, payload: new Uint8Array(8) })), [{ event: 'unsupported-packet', ftype: 11, sourceID: 1, reason: 'this end point has no Type 11 conveyance' }]);
  assert.deepEqual(ev(messageResponse({ tt: TT.dev16, destinationID: 5, sourceID: 1, letter: 0, mbox: 0, msgseg: 0 })), [{ event: 'unsupported-packet', ftype: 13, sourceID: 1, reason: 'this end point has no Type 11 conveyance' }]);
  assert.deepEqual(ev(response({ tt: TT.dev16, destinationID: 5, sourceID: 1, targetTID: 3 })), [{ event: 'unsupported-packet', ftype: 13, sourceID: 1, reason: 'a RESPONSE to a request this end point never sends' }]);
  assert.deepEqual(ev({ ftype: 7, destinationID: 5, tt: 1 }), [{ event: 'unsupported-packet', ftype: 7, sourceID: null, reason: 'ftype 7 carries no session management' }]);
  const stale = maintenanceResponse({ tt: TT.dev16, destinationID: 5, sourceID: 1, transactionName: 'MAINTENANCE_READ_RESPONSE', targetTID: 3, payload: new Uint8Array(8) });
  assert.deepEqual(ev(stale), [{ event: 'stale-maintenance-response', sourceID: 1, targetTID: 3 }]);
  assert.deepEqual(ev('nonsense'), [{ event: 'invalid-input', detail: 'packet: not a decoded packet' }]);
  const c = e.counters();
  assert.deepEqual([c.packetsIn, c.notForUs, c.unsupportedPackets, c.staleResponses, c.invalidInputs], [6, 1, 4, 1, 1]);
});

test('engine contract: inputs that are not the end point\'s (unknown kind, bad pull, unknown timer) are reported as invalid input', () => {
  const e = new SessionEndpoint({ ...type11Node(1, 1), conveyances: ['type11'] });
  const ev = (i: unknown) => endpointEvents(e.handle(i as never, 0)).map((d) => (d.event === 'invalid-input' ? d.detail : d.event));
  assert.deepEqual(ev({ kind: 'message', from: 2, bytes: new Uint8Array(8) }), ['unknown input kind "message"']);
  assert.deepEqual(ev({ kind: 'pull', max: 0 }), ['pull: max 0 is not a positive integer']);
  assert.deepEqual(ev({ kind: 'timer', name: 'nothing' }), ['timer: "nothing" names no inner engine']);
  assert.deepEqual(ev({ kind: 'timer', name: 'type9:idle:x' }), ['timer: "type9:idle:x" names no inner engine']);
  // A stale expiry of a real engine's timer is ignored by that engine.
  assert.deepEqual(ev({ kind: 'timer', name: 'session:open/1' }), []);
  assert.equal(e.counters().invalidInputs, 4);
});

test('engine contract: every timer an inner engine asks for carries its engine\'s name, and its expiry goes back to that engine', () => {
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [P], discover: [2] }));
  const out = net.input(1, { kind: 'discover' });
  const names = out.flatMap((o) => (o.kind === 'timer' ? [o.name] : []));
  assert.ok(names.length > 0 && names.every((n) => n.startsWith('discovery:read:')));
  net.input(1, { kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } });
  const open = net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'x' });
  assert.ok(open.some((o) => o.kind === 'timer' && o.name.startsWith('session:')));
  // Node 2 does not exist: discovery's read times out, the OPEN is retried and then times out (§3.7.1).
  net.settle();
  assert.deepEqual(net.eventsOf('discovery', 'unreachable', 1).map((e) => e['reason']), ['timeout']);
  assert.deepEqual(net.eventsOf('session', 'timeout', 1).map((e) => [e['command'], e['ref']]), [['OPEN', 'x']]);
  assert.ok(net.eventsOf('session', 'suspect', 1).length === 1);
  assert.ok(net.now >= 1000 * MS);
  assert.equal(net.node(1).engineCounters().session.retries, 3);
});

test('Annex 2 §3.2, §3.3: a configuration that cannot advertise or receive is refused with a RangeError naming the field', () => {
  const base = type11Node(1, 1);
  assert.throws(() => new SessionEndpoint({ ...base, advertisement: {} }), /^RangeError: advertisement must give a block or a Component Tag contact/);
  assert.throws(() => new SessionEndpoint({ ...base, conveyances: ['type9'] }), /^RangeError: advertisement\.blocks\[0\]\.contact\.conveyance must be one of this end point's conveyances/);
  assert.throws(() => new SessionEndpoint(type9Node(1, 0x0040)), /^RangeError: advertisement\.blocks\[0\]\.contact\.streamID must be above 0xDFFF/);
  assert.throws(() => new SessionEndpoint({ ...base, nodeId: 0x10000 }), /^RangeError: nodeId must be an integer from 0 to 65535/);
  assert.throws(() => new SessionEndpoint({ ...base, tt: 2 as never }), /^RangeError: tt must be 0 or 1/);
  assert.throws(() => new SessionEndpoint({ ...base, conveyances: ['type11', 'type11'] }), /^RangeError: conveyances\[1\] must not repeat/);
  assert.throws(() => new SessionEndpoint({ ...base, session: { protocols: [P], retryPeriod: 0 } }), /^RangeError: session\.retryPeriod must be a positive integer/);
  assert.throws(() => new SessionEndpoint({ ...base, session: undefined as never }), /^RangeError: session must be the session engine's configuration/);
  assert.throws(() => new SessionEndpoint({ ...base, type11: { segmentSize: 100 } }), /^RangeError: type11\.segmentSize must be one of/);
  assert.throws(() => new SessionEndpoint({ ...base, advertisement: { blocks: [{ contact: { conveyance: 'type11', mailbox: 1 }, maxAttr: 300 }] } }), /^RangeError: advertisement\.blocks\[0\]\.maxAttr must be an integer from 0 to 254/);
  assert.throws(() => new SessionEndpoint({ ...base, advertisement: { componentTag: { conveyance: 'type11', mailbox: 1 }, blocks: [{ contact: { conveyance: 'type11', mailbox: 1 } }] } }), /^RangeError: advertisement\.componentTag must be Type 11 with every Session Management block advertising Type 9/);
});

test('engine contract: the snapshot is a plain JSON object of the state', () => {
  const net = new EndpointNet();
  net.add(type11Node(1, 1, { protocols: [P], discover: [2] }));
  net.add(type11Node(2, 2, { protocols: [P], discover: [1] }));
  net.input(1, { kind: 'discover' });
  net.run(3000);
  const s = net.node(1).snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
  assert.deepEqual(Object.keys(s), ['nodeId', 'tt', 'conveyances', 'advertised', 'managementStreams', 'participation', 'transmit', 'reads', 'session', 'discovery', 'type11', 'type9', 'counters']);
});
