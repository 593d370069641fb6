import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeType13,
  encodeType13,
  messageResponse,
  messageResponseTo,
  response,
  type13Codec,
  type13Length,
  type13StatusName,
  type13TransactionName,
} from './type13.ts';
import type { Type13Packet } from './type13.ts';
import { messageSegment } from './type11.ts';
import { decodeSerial, encodeSerial } from './serial.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';

function isWire(code: string, field?: string, offset?: number) {
  return (e: unknown): boolean =>
    e instanceof WireError && e.code === code && (field === undefined || e.field === field) && (offset === undefined || e.offset === offset);
}

function encode(p: Type13Packet): string {
  const out = new Uint8Array(type13Length(p));
  assert.equal(encodeType13(p, out, 0), out.length);
  return toHex(out);
}

function roundTrip(hex: string, strict = true): Type13Packet {
  const bytes = parseHex(hex);
  const p = decodeType13(bytes, 0, bytes.length, { strict });
  assert.equal(encode(p), toHex(bytes));
  return p;
}

const DW = '0123456789abcdef';

test('Part 1 §4.2.3 Figure 4-6: Dev8 RESPONSE without data, DONE, golden vector', () => {
  // 0x00: ackID 0, VC 0, CRF 0. 0x4d: prio 01, tt 00 (Dev8), ftype 1101. destinationID 0x34, sourceID 0x12.
  // 0x00: transaction 0000 (no data), status 0000 (DONE). targetTID 0x5a.
  const p = roundTrip('00 4d 34 12 00 5a');
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 13, destinationID: 0x34, sourceID: 0x12,
    transaction: 0, transactionName: 'RESPONSE_NO_DATA', status: 0, statusName: 'DONE', targetTID: 0x5a, payload: new Uint8Array(0),
  });
  assert.deepEqual(response({ tt: 0, destinationID: 0x34, sourceID: 0x12, targetTID: 0x5a }), p);
});

test('Part 2 §4.3.3 Figures 4-3/4-4: Dev16 MESSAGE RESPONSE with RETRY golden vector', () => {
  // 0x00 0x5d: prio 01, tt 01 (Dev16), ftype 1101. destinationID 0x0002, sourceID 0x0001.
  // 0x13: transaction 0001 (MESSAGE RESPONSE), status 0011 (RETRY). target_info 0xb5: letter 10, mbox 11, msgseg 0101.
  const p = roundTrip('00 5d 0002 0001 13 b5');
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 1, tt: 1, ftype: 13, destinationID: 2, sourceID: 1,
    transaction: 1, transactionName: 'MESSAGE_RESPONSE', status: 3, statusName: 'RETRY', targetInfo: 0xb5, letter: 2, mbox: 3, msgseg: 5,
    payload: new Uint8Array(0),
  });
  assert.deepEqual(messageResponse({ tt: 1, destinationID: 2, sourceID: 1, status: 3, letter: 2, mbox: 3, msgseg: 5 }), p);
});

test('Part 1 §4.2.3 Figure 4-6: Dev32 RESPONSE with data golden vector', () => {
  // 0x00 0xad: prio 10, tt 10 (Dev32), ftype 1101. destinationID 0x11223344, sourceID 0x55667788.
  // 0x80: transaction 1000 (with data), status 0000 (DONE). targetTID 0x07. Two double-words.
  const p = roundTrip(`00 ad 11223344 55667788 80 07 ${DW}${DW}`);
  assert.equal(p.transactionName, 'RESPONSE_WITH_DATA');
  assert.deepEqual([p.prio, p.destinationID, p.sourceID, p.targetTID, toHex(p.payload)], [2, 0x11223344, 0x55667788, 7, DW + DW]);
  assert.deepEqual(response({ prio: 2, tt: 2, destinationID: 0x11223344, sourceID: 0x55667788, targetTID: 7, payload: parseHex(DW + DW) }), p);
});

test('Part 2 §4.3.1 Table 4-6: DONE response to the DECISIONS §1 doorbell (RESPONSE transaction 0, "including DOORBELL RESPONSE")', () => {
  // The doorbell went from 0xffff to 0x0001 with srcTID 0x00; the response swaps the IDs: 0x0001 → 0xffff.
  const p = roundTrip('00 5d ffff 0001 00 00');
  assert.deepEqual([p.transactionName, p.statusName, p.destinationID, p.sourceID], ['RESPONSE_NO_DATA', 'DONE', 0xffff, 1]);
});

