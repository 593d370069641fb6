import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attrConduitStream, attrDataHeaderFormat, attrOpenMessageNumber, attrPeriod, attrVendor } from '../wire/smp/index.ts';
import { conduitStreamOf, insertOptional, mergeAgreed, openMessageNumberOf, placeAttribute, streamAttributes } from './open-attrs.ts';

const vendorSpecific = { id: 0x78, value: new Uint8Array(7) };

test('Annex 2 §3.5.3: an attribute the engine adds goes ahead of the vendor-specific ones, or in place of its own ID', () => {
  const list = [attrPeriod('REQUEST_RETRY_PERIOD', 1), attrVendor({ oui: 0x00a01e }), vendorSpecific];
  const cs = attrConduitStream(0xffff, 5);
  assert.deepEqual(placeAttribute(list, cs, 0x1234).map((a) => a.id), [0xf0000000, 0xf0000004, 0x00, 0x78]);
  const again = placeAttribute([attrPeriod('REQUEST_RETRY_PERIOD', 1), attrConduitStream(1, 2), vendorSpecific], cs, 0x1234);
  assert.deepEqual(again.map((a) => a.id), [0xf0000000, 0xf0000004, 0x78]);
  assert.deepEqual([...(again[1]?.value ?? [])], [0xff, 0xff, 0, 5]);
  // §6.2.1: under 0x0101 VENDOR is a required attribute, not the start of the vendor-specific ones.
  assert.deepEqual(insertOptional([attrVendor({ oui: 1 }), vendorSpecific], cs, 0x0101).map((a) => a.id), [0x00, 0xf0000004, 0x78]);
});

test('Annex 2 §3.5.1.4, §4.2.4: the agreed list keeps the OPEN\'s order, takes the ACCEPT\'s values and additions, one copy per ID', () => {
  const open = [attrOpenMessageNumber(9), attrPeriod('REQUEST_RETRY_PERIOD', 100), attrPeriod('REQUEST_RETRY_PERIOD', 300), attrConduitStream(0xffff, 0xffff), attrPeriod('REQUEST_TIMEOUT_PERIOD', 5)];
  const accept = [attrOpenMessageNumber(9), attrPeriod('REQUEST_RETRY_PERIOD', 200), attrDataHeaderFormat('DATA1'), attrConduitStream(1, 2)];
  const agreed = mergeAgreed(open, accept, 0x1234);
  assert.deepEqual(agreed.map((a) => a.name), ['REQUEST_RETRY_PERIOD', 'REQUEST_TIMEOUT_PERIOD', 'DATA_HEADER_FORMAT']);
  assert.equal(agreed[0]?.name === 'REQUEST_RETRY_PERIOD' && agreed[0].microseconds, 200);
  assert.deepEqual(streamAttributes(accept, 0x1234).map((a) => a.name), ['REQUEST_RETRY_PERIOD', 'DATA_HEADER_FORMAT']);
  assert.equal(openMessageNumberOf(mergeAgreed(accept, [], 1)), undefined);
  assert.equal(openMessageNumberOf([attrOpenMessageNumber(9)]), 9);
  assert.deepEqual(conduitStreamOf([attrConduitStream(1, 2)]), { transmit: 1, receive: 2 });
  assert.equal(conduitStreamOf([]), undefined);
});
