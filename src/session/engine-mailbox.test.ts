import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrConveyanceMailbox } from '../wire/smp/attribute-build.ts';
import type { AttributeLike } from '../wire/smp/attributes.ts';
import { decodeSmp, smpAccept, smpBytes, smpUserDefined } from '../wire/smp/index.ts';
import { as, firstSend, openStream, rxOf, SessionNet, sessionPair } from '../../test/support/session-pair.ts';
import { SessionEngine } from './engine.ts';
import type { ProtocolSupport, SessionConfig, SessionOutput } from './types.ts';

/**
 * The engine and the Type 11 conveyance agree on mailboxes (decision T2): the engine takes
 * mailboxes 0–63 only and never hands the conveyance a message its mailbox cannot take — 16
 * segments for mailboxes 0–3, one segment for 4–63.
 */

const PROTO = 0x1234;
const P: ProtocolSupport = { protoID: PROTO, attributes: [] };
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 11 + 5) & 0xff);
const padded = (n: number): number => Math.ceil(n / 8) * 8;
const BASE: SessionConfig = { nodeId: 1, contact: { conveyance: 'type11', mailbox: 1 }, protocols: [P] };

function sends(out: readonly SessionOutput[]): Extract<SessionOutput, { kind: 'send' }>[] {
  return out.flatMap((o) => (o.kind === 'send' ? [o] : []));
}

function dropped(out: readonly SessionOutput[]): string[] {
  return out.flatMap((o) => (o.kind === 'event' && o.detail.event === 'dropped' ? [o.detail.reason] : []));
}

/** A pair whose node 2 receives in `mailbox`, with a stream 1 → 2 open. */
function pairTo(mailbox: number, extra: Partial<SessionConfig> = {}): { net: SessionNet; tx: NonNullable<ReturnType<typeof openStream>> } {
  const net = sessionPair({ protocols: [P], ...extra }, { protocols: [P], contact: { conveyance: 'type11', mailbox } });
  const tx = openStream(net, 1, 2, PROTO, 'm');
  assert.ok(tx, 'stream opened');
  return { net, tx };
}

test('Annex 2 §3.3, Part 2 Table 4-4 (decision T2): the configuration takes Part 2 mailboxes 0–63 for the contact and the DATA2 mailboxes, 64 and above are a RangeError naming the field', () => {
  assert.doesNotThrow(() => new SessionEngine({ ...BASE, contact: { conveyance: 'type11', mailbox: 63 }, dataMailboxes: [0, 63] }));
  assert.throws(() => new SessionEngine({ ...BASE, contact: { conveyance: 'type11', mailbox: 64 } }), /^RangeError: contact\.mailbox must be an integer from 0 to 63$/);
  assert.throws(() => new SessionEngine({ ...BASE, dataMailboxes: [3, 200] }), /^RangeError: dataMailboxes\[1\] must be an integer from 0 to 63$/);
  assert.throws(() => new SessionEngine({ ...BASE, type11SegmentSize: 512 }), /^RangeError: type11SegmentSize must be/);
});

test('Annex 2 §4.3.1, Part 2 §2.3.1 (decision T2): DATA to a mailbox 4–63 goes in single-segment messages of at most 256 octets, to a mailbox 0–3 in messages of up to 4096', () => {
  const pdu = bytes(1000);
  for (const [mailbox, count, largest] of [[5, 5, 256], [2, 1, 1016]] as const) {
    const { net, tx } = pairTo(mailbox);
    net.input(1, { kind: 'send', stream: tx, pdu });
    net.settle();
    const data = net.trace.filter((m) => m.command === 'DATA');
    assert.equal(data.length, count, `mailbox ${mailbox}`);
    assert.ok(data.every((m) => padded(m.bytes.length) <= largest && m.contact?.conveyance === 'type11' && m.contact.mailbox === mailbox));
    assert.equal(Math.max(...data.map((m) => padded(m.bytes.length))), largest);
    assert.deepEqual(net.deliveries.map((d) => [d.stream, d.pdu]), [[rxOf(1, tx), pdu]]);
  }
});

