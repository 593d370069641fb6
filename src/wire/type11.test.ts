import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeType11, encodeType11, messageSegment, ssizeBytes, ssizeFor, type11Codec, type11FromFields, type11Length } from './type11.ts';
import type { Type11Packet } from './type11.ts';
import { decodeSerial, encodeSerial } from './serial.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';

function isWire(code: string, field?: string, offset?: number) {
  return (e: unknown): boolean =>
    e instanceof WireError && e.code === code && (field === undefined || e.field === field) && (offset === undefined || e.offset === offset);
}

function encode(p: Type11Packet): string {
  const out = new Uint8Array(type11Length(p));
  assert.equal(encodeType11(p, out, 0), out.length);
  return toHex(out);
}

function roundTrip(hex: string, strict = true): Type11Packet {
  const bytes = parseHex(hex);
  const p = decodeType11(bytes, 0, bytes.length, { strict });
  assert.equal(encode(p), toHex(bytes));
  return p;
}

const DW = '0123456789abcdef';

test('Part 2 §4.2.5 Figure 4-2: Dev8 single-packet message golden vector (xmbox)', () => {
  // 0x00: ackID 0, VC 0, CRF 0. 0x0b: prio 00, tt 00 (Dev8), ftype 1011. destinationID 0x12, sourceID 0x34.
  // 0x09: msglen 0000 (single packet), ssize 1001 (8 bytes). 0xb5: letter 10, mbox 11, xmbox 0101.
  // Table 4-4: mailbox = xmbox‖mbox = 0101‖11 = 23.
  const p = roundTrip(`00 0b 12 34 09 b5 ${DW}`);
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 11, destinationID: 0x12, sourceID: 0x34,
    msglen: 0, ssize: 9, letter: 2, mbox: 3, xmbox: 5, segmentSize: 8, mailbox: 23, payload: parseHex(DW),
  });
  assert.deepEqual(messageSegment({ tt: 0, destinationID: 0x12, sourceID: 0x34, letter: 2, mailbox: 23, payload: parseHex(DW) }), p);
});

test('Part 2 §4.2.5 Figure 4-2: Dev16 multiple-packet message golden vector (msgseg)', () => {
  // 0x00 0x1b: prio 00, tt 01 (Dev16), ftype 1011. destinationID 0x0001, sourceID 0x0002.
  // 0x3b: msglen 0011 (4 packets), ssize 1011 (32 bytes). 0x62: letter 01, mbox 10, msgseg 0010.
  const p = roundTrip(`00 1b 0001 0002 3b 62 ${DW.repeat(4)}`);
  assert.deepEqual(p, {
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 11, destinationID: 1, sourceID: 2,
    msglen: 3, ssize: 11, letter: 1, mbox: 2, msgseg: 2, segmentSize: 32, mailbox: 2, payload: parseHex(DW.repeat(4)),
  });
});

test('Part 2 §4.2.5 Figure 4-2: Dev32 last packet of a message, shorter than ssize, golden vector', () => {
  // 0x0e: ackID 000011, VC 1, CRF 0. 0x2b: prio 00, tt 10 (Dev32), ftype 1011.
  // destinationID 0x00010203, sourceID 0xfffffffe. 0x3b: msglen 0011, ssize 1011. 0x63: letter 01, mbox 10, msgseg 0011 (last).
  const p = roundTrip(`0e 2b 00010203 fffffffe 3b 63 ${DW}`);
  assert.equal(p.ackID, 3);
  assert.equal(p.vc, 1);
  assert.equal(p.msgseg, 3);
  assert.equal(p.payload.length, 8);
});

test('Part 2 §3.3.2: the worked example (6 packets, 3rd packet, mailbox 2, letter 1, ssize 32, 32 bytes)', () => {
  // msglen 0101 (6 packets), ssize 1011 → 0x5b; letter 01, mbox 10, msgseg 0010 (3rd packet) → 0x62.
  const p = messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 1, mailbox: 2, msglen: 5, msgseg: 2, segmentSize: 32, payload: new Uint8Array(32) });
  assert.equal(encode(p), '000b01025b62' + '00'.repeat(32));
  // "the 32 bytes contained in this part of the data message shall be put into local memory at address 0x3040"
  assert.equal(0x3000 + p.msgseg! * Number(p.segmentSize), 0x3040);
});

