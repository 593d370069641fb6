import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, fails } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { decodeSmp, smpBytes } from './index.ts';
import { smpAdvertiseAttributes, smpAdvertiseProtocols, smpAdvertiseUnsupported, smpRequest } from './request-advertise.ts';
import { attrConveyanceMailbox, attrMacAddress, attrMtu, attrProtocolName, attrVendor, smpAttribute } from './attribute-build.ts';

// Table 4-1, a protocol-list request:
//   Word 0: CMD 0x01 | VER 0x01 | SourceID 0x0012
//   Word 1: DestID 0x0034 | COS 0x05 | Reserved 0x00
//   Word 2: ProtoID 0xFFFF | NumAttrib 0x0000
//   Word 3: Reserved (the pad of the 12 header octets to 16)
const REQUEST_LIST = '01010012 00340500 ffff0000 00000000';

test('Annex 2 §4.2.1 Table 4-1: REQUEST with ProtoID 0xFFFF asks for the protocol list', () => {
  const m = decode(REQUEST_LIST);
  assert.ok(m.command === 'REQUEST');
  assert.deepEqual(
    [m.cmd, m.ver, m.version, m.sourceID, m.destID, m.cos, m.rsrv, m.protoID, m.protocol, m.attributes.length, m.pad],
    [1, 1, 'V1', 0x12, 0x34, 5, 0, 0xffff, 'PROTOCOL_LIST', 0, undefined],
  );
  assert.equal(toHex(smpBytes(smpRequest({ sourceID: 0x12, destID: 0x34, cos: 5, protoID: 0xffff }))), REQUEST_LIST.replace(/ /g, ''));
});

test('Annex 2 §4.2.1: a REQUEST for one protocol may list the attributes wanted; the attributes follow <NumAttrib>', () => {
  // Word 2: ProtoID 0x0102 (Ethernet) | NumAttrib 2, then MTU (0x8002 + six octets) and MAC_ADDRESS
  // (0x8003 + six octets): 12 + 16 = 28 octets, padded with four zero octets to 32.
  const hex = '01010012 00340500 01020002 80020000 00000000 80030000 00000000 00000000';
  const m = decode(hex);
  assert.ok(m.command === 'REQUEST');
  assert.equal(m.protocol, 'ETHERNET');
  assert.deepEqual(m.attributes.map((a) => a.name), ['MTU', 'MAC_ADDRESS']);
  const built = smpRequest({ sourceID: 0x12, destID: 0x34, cos: 5, protoID: 0x0102, attributes: [attrMtu(0), attrMacAddress(new Uint8Array(6))] });
  assert.equal(toHex(smpBytes(built)), hex.replace(/ /g, ''));
});

test('Annex 2 §4.2.1: a protocol-list REQUEST is "without attributes"', () => {
  // NumAttrib 1 with ProtoID 0xFFFF, one attribute, pad to 24.
  const hex = '01010012 00340500 ffff0001 f0000003 00000001 00000000';
  fails(hex, 'invalid', 10);
  const m = decode(hex, false);
  assert.ok(m.command === 'REQUEST');
  assert.equal(m.attributes.length, 1);
});

test('Annex 2 §3.8.5, §4.2.1 Table 4-1: the Reserved octet 7 must be zero; lenient decoding keeps it', () => {
  const hex = '01010012 003405a5 ffff0000 00000000';
  fails(hex, 'reserved', 7);
  const m = decode(hex, false);
  assert.ok(m.command === 'REQUEST');
  assert.equal(m.rsrv, 0xa5);
});

test('Annex 2 §4.2.2, DECISIONS §7: ADVERTISE with S=0 (not supported) has A=0 and Count=0', () => {
  // Word 0: CMD 0x02 | VER 0x01 | SourceID 0x0034; Word 1: DestID 0x0012 | S=0 A=0 Count=0 (0x0000).
  const hex = '02010034 00120000';
  const m = decode(hex);
  assert.ok(m.command === 'ADVERTISE');
  assert.deepEqual([m.s, m.a, m.variant, m.protocols.length], [0, 0, 'NOT_SUPPORTED', 0]);
  assert.equal(toHex(smpBytes(smpAdvertiseUnsupported({ sourceID: 0x34, destID: 0x12 }))), hex.replace(/ /g, ''));
});

