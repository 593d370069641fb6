import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ETH, OTHER, VENDOR_PROTO } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import {
  attributeIdBits,
  attributeName,
  checkAttribute,
  decodeAttribute,
  decodeAttributes,
  writeAttribute,
} from './attributes.ts';
import type { SmpAttribute } from './attributes.ts';
import {
  attrConduitStream,
  attrConveyance,
  attrConveyanceMailbox,
  attrDataHeaderFormat,
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

function dec(hex: string, protoID = OTHER, strict = false): SmpAttribute {
  const b = parseHex(hex);
  return decodeAttribute(b, 0, b.length, protoID, strict, 'attr');
}
function enc(a: SmpAttribute): string {
  const b = new Uint8Array(8);
  writeAttribute(a, b, 0);
  return toHex(b);
}
function strictFails(hex: string, protoID: number, code: string, offset: number): void {
  assert.throws(
    () => dec(hex, protoID, true),
    (e: unknown) => e instanceof WireError && e.code === code && e.offset === offset,
  );
}

test('Annex 2 §3.5.3 Table 3-2: the first octet sets the ID width (0x00-0x7F 8 bits, 0x80-0xEF 16, 0xF0-0xFF 32)', () => {
  assert.equal(attributeIdBits(0x00), 8);
  assert.equal(attributeIdBits(0x7f), 8);
  assert.equal(attributeIdBits(0x80), 16);
  assert.equal(attributeIdBits(0xef), 16);
  assert.equal(attributeIdBits(0xf0), 32);
  assert.equal(attributeIdBits(0xff), 32);
  // 0x7F|aa..: 8-bit ID 0x7F, seven value octets.
  const a8 = dec('7f aabbccddeeff11');
  assert.deepEqual([a8.id, a8.idBits, toHex(a8.value)], [0x7f, 8, 'aabbccddeeff11']);
  // 0x80 0x00|...: 16-bit ID 0x8000, six value octets.
  const a16 = dec('8000 aabbccddeeff');
  assert.deepEqual([a16.id, a16.idBits, toHex(a16.value)], [0x8000, 16, 'aabbccddeeff']);
  // 0xF0 0x00 0x00 0x09|...: 32-bit ID 0xF0000009, four value octets.
  const a32 = dec('f0000009 aabbccdd');
  assert.deepEqual([a32.id, a32.idBits, toHex(a32.value)], [0xf0000009, 32, 'aabbccdd']);
});

test('Annex 2 §3.5.3 Table 3-3: vendor-specific ranges 0x78-0x7F, 0xEF00-0xEFFF, 0xFE000000-0xFFFFFFFF', () => {
  for (const id of [0x78, 0x7f, 0xef00, 0xefff, 0xfe000000, 0xffffffff]) assert.equal(attributeName(id, ETH), 'VENDOR_SPECIFIC');
  for (const id of [0x77, 0xeeff, 0xfdffffff, 0x03, 0x8004, 0xf0000006]) assert.equal(attributeName(id, ETH), 'RESERVED');
});

test('Annex 2 §3.5.3: unassigned IDs are reserved under the protocols the annex defines, protocol-specific elsewhere', () => {
  assert.equal(attributeName(0x03, VENDOR_PROTO), 'RESERVED');
  assert.equal(attributeName(0x03, 0xffff), 'RESERVED');
  assert.equal(attributeName(0x03, OTHER), 'PROTOCOL_SPECIFIC');
  strictFails('03 00000000000000', ETH, 'reserved', 0);
  assert.equal(dec('03 00000000000000', OTHER, true).name, 'PROTOCOL_SPECIFIC');
});

test('Annex 2 §3.5.3.1 Table 3-4: VENDOR OUI format, OUI in octets 1-3 and four zero octets', () => {
  // 0x00 (VENDOR, 8-bit ID) | 0x00 0xA0 0x1E (OUI) | 0x00 x4. Table 3-4 prints the ID as 0x01: a typo for 0x00 (§3.5.3.1 text).
  const a = dec('00 00a01e 00000000', OTHER, true);
  assert.ok(a.name === 'VENDOR');
  assert.equal(a.vendorFormat, 'OUI');
  assert.equal(a.oui, 0x00a01e);
  assert.equal(enc(attrVendor({ oui: 0x00a01e })), '0000a01e00000000');
});

test('Annex 2 §3.5.3.1 Table 3-5: VENDOR NAME format, seven non-zero octets ("RapidIO")', () => {
  // 0x00 | 'R' 0x52 'a' 0x61 'p' 0x70 'i' 0x69 'd' 0x64 'I' 0x49 'O' 0x4F
  const a = dec('00 52 61 70 69 64 49 4f', OTHER, true);
  assert.ok(a.name === 'VENDOR');
  assert.equal(a.vendorFormat, 'NAME');
  assert.equal(a.oui, undefined);
  assert.equal(enc(attrVendor({ name: 'RapidIO' })), '005261706964494f');
});

test('Annex 2 §3.5.3.1: a VENDOR value in neither format is invalid', () => {
  // 0x00 | 0x41 0x00 0x42 ... : not OUI (octet 7 non-zero), not NAME (a zero octet).
  const a = dec('00 41004200000001');
  assert.ok(a.name === 'VENDOR');
  assert.equal(a.vendorFormat, 'INVALID');
  strictFails('00 41004200000001', OTHER, 'invalid', 1);
});

test('Annex 2 §6.2.2: PROTOCOL_NAME is 8-bit ID 0x01 under vendor-defined protocols (0x0101)', () => {
  // 0x01 | seven vendor-defined octets "ABC\0\0\0\0".
  const a = dec('01 41424300000000', VENDOR_PROTO, true);
  assert.equal(a.name, 'PROTOCOL_NAME');
  assert.equal(enc(attrProtocolName('ABC')), '0141424300000000');
  assert.equal(dec('01 41424300000000', ETH).name, 'RESERVED');
});

test('Annex 2 §3.5.3.2: DATA_OFFSET_VENDOR is 8-bit ID 0x02 in the VENDOR formats', () => {
  const a = dec('02 00a01e 00000000', ETH, true);
  assert.ok(a.name === 'DATA_OFFSET_VENDOR');
  assert.equal(a.vendorFormat, 'OUI');
  assert.equal(enc(attrDataOffsetVendor({ oui: 0x00a01e })), '0200a01e00000000');
  strictFails('02 00000000000001', OTHER, 'invalid', 1);
});

test('Annex 2 §3.5.3.10 Table 3-8: CONVEYANCE 0x8001, channel 0x0001 = message, info 0x0000_00nn = mailbox', () => {
  // 0x80 0x01 | channel 0x0001 | info 0x00000005
  const a = dec('8001 0001 00000005', OTHER, true);
  assert.ok(a.name === 'CONVEYANCE');
  assert.deepEqual([a.channel, a.channelName, a.channelInfo, a.mailbox], [1, 'MESSAGE', 5, 5]);
  assert.equal(enc(attrConveyanceMailbox(5)), '8001000100000005');
});

test('Annex 2 §3.5.3.10 Table 3-8: channels 0xFF00-0xFFFF are vendor-specific, 0x0000 and 0x0002-0xFEFF reserved', () => {
  const v = dec('8001 ff00 deadbeef', OTHER, true);
  assert.ok(v.name === 'CONVEYANCE');
  assert.equal(v.channelName, 'VENDOR_SPECIFIC');
  assert.equal(v.mailbox, undefined);
  assert.equal(enc(attrConveyance(0xff00, 0xdeadbeef)), '8001ff00deadbeef');
  for (const ch of ['0000', '0002', 'feff']) {
    const r = dec(`8001 ${ch} 00000000`);
    assert.ok(r.name === 'CONVEYANCE');
    assert.equal(r.channelName, 'RESERVED');
    strictFails(`8001 ${ch} 00000000`, OTHER, 'reserved', 2);
  }
  // Message channel info 0x00000105: the upper 24 bits of 0x0000_00nn are not zero.
  strictFails('8001 0001 00000105', OTHER, 'reserved', 4);
});

test('Annex 2 §7.2.1: MTU is 0x8002 under Ethernet, the lowest two of six octets', () => {
  // 0x80 0x02 | 0x00000000 | 0x05DC = 1500
  const a = dec('8002 00000000 05dc', ETH, true);
  assert.ok(a.name === 'MTU');
  assert.deepEqual([a.mtu, a.rsrv], [1500, 0]);
  assert.equal(enc(attrMtu(1500)), '80020000000005dc');
  const r = dec('8002 00000001 05dc', ETH);
  assert.ok(r.name === 'MTU');
  assert.equal(r.rsrv, 1);
  strictFails('8002 00000001 05dc', ETH, 'reserved', 2);
  assert.equal(attributeName(0x8002, VENDOR_PROTO), 'RESERVED');
  assert.equal(attributeName(0x8002, OTHER), 'PROTOCOL_SPECIFIC');
});

test('DECISIONS §7, Annex 2 §7.2.3: under Ethernet (0x0102) 0x8003 is MAC_ADDRESS', () => {
  // 0x80 0x03 | MAC 00:A0:1E:01:02:03
  const a = dec('8003 00a01e010203', ETH, true);
  assert.ok(a.name === 'MAC_ADDRESS');
  assert.equal(toHex(a.macAddress), '00a01e010203');
  assert.equal(enc(attrMacAddress(parseHex('00a01e010203'))), '800300a01e010203');
});

test('DECISIONS §7, Annex 2 §3.5.3.3 Table 3-6: outside Ethernet 0x8003 is DATA_OFFSET (Offset, Vendor0..Vendor4)', () => {
  for (const proto of [VENDOR_PROTO, OTHER, 0x0000]) {
    // Table 3-6's row: 0x8003 | Offset 0xFF | Vendor0..4 0xFF
    const a = dec('8003 ff ffffffffff', proto, true);
    assert.ok(a.name === 'DATA_OFFSET');
    assert.equal(a.offset, 0xff);
    assert.equal(toHex(a.vendor), 'ffffffffff');
  }
  assert.equal(enc(attrDataOffset(16, parseHex('0102030405'))), '8003100102030405');
});

test('Annex 2 §3.5.3.4-§3.5.3.6: the three periods are 32-bit IDs 0xF0000000-2 with microseconds', () => {
  // 250 ms = 250000 µs = 0x0003D090; 1 s = 0x000F4240
  const cases = [
    ['f0000000 0003d090', 'REQUEST_RETRY_PERIOD', 250000],
    ['f0000001 000f4240', 'REQUEST_TIMEOUT_PERIOD', 1000000],
    ['f0000002 000f4240', 'FLOW_CONTROL_XON_TIMEOUT_PERIOD', 1000000],
  ] as const;
  for (const [hex, name, us] of cases) {
    const a = dec(hex, ETH, true);
    assert.equal(a.name, name);
    assert.ok(a.name === name && 'microseconds' in a);
    assert.equal(a.microseconds, us);
    assert.equal(enc(attrPeriod(name, us)), hex.replace(/ /g, ''));
  }
});

test('Annex 2 §3.5.3.7: OPEN_MESSAGE_NUMBER is 32-bit ID 0xF0000003', () => {
  const a = dec('f0000003 12345678', ETH, true);
  assert.ok(a.name === 'OPEN_MESSAGE_NUMBER');
  assert.equal(a.openMessageNumber, 0x12345678);
  assert.equal(enc(attrOpenMessageNumber(0x12345678)), 'f000000312345678');
});

test('Annex 2 §3.5.3.8: CONDUIT_STREAM 0xF0000004, transmit StreamID then receive StreamID, 0xFFFF = unknown', () => {
  // §3.4.1: the slave's ACCEPT carries 0xFFFFSSSS; here SSSS = 0x0042.
  const a = dec('f0000004 ffff0042', OTHER, true);
  assert.ok(a.name === 'CONDUIT_STREAM');
  assert.deepEqual([a.transmitStreamID, a.receiveStreamID], [0xffff, 0x0042]);
  assert.equal(enc(attrConduitStream(0xffff, 0x42)), 'f0000004ffff0042');
});

test('Annex 2 §3.5.3.9 Table 3-7: DATA_HEADER_FORMAT rows for DATA, DATA1, DATA2, DATA3', () => {
  // 0xF0 0x00 0x00 0x05 | Reserved Reserved | Implementation-Specific | DATA command
  const rows = [
    ['f0000005 0000 00 06', 'DATA', 0],
    ['f0000005 0000 00 09', 'DATA1', 0],
    ['f0000005 0000 5a 0a', 'DATA2', 0x5a],
    ['f0000005 0000 00 0b', 'DATA3', 0],
  ] as const;
  for (const [hex, name, impl] of rows) {
    const a = dec(hex, OTHER, true);
    assert.ok(a.name === 'DATA_HEADER_FORMAT');
    assert.deepEqual([a.formatName, a.implementationSpecific, a.rsrv], [name, impl, 0]);
    assert.equal(enc(attrDataHeaderFormat(name, impl)), hex.replace(/ /g, ''));
  }
  // Table 3-7 shows the Implementation-Specific octet on the DATA1 row, the text on DATA2: both are accepted.
  assert.equal(dec('f0000005 0000 5a 09', OTHER, true).name, 'DATA_HEADER_FORMAT');
});

test('Annex 2 §3.5.3.9 Table 3-7: reserved octets, undefined formats and a DATA/DATA3 seventh octet are rejected strictly', () => {
  strictFails('f0000005 0100 00 06', OTHER, 'reserved', 4);
  strictFails('f0000005 0000 00 07', OTHER, 'undefined', 7);
  strictFails('f0000005 0000 01 06', OTHER, 'reserved', 6);
  strictFails('f0000005 0000 01 0b', OTHER, 'reserved', 6);
  const a = dec('f0000005 0000 00 07');
  assert.ok(a.name === 'DATA_HEADER_FORMAT');
  assert.equal(a.formatName, 'UNDEFINED');
});

test('Annex 2 §3.5.3: attribute lists are read eight octets at a time; a short list is truncated', () => {
  const b = parseHex('f0000003 00000001 8001 0001 00000002');
  const list = decodeAttributes(b, 0, b.length, 2, ETH, true, 'c');
  assert.deepEqual(list.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'CONVEYANCE']);
  assert.throws(() => decodeAttributes(b, 0, b.length, 3, ETH, false, 'c'), (e: unknown) => e instanceof WireError && e.code === 'truncated');
});

test('Annex 2 §3.5.3 Table 3-2: encoding rejects IDs outside the three ranges and values of the wrong width', () => {
  assert.throws(
    () => {
      checkAttribute({ id: 0x100, value: new Uint8Array(7) }, 'a');
    },
    (e: unknown) => e instanceof WireError && e.code === 'range',
  );
  assert.throws(
    () => {
      checkAttribute({ id: 0xf0000000, value: new Uint8Array(6) }, 'a');
    },
    (e: unknown) => e instanceof WireError && e.code === 'range',
  );
  assert.throws(() => smpAttribute(0x8000, new Uint8Array(7)), WireError);
  assert.equal(smpAttribute(0x8000, new Uint8Array(6)).idBits, 16);
});
