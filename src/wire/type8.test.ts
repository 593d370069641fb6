import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeType8,
  encodeType8,
  type8Codec,
  type8DataSize,
  type8FromFields,
  type8Length,
  type8StatusName,
  type8TransactionName,
} from './type8.ts';
import type { Type8Fields, Type8Packet } from './type8.ts';
import { maintenanceReadRequest, maintenanceWriteRequest } from './type8-build.ts';
import { decodeSerial, encodeSerial } from './serial.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';

function isWire(code: string, field?: string, offset?: number) {
  return (e: unknown): boolean =>
    e instanceof WireError && e.code === code && (field === undefined || e.field === field) && (offset === undefined || e.offset === offset);
}

function encode(p: Type8Packet, ackIdBits: 5 | 6 = 6): string {
  const out = new Uint8Array(type8Length(p));
  assert.equal(encodeType8(p, out, 0, ackIdBits), out.length);
  return toHex(out);
}

/** Raw fields with defaults, for building test packets bit by bit. */
function fields(f: Partial<Type8Fields>): Type8Fields {
  return {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 8, destinationID: 0x12, sourceID: 0x34, transaction: 0,
    sizeOrStatus: 0b1000, tid: 0, hopCount: 0xff, word: 0, payload: new Uint8Array(0), ...f,
  };
}

function roundTrip(hex: string, strict = true): Type8Packet {
  const bytes = parseHex(hex);
  const p = decodeType8(bytes, 0, bytes.length, { strict });
  assert.equal(encode(p), toHex(bytes));
  return p;
}

test('Part 1 §4.1.10 Figure 4-4, Part 3 §2.5 Figure 2-4: Dev8 maintenance read request golden vector', () => {
  // 0x00: ackID 000000, VC 0, CRF 0. 0x08: prio 00, tt 00 (Dev8), ftype 1000.
  // destinationID 0x12, sourceID 0x34. 0x08: transaction 0000 (read), rdsize 1000 (word).
  // srcTID 0x5a, hop_count 0xff. config_offset 0x00000d (21 bits) | wdptr 1 | rsrv 00 = 0x00006c.
  const p = roundTrip('00 08 12 34 08 5a ff 00 00 6c');
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 8, destinationID: 0x12, sourceID: 0x34,
    transaction: 0, transactionName: 'MAINTENANCE_READ_REQUEST', rdsize: 0b1000, srcTID: 0x5a, hopCount: 0xff,
    configOffset: 0xd, wdptr: 1, rsrv: 0, byteCount: 4, byteLanes: 0b00001111, byteOffset: 0x6c, payload: new Uint8Array(0),
  });
  assert.deepEqual(maintenanceReadRequest({ tt: 0, destinationID: 0x12, sourceID: 0x34, srcTID: 0x5a, byteOffset: 0x6c, byteCount: 4 }), p);
});

test('Part 1 §4.1.10 Figure 4-4: Dev16 maintenance write request golden vector', () => {
  // 0x14: ackID 000101, VC 0, CRF 0. 0x58: prio 01, tt 01 (Dev16), ftype 1000.
  // destinationID 0x1234, sourceID 0xabcd. 0x1b: transaction 0001 (write), wrsize 1011 (wdptr 0: 8 bytes).
  // srcTID 0x07, hop_count 0x02. config_offset 0x20 | wdptr 0 | rsrv 00 = 0x000100. One double-word.
  const p = roundTrip('14 58 1234 abcd 1b 07 02 000100 0123456789abcdef');
  assert.equal(p.transactionName, 'MAINTENANCE_WRITE_REQUEST');
  assert.deepEqual(p, maintenanceWriteRequest({
    ackID: 5, prio: 1, tt: 1, destinationID: 0x1234, sourceID: 0xabcd, srcTID: 7, hopCount: 2, byteOffset: 0x100,
    data: parseHex('0123456789abcdef'),
  }));
  assert.equal(p.byteCount, 8);
  assert.equal(p.byteLanes, 0xff);
  assert.equal(p.configOffset, 0x20);
});

