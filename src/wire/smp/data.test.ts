import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decode, fails, flat } from '../../../test/support/smp.ts';
import { WireError } from '../errors.ts';
import { parseHex, toHex } from '../hex.ts';
import { decodeSmp, smpBytes } from './index.ts';
import { DATA2_MAX_PAYLOAD, segmentName, smpData, smpData1, smpData2 } from './data.ts';

// Table 4-12, a single-segment DATA:
//   Word 0: CMD 0x06 | VER 0x01 | Mailbox 0x02 | COS 0x05
//   Word 1: Reserved 0x0000 | SourceID 0x0012
//   Word 2: S=1 E=1 00 Length=5 → 0b1100_0000_0000_0101 = 0xC005 | StreamID 0x0042
//   payload "hello" 68 65 6C 6C 6F; 12 + 5 = 17 octets, seven zero pad octets to 24.
const DATA = '06010205 00000012 c0050042 68656c6c 6f000000 00000000';

test('Annex 2 §4.3.1 Table 4-12: DATA with S and E set carries the StreamID; <Length> excludes the header and the pad', () => {
  const m = decode(DATA);
  assert.ok(m.command === 'DATA');
  assert.deepEqual(
    [m.ver, m.mailbox, m.cos, m.rsrv, m.sourceID, m.s, m.e, m.segment, m.rsrv1, m.streamID, m.pduLength, toHex(m.payload), m.pad],
    [1, 2, 5, 0, 0x12, 1, 1, 'SINGLE', 0, 0x42, undefined, '68656c6c6f', undefined],
  );
  const built = smpData({ mailbox: 2, cos: 5, sourceID: 0x12, streamID: 0x42, payload: parseHex('68656c6c6f') });
  assert.equal(toHex(smpBytes(built)), flat(DATA));
});

test('Annex 2 §4.3.1: S marks the first segment, E the last, neither a middle segment', () => {
  assert.deepEqual([segmentName(1, 1), segmentName(1, 0), segmentName(0, 1), segmentName(0, 0)], ['SINGLE', 'START', 'END', 'CONTINUATION']);
});

test('Annex 2 §4.3.1: with neither S nor E the StreamID/PDU-Length field holds PDU-Length', () => {
  // Word 2: S=0 E=0 00 Length=8 → 0x0008 | PDU-Length 0x0100; payload 01..08; 20 octets + 4 pad.
  const hex = '06010205 00000012 00080100 01020304 05060708 00000000';
  const m = decode(hex);
  assert.ok(m.command === 'DATA');
  assert.deepEqual([m.segment, m.streamID, m.pduLength], ['CONTINUATION', undefined, 0x100]);
  const built = smpData({ mailbox: 2, cos: 5, sourceID: 0x12, s: 0, e: 0, pduLength: 0x100, payload: parseHex('0102030405060708') });
  assert.equal(toHex(smpBytes(built)), flat(hex));
});

test('Annex 2 §3.8.5, §4.3.1 Table 4-12: the Reserved octets and the 00 bits must be zero', () => {
  fails('06010205 00010012 c0050042 68656c6c 6f000000 00000000', 'reserved', 4);
  // 0xD005: S=1 E=1 bits 01 Length 5
  fails('06010205 00000012 d0050042 68656c6c 6f000000 00000000', 'reserved', 8);
  const m = decode('06010205 00000012 d0050042 68656c6c 6f000000 00000000', false);
  assert.equal(m.command === 'DATA' && m.rsrv1, 1);
});

test('Annex 2 §4.3.2: pad octets after the payload must contain zeros', () => {
  fails('06010205 00000012 c0050042 68656c6c 6f000000 00000001', 'reserved', 23);
  const m = decode('06010205 00000012 c0050042 68656c6c 6f000000 00000001', false);
  assert.equal(m.command === 'DATA' && m.pad && toHex(m.pad), '00000000000001');
});

test('Annex 2 §4.3.1: a payload shorter than <Length> is truncated', () => {
  const b = parseHex('06010205 00000012 c0100042 68656c6c');
  assert.throws(() => decodeSmp(b, 0, b.length), (e: unknown) => e instanceof WireError && e.code === 'truncated' && e.offset === 12);
});

