import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, fails, flat } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { decodeSmp, smpBytes } from './index.ts';
import { smpAccept, smpOpen, smpRefuse } from './open-accept-refuse.ts';
import type { SmpOpen } from './open-accept-refuse.ts';
import { attrConveyanceMailbox, attrMacAddress, attrMtu, attrPeriod } from './attribute-build.ts';

// Table 4-4, an Ethernet OPEN:
//   Word 0: CMD 0x03 | VER 0x01 | SourceID 0x0012
//   Word 1: ProtoID 0x0102 | numAttributes 4
//   OPEN_MESSAGE_NUMBER 0xF0000003 | 0x00000007   (first, §4.2.3)
//   MTU 0x8002 | 0x00000000 05DC                  (§7.2.1)
//   CONVEYANCE 0x8001 | channel 0x0001 | 0x00000002 (mailbox 2, Table 3-8)
//   MAC_ADDRESS 0x8003 | 00A01E010203              (§7.2.3)
// 8 + 32 = 40 octets: a multiple of 8, no pad.
const OPEN = '03010012 01020004 f0000003 00000007 80020000 000005dc 80010001 00000002 800300a0 1e010203';

function ethernetOpen(): SmpOpen {
  return smpOpen({
    sourceID: 0x12,
    protoID: 0x0102,
    openMessageNumber: 7,
    attributes: [attrMtu(1500), attrConveyanceMailbox(2), attrMacAddress(parseHex('00a01e010203'))],
  });
}

test('Annex 2 §4.2.3 Table 4-4: OPEN carries SourceID, ProtoID and attributes, OPEN_MESSAGE_NUMBER first', () => {
  const m = decode(OPEN);
  assert.ok(m.command === 'OPEN');
  assert.deepEqual([m.cmd, m.ver, m.sourceID, m.protoID, m.protocol], [3, 1, 0x12, 0x0102, 'ETHERNET']);
  assert.deepEqual(m.attributes.map((a) => a.name), ['OPEN_MESSAGE_NUMBER', 'MTU', 'CONVEYANCE', 'MAC_ADDRESS']);
  assert.equal(toHex(smpBytes(ethernetOpen())), flat(OPEN));
  assert.deepEqual(m, ethernetOpen());
});

test('Annex 2 §4.2.3: strict decoding rejects an OPEN whose first attribute is not OPEN_MESSAGE_NUMBER', () => {
  // Word 1: ProtoID 0x1234 | 1 attribute: REQUEST_RETRY_PERIOD.
  const hex = '03010012 12340001 f0000000 0003d090';
  fails(hex, 'invalid', 8);
  const m = decode(hex, false);
  assert.equal(m.command === 'OPEN' && m.attributes[0]?.name, 'REQUEST_RETRY_PERIOD');
});

test('Annex 2 §7.2: strict decoding rejects an Ethernet OPEN without MAC_ADDRESS', () => {
  const hex = '03010012 01020003 f0000003 00000007 80020000 000005dc 80010001 00000002';
  fails(hex, 'invalid', 32);
});

test('Annex 2 §3.5.2.3: ProtoID 0xFFFF is reserved in an OPEN', () => {
  fails('03010012 ffff0001 f0000003 00000007', 'reserved', 4);
});

// Table 4-5, the ACCEPT answering it:
//   Word 0: CMD 0x04 | VER 0x01 | DestID 0x0034
//   Word 1: ack-type 0x00 | COS 0x05 | StreamID 0x0042
//   Word 2: ProtoID 0x0102 | numAttributes 1
//   OPEN_MESSAGE_NUMBER 0xF0000003 | 0x00000007 ("the only attribute required", §4.2.4)
// 20 octets, four zero pad octets to 24.
const ACCEPT = '04010034 00050042 01020001 f0000003 00000007 00000000';

