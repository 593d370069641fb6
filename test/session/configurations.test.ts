import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrConveyanceMailbox } from '../../src/wire/smp/index.ts';
import { openStream, rxOf, SessionNet } from '../support/session-pair.ts';
import type { NetMessage } from '../support/session-pair.ts';
import type { Contact, ProtocolSupport } from '../../src/session/types.ts';

/**
 * Annex 2 §2.4 Table 2-1 "Data Streaming System Configurations": management over Type 11 or Type 9,
 * data over Type 11 or Type 9, in all four combinations, between node 1 (Source) and node 2 (Dest).
 * Management goes to the advertised contact (§3.3); data follows DATA_HEADER_FORMAT (DATA3: Type 9
 * PDUs, §4.3.4) and CONVEYANCE (§3.5.3.10, Table 3-8: a mailbox).
 */

const PROTO = 0x1234;
const T11 = (mailbox: number): Contact => ({ conveyance: 'type11', mailbox });
const T9 = (streamID: number, cos: number): Contact => ({ conveyance: 'type9', streamID, cos });
const payload = Uint8Array.from({ length: 40 }, (_, i) => i);

function pair(c1: Contact, c2: Contact, p: ProtocolSupport): SessionNet {
  const net = new SessionNet();
  net.add({ nodeId: 1, contact: c1, protocols: [p] });
  net.add({ nodeId: 2, contact: c2, protocols: [p] });
  net.connect();
  return net;
}

/** REQUEST/ADVERTISE, OPEN with the advertised attributes, one PDU; the data as the link saw it. */
function run(net: SessionNet): { readonly managementContacts: unknown[]; readonly data: readonly NetMessage[] } {
  net.input(1, { kind: 'request', to: 2, protoID: PROTO });
  net.settle();
  const tx = openStream(net, 1, 2, PROTO, 'cfg');
  assert.ok(tx, 'stream opened');
  const before = net.trace.length;
  net.input(1, { kind: 'send', stream: tx, pdu: payload });
  net.settle();
  assert.deepEqual(net.deliveries.map((d) => [d.node, d.stream, [...d.pdu]]), [[2, rxOf(1, tx), [...payload]]]);
  const managementContacts = net.trace.slice(0, before).filter((m) => m.to === 2).map((m) => m.contact);
  return { managementContacts, data: net.trace.slice(before) };
}

test('Annex 2 §2.4 Table 2-1: management Messaging (Type 11), data Messaging (Type 11): DATA messages to the mailbox the receiver advertised, <Mailbox> naming it (§4.3.1)', () => {
  const { managementContacts, data } = run(pair(T11(1), T11(2), { protoID: PROTO, attributes: [] }));
  assert.ok(managementContacts.every((c) => JSON.stringify(c) === JSON.stringify(T11(2))));
  assert.deepEqual(data.map((m) => [m.command, m.contact]), [['DATA', T11(2)]]);
  const m = data[0]?.message;
  assert.ok(m?.command === 'DATA' && m.mailbox === 2, '§4.3.1 "The <Mailbox> field is set to the mailbox ID used by the receiver of the data"');
});

test('Annex 2 §2.4 Table 2-1: management Messaging (Type 11), data Data Streaming (Type 9): a DATA3 stream sends its PDUs as Type 9 PDUs while OPEN and ACCEPT go by mailbox', () => {
  const { managementContacts, data } = run(pair(T11(1), T11(2), { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' }));
  assert.ok(managementContacts.every((c) => JSON.stringify(c) === JSON.stringify(T11(2))));
  assert.deepEqual(data.map((m) => [m.command, m.contact]), [['PDU', undefined]]);
  assert.deepEqual([...(data[0]?.bytes ?? [])], [...payload], '§4.3.4 "no header is required"');
});

test('Annex 2 §2.4 Table 2-1: management Data Streaming (Type 9), data Messaging (Type 11): CONVEYANCE names the mailbox DATA messages go to', () => {
  const { managementContacts, data } = run(pair(T9(0xe001, 3), T9(0xe002, 3), { protoID: PROTO, attributes: [attrConveyanceMailbox(5)] }));
  assert.ok(managementContacts.every((c) => JSON.stringify(c) === JSON.stringify(T9(0xe002, 3))));
  assert.deepEqual(data.map((m) => [m.command, m.contact]), [['DATA', T11(5)]]);
  const m = data[0]?.message;
  assert.ok(m?.command === 'DATA' && m.mailbox === 5, '§4.3.1 <Mailbox> is the mailbox the receiver of the data uses');
});

test('Annex 2 §2.4 Table 2-1: management Data Streaming (Type 9), data Data Streaming (Type 9): management on the advertised stream, data as DATA3 Type 9 PDUs on the stream itself', () => {
  const { managementContacts, data } = run(pair(T9(0xe001, 3), T9(0xe002, 3), { protoID: PROTO, attributes: [], dataHeaderFormat: 'DATA3' }));
  assert.ok(managementContacts.every((c) => JSON.stringify(c) === JSON.stringify(T9(0xe002, 3))));
  assert.deepEqual(data.map((m) => m.command), ['PDU']);
  assert.ok(data[0]?.streamID !== 0xe002, 'data does not go on the management stream');
});