test('Part 1 §4.1.10 Figure 4-5: Dev32 maintenance read response golden vector', () => {
  // 0x01: ackID 0, VC 0, CRF 1. 0x68: prio 01, tt 10 (Dev32), ftype 1000.
  // destinationID 0xdeadbeef, sourceID 0x01020304. 0x20: transaction 0010 (read response), status 0000 (DONE).
  // targetTID 0x5a, hop_count 0xff, reserved 0x000000, one double-word of data.
  const p = roundTrip('01 68 deadbeef 01020304 20 5a ff 000000 00000000 12345678');
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 1, prio: 1, tt: 2, ftype: 8, destinationID: 0xdeadbeef, sourceID: 0x01020304,
    transaction: 2, transactionName: 'MAINTENANCE_READ_RESPONSE', status: 0, statusName: 'DONE', targetTID: 0x5a,
    hopCount: 0xff, rsrv: 0, payload: parseHex('0000000012345678'),
  });
});

test('Part 1 §4.1.10 Figure 4-5: Dev16 maintenance write response with ERROR golden vector', () => {
  // 0x00 0x58: prio 01, tt 01, ftype 1000. 0x37: transaction 0011 (write response), status 0111 (ERROR).
  const p = roundTrip('00 58 0034 0012 37 07 ff 000000');
  assert.equal(p.transactionName, 'MAINTENANCE_WRITE_RESPONSE');
  assert.equal(p.statusName, 'ERROR');
  assert.equal(p.targetTID, 7);
});

test('Part 1 §4.1.10 Figure 4-4: Dev8 port-write golden vector (srcTID and config_offset reserved, 0)', () => {
  // 0x4c: transaction 0100 (port-write), wrsize 1100; word 0x000004: config_offset 0, wdptr 1 → 64 bytes maximum.
  const p = roundTrip('00 08 ff 00 4c 00 ff 000004' + '11'.repeat(16));
  assert.equal(p.transactionName, 'MAINTENANCE_PORT_WRITE_REQUEST');
  assert.equal(p.byteCount, 64);
  assert.equal(p.payload.length, 16);
  assert.equal('byteOffset' in p, false);
});

test('Part 1 §4.1.10 Table 4-7: every transaction value is named; 0b0101–1111 reserved (lenient kept, strict rejected)', () => {
  const names = ['MAINTENANCE_READ_REQUEST', 'MAINTENANCE_WRITE_REQUEST', 'MAINTENANCE_READ_RESPONSE', 'MAINTENANCE_WRITE_RESPONSE', 'MAINTENANCE_PORT_WRITE_REQUEST'];
  for (let t = 0; t < 16; t++) {
    assert.equal(type8TransactionName(t), names[t] ?? 'RESERVED');
    const bytes = parseHex(`00 08 12 34 ${t.toString(16)}5 a1 ff 123456`);
    const p = decodeType8(bytes, 0, bytes.length);
    assert.equal(p.transaction, t);
    assert.equal(encode(p), toHex(bytes));
    if (t >= 5) {
      assert.deepEqual(p, { ...p, transactionName: 'RESERVED', sizeOrStatus: 5, tid: 0xa1, hopCount: 0xff, rsrv: 0x123456 });
      assert.throws(() => decodeType8(bytes, 0, bytes.length, { strict: true }), isWire('reserved', 'transaction', 4));
    }
  }
});

test('Part 1 §4.1.10 Table 4-7: every status value: DONE, ERROR, implementation-defined, reserved', () => {
  for (let s = 0; s < 16; s++) {
    const expected = s === 0 ? 'DONE' : s === 7 ? 'ERROR' : s >= 12 ? 'IMPLEMENTATION_DEFINED' : 'RESERVED';
    assert.equal(type8StatusName(s), expected);
    const bytes = parseHex(`00 08 34 12 3${s.toString(16)} 07 ff 000000`);
    const p = decodeType8(bytes, 0, bytes.length);
    assert.equal(p.transactionName === 'MAINTENANCE_WRITE_RESPONSE' && p.statusName, expected);
    if (expected === 'RESERVED') {
      assert.throws(() => decodeType8(bytes, 0, bytes.length, { strict: true }), isWire('reserved', 'status', 4));
    } else {
      assert.equal(decodeType8(bytes, 0, bytes.length, { strict: true }).transaction, 3);
    }
  }
});

