import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHex, toHex } from '../wire/hex.ts';
import { attrConveyanceMailbox, attrDataOffset, attrMacAddress, attrMtu, attrOpenMessageNumber, smpAttribute } from '../wire/smp/attribute-build.ts';
import { checkAttributeOrder } from '../wire/smp/attribute-order.ts';
import { decodeSmp, smpBytes } from '../wire/smp/index.ts';
import { smpOpen } from '../wire/smp/open-accept-refuse.ts';
import {
  BROADCAST_STREAM_ID, ETHERNET_PROTO_ID, MULTICAST_DEST_ID, PendingQueue, broadcastPlan, ethernetAttributes, isBroadcastStream,
  macIsOuiValid, missingEthernetAttributes,
} from './ethernet.ts';

const frame = (n: number): Uint8Array => Uint8Array.of(n);
const ids = (xs: readonly Uint8Array[]): number[] => xs.map((x) => x[0] ?? -1);

test('Annex 2 §7.1: the protocol ID value for Ethernet encapsulation is 0x0102', () => {
  assert.equal(ETHERNET_PROTO_ID, 0x0102);
});

test('Annex 2 §7.3.1: under XOFF the newest pending message is kept and older ones are dropped (keep-newest)', () => {
  const q = new PendingQueue('keep-newest', 1);
  assert.deepEqual(q.push(frame(1)), []);
  assert.deepEqual(ids(q.push(frame(2))), [1]);
  assert.deepEqual(ids(q.push(frame(3))), [2]);
  assert.equal(q.size, 1);
  assert.deepEqual(ids([q.shift()!]), [3]);
  assert.equal(q.shift(), undefined);
});

test('Annex 2 §7.3.1: "The pending message(s) should be the most recent message(s)": with a limit of 3 the three newest remain, oldest first', () => {
  const q = new PendingQueue('keep-newest', 3);
  const dropped: number[] = [];
  for (let i = 1; i <= 7; i++) dropped.push(...ids(q.push(frame(i))));
  assert.deepEqual(dropped, [1, 2, 3, 4]);
  assert.deepEqual(ids(q.clear()), [5, 6, 7]);
  assert.equal(q.size, 0);
});

test('Annex 2 §7.3.1: "must retain at least one pending message": a limit below 1 is refused', () => {
  assert.throws(() => new PendingQueue('keep-newest', 0), (e: unknown) => e instanceof RangeError && /limit/.test(e.message));
  assert.throws(() => new PendingQueue('bounded', 1.5), RangeError);
  assert.throws(() => new PendingQueue('newest' as 'bounded', 1), /policy/);
});

test('Annex 2 §7.3.1: the bounded policy (non-Ethernet streams) keeps what it has and drops the new PDU when full (decision)', () => {
  const q = new PendingQueue('bounded', 2);
  assert.deepEqual(q.push(frame(1)), []);
  assert.deepEqual(q.push(frame(2)), []);
  assert.deepEqual(ids(q.push(frame(3))), [3]);
  assert.deepEqual(ids([q.shift()!, q.shift()!]), [1, 2]);
  assert.deepEqual(JSON.parse(JSON.stringify(q.snapshot())), { policy: 'bounded', limit: 2, size: 0, octets: 0 });
});

test('Annex 2 §7.3.2.1: with multicast, broadcast goes to destination ID 0xFE (8-bit IDs) or 0xFFFE (16-bit IDs)', () => {
  assert.deepEqual(broadcastPlan([1, 2], 1, true, 8), { mode: 'multicast', destID: 0xfe });
  assert.deepEqual(broadcastPlan([1, 2], 1, true, 16), { mode: 'multicast', destID: 0xfffe });
  assert.deepEqual(MULTICAST_DEST_ID, { 8: 0xfe, 16: 0xfffe });
});

test('Annex 2 §7.3.2.2: without multicast, broadcast is unicast to every member except self on StreamID 0xF000', () => {
  const p = broadcastPlan([3, 1, 5, 3, 1], 1, false, 16);
  assert.deepEqual(p, { mode: 'unicast', destIDs: [3, 5], streamID: 0xf000, rejected: [] });
  assert.equal(BROADCAST_STREAM_ID, 0xf000);
});

test('Annex 2 §7.3.2.2: members that are not device IDs of the configured width are left out and reported (decision)', () => {
  const p = broadcastPlan([0x100, 2, -1, 1.5, 0xff], 0, false, 8);
  assert.ok(p.mode === 'unicast');
  assert.deepEqual([p.destIDs, p.rejected], [[2, 0xff], [0x100, -1, 1.5]]);
  assert.throws(() => broadcastPlan([], 0, false, 32 as 16), /deviceIdBits/);
});

test('Annex 2 §7.3.2.2–§7.3.2.3: receivers know broadcast traffic by StreamID 0xF000', () => {
  assert.deepEqual([isBroadcastStream(0xf000), isBroadcastStream(0xefff), isBroadcastStream(0xf001)], [true, false, false]);
});