test('Annex 2 §4.3.3, §3.5.3.10 (decision T2): DATA2 to a dedicated mailbox 4–63 goes in single-segment messages and is delivered whole', () => {
  const d2: ProtocolSupport = { ...P, dataHeaderFormat: 'DATA2', data2Octet: 0x42 };
  const net = sessionPair({ protocols: [d2] }, { protocols: [d2], dataMailboxes: [12] });
  const tx = openStream(net, 1, 2, PROTO, 'd2');
  assert.ok(tx);
  const pdu = bytes(600);
  net.input(1, { kind: 'send', stream: tx, pdu });
  net.settle();
  const data = net.trace.filter((m) => m.command === 'DATA2');
  assert.deepEqual(data.map((m) => [padded(m.bytes.length) <= 256, m.contact]), Array.from({ length: 3 }, () => [true, { conveyance: 'type11', mailbox: 12 }]));
  assert.deepEqual(net.deliveries.map((d) => [d.stream, d.pdu]), [[rxOf(1, tx), pdu]]);
});

test('Annex 2 §4.3.1, Part 2 §2.3.1 (decision T2): type11SegmentSize sizes DATA messages: 16 segments of it for mailboxes 0–3, one for 4–63', () => {
  const pdu = bytes(1500);
  for (const [mailbox, largest] of [[1, 1024], [6, 64]] as const) {
    const { net, tx } = pairTo(mailbox, { type11SegmentSize: 64 });
    net.input(1, { kind: 'send', stream: tx, pdu });
    net.settle();
    const data = net.trace.filter((m) => m.command === 'DATA');
    assert.equal(Math.max(...data.map((m) => padded(m.bytes.length))), largest, `mailbox ${mailbox}`);
    assert.deepEqual(net.deliveries.map((d) => d.pdu), [pdu]);
  }
});

test('Annex 2 §3.5.3.10 (decision T2): a CONVEYANCE naming mailbox 200 in an ACCEPT opens the stream, but its DATA is dropped as an unusable mailbox', () => {
  const e = new SessionEngine(BASE);
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 2 } }, 0);
  const open = as(firstSend(e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'c' }, 0)).message, 'OPEN');
  const accept = smpAccept({ destID: 2, streamID: 9, cos: 0, open, attributes: [attrConveyanceMailbox(200)] });
  const opened = e.handle({ kind: 'message', from: 2, bytes: smpBytes(accept), mailbox: 1 }, 1);
  assert.ok(opened.some((o) => o.kind === 'event' && o.detail.event === 'opened'));
  const out = e.handle({ kind: 'send', stream: { remote: 2, direction: 'tx', streamID: 9 }, pdu: bytes(20) }, 2);
  assert.deepEqual(sends(out), []);
  assert.deepEqual(dropped(out), ['unusable-mailbox: 200 names no Part 2 mailbox']);
  assert.equal(e.counters().pdusDropped, 1);
});

test('Annex 2 §4.3.1 (decision T2): DATA messages to a mailbox 4–63 are as small as the segment size; with no room after the DATA header the PDU is dropped, not sent', () => {
  const e = new SessionEngine({ ...BASE, type11SegmentSize: 16 });
  e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 9 } }, 0);
  const out = e.handle({ kind: 'send', stream: { remote: 2, direction: 'tx', streamID: 0xe001 }, pdu: bytes(20) }, 0);
  // 16 octets, less the 12-octet DATA header, leave 4 octets a message: five DATA messages.
  assert.deepEqual(sends(out).map((s) => s.bytes.length), [16, 16, 16, 16, 16]);
  const tight = new SessionEngine({ ...BASE, type11SegmentSize: 8 });
  tight.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox: 9 } }, 0);
  const none = tight.handle({ kind: 'send', stream: { remote: 2, direction: 'tx', streamID: 0xe001 }, pdu: bytes(20) }, 0);
  assert.deepEqual(sends(none), []);
  assert.deepEqual(dropped(none), ['no-room-for-data: a 8-octet message holds no PDU octet after the DATA header and 0 Offset octets']);
});