test('Part 1 §4.1.2 Table 4-3: every rdsize/wdptr row (bytes and byte lanes)', () => {
  // [wdptr, rdsize, bytes, lanes] transcribed from Table 4-3.
  const rows: [number, number, number, number | undefined][] = [
    [0, 0b0000, 1, 0b10000000], [0, 0b0001, 1, 0b01000000], [0, 0b0010, 1, 0b00100000], [0, 0b0011, 1, 0b00010000],
    [1, 0b0000, 1, 0b00001000], [1, 0b0001, 1, 0b00000100], [1, 0b0010, 1, 0b00000010], [1, 0b0011, 1, 0b00000001],
    [0, 0b0100, 2, 0b11000000], [0, 0b0101, 3, 0b11100000], [0, 0b0110, 2, 0b00110000], [0, 0b0111, 5, 0b11111000],
    [1, 0b0100, 2, 0b00001100], [1, 0b0101, 3, 0b00000111], [1, 0b0110, 2, 0b00000011], [1, 0b0111, 5, 0b00011111],
    [0, 0b1000, 4, 0b11110000], [1, 0b1000, 4, 0b00001111], [0, 0b1001, 6, 0b11111100], [1, 0b1001, 6, 0b00111111],
    [0, 0b1010, 7, 0b11111110], [1, 0b1010, 7, 0b01111111], [0, 0b1011, 8, 0b11111111], [1, 0b1011, 16, undefined],
    [0, 0b1100, 32, undefined], [1, 0b1100, 64, undefined], [0, 0b1101, 96, undefined], [1, 0b1101, 128, undefined],
    [0, 0b1110, 160, undefined], [1, 0b1110, 192, undefined], [0, 0b1111, 224, undefined], [1, 0b1111, 256, undefined],
  ];
  assert.equal(rows.length, 32);
  for (const [wdptr, rdsize, bytes, lanes] of rows) {
    const d = type8DataSize('rdsize', wdptr, rdsize);
    assert.equal(d.byteCount, bytes, `wdptr ${wdptr} rdsize ${rdsize}`);
    assert.equal(d.byteLanes, lanes, `wdptr ${wdptr} rdsize ${rdsize}`);
    // The first byte lane is the byte of the double-word where the access starts.
    assert.equal(d.laneOffset, lanes === undefined ? 0 : Math.clz32(lanes) - 24);
  }
});

test('Part 1 §4.1.2 Table 4-4: every wrsize/wdptr row, reserved ones labelled', () => {
  for (let w = 0; w < 2; w++) {
    for (let s = 0; s < 0b1011; s++) assert.deepEqual(type8DataSize('wrsize', w, s), type8DataSize('rdsize', w, s));
  }
  const multi: [number, number, number | 'RESERVED'][] = [
    [0, 0b1011, 8], [1, 0b1011, 16], [0, 0b1100, 32], [1, 0b1100, 64], [0, 0b1101, 'RESERVED'], [1, 0b1101, 128],
    [0, 0b1110, 'RESERVED'], [1, 0b1110, 'RESERVED'], [0, 0b1111, 'RESERVED'], [1, 0b1111, 256],
  ];
  for (const [wdptr, wrsize, bytes] of multi) assert.equal(type8DataSize('wrsize', wdptr, wrsize).byteCount, bytes);
  // wrsize 0b1110 with wdptr 0 in a write request: lenient labels it, strict says reserved.
  const bytes = parseHex('00 08 12 34 1e 01 ff 000000 0000000000000000');
  const p = decodeType8(bytes, 0, bytes.length);
  assert.equal(p.transactionName === 'MAINTENANCE_WRITE_REQUEST' && p.byteCount, 'RESERVED');
  assert.throws(() => decodeType8(bytes, 0, bytes.length, { strict: true }), isWire('reserved', 'wrsize', 4));
});

test('Part 1 §4.1.10: maintenance accesses are a word, a double-word or double-words up to 64 bytes (strict)', () => {
  // transaction 0000 | rdsize, then config_offset 1 with wdptr 0 (0x000008) or 1 (0x00000c):
  // 1000/0 upper word, 1000/1 lower word, 1011/0 8 bytes, 1011/1 16, 1100/0 32, 1100/1 64.
  for (const [size, word, count] of [['08', '08', 4], ['08', '0c', 4], ['0b', '08', 8], ['0b', '0c', 16], ['0c', '08', 32], ['0c', '0c', 64]] as const) {
    const bytes = parseHex(`00 08 12 34 ${size} 01 ff 0000${word}`);
    const p = decodeType8(bytes, 0, bytes.length, { strict: true });
    assert.equal(p.transactionName === 'MAINTENANCE_READ_REQUEST' && p.byteCount, count);
  }
  for (const rdsize of [0, 1, 5, 7, 9, 10, 13, 14, 15]) {
    const bytes = parseHex(`00 08 12 34 0${rdsize.toString(16)} 01 ff 000000`);
    assert.throws(() => decodeType8(bytes, 0, bytes.length, { strict: true }), isWire('invalid', 'rdsize', 4));
    assert.equal(decodeType8(bytes, 0, bytes.length).transaction, 0);
  }
});

