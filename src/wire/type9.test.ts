import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hex, serial, seg, throwsWire, transport } from '../../test/support/type9-codec.ts';
import { decodeType9, encodeType9, type9Codec } from './type9.ts';
import type { Type9Packet, Type9StartPacket } from './type9.ts';
import { decodeSerial } from './serial.ts';
import { parseHex, toHex } from './hex.ts';

const range = (from: number, n: number) => Uint8Array.from({ length: n }, (_, i) => from + i);

// Figure 4-1, Dev8 single segment, 4 data bytes (2 half-words: O=0, P=0):
//   byte 0 = ackID 0 | VC 0 | CRF 0 = 0x00; byte 1 = prio 01 | tt 00 | ftype 1001 = 0x49
//   destinationID 0x05, sourceID 0x06, cos 0x80
//   flags = S 1 | E 1 | rsrv 000 | xh 0 | O 0 | P 0 = 0xc0; streamID 0xbeef; payload 01020304
//   CRC 0x817e (crc16Bitwise); 12 + 2 = 14 → pad to 16.
const DEV8_SINGLE = '0049 05 06 80 c0 beef 01020304 817e 0000';
const dev8SingleNoOP: Type9StartPacket = {
  ackID: 0, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 9, destinationID: 5, sourceID: 6, cos: 0x80,
  start: 1, end: 1, rsrv: 0, xh: 0, segment: 'single', streamID: 0xbeef, payload: Uint8Array.from([1, 2, 3, 4]),
};
const dev8Single: Type9Packet = { ...dev8SingleNoOP, odd: 0, pad: 0 };

test('Part 10 §4.2 Figure 4-1: Dev8 single segment golden vector', () => {
  const bytes = parseHex(DEV8_SINGLE);
  assert.deepEqual(decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true }), { ...dev8Single, crc: 0x817e });
  assert.equal(toHex(serial(dev8Single)), hex(DEV8_SINGLE));
});

// Figure 4-2, Dev16 start segment, MTU 32:
//   byte 0 = ackID 000001 | 0 | 0 = 0x04; byte 1 = prio 01 | tt 01 | 1001 = 0x59
//   destinationID 0x0102, sourceID 0x0304, cos 0x07, flags = S 1 | E 0 | 000 | 0 | rsv 00 = 0x80
//   streamID 0x0042, payload 00..1f; 42 bytes + CRC 0xd498 = 44, no pad.
const DEV16_START = `0459 0102 0304 07 80 0042 ${toHex(range(0, 32))} d498`;

test('Part 10 §4.2 Figure 4-2: Dev16 start segment golden vector (payload = MTU, O/P reserved 0)', () => {
  const bytes = parseHex(DEV16_START);
  const p = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  assert.equal(p.segment, 'start');
  assert.equal(seg(p, 'start').streamID, 0x42);
  assert.deepEqual(seg(p, 'start').payload, range(0, 32));
  assert.equal(p.crc, 0xd498);
  assert.equal(toHex(serial(p)), hex(DEV16_START));
});

// Figure 4-3, Dev16 continuation: byte 0 = ackID 000010 → 0x08, 0x59, ids, cos 0x07,
//   flags = S 0 | E 0 | 000 | 0 | rsv 00 = 0x00, payload 20..3f (no streamID or length);
//   40 bytes + CRC 0x7dd4 = 42 → pad to 44.
const DEV16_CONT = `0859 0102 0304 07 00 ${toHex(range(32, 32))} 7dd4 0000`;

test('Part 10 §4.2 Figure 4-3: Dev16 continuation segment golden vector (payload follows the header directly)', () => {
  const bytes = parseHex(DEV16_CONT);
  const p = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  assert.equal(p.segment, 'continuation');
  assert.deepEqual(seg(p, 'continuation').payload, range(32, 32));
  assert.equal('streamID' in p, false);
  assert.equal(toHex(serial(p)), hex(DEV16_CONT));
});