test('Annex 2 §7.2: MTU, CONVEYANCE and MAC_ADDRESS are required; the missing ones are named', () => {
  const all = [attrMtu(1500), attrConveyanceMailbox(1), attrMacAddress(parseHex('00a01e000001'))];
  assert.deepEqual(missingEthernetAttributes(all), []);
  assert.deepEqual(missingEthernetAttributes([]), ['MTU', 'CONVEYANCE', 'MAC_ADDRESS']);
  assert.deepEqual(missingEthernetAttributes([all[1]!]), ['MTU', 'MAC_ADDRESS']);
});

test('Annex 2 §7.2: "No ordering restrictions are placed on these attributes": any order is complete', () => {
  const all = [attrMacAddress(parseHex('00a01e000001')), attrConveyanceMailbox(1), attrMtu(1500)];
  assert.deepEqual(missingEthernetAttributes(all), []);
});

test('Annex 2 §7.2.3 and DECISIONS §7: 0x8003 counts as MAC_ADDRESS under ProtoID 0x0102 whatever it was built as', () => {
  // attrDataOffset builds ID 0x8003 (DATA_OFFSET elsewhere); under Ethernet the same ID is MAC_ADDRESS.
  const asOffset = attrDataOffset(4, new Uint8Array(5));
  assert.deepEqual(missingEthernetAttributes([attrMtu(1500), attrConveyanceMailbox(1), asOffset]), []);
  // Ethernet-specific and vendor-specific IDs elsewhere are not mistaken for them.
  assert.deepEqual(missingEthernetAttributes([smpAttribute(0x8004, new Uint8Array(6)), smpAttribute(0xef02, new Uint8Array(6))]), ['MTU', 'CONVEYANCE', 'MAC_ADDRESS']);
});

test('Annex 2 §7.2.1–§7.2.3: ethernetAttributes builds MTU (low two octets), CONVEYANCE to a mailbox and MAC_ADDRESS', () => {
  const [mtu, conv, mac] = ethernetAttributes({ mtu: 1500, mailbox: 3, mac: parseHex('00a01e123456') });
  // MTU: ID 0x8002, four zero octets, 1500 = 0x05DC. CONVEYANCE: ID 0x8001, channel 0x0001, 0x0000_0003.
  // MAC_ADDRESS: ID 0x8003, the six octets.
  assert.deepEqual([mtu.id, toHex(mtu.value), mtu.mtu], [0x8002, '0000000005dc', 1500]);
  assert.deepEqual([conv.id, toHex(conv.value), conv.mailbox], [0x8001, '000100000003', 3]);
  assert.deepEqual([mac.id, mac.name, toHex(mac.macAddress)], [0x8003, 'MAC_ADDRESS', '00a01e123456']);
});

test('Annex 2 §7.2 and §3.5.3: the built attributes are a complete, well-ordered Ethernet OPEN list that survives encoding', () => {
  const attributes = [attrOpenMessageNumber(1), ...ethernetAttributes({ mtu: 9000, mailbox: 0, mac: parseHex('001122334455') })];
  assert.deepEqual(checkAttributeOrder(attributes, ETHERNET_PROTO_ID, 'OPEN'), []);
  const open = smpOpen({ sourceID: 1, protoID: ETHERNET_PROTO_ID, attributes });
  const b = smpBytes(open);
  const back = decodeSmp(b, 0, b.length, { strict: true });
  assert.ok(back.command === 'OPEN');
  assert.deepEqual(missingEthernetAttributes(back.attributes), []);
});

test('Annex 2 §7.2.1, §7.2.2 (decision T2): an MTU outside 1..65535, a mailbox over 63 or a MAC that is not six octets is refused', () => {
  const mac = parseHex('001122334455');
  assert.throws(() => ethernetAttributes({ mtu: 0, mailbox: 0, mac }), /mtu/);
  assert.throws(() => ethernetAttributes({ mtu: 0x10000, mailbox: 0, mac }), /mtu/);
  assert.throws(() => ethernetAttributes({ mtu: 1500, mailbox: 64, mac }), /^RangeError: mailbox must be an integer from 0 to 63$/);
  assert.equal(ethernetAttributes({ mtu: 1500, mailbox: 63, mac })[1].mailbox, 63);
  assert.throws(() => ethernetAttributes({ mtu: 1500, mailbox: 0, mac: parseHex('0011223344') }), /mac/);
});

test('Annex 2 §7.2.3: "should be a valid OUI": the I/G (group) and U/L (locally administered) bits must be clear (decision)', () => {
  assert.equal(macIsOuiValid(parseHex('00a01e000001')), true);
  assert.equal(macIsOuiValid(parseHex('fca01e000001')), true);
  assert.equal(macIsOuiValid(parseHex('01005e000001')), false); // I/G: a multicast group address
  assert.equal(macIsOuiValid(parseHex('020000000001')), false); // U/L: locally administered
  assert.equal(macIsOuiValid(parseHex('ffffffffffff')), false);
  assert.equal(macIsOuiValid(parseHex('00a01e0000')), false);
});

test('Annex 2 §7.2.3: ethernetAttributes does not enforce the OUI "should" (decision)', () => {
  const [, , mac] = ethernetAttributes({ mtu: 1500, mailbox: 0, mac: parseHex('020000000001') });
  assert.equal(toHex(mac.macAddress), '020000000001');
});