test('Part 1 §4.1.10 Figure 4-4: configOffset is a double-word offset; byteOffset adds the first byte lane', () => {
  // word 0x123455 = config_offset 0x2468a | wdptr 1 | rsrv 01; rdsize 0101 with wdptr 1: lanes 00000111.
  const p = decodeType8(parseHex('00 08 12 34 05 01 ff 123455'), 0, 10);
  assert.equal(p.transactionName, 'MAINTENANCE_READ_REQUEST');
  assert.equal(p.configOffset, 0x2468a);
  assert.equal(p.wdptr, 1);
  assert.equal(p.rsrv, 1);
  assert.equal(p.byteOffset, 0x2468a * 8 + 5);
});

test('Part 1 §4.1.2: reserved request bits are kept (lenient) and rejected (strict)', () => {
  const hex = '00081234085aff00006f';
  const p = roundTrip(hex, false);
  assert.equal(p.transactionName === 'MAINTENANCE_READ_REQUEST' && p.rsrv, 3);
  assert.throws(() => decodeType8(parseHex(hex), 0, 10, { strict: true }), isWire('reserved', 'rsrv', 9));
});

test('Part 1 §4.1.10 Figure 4-5: the 24 reserved response bits are kept (lenient) and rejected (strict)', () => {
  const hex = '0008341220 5aff 800001 0000000000000000';
  const p = roundTrip(hex, false);
  assert.equal(p.transactionName === 'MAINTENANCE_READ_RESPONSE' && p.rsrv, 0x800001);
  assert.throws(() => decodeType8(parseHex(hex), 0, 18, { strict: true }), isWire('reserved', 'rsrv', 7));
});

test('Part 1 §4.1.10: "srcTID and config_offset fields are reserved for port-write requests" (strict)', () => {
  assert.throws(() => roundTrip('00 08 ff 00 4b 01 ff 000000 0000000000000000'), isWire('reserved', 'srcTID', 5));
  assert.throws(() => roundTrip('00 08 ff 00 4b 00 ff 000008 0000000000000000'), isWire('reserved', 'configOffset', 7));
  assert.equal(roundTrip('00 08 ff 00 4b 01 ff 000008 0000000000000000', false).transaction, 4);
});

test('Part 1 §4.1.10: only write requests and read responses carry data; sizes match (strict)', () => {
  const strictFails = (hex: string, field: string): void => {
    const b = parseHex(hex);
    assert.throws(() => decodeType8(b, 0, b.length, { strict: true }), isWire('invalid', field));
    assert.equal(encode(decodeType8(b, 0, b.length)), toHex(b));
  };
  const dw = '0011223344556677';
  strictFails(`00 08 12 34 08 01 ff 000000 ${dw}`, 'payload'); // read request with data
  strictFails('00 08 12 34 18 01 ff 000000', 'payload'); // write request without data
  strictFails(`00 08 12 34 18 01 ff 000000 ${dw}${dw}`, 'payload'); // a word write with two double-words
  strictFails(`00 08 12 34 1b 01 ff 000004 ${dw}${dw}${dw}`, 'payload'); // 24 bytes > 16-byte maximum
  strictFails(`00 08 12 34 18 01 ff 000000 00112233`, 'payload'); // not a whole double-word
  strictFails('00 08 34 12 20 01 ff 000000', 'payload'); // DONE read response without data
  strictFails(`00 08 34 12 20 01 ff 000000 ${dw.repeat(9)}`, 'payload'); // 72 bytes > 64
  strictFails(`00 08 34 12 30 01 ff 000000 ${dw}`, 'payload'); // write response with data
  // "The data payload may not exceed that size but may be smaller"
  assert.equal(roundTrip(`00 08 12 34 1c 01 ff 000004 ${dw}${dw}${dw}`).payload.length, 24);
  // "Maintenance read responses with a status of ERROR may optionally include data"
  assert.equal(roundTrip(`00 08 34 12 27 01 ff 000000 ${dw}`).payload.length, 8);
  assert.equal(roundTrip('00 08 34 12 27 01 ff 000000').payload.length, 0);
});

test('Part 3 §2.5: switches decrement hop_count, so a response with any hop_count decodes', () => {
  const p = roundTrip('00 08 34 12 30 01 fe 000000');
  assert.equal(p.hopCount, 0xfe);
});