// Table 4-13, the start segment of a DATA1:
//   Word 0: CMD 0x09 | VER 0x01 | Mailbox 0x02 | COS 0x05
//   Word 1: Reserved 0x0000 | SourceID 0x0012
//   Word 2: S=1 E=0 Length(30 bits)=3 → 0x80000003
//   Word 3: StreamID 0x0042 | Reserved 0x0000
//   payload "abc"; 16 + 3 = 19 octets, five zero pad octets to 24.
const DATA1 = '09010205 00000012 80000003 00420000 61626300 00000000';

test('Annex 2 §4.3.2 Table 4-13: DATA1 has a 30-bit Length and a 32-bit StreamID/PDU-Length word', () => {
  const m = decode(DATA1);
  assert.ok(m.command === 'DATA1');
  assert.deepEqual([m.segment, m.streamID, m.rsrv1, toHex(m.payload)], ['START', 0x42, 0, '616263']);
  const built = smpData1({ mailbox: 2, cos: 5, sourceID: 0x12, s: 1, e: 0, streamID: 0x42, payload: parseHex('616263') });
  assert.equal(toHex(smpBytes(built)), flat(DATA1));
});

test('Annex 2 §4.3.2 Table 4-13: with neither S nor E the last word is a 32-bit PDU-Length (up to 4 gigabytes)', () => {
  // Word 2: S=0 E=0 Length=1 → 0x00000001; Word 3: PDU-Length 0xFFFFFFF0; payload 0xAA; 7 pad.
  const hex = '09010205 00000012 00000001 fffffff0 aa000000 00000000';
  const m = decode(hex);
  assert.ok(m.command === 'DATA1');
  assert.deepEqual([m.segment, m.pduLength, m.streamID], ['CONTINUATION', 0xfffffff0, undefined]);
});

test('Annex 2 §4.3.2 Table 4-13: with neither S nor E there is no Reserved half to encode, so a non-zero rsrv1 is refused', () => {
  const m = decode('09010205 00000012 00000001 fffffff0 aa000000 00000000');
  assert.ok(m.command === 'DATA1');
  assert.throws(() => smpBytes({ ...m, rsrv1: 1 }), (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.field === 'rsrv1');
});

test('Annex 2 §3.5.2.1, DECISIONS §7: DATA1 is exempt from the <VER> 0x01 rule', () => {
  const m = decode('09070205 00000012 80000003 00420000 61626300 00000000');
  assert.ok(m.command === 'DATA1');
  assert.equal(m.ver, 7);
});

test('Annex 2 §3.8.5, §4.3.2 Table 4-13: the Reserved half of the StreamID word must be zero', () => {
  fails('09010205 00000012 80000003 00420001 61626300 00000000', 'reserved', 14);
});

// Table 4-14, DATA2:
//   CMD 0x0A | Implementation-Specific 0x5A | S=1 E=1 Length(14 bits)=4 → 0xC004
//   payload 01 02 03 04; 8 octets, no pad.
const DATA2 = '0a5ac004 01020304';

test('Annex 2 §4.3.3 Table 4-14: DATA2 is CMD, Implementation-Specific, S+E+Length(14 bits) and the payload', () => {
  const m = decode(DATA2);
  assert.ok(m.command === 'DATA2');
  assert.deepEqual([m.implementationSpecific, m.segment, toHex(m.payload)], [0x5a, 'SINGLE', '01020304']);
  assert.equal(toHex(smpBytes(smpData2({ implementationSpecific: 0x5a, payload: parseHex('01020304') }))), flat(DATA2));
});

test('Annex 2 §4.3.3: "the maximum PDU size is 16380 octets"', () => {
  const ok = smpData2({ payload: new Uint8Array(DATA2_MAX_PAYLOAD) });
  const b = smpBytes(ok);
  assert.equal(b.length, 16384);
  assert.equal(decodeSmp(b, 0, b.length, { strict: true }).command, 'DATA2');
  fails('0a00ffff', 'invalid', 2);
});

test('Annex 2 §4.3.4: DATA3 has no header; CMD 0x0B "must never be transmitted"', () => {
  fails('0b010000 00000000', 'invalid', 0);
  const m = decode('0b010000 00000000', false);
  assert.ok(m.command === 'UNKNOWN');
  assert.equal(m.cmd, 0x0b);
});