test('Part 2 §4.2.5 Table 4-4: xmbox‖mbox addresses mailboxes 0–63 in single-packet messages', () => {
  for (let mailbox = 0; mailbox < 64; mailbox++) {
    const p = messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox, payload: parseHex(DW) });
    assert.deepEqual([p.xmbox, p.mbox, p.mailbox, 'msgseg' in p], [mailbox >> 2, mailbox & 3, mailbox, false]);
    const b = parseHex(encode(p));
    assert.equal(b[5]! & 0x3f, ((mailbox & 3) << 4) | (mailbox >> 2)); // mbox bits 2–3, xmbox bits 4–7 of the byte
    assert.deepEqual(decodeType11(b, 0, b.length, { strict: true }), p);
  }
  assert.throws(() => messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox: 64, payload: parseHex(DW) }), isWire('range', 'mailbox'));
  assert.throws(() => messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox: 4, msglen: 1, msgseg: 0, payload: parseHex(DW) }), isWire('range', 'mailbox'));
});

test('Part 2 §4.2.5 Table 4-4: every ssize value; 0b0000–1000 and 0b1111 reserved (lenient kept, strict rejected)', () => {
  for (let s = 0; s < 16; s++) {
    const expected = s >= 9 && s <= 14 ? 8 << (s - 9) : 'RESERVED';
    assert.equal(ssizeBytes(s), expected);
    if (expected !== 'RESERVED') assert.equal(ssizeFor(expected), s);
    const hex = `00 0b 12 34 0${s.toString(16)} 00 ${DW}`;
    const p = roundTrip(hex, false);
    assert.equal(p.segmentSize, expected);
    if (expected === 'RESERVED') assert.throws(() => roundTrip(hex), isWire('reserved', 'ssize', 4));
    else roundTrip(hex);
  }
  assert.equal(ssizeFor(24), undefined);
});

test('Part 2 §4.2.5 Table 4-4: msgseg beyond msglen is invalid (strict)', () => {
  // msglen 0001 (2 packets), msgseg 0010.
  const hex = `00 0b 12 34 19 02 ${DW}`;
  assert.equal(roundTrip(hex, false).msgseg, 2);
  assert.throws(() => roundTrip(hex), isWire('invalid', 'msgseg', 5));
});

test('Part 2 §4.2.5, §3.3.2: payloads are 1 or more double-words, at most ssize, exactly ssize before the last packet (strict)', () => {
  const strictFails = (hex: string): void => {
    assert.throws(() => roundTrip(hex), isWire('invalid', 'payload', 6));
    roundTrip(hex, false);
  };
  strictFails('00 0b 12 34 09 00'); // "Type 11 packets always have a data payload"
  strictFails('00 0b 12 34 09 00 01234567'); // "always multiples of doubleword quantities"
  strictFails(`00 0b 12 34 09 00 ${DW}${DW}`); // 16 bytes > ssize 8
  strictFails(`00 0b 12 34 1a 00 ${DW}`); // packet 0 of 2 with 8 bytes, ssize 16
  assert.equal(roundTrip(`00 0b 12 34 1a 01 ${DW}`).payload.length, 8); // the last packet may be short
  assert.equal(roundTrip(`00 0b 12 34 1a 00 ${DW}${DW}`).payload.length, 16);
});