// Figure 4-4, Dev16 end segment, O=1 P=1: 5 data bytes + pad = 3 half-words.
//   byte 0 = ackID 000011 → 0x0c, 0x59, ids, cos 0x07
//   flags = S 0 | E 1 | 000 | 0 | O 1 | P 1 = 0x43; length 0x0045 (69 = 32 + 32 + 5)
//   payload 40 41 42 43 44, "half-word (last byte || pad=0x00)"; 16 bytes + CRC 0x3f4b → pad to 20.
const DEV16_END = '0c59 0102 0304 07 43 0045 4041424344 00 3f4b 0000';

test('Part 10 §4.2 Figure 4-4: Dev16 end segment golden vector with O=1, P=1; the pad byte is not in payload', () => {
  const bytes = parseHex(DEV16_END);
  const p = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  assert.deepEqual(p, {
    ackID: 3, vc: 0, crf: 0, prio: 1, tt: 1, ftype: 9, destinationID: 0x0102, sourceID: 0x0304, cos: 7,
    start: 0, end: 1, rsrv: 0, xh: 0, odd: 1, pad: 1, segment: 'end', length: 69, pduLength: 69,
    payload: Uint8Array.from([0x40, 0x41, 0x42, 0x43, 0x44]), crc: 0x3f4b,
  });
  assert.equal(toHex(serial(p)), hex(DEV16_END));
});

// Dev32 single segment, 3 bytes + pad = 2 half-words: O=0, P=1.
//   byte 1 = prio 10 | tt 10 | 1001 = 0xa9; destinationID 0x01020304, sourceID 0x05060708, cos 0xff
//   flags = 1 | 1 | 000 | 0 | O 0 | P 1 = 0xc1; streamID 0x1234; aa bb cc 00; 18 + CRC 0x280d = 20.
const DEV32_SINGLE = '00a9 01020304 05060708 ff c1 1234 aabbcc 00 280d';

test('Part 10 §4.2 Figure 4-1, Part 3 Dev32: Dev32 single segment golden vector', () => {
  const bytes = parseHex(DEV32_SINGLE);
  const p = decodeSerial(type9Codec, bytes, 0, bytes.length, { strict: true });
  assert.equal(p.destinationID, 0x01020304);
  assert.equal(p.sourceID, 0x05060708);
  const q = seg(p, 'single');
  assert.deepEqual([q.odd, q.pad, q.streamID, toHex(q.payload)], [0, 1, 0x1234, 'aabbcc']);
  assert.equal(toHex(serial(p)), hex(DEV32_SINGLE));
});

test('Part 10 §4.2 Table 4-2: O and P for payloads of 1, 2, 3 and 4 bytes', () => {
  // [length, flags byte (S E rsrv xh O P), bytes after the streamID]
  const rows: [number, number, string][] = [
    [1, 0b11000011, 'aa00'], // 1 half-word after padding: O=1, pad byte: P=1
    [2, 0b11000010, 'aabb'], // 1 half-word: O=1, P=0
    [3, 0b11000001, 'aabbcc00'], // 2 half-words: O=0, P=1
    [4, 0b11000000, 'aabbccdd'], // 2 half-words: O=0, P=0
  ];
  for (const [n, flags, tail] of rows) {
    const payload = Uint8Array.from([0xaa, 0xbb, 0xcc, 0xdd].slice(0, n));
    const p: Type9Packet = { ...dev8SingleNoOP, payload };
    const bytes = transport(p);
    assert.equal(toHex(bytes), `00490506 80${flags.toString(16)} beef${tail}`.replace(/ /g, ''), `length ${n}`);
    const back = decodeType9(bytes, 0, bytes.length, { strict: true });
    assert.deepEqual(seg(back, 'single').payload, payload);
    assert.deepEqual([back.odd, back.pad], [(flags >> 1) & 1, flags & 1]);
    // O is what lets serial framing find the CRC in front of the 0x0000 pad.
    const s = serial(p);
    assert.deepEqual(seg(decodeSerial(type9Codec, s, 0, s.length, { strict: true }), 'single').payload, payload);
  }
});