test('Part 1 §4.2.1 Table 4-9, Part 2 §4.3.1 Table 4-6: every transaction value; 0b0010–0111 and 0b1001–1111 reserved', () => {
  for (let t = 0; t < 16; t++) {
    const expected = t === 0 ? 'RESPONSE_NO_DATA' : t === 1 ? 'MESSAGE_RESPONSE' : t === 8 ? 'RESPONSE_WITH_DATA' : 'RESERVED';
    assert.equal(type13TransactionName(t), expected);
    const hex = `00 0d 12 34 ${t.toString(16)}7 a5`; // status ERROR: valid with any defined transaction, no data
    const p = roundTrip(hex, false);
    assert.equal(p.transactionName, expected);
    if (expected === 'RESERVED') {
      assert.equal('targetTID' in p && p.targetTID, 0xa5);
      assert.throws(() => roundTrip(hex), isWire('reserved', 'transaction', 4));
    } else {
      roundTrip(hex);
    }
  }
});

test('Part 1 §4.2.1 Table 4-9, Part 2 §4.3.1 Table 4-6: every status value; DONE, RETRY, ERROR, implementation-defined', () => {
  for (let s = 0; s < 16; s++) {
    const expected = s === 0 ? 'DONE' : s === 3 ? 'RETRY' : s === 7 ? 'ERROR' : s >= 12 ? 'IMPLEMENTATION_DEFINED' : 'RESERVED';
    assert.equal(type13StatusName(s), expected);
    const hex = `00 0d 12 34 1${s.toString(16)} 00`;
    assert.equal(roundTrip(hex, false).statusName, expected);
    if (expected === 'RESERVED') assert.throws(() => roundTrip(hex), isWire('reserved', 'status', 4));
    else roundTrip(hex);
  }
});

test('Part 1 §4.2.1 Table 4-9: RETRY (0b0011) is reserved in a RESPONSE with data (strict)', () => {
  const hex = `00 0d 12 34 83 00 ${DW}`;
  assert.equal(roundTrip(hex, false).statusName, 'RETRY');
  assert.throws(() => roundTrip(hex), isWire('reserved', 'status', 4));
  assert.equal(roundTrip('00 0d 12 34 03 00').statusName, 'RETRY'); // a doorbell RETRY
});

test('Part 1 §4.2.3: "A RESPONSE packet with an ERROR status ... never has a data payload"; transaction 0 or 8 both accepted', () => {
  assert.throws(() => roundTrip(`00 0d 12 34 87 00 ${DW}`), isWire('invalid', 'payload', 6));
  assert.equal(roundTrip('00 0d 12 34 87 00').transactionName, 'RESPONSE_WITH_DATA');
  assert.equal(roundTrip('00 0d 12 34 07 00').transactionName, 'RESPONSE_NO_DATA');
});

test('Part 1 §4.2.1, Part 2 §4.3.3: data only in RESPONSE with data; whole double-words, at most 256 bytes (strict)', () => {
  const strictFails = (hex: string): void => {
    assert.throws(() => roundTrip(hex), isWire('invalid', 'payload', 6));
    roundTrip(hex, false);
  };
  strictFails(`00 0d 12 34 00 00 ${DW}`); // no-data RESPONSE with data
  strictFails(`00 0d 12 34 10 00 ${DW}`); // "Responses to message and doorbell packets never contain data"
  strictFails('00 0d 12 34 80 00'); // DONE with data, but none
  strictFails('00 0d 12 34 80 00 01234567'); // not a double-word
  strictFails(`00 0d 12 34 80 00 ${DW.repeat(33)}`); // 264 bytes > 256
  assert.equal(roundTrip(`00 0d 12 34 80 00 ${DW.repeat(32)}`).payload.length, 256);
  assert.equal(roundTrip(`00 0d 12 34 8c 00 ${DW}`).statusName, 'IMPLEMENTATION_DEFINED');
  assert.equal(roundTrip('00 0d 12 34 8c 00').payload.length, 0);
});

test('Part 2 §4.3.3 Figure 4-3: target_info splits into letter(2) | mbox(2) | msgseg(4) for every value', () => {
  for (let ti = 0; ti < 256; ti++) {
    const p = roundTrip(`00 0d 12 34 10 ${ti.toString(16).padStart(2, '0')}`);
    assert.equal(p.transactionName, 'MESSAGE_RESPONSE');
    assert.deepEqual([p.targetInfo, p.letter, p.mbox, p.msgseg, 'targetTID' in p], [ti, ti >> 6, (ti >> 4) & 3, ti & 15, false]);
  }
});