test('Part 2 §4.2.5 Figure 4-2: truncated headers, a foreign ftype and a reserved tt are WireErrors', () => {
  const b = parseHex(`00 0b 12 34 09 b5 ${DW}`);
  for (let n = 0; n < 6; n++) assert.throws(() => decodeType11(b, 0, n), isWire('truncated'));
  assert.throws(() => decodeType11(b, 0, b.length + 1), isWire('truncated'));
  assert.throws(() => decodeType11(parseHex('00 0d 12 34 09 b5'), 0, 6), isWire('invalid', 'ftype', 1));
  assert.throws(() => decodeType11(parseHex('00 3b 12 34 09 b5'), 0, 6), isWire('reserved', 'tt', 1));
  const shifted = parseHex(`ffff 00 0b 12 34 0f b5 ${DW}`);
  assert.throws(() => decodeType11(shifted, 2, shifted.length, { strict: true }), isWire('reserved', 'ssize', 6));
});

test('Part 6 §2.3: Dev8 message packets are an odd number of half-words, Dev16/Dev32 even; serial framing', () => {
  assert.equal(type11Codec.oddHalfwords(parseHex('000b'), 0, 2, {}), true);
  assert.equal(type11Codec.oddHalfwords(parseHex('001b'), 0, 2, {}), false);
  assert.equal(type11Codec.oddHalfwords(parseHex('002b'), 0, 2, {}), false);
  assert.throws(() => type11Codec.oddHalfwords(parseHex('00'), 0, 1, {}), isWire('truncated'));
  for (const tt of [0, 1, 2]) {
    // 256 bytes: Dev8 6 + 256 = 262 logical bytes, + early CRC + CRC = 266, + pad = 268;
    // Dev16 8 + 256 + 4 = 268; Dev32 12 + 256 + 4 = 272.
    const p = messageSegment({ tt, destinationID: 1, sourceID: 2, letter: 3, mailbox: 1, msglen: 15, msgseg: 15, segmentSize: 256, payload: new Uint8Array(256).fill(tt + 1) });
    const out = new Uint8Array(284);
    const n = encodeSerial(type11Codec, p, out, 0);
    assert.equal(n, [268, 268, 272][tt]);
    const { crc, earlyCrc, ...back } = decodeSerial(type11Codec, out, 0, n, { strict: true });
    assert.equal(typeof crc === 'number' && typeof earlyCrc === 'number', true);
    assert.deepEqual(back, p);
  }
});

test('Part 2 §4.2.5 Table 4-4: the encoder takes msgseg when msglen > 0 and xmbox when msglen = 0, and checks ranges', () => {
  const single = type11FromFields({ ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 11, destinationID: 1, sourceID: 2, msglen: 0, ssize: 9, letter: 0, mbox: 0, msgsegXmbox: 1, payload: parseHex(DW) });
  const out = new Uint8Array(32);
  assert.throws(() => encodeType11({ ...single, msgseg: 1 }, out, 0), isWire('invalid', 'xmbox'));
  assert.throws(() => encodeType11({ ...single, msglen: 1 }, out, 0), isWire('invalid', 'msgseg'));
  assert.throws(() => encodeType11({ ...single, xmbox: 16 }, out, 0), isWire('range', 'xmbox'));
  assert.throws(() => encodeType11({ ...single, letter: 4 }, out, 0), isWire('range', 'letter'));
  assert.throws(() => encodeType11({ ...single, sourceID: 0x100 }, out, 0), isWire('range', 'sourceID'));
  assert.throws(() => encodeType11(single, new Uint8Array(13), 0), isWire('range', 'buffer'));
  assert.equal(encodeType11(single, out, 0), 14);
});

test('Part 2 §4.2.5: messageSegment picks the smallest ssize for the payload and refuses non-standard sizes', () => {
  const p = messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox: 0, payload: new Uint8Array(24) });
  assert.deepEqual([p.ssize, p.segmentSize], [0b1011, 32]);
  assert.throws(() => messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox: 0, segmentSize: 24, payload: new Uint8Array(24) }), isWire('invalid', 'segmentSize'));
  assert.throws(() => messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox: 0, msglen: 2, payload: new Uint8Array(8) }), isWire('invalid', 'msgseg'));
  assert.throws(() => messageSegment({ tt: 0, destinationID: 1, sourceID: 2, letter: 0, mailbox: 0, payload: new Uint8Array(0) }), isWire('invalid', 'payload'));
});