test('Part 10 §4.2 Table 4-1: length 0x0000 is a 64-kbyte PDU when the end segment has a payload', () => {
  // 0x49 Dev8 prefix, flags = S 0 | E 1 | 000 | 0 | O 1 | P 0 = 0x42, length 0x0000, one half-word.
  const bytes = parseHex('0049 05 06 00 42 0000 abcd');
  const p = decodeType9(bytes, 0, bytes.length, { strict: true });
  assert.equal(p.segment, 'end');
  assert.deepEqual([seg(p, 'end').length, seg(p, 'end').pduLength], [0, 65536]);
  assert.equal(toHex(transport(p)), hex('0049 05 06 00 42 0000 abcd'));
  const q = decodeType9(parseHex('0049 05 06 00 42 ffff abcd'), 0, 10);
  assert.deepEqual([seg(q, 'end').length, seg(q, 'end').pduLength], [0xffff, 0xffff]);
});

test('Part 10 §3.2.5 rule 9: an end segment with length 0 and no payload aborts the PDU', () => {
  // flags = S 0 | E 1 | 000 | 0 | 0 | 0 = 0x40; length 0x0000; nothing after.
  const bytes = parseHex('0049 05 06 00 40 0000');
  const p = decodeType9(bytes, 0, bytes.length, { strict: true });
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 9, destinationID: 5, sourceID: 6, cos: 0, start: 0, end: 1,
    rsrv: 0, xh: 0, odd: 0, pad: 0, segment: 'abort', length: 0, payload: new Uint8Array(0),
  });
  assert.equal(toHex(transport(p)), hex('0049 05 06 00 40 0000'));
  const s = serial(p);
  assert.equal(s.length, 12);
  assert.equal(decodeSerial(type9Codec, s, 0, s.length, { strict: true }).segment, 'abort');
  // An abort with O or P set is kept by lenient decoding, rejected by strict.
  const odd = parseHex('0049 05 06 00 42 0000');
  assert.equal(decodeType9(odd, 0, 8).segment, 'abort');
  throwsWire(() => decodeType9(odd, 0, 8, { strict: true }), 'invalid', 'odd');
});

test('Part 10 §4.2: "Type 9 packets always have a data payload, unless terminating the PDU" (strict)', () => {
  const emptyEnd = parseHex('0049 05 06 00 40 0010');
  assert.equal(decodeType9(emptyEnd, 0, 8).segment, 'end');
  throwsWire(() => decodeType9(emptyEnd, 0, 8, { strict: true }), 'invalid', 'payload', 8);
  const emptySingle = parseHex('0049 05 06 00 c0 0010');
  throwsWire(() => decodeType9(emptySingle, 0, 8, { strict: true }), 'invalid', 'payload');
});

test('Part 10 §4.2 Table 4-2: strict mode checks O against the half-word count and P against a pad byte', () => {
  // 2 half-words with O=1: lenient keeps O, strict rejects.
  const wrongO = parseHex('0049 05 06 80 c2 beef 01020304');
  const p = decodeType9(wrongO, 0, wrongO.length);
  assert.equal(p.odd, 1);
  assert.equal(toHex(transport(p)), hex('0049 05 06 80 c2 beef 01020304'));
  throwsWire(() => decodeType9(wrongO, 0, wrongO.length, { strict: true }), 'invalid', 'odd');
  // P=1 with no payload at all: kept by lenient decoding; strict rejects the missing payload.
  const padNoByte = parseHex('0049 05 06 80 c1 beef');
  const q = decodeType9(padNoByte, 0, 8);
  assert.deepEqual([q.pad, seg(q, 'single').payload.length], [1, 0]);
  assert.equal(toHex(transport(q)), hex('0049 05 06 80 c1 beef'));
  throwsWire(() => decodeType9(padNoByte, 0, 8, { strict: true }), 'invalid', 'payload');
});