test('Annex 2 §4.2.4 Table 4-5: ACCEPT carries DestID, ack type, COS, StreamID and the OPEN_MESSAGE_NUMBER', () => {
  const m = decode(ACCEPT);
  assert.ok(m.command === 'ACCEPT');
  assert.deepEqual([m.destID, m.ackType, m.ackTypeName, m.cos, m.streamID, m.protoID], [0x34, 0, 'NORMAL', 5, 0x42, 0x0102]);
  const built = smpAccept({ destID: 0x34, cos: 5, streamID: 0x42, open: ethernetOpen() });
  assert.equal(toHex(smpBytes(built)), flat(ACCEPT));
});

test('Annex 2 §4.2.4: ack types 1-255 are reserved', () => {
  const hex = '04010034 01050042 01020001 f0000003 00000007 00000000';
  fails(hex, 'reserved', 4);
  const m = decode(hex, false);
  assert.equal(m.command === 'ACCEPT' && m.ackTypeName, 'RESERVED');
});

test('Annex 2 §3.5.2.5 Table 3-1: an ACCEPT must not assign StreamID 0xFFFF', () => {
  fails('04010034 0005ffff 01020001 f0000003 00000007 00000000', 'invalid', 6);
});

test('Annex 2 §3.8.2: an ACCEPT with duplicate attributes is rejected strictly', () => {
  const m = smpAccept({ destID: 1, streamID: 2, protoID: 0x1234, attributes: [attrPeriod('REQUEST_RETRY_PERIOD', 1), attrPeriod('REQUEST_RETRY_PERIOD', 2)], open: smpOpen({ sourceID: 1, protoID: 0x1234, openMessageNumber: 9 }) });
  const b = smpBytes(m);
  assert.throws(() => decodeSmp(b, 0, b.length, { strict: true }), (e: unknown) => e instanceof WireError && e.offset === 28);
});

// Table 4-6, a REFUSE carrying all the OPEN's attributes (§3.5.1.5):
//   Word 0: CMD 0x05 | VER 0x01 | DestID 0x0034
//   Word 1: nack-type 0x00 | 0xFF 0xFF 0xFF
//   Word 2: ProtoID 0x0102 | numAttributes 4
//   the four attributes of OPEN above; 12 + 32 = 44 octets, four zero pad octets to 48.
const REFUSE = '05010034 00ffffff 01020004 f0000003 00000007 80020000 000005dc 80010001 00000002 800300a0 1e010203 00000000';

test('Annex 2 §4.2.5 Table 4-6, §3.5.1.5: REFUSE carries the OPEN\'s ProtoID and attributes', () => {
  const m = decode(REFUSE);
  assert.ok(m.command === 'REFUSE');
  assert.deepEqual([m.destID, m.nackType, m.nackTypeName, m.fill, m.protoID], [0x34, 0, 'NORMAL', 0xffffff, 0x0102]);
  assert.equal(m.attributes.length, 4);
  assert.equal(toHex(smpBytes(smpRefuse({ destID: 0x34, open: ethernetOpen() }))), flat(REFUSE));
});

test('Annex 2 §4.2.5: nack types 1-255 are reserved', () => {
  fails('05010034 02ffffff 12340001 f0000003 00000007 00000000', 'reserved', 4);
});

test('Annex 2 §4.2.5 Table 4-6: octets 5-7 are 0xFF 0xFF 0xFF; lenient decoding keeps other values', () => {
  const hex = '05010034 00ff00ff 12340001 f0000003 00000007 00000000';
  fails(hex, 'invalid', 5);
  const m = decode(hex, false);
  assert.equal(m.command === 'REFUSE' && m.fill, 0xff00ff);
});

test('Annex 2 §4.2.5: the only attribute a REFUSE requires is OPEN_MESSAGE_NUMBER, first', () => {
  fails('05010034 00ffffff 12340001 f0000000 00000007 00000000', 'invalid', 12);
  const m = smpRefuse({ destID: 1, protoID: 0x1234, attributes: ethernetOpen().attributes.slice(0, 1) });
  const b = smpBytes(m);
  assert.deepEqual(decodeSmp(b, 0, b.length, { strict: true }), m);
});