test('Part 3 §2.5 Figure 2-4: truncated headers, a foreign ftype and a reserved tt are WireErrors', () => {
  const b = parseHex('00 08 12 34 08 5a ff 00 00 6c');
  for (let n = 0; n < 10; n++) assert.throws(() => decodeType8(b, 0, n), isWire('truncated'));
  assert.throws(() => decodeType8(parseHex('00 0b 12 34 08 5a ff 00 00 6c'), 0, 10), isWire('invalid', 'ftype', 1));
  assert.throws(() => decodeType8(parseHex('00 38 12 34 08 5a ff 00 00 6c'), 0, 10), isWire('reserved', 'tt', 1));
  assert.throws(() => decodeType8(b, 0, 12), isWire('truncated'));
  // Decoding at an offset reports absolute byte offsets.
  const shifted = parseHex('aaaa 00 08 12 34 08 5a ff 00 00 6f');
  assert.throws(() => decodeType8(shifted, 2, 12, { strict: true }), isWire('reserved', 'rsrv', 11));
});

test('Part 6 §2.3: Dev8 maintenance packets are an odd number of half-words, Dev16/Dev32 even; serial framing', () => {
  const dev8 = parseHex('00 08 12 34 08 5a ff 00 00 6c');
  assert.equal(type8Codec.oddHalfwords(dev8, 0, 10, {}), true);
  assert.equal(type8Codec.oddHalfwords(parseHex('0018'), 0, 2, {}), false);
  assert.equal(type8Codec.oddHalfwords(parseHex('0028'), 0, 2, {}), false);
  assert.throws(() => type8Codec.oddHalfwords(parseHex('0038'), 0, 2, {}), isWire('reserved', 'tt'));
  const p = decodeType8(dev8, 0, 10);
  const out = new Uint8Array(12);
  assert.equal(encodeSerial(type8Codec, p, out, 0), 12); // 10 + CRC, no pad
  assert.equal(toHex(out.subarray(0, 10)), toHex(dev8));
  assert.deepEqual(decodeSerial(type8Codec, out, 0, 12, { strict: true }), { ...p, crc: (out[10]! << 8) | out[11]! });
  const w = maintenanceWriteRequest({ tt: 1, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 0x40, data: new Uint8Array(64).fill(0xa5) });
  const big = new Uint8Array(84);
  // 12 + 64 = 76 logical bytes + CRC = 78, + pad = 80.
  assert.equal(encodeSerial(type8Codec, w, big, 0), 80);
  assert.equal(toHex(big.subarray(78, 80)), '0000');
  const back = decodeSerial(type8Codec, big, 0, 80, { strict: true });
  assert.deepEqual(back.payload, w.payload);
});

test('Part 6 §2.2 Table 2-1: a 5-bit ackID (CS24 links) encodes left-justified and decodes back', () => {
  const p = maintenanceReadRequest({ ackID: 31, tt: 0, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 8, byteCount: 8 });
  const hex = encode(p, 5);
  assert.equal(hex.slice(0, 2), 'f8'); // ackID 11111 then ackID[5] 0, VC 0, CRF 0
  const b = parseHex(hex);
  assert.deepEqual(decodeType8(b, 0, b.length, { ackIdBits: 5, strict: true }), p);
});

test('Part 1 §4.1.10: encoders check every field range and the transaction label, never truncate', () => {
  const r = maintenanceReadRequest({ tt: 0, destinationID: 1, sourceID: 2, srcTID: 3, byteOffset: 8, byteCount: 8 });
  const out = new Uint8Array(32);
  assert.throws(() => encodeType8({ ...r, configOffset: 1 << 21 }, out, 0), isWire('range', 'configOffset'));
  assert.throws(() => encodeType8({ ...r, destinationID: 256 }, out, 0), isWire('range', 'destinationID'));
  assert.throws(() => encodeType8({ ...r, hopCount: -1 }, out, 0), isWire('range', 'hopCount'));
  assert.throws(() => encodeType8({ ...r, transaction: 1 }, out, 0), isWire('invalid', 'transactionName'));
  assert.throws(() => encodeType8({ ...r, tt: 3 }, out, 0), isWire('reserved', 'tt'));
  assert.throws(() => encodeType8(r, new Uint8Array(9), 0), isWire('range', 'buffer'));
  const f = type8FromFields(fields({ transaction: 9, word: 0xffffff }));
  assert.throws(() => encodeType8({ ...f, ...{ rsrv: 1 << 24 } }, out, 0), isWire('range', 'rsrv'));
});