test('Part 10 §4.2 Figure 4-4 "pad=0x00": a non-zero pad byte is kept as padByte (lenient) and rejected (strict)', () => {
  const bytes = parseHex('0049 05 06 80 c3 beef aa 5a');
  const p = decodeType9(bytes, 0, bytes.length);
  assert.deepEqual([toHex(seg(p, 'single').payload), seg(p, 'single').padByte], ['aa', 0x5a]);
  assert.equal(toHex(transport(p)), hex('0049 05 06 80 c3 beef aa 5a'));
  throwsWire(() => decodeType9(bytes, 0, bytes.length, { strict: true }), 'reserved', 'padByte', 9);
});

test('Part 10 §4.2 Figures 4-2/4-3: O and P are reserved in start and continuation segments', () => {
  const start = parseHex(`0049 05 06 00 82 0001 ${toHex(range(0, 32))}`);
  const p = decodeType9(start, 0, start.length);
  assert.equal(p.odd, 1);
  assert.deepEqual(transport(p), start);
  throwsWire(() => decodeType9(start, 0, start.length, { strict: true }), 'reserved', 'odd', 5);
  const cont = parseHex(`0049 05 06 00 01 ${toHex(range(0, 32))}`);
  throwsWire(() => decodeType9(cont, 0, cont.length, { strict: true }), 'reserved', 'pad', 5);
});

test('Part 10 §3.2.4, §5.5.1: start and continuation payloads are the MTU, a multiple of 4 from 32 to 256 (strict)', () => {
  for (const n of [30, 28, 260, 0]) {
    const cont = parseHex(`0049 05 06 00 00 ${toHex(new Uint8Array(n))}`);
    assert.equal(decodeType9(cont, 0, cont.length).segment, 'continuation');
    throwsWire(() => decodeType9(cont, 0, cont.length, { strict: true }), 'invalid', 'payload', 6);
  }
  for (const n of [32, 36, 256]) {
    const cont = parseHex(`0049 05 06 00 00 ${toHex(new Uint8Array(n))}`);
    assert.equal(decodeType9(cont, 0, cont.length, { strict: true }).segment, 'continuation');
  }
});

test('Part 10 §3.2.5 Reassembly rule 3: a single segment larger than the largest MTU (256) is rejected in strict mode', () => {
  // 258 bytes = 129 half-words: O=1 (flags 0xc2), so only the size is wrong.
  const big = parseHex(`0049 05 06 00 c2 0001 ${toHex(new Uint8Array(258))}`);
  throwsWire(() => decodeType9(big, 0, big.length, { strict: true }), 'invalid', 'payload');
  assert.equal(decodeType9(big, 0, big.length).segment, 'single');
});

test('Part 10 §4.2 Table 4-1 rsrv: reserved bits of data headers are kept (lenient) and rejected (strict)', () => {
  // flags = S 1 | E 1 | rsrv 101 | xh 0 | O 0 | P 0 = 0xe8
  const bytes = parseHex('0049 05 06 80 e8 beef 01020304');
  const p = decodeType9(bytes, 0, bytes.length);
  assert.equal(seg(p, 'single').rsrv, 0b101);
  assert.deepEqual(transport(p), bytes);
  throwsWire(() => decodeType9(bytes, 0, bytes.length, { strict: true }), 'reserved', 'rsrv', 5);
});

test('Part 10 §4.2: the payload is a whole number of half-words; an odd byte count is invalid in both modes', () => {
  const bytes = parseHex('0049 05 06 80 c0 beef 010203');
  throwsWire(() => decodeType9(bytes, 0, bytes.length), 'invalid', 'payload', 10);
  throwsWire(() => decodeType9(parseHex('0049 05 06 80 00 010203'), 0, 9), 'invalid', 'payload');
});

