import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrConveyanceMailbox, attrMacAddress, attrMtu, attrPeriod, attrVendor, smpAttribute } from '../wire/smp/attribute-build.ts';
import { groupById, isQuantity, numberValue, offerOf, offers, sameValue, valueNumber, wellFormed } from './attribute-values.ts';

const ETH = 0x0102;
const OTHER = 0x0200;

test('Annex 2 §4.2: attribute values are big-endian numbers ("the most significant octet is on the left")', () => {
  assert.equal(valueNumber(Uint8Array.of(0x01, 0x02, 0x03)), 0x010203n);
  assert.equal(valueNumber(new Uint8Array(0)), 0n);
  assert.deepEqual(numberValue(0x010203n, 4), Uint8Array.of(0, 1, 2, 3));
  assert.equal(numberValue(0x1_0000_0000n, 4), undefined, 'does not fit four octets');
  assert.equal(numberValue(-1n, 4), undefined);
  assert.equal(sameValue(Uint8Array.of(1, 2), Uint8Array.of(1, 2)), true);
  assert.equal(sameValue(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0)), false);
});

test('Annex 2 §3.5.3 Table 3-2: a well-formed attribute has an ID in a Table 3-2 range and the 7, 6 or 4 value octets it leaves', () => {
  assert.equal(wellFormed(attrMtu(1500)), true);
  assert.equal(wellFormed({ id: 0x7f, value: new Uint8Array(7) }), true);
  assert.equal(wellFormed({ id: 0x80, value: new Uint8Array(7) }), false, '0x80 lies in no range');
  assert.equal(wellFormed({ id: 0xf0000000, value: new Uint8Array(6) }), false);
});

test('Annex 2 §3.8.2 (decision): ranges only for quantities — periods, MTU and attributes this annex does not define', () => {
  assert.equal(isQuantity(0xf0000000, ETH), true);
  assert.equal(isQuantity(0x8002, ETH), true);
  assert.equal(isQuantity(0x8002, 0x0101), false, '0x8002 is MTU only under Ethernet');
  assert.equal(isQuantity(0x78, ETH), true);
  assert.equal(isQuantity(0x10, OTHER), true);
  for (const id of [0x00, 0x02, 0x8001, 0x8003, 0xf0000003, 0xf0000004, 0xf0000005]) assert.equal(isQuantity(id, ETH), false, id.toString(16));
});

test('Annex 2 §3.8.2: "exactly two copies of the Attribute, indicating the minimum and maximum values" — in either order', () => {
  const offer = offerOf([attrMtu(9000), attrMtu(1500)], ETH);
  assert.deepEqual(offer, { kind: 'range', min: 1500n, max: 9000n, length: 6 });
  assert.equal(offers(offer, attrMtu(1500).value), true);
  assert.equal(offers(offer, attrMtu(4096).value), true);
  assert.equal(offers(offer, attrMtu(9001).value), false);
  assert.equal(offers(offer, new Uint8Array(4)), false, 'another width');
});

test('Annex 2 §3.8.2: one copy is a value; alternatives and identity attributes are compared octet for octet', () => {
  const one = offerOf([attrPeriod('REQUEST_RETRY_PERIOD', 5)], ETH);
  assert.equal(offers(one, attrPeriod('REQUEST_RETRY_PERIOD', 5).value), true);
  assert.equal(offers(one, attrPeriod('REQUEST_RETRY_PERIOD', 6).value), false);
  const channels = offerOf([attrConveyanceMailbox(1), attrConveyanceMailbox(9)], ETH);
  assert.equal(channels.kind, 'values');
  assert.equal(offers(channels, attrConveyanceMailbox(5).value), false);
  assert.equal(offers(channels, attrConveyanceMailbox(9).value), true);
});

test('Annex 2 §3.8.2: copies are grouped by attribute ID in order of first appearance', () => {
  const list = [attrMtu(1), attrMacAddress(new Uint8Array(6)), attrMtu(2), attrVendor({ oui: 1 }), smpAttribute(0x78, new Uint8Array(7))];
  const g = groupById(list);
  assert.deepEqual([...g.keys()], [0x8002, 0x8003, 0x00, 0x78]);
  assert.equal(g.get(0x8002)?.length, 2);
});