test('Part 2 §4.2.5: a message response echoes letter, mbox and msgseg (xmbox for a single-packet message)', () => {
  const multi = messageSegment({ prio: 1, tt: 1, destinationID: 5, sourceID: 6, letter: 3, mailbox: 2, msglen: 4, msgseg: 4, payload: new Uint8Array(8) });
  const r1 = messageResponseTo(multi);
  assert.deepEqual([r1.prio, r1.destinationID, r1.sourceID, r1.letter, r1.mbox, r1.msgseg, r1.statusName], [2, 6, 5, 3, 2, 4, 'DONE']);
  const single = messageSegment({ tt: 0, destinationID: 5, sourceID: 6, letter: 1, mailbox: 0b101110, payload: new Uint8Array(8) });
  const r2 = messageResponseTo(single, 3);
  // mailbox 46 = xmbox 1011 ‖ mbox 10; target_info = 01 | 10 | 1011 = 0x6b.
  assert.deepEqual([r2.targetInfo, r2.statusName], [0x6b, 'RETRY']);
  assert.equal(encode(r2), '004d0605136b');
});

test('Part 1 §4.2.3 Figure 4-6: truncated headers, a foreign ftype and a reserved tt are WireErrors', () => {
  const b = parseHex('00 4d 34 12 00 5a');
  for (let n = 0; n < 6; n++) assert.throws(() => decodeType13(b, 0, n), isWire('truncated'));
  assert.throws(() => decodeType13(b, 0, 7), isWire('truncated'));
  assert.throws(() => decodeType13(parseHex('00 48 34 12 00 5a'), 0, 6), isWire('invalid', 'ftype', 1));
  assert.throws(() => decodeType13(parseHex('00 7d 34 12 00 5a'), 0, 6), isWire('reserved', 'tt', 1));
  const shifted = parseHex('0000 00 4d 34 12 20 5a');
  assert.throws(() => decodeType13(shifted, 2, 8, { strict: true }), isWire('reserved', 'transaction', 6));
});

test('Part 6 §2.3: Dev8 responses are an odd number of half-words, Dev16/Dev32 even; serial framing', () => {
  assert.equal(type13Codec.oddHalfwords(parseHex('004d'), 0, 2, {}), true);
  assert.equal(type13Codec.oddHalfwords(parseHex('005d'), 0, 2, {}), false);
  assert.equal(type13Codec.oddHalfwords(parseHex('006d'), 0, 2, {}), false);
  const p = response({ tt: 0, destinationID: 0x34, sourceID: 0x12, targetTID: 0x5a });
  const out = new Uint8Array(8);
  assert.equal(encodeSerial(type13Codec, p, out, 0), 8); // 6 + CRC, no pad
  assert.equal(toHex(out.subarray(0, 6)), '004d3412005a');
  assert.deepEqual(decodeSerial(type13Codec, out, 0, 8, { strict: true }), { ...p, crc: (out[6]! << 8) | out[7]! });
  const d = response({ tt: 2, destinationID: 1, sourceID: 2, targetTID: 3, payload: new Uint8Array(256).fill(9) });
  const big = new Uint8Array(284);
  assert.equal(encodeSerial(type13Codec, d, big, 0), 272); // 12 + 256 + early CRC + CRC, even: no pad
  const { crc, earlyCrc, ...back } = decodeSerial(type13Codec, big, 0, 272, { strict: true });
  assert.equal(typeof crc === 'number' && typeof earlyCrc === 'number', true);
  assert.deepEqual(back, d);
});

test('Part 1 §4.2.3: the encoder checks ranges and the transaction label; constructors refuse what strict decoding rejects', () => {
  const r = response({ tt: 0, destinationID: 1, sourceID: 2, targetTID: 3 });
  const out = new Uint8Array(16);
  assert.throws(() => encodeType13({ ...r, transaction: 8 }, out, 0), isWire('invalid', 'transactionName'));
  assert.throws(() => encodeType13({ ...r, targetTID: 256 }, out, 0), isWire('range', 'targetTID'));
  assert.throws(() => encodeType13({ ...r, status: 16 }, out, 0), isWire('range', 'status'));
  assert.throws(() => encodeType13(r, new Uint8Array(5), 0), isWire('range', 'buffer'));
  const m = messageResponse({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mbox: 0, msgseg: 0 });
  assert.throws(() => encodeType13({ ...m, targetInfo: 0x100 }, out, 0), isWire('range', 'targetInfo'));
  assert.throws(() => messageResponse({ tt: 0, destinationID: 1, sourceID: 2, letter: 4, mbox: 0, msgseg: 0 }), isWire('range', 'letter'));
  assert.throws(() => response({ tt: 0, destinationID: 1, sourceID: 2, targetTID: 3, status: 7, payload: new Uint8Array(8) }), isWire('invalid', 'payload'));
  assert.throws(() => response({ tt: 0, destinationID: 1, sourceID: 2, targetTID: 3, status: 5 }), isWire('reserved', 'status'));
});