test('Part 10 §4.2: truncated headers, a foreign ftype and tt 0b11 throw WireError', () => {
  throwsWire(() => decodeType9(parseHex('0049 05 06 80'), 0, 5), 'truncated', 'header');
  throwsWire(() => decodeType9(parseHex('0049 05 06 80 c0 be'), 0, 7), 'truncated', 'streamID');
  throwsWire(() => decodeType9(parseHex('0049 05 06 80 40 00'), 0, 7), 'truncated', 'length');
  throwsWire(() => decodeType9(parseHex('0047 05 06 80 c0 beef'), 0, 8), 'invalid', 'ftype', 1);
  throwsWire(() => decodeType9(parseHex('0079 05 06 80 c0 beef'), 0, 8), 'reserved', 'tt', 1);
  throwsWire(() => decodeType9(parseHex('00'), 0, 1), 'truncated', 'prefix');
});

test('Part 10 §4.2: the encoder checks ranges, labels against raw fields, and payload parity', () => {
  const out = new Uint8Array(300);
  throwsWire(() => encodeType9({ ...dev8Single, cos: 256 }, out, 0), 'range', 'cos');
  throwsWire(() => encodeType9({ ...dev8Single, streamID: 0x10000 }, out, 0), 'range', 'streamID');
  throwsWire(() => encodeType9({ ...dev8Single, segment: 'start' }, out, 0), 'invalid', 'segment');
  throwsWire(() => encodeType9({ ...dev8Single, start: 0 }, out, 0), 'invalid', 'segment');
  throwsWire(() => encodeType9({ ...dev8Single, pad: 1 }, out, 0), 'invalid', 'pad');
  throwsWire(() => encodeType9({ ...dev8Single, padByte: 1 }, out, 0), 'invalid', 'padByte');
  throwsWire(() => encodeType9({ ...dev8Single, start: 1, end: 0, segment: 'start', payload: new Uint8Array(3) }, out, 0), 'invalid', 'payload');
  throwsWire(() => encodeType9({ ...dev8Single, destinationID: 256 }, out, 0), 'range', 'destinationID');
  throwsWire(() => encodeType9(dev8Single, new Uint8Array(11), 0), 'range', 'buffer');
  const end = decodeType9(parseHex('0049 05 06 00 42 0000 abcd'), 0, 10);
  throwsWire(() => encodeType9({ ...end, pduLength: 5 } as Type9Packet, out, 0), 'invalid', 'pduLength');
  const tm = decodeType9(parseHex('0009 06 15 03 04 0000 01 00 00 00'), 0, 12);
  throwsWire(() => encodeType9({ ...tm, tm: { message: 'XON' } } as Type9Packet, out, 0), 'invalid', 'tm');
  throwsWire(() => encodeType9({ ...tm, operand: { scope: 'stream' } } as Type9Packet, out, 0), 'invalid', 'operand');
  throwsWire(() => encodeType9({ ...tm, tmOpName: 'RATE' } as Type9Packet, out, 0), 'invalid', 'tmOpName');
});

test('Part 6 §2.4.1, Part 10 §4.2: a 256-byte single segment crosses the early CRC and decodes from the joined copy', () => {
  const p: Type9Packet = { ...dev8SingleNoOP, tt: 1, destinationID: 0x1234, sourceID: 0x5678, payload: range(0, 256).map((x) => x & 0xff) };
  const s = serial(p);
  // 2 + 4 + 2 + 2 + 256 = 266 logical bytes, + early CRC + CRC = 270, pad to 272.
  assert.equal(s.length, 272);
  const back = decodeSerial(type9Codec, s, 0, s.length, { strict: true });
  assert.deepEqual(seg(back, 'single').payload, p.payload);
});

test('Part 10 §4.2: the payload is a view of the input, not a copy', () => {
  const bytes = parseHex('0049 05 06 80 c0 beef 01020304');
  const p = decodeType9(bytes, 0, bytes.length);
  const v = seg(p, 'single').payload;
  assert.ok(v.buffer === bytes.buffer && v.byteOffset === 8 && v.length === 4);
});