test('Annex 2 §4.2.2 Table 4-3: ADVERTISE protocol list, S=1 A=0, Count ProtoIDs padded to 8 octets', () => {
  // Word 1: DestID 0x0012 | S=1 A=0 Count=2 → 0b10_00000000000010 = 0x8002
  // Word 2: ProtoID_1 0x0101 | ProtoID_2 0x0102; 12 octets, then four Reserved octets to 16.
  const hex = '02010034 00128002 01010102 00000000';
  const m = decode(hex);
  assert.ok(m.command === 'ADVERTISE' && m.a === 0);
  assert.deepEqual([m.s, m.variant], [1, 'PROTOCOL_LIST']);
  assert.deepEqual(m.protocols, [
    { protoID: 0x0101, protocol: 'VENDOR_DEFINED' },
    { protoID: 0x0102, protocol: 'ETHERNET' },
  ]);
  assert.equal(toHex(smpBytes(smpAdvertiseProtocols({ sourceID: 0x34, destID: 0x12, protoIDs: [0x0101, 0x0102] }))), hex.replace(/ /g, ''));
});

test('Annex 2 §4.2.2: the protocol list pad is zero to seven Reserved octets (message length a multiple of 8)', () => {
  for (const [count, length] of [[0, 8], [1, 16], [3, 16], [4, 16], [5, 24]] as const) {
    const m = smpAdvertiseProtocols({ sourceID: 1, destID: 2, protoIDs: Array.from({ length: count }, (_, i) => 0x0200 + i) });
    const b = smpBytes(m);
    assert.equal(b.length, length, `Count=${count}`);
    assert.ok(b.subarray(8 + 2 * count).every((x) => x === 0));
    assert.deepEqual(decodeSmp(b, 0, b.length, { strict: true }), m);
  }
});

test('Annex 2 §4.2.2: pad octets "must contain zero (0) values"; a missing pad is kept leniently, rejected strictly', () => {
  fails('02010034 00128002 01010102 00000001', 'reserved', 15);
  fails('02010034 00128002 01010102', 'truncated', 12);
  fails('02010034 00128002 01010102 00000000 00000000', 'trailing-bytes', 16);
  const m = decode('02010034 00128002 01010102', false);
  assert.equal(m.command === 'ADVERTISE' && m.pad?.length, 0);
  const p = decode('02010034 00128002 01010102 00000001', false);
  assert.equal(p.command === 'ADVERTISE' && p.pad && toHex(p.pad), '00000001');
});

test('Annex 2 §4.2.2 Table 4-2: ADVERTISE attributes, S=1 A=1, blocks back to back, the pad only at the end', () => {
  // Word 1: DestID 0x0012 | S=1 A=1 Count=2 → 0xC002
  // Block 1: ProtoID 0x0102 | numAttributes 1 | MTU 0x8002 00000000 05DC
  // Block 2: ProtoID 0x0101 | numAttributes 2 | VENDOR 0x00 00A01E 00000000 | PROTOCOL_NAME 0x01 "PROTO\0\0"
  // 8 + 12 + 20 = 40 octets: already a multiple of 8, no pad.
  const hex = '02010034 0012c002 01020001 80020000 000005dc 01010002 0000a01e 00000000 0150524f 544f0000';
  const m = decode(hex);
  assert.ok(m.command === 'ADVERTISE' && m.a === 1);
  assert.equal(m.variant, 'PROTOCOL_ATTRIBUTES');
  assert.deepEqual(m.protocols.map((p) => [p.protoID, p.attributes.map((a) => a.name)]), [
    [0x0102, ['MTU']],
    [0x0101, ['VENDOR', 'PROTOCOL_NAME']],
  ]);
  const built = smpAdvertiseAttributes({
    sourceID: 0x34,
    destID: 0x12,
    protocols: [
      { protoID: 0x0102, attributes: [attrMtu(1500)] },
      { protoID: 0x0101, attributes: [attrVendor({ oui: 0x00a01e }), attrProtocolName('PROTO')] },
    ],
  });
  assert.equal(toHex(smpBytes(built)), hex.replace(/ /g, ''));
});

