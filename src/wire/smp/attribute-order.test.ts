import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ETH, OTHER, VENDOR_PROTO } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { checkAttributeOrder, enforceAttributeOrder } from './attribute-order.ts';
import type { AttributeLike } from './attributes.ts';
import {
  attrConveyance,
  attrConveyanceMailbox,
  attrDataOffset,
  attrDataOffsetVendor,
  attrMacAddress,
  attrMtu,
  attrOpenMessageNumber,
  attrPeriod,
  attrProtocolName,
  attrVendor,
  smpAttribute,
} from './attribute-build.ts';

const omn = attrOpenMessageNumber(1);
const vendor = attrVendor({ oui: 0x00a01e });
const protoName = attrProtocolName('PROTO');
const retry = attrPeriod('REQUEST_RETRY_PERIOD', 250000);
const vendorSpecific = smpAttribute(0xef00, new Uint8Array(6));
const mtu = attrMtu(1500);
const conv = attrConveyanceMailbox(1);
const mac = attrMacAddress(new Uint8Array(6));

const rules = (attrs: readonly AttributeLike[], proto: number, cmd?: Parameters<typeof checkAttributeOrder>[2]): string[] =>
  checkAttributeOrder(attrs, proto, cmd).map((v) => `${v.index}:${v.rule}`);

test('Annex 2 §3.5.3: required, then optional, then vendor-specific attributes starting with VENDOR is clean', () => {
  assert.deepEqual(rules([omn, mtu, conv, mac, retry, vendor, vendorSpecific], ETH, 'OPEN'), []);
  assert.deepEqual(rules([retry, vendor, vendorSpecific], OTHER), []);
});

test('Annex 2 §4.2.3: the OPEN request must have OPEN_MESSAGE_NUMBER as the first attribute', () => {
  assert.deepEqual(rules([retry, omn], OTHER, 'OPEN'), ['0:open-message-number-first']);
  assert.deepEqual(rules([], OTHER, 'OPEN'), ['0:open-message-number-first']);
  // Outside the OPEN family OPEN_MESSAGE_NUMBER is an ordinary optional attribute.
  assert.deepEqual(rules([retry, omn], OTHER, 'ADVERTISE'), []);
});

test('Annex 2 §4.2.4, §4.2.5: OPEN_MESSAGE_NUMBER is the one required attribute of ACCEPT and REFUSE, so it comes first', () => {
  assert.deepEqual(rules([omn, retry], OTHER, 'ACCEPT'), []);
  assert.deepEqual(rules([retry], OTHER, 'ACCEPT'), ['0:open-message-number-first']);
  assert.deepEqual(rules([retry, omn], OTHER, 'REFUSE'), ['0:open-message-number-first']);
});

test('Annex 2 §3.5.3: all required attributes must occur ahead of all optional or vendor specific attributes', () => {
  assert.deepEqual(rules([omn, retry, mtu, conv, mac], ETH, 'OPEN'), ['2:required-before-optional', '3:required-before-optional', '4:required-before-optional']);
});

test('Annex 2 §3.5.3: optional attributes must occur before any vendor specific attributes', () => {
  assert.deepEqual(rules([vendor, vendorSpecific, retry], OTHER), ['2:optional-before-vendor']);
});

test('Annex 2 §3.5.3, §3.5.3.11: the first vendor specific attribute must be VENDOR (0x00)', () => {
  assert.deepEqual(rules([retry, vendorSpecific, vendor], OTHER), ['1:vendor-first']);
  assert.deepEqual(rules([vendorSpecific], OTHER), ['0:vendor-first']);
});

test('Annex 2 §3.5.3.1: only one VENDOR attribute may be specified in any single command', () => {
  assert.deepEqual(rules([vendor, vendor], OTHER), ['1:single-vendor']);
  assert.deepEqual(rules([vendor, vendor], OTHER, 'REQUEST'), ['1:single-vendor']);
  // REQUEST lists the attributes wanted: no other order rule applies.
  assert.deepEqual(rules([vendorSpecific, retry], OTHER, 'REQUEST'), []);
});

test('Annex 2 §6.2.1, §6.2.2: under vendor-defined protocols VENDOR comes first and PROTOCOL_NAME immediately follows it', () => {
  assert.deepEqual(rules([vendor, protoName, retry, vendorSpecific], VENDOR_PROTO), []);
  assert.deepEqual(rules([omn, vendor, protoName, retry], VENDOR_PROTO, 'OPEN'), []);
  assert.deepEqual(rules([protoName, vendor], VENDOR_PROTO), ['0:protocol-name-follows-vendor', '1:vendor-protocol-first']);
  assert.deepEqual(rules([vendor, retry, protoName], VENDOR_PROTO), ['2:required-before-optional', '2:protocol-name-follows-vendor']);
});

test('Annex 2 §6.2, §7.2: an OPEN must carry the protocol\'s required attributes', () => {
  assert.deepEqual(rules([omn, vendor], VENDOR_PROTO, 'OPEN'), ['2:protocol-required']);
  assert.deepEqual(rules([omn, mtu, mac], ETH, 'OPEN'), ['3:protocol-required']);
  // ADVERTISE may answer a REQUEST limited to some attributes: no presence check.
  assert.deepEqual(rules([mtu], ETH, 'ADVERTISE'), []);
});

test('Annex 2 §7.2: no ordering restrictions among MTU, CONVEYANCE and MAC_ADDRESS', () => {
  assert.deepEqual(rules([omn, mac, conv, mtu], ETH, 'OPEN'), []);
});

test('Annex 2 §3.5.3.2, §3.5.3.3: if DATA_OFFSET_VENDOR is specified, DATA_OFFSET must follow it', () => {
  const dov = attrDataOffsetVendor({ oui: 0x00a01e });
  const doff = attrDataOffset(8);
  assert.deepEqual(rules([dov, doff], OTHER), []);
  assert.deepEqual(rules([doff, dov], OTHER), ['1:data-offset-follows-vendor']);
  assert.deepEqual(rules([dov], OTHER), ['0:data-offset-follows-vendor']);
  // Under Ethernet 0x8003 is MAC_ADDRESS, so DATA_OFFSET_VENDOR cannot be satisfied there (DECISIONS §7).
  assert.deepEqual(rules([dov, doff], ETH), ['0:data-offset-follows-vendor', '1:required-before-optional']);
});

test('Annex 2 §3.5.3.10: a vendor-specific CONVEYANCE channel needs the VENDOR attribute', () => {
  const vc = attrConveyance(0xff01, 0);
  assert.deepEqual(rules([vc], OTHER), ['0:vendor-conveyance']);
  assert.deepEqual(rules([vc, vendor], OTHER), []);
});

test('Annex 2 §3.8.2: by the time the ACCEPT is sent all duplicate copies must be removed', () => {
  const r2 = attrPeriod('REQUEST_RETRY_PERIOD', 1000);
  assert.deepEqual(rules([omn, retry, r2], OTHER, 'ACCEPT'), ['2:accept-duplicates']);
  // OPEN and ADVERTISE may carry duplicates (ranges of values).
  assert.deepEqual(rules([omn, retry, r2], OTHER, 'OPEN'), []);
});

test('Annex 2 §3.5.3: strict decoding throws the first violation at the attribute\'s octet offset', () => {
  assert.throws(
    () => {
      enforceAttributeOrder([retry, vendorSpecific, vendor], OTHER, 'ADVERTISE', 100);
    },
    (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.offset === 108 && e.field === 'attributes[1]',
  );
  assert.doesNotThrow(() => {
    enforceAttributeOrder([retry], OTHER, 'ADVERTISE', 0);
  });
});