test('Annex 2 §3.3, Part 2 §2.3.1 (decision T2): a management message longer than the contact\'s mailbox takes is not sent but reported', () => {
  // 40 attributes of 8 octets: an OPEN of 8 + 8 + 320 octets.
  const many: AttributeLike[] = Array.from({ length: 40 }, (_, i) => ({ id: 0x10 + i, value: new Uint8Array(7) }));
  for (const [mailbox, sent] of [[5, 0], [3, 1]] as const) {
    const e = new SessionEngine(BASE);
    e.handle({ kind: 'contact', node: 2, contact: { conveyance: 'type11', mailbox } }, 0);
    const out = e.handle({ kind: 'open', to: 2, protoID: PROTO, ref: 'big', attributes: many }, 0);
    assert.equal(sends(out).length, sent, `mailbox ${mailbox}`);
    assert.deepEqual(dropped(out), sent === 1 ? [] : ['too-long-for-mailbox: OPEN of 336 octets > 256']);
    assert.equal(out.some((o) => o.kind === 'timer'), sent === 1, 'no retry is armed for a message never sent');
  }
});

test('Annex 2 §4.2.8 (decisions E2, T2): the Command_Unknown quote is cut to what the requester\'s mailbox takes: 240 octets for a mailbox 4–63', () => {
  const e = new SessionEngine({ ...BASE, nodeId: 2, contact: { conveyance: 'type11', mailbox: 2 } });
  e.handle({ kind: 'contact', node: 1, contact: { conveyance: 'type11', mailbox: 7 } }, 0);
  // A USERDEFINED command 0xF5 this end point does not understand, 400 octets long.
  const raw = smpBytes(smpUserDefined({ cmd: 0xf5, sourceID: 1, streamID: 3, userDefinedData: bytes(392) }));
  const s = firstSend(e.handle({ kind: 'message', from: 1, bytes: raw, mailbox: 2 }, 0));
  assert.equal(s.bytes.length, 256);
  const status = as(decodeSmp(s.bytes, 0, s.bytes.length, { strict: true }), 'STATUS');
  assert.deepEqual([status.statusFlags, Buffer.from(status.contextSpecificData).equals(Buffer.from(raw.subarray(0, 240)))], [['COMMAND_UNKNOWN'], true]);
  e.handle({ kind: 'contact', node: 1, contact: { conveyance: 'type11', mailbox: 0 } }, 0);
  const whole = firstSend(e.handle({ kind: 'message', from: 1, bytes: raw, mailbox: 2 }, 0));
  assert.equal(whole.bytes.length, 16 + 400, 'a mailbox 0–3 takes the whole quote');
});

test('Annex 2 §4.2.8 (decision T2): the answer to a status query carries as many of the stream\'s attributes as the querier\'s mailbox takes', () => {
  const attrs: AttributeLike[] = Array.from({ length: 40 }, (_, i) => ({ id: 0x10 + i, value: Uint8Array.of(0, 0, 0, 0, 0, 0, i) }));
  const net = sessionPair({ protocols: [P] }, { protocols: [{ protoID: PROTO, attributes: attrs }] });
  net.input(1, { kind: 'open', to: 2, protoID: PROTO, ref: 'q', attributes: attrs });
  net.settle();
  const tx = net.eventsOf('opened', 1)[0]?.stream;
  assert.ok(tx);
  // Node 1 is found again, now receiving in a single-segment mailbox.
  net.input(2, { kind: 'contact', node: 1, contact: { conveyance: 'type11', mailbox: 5 } });
  net.input(1, { kind: 'status-query', stream: tx });
  net.settle();
  const answer = net.trace.filter((m) => m.command === 'STATUS' && m.from === 2).at(-1);
  assert.ok(answer);
  assert.equal(answer.bytes.length, 256);
  const status = as(answer.message, 'STATUS');
  assert.deepEqual([status.streamProtocol?.protoID, status.streamProtocol?.attributes.length], [PROTO, 29]);
  assert.deepEqual(net.eventsOf('dropped', 2), []);
});