test('Annex 2 §4.2.2 Table 4-2: one Ethernet block of three attributes is padded with four octets to 40', () => {
  // 8 + (4 + 3×8) = 36 → 4 zero octets.
  const m = smpAdvertiseAttributes({
    sourceID: 0x34,
    destID: 0x12,
    protocols: [{ protoID: 0x0102, attributes: [attrMtu(1500), attrConveyanceMailbox(2), attrMacAddress(parseHex('00a01e010203'))] }],
  });
  const b = smpBytes(m);
  // 0x0102 0x0003 | 0x8002 00000000 05DC | 0x8001 0001 00000002 | 0x8003 00A01E010203 | pad
  assert.equal(toHex(b), '02010034 0012c001 01020003 80020000 000005dc 80010001 00000002 800300a0 1e010203 00000000'.replace(/ /g, ''));
  assert.deepEqual(decodeSmp(b, 0, b.length, { strict: true }), m);
});

test('Annex 2 §4.2.2: S+A = 0b01 is reserved', () => {
  // Word 1: S=0 A=1 Count=0 → 0x4000
  const hex = '02010034 00124000';
  fails(hex, 'reserved', 6);
  const m = decode(hex, false);
  assert.ok(m.command === 'ADVERTISE');
  assert.deepEqual([m.s, m.a, m.variant], [0, 1, 'RESERVED']);
});

test('Annex 2 §4.2.2, DECISIONS §7: with S=0 Count is invalid and must be zero; lenient decoding keeps the list', () => {
  // S=0 A=0 Count=1 → 0x0001, ProtoID 0x0101, six pad octets.
  const hex = '02010034 00120001 01010000 00000000';
  fails(hex, 'invalid', 6);
  const m = decode(hex, false);
  assert.ok(m.command === 'ADVERTISE');
  assert.deepEqual([m.variant, m.protocols.length], ['NOT_SUPPORTED', 1]);
});

test('Annex 2 §3.5.2.3: ProtoID 0xFFFF is reserved outside REQUEST', () => {
  fails('02010034 00128001 ffff0000 00000000', 'reserved', 8);
});

test('Annex 2 §3.5.3, §4.2.2: strict decoding applies the attribute order rules to every ADVERTISE block', () => {
  // ProtoID 0x1234 | 2 attributes: vendor-specific 0xEF00 before any VENDOR.
  const m = smpAdvertiseAttributes({
    sourceID: 1,
    destID: 2,
    protocols: [{ protoID: 0x1234, attributes: [smpAttribute(0xef00, new Uint8Array(6)), attrVendor({ oui: 1 })] }],
  });
  const b = smpBytes(m);
  assert.throws(() => decodeSmp(b, 0, b.length, { strict: true }), (e: unknown) => e instanceof WireError && e.offset === 12 && e.code === 'invalid');
  assert.deepEqual(decodeSmp(b, 0, b.length), m);
});

test('DECISIONS §7: each ADVERTISE block names its attributes under its own ProtoID (0x8003 MAC_ADDRESS vs DATA_OFFSET)', () => {
  // Count=2 (0xC002); block 1 ProtoID 0x0102 | 1 | 0x8003 00A01E010203; block 2 ProtoID 0x1234 | 1 | the same octets.
  const hex = '02010034 0012c002 01020001 800300a0 1e010203 12340001 800300a0 1e010203';
  const m = decode(hex);
  assert.ok(m.command === 'ADVERTISE' && m.a === 1);
  const [eth, other] = m.protocols.map((p) => p.attributes[0]);
  assert.ok(eth?.name === 'MAC_ADDRESS');
  assert.equal(toHex(eth.macAddress), '00a01e010203');
  assert.ok(other?.name === 'DATA_OFFSET');
  assert.deepEqual([other.offset, toHex(other.vendor)], [0x00, 'a01e010203']);
});
