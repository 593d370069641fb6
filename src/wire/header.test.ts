import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHeader, encodeHeader, idBytes, readId, writeId } from './header.ts';
import { WireError } from './errors.ts';

test('Part 6 §2.3 Figure 2-2: prefix ackID(6)|VC|CRF|prio(2)|tt(2)|ftype(4)', () => {
  // ackID 0b101010 → 0xA8, VC 1 → 0x02, CRF 1 → 0x01: byte 0 = 0xAB.
  // prio 0b10 → 0x80, tt 0b01 → 0x10, ftype 0b1001 → 0x09: byte 1 = 0x99.
  const h = decodeHeader(Uint8Array.of(0xab, 0x99), 0, 2);
  assert.deepEqual(h, { ackID: 42, vc: 1, crf: 1, prio: 2, tt: 1, ftype: 9 });
  const out = new Uint8Array(2);
  encodeHeader(h, out, 0);
  assert.deepEqual([...out], [0xab, 0x99]);
});

test('Part 6 §2.2 Table 2-1: on CS24 links the 5-bit ackID is left-justified with ackID[5] = 0', () => {
  const out = new Uint8Array(2);
  encodeHeader({ ackID: 31, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 7 }, out, 0, 5);
  // 31 << 1 = 0b111110 in the 6-bit field → byte 0 = 0b11111000.
  assert.equal(out[0], 0xf8);
  assert.equal(decodeHeader(out, 0, 2, { ackIdBits: 5 }).ackID, 31);
  assert.throws(() => decodeHeader(Uint8Array.of(0x04, 0x07), 0, 2, { ackIdBits: 5, strict: true }), WireError);
  assert.throws(() => {
    encodeHeader({ ackID: 32, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 7 }, out, 0, 5);
  }, WireError);
});

test('Part 6 §2.2 Table 2-1 "ackID[5] set to 0b0": on CS24 links lenient decoding keeps a 1 there as rsrvAckID and encoding writes it back; strict decoding refuses it naming ackID, byte 0 and the table', () => {
  // ackID field 0b000001 (5-bit ackID 0, ackID[5] 1) → 0x04, VC 0, CRF 0; prio 0, tt 0, ftype 7 → 0x07.
  const bytes = Uint8Array.of(0x04, 0x07);
  const h = decodeHeader(bytes, 0, 2, { ackIdBits: 5 });
  assert.deepEqual(h, { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 7, rsrvAckID: 1 });
  const out = new Uint8Array(2);
  encodeHeader(h, out, 0, 5);
  assert.deepEqual([...out], [0x04, 0x07]);
  assert.throws(
    () => decodeHeader(bytes, 0, 2, { ackIdBits: 5, strict: true }),
    (e: unknown) => e instanceof WireError && e.code === 'reserved' && e.field === 'ackID' && e.offset === 0 && e.clause === 'Part 6 §2.2 Table 2-1',
  );
  // A 0 there is no field at all; with 6-bit ackIDs the bit is ackID's own.
  assert.equal('rsrvAckID' in decodeHeader(Uint8Array.of(0xf8, 0x07), 0, 2, { ackIdBits: 5 }), false);
  assert.deepEqual(decodeHeader(bytes, 0, 2), { ackID: 1, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 7 });
  assert.throws(() => { encodeHeader(h, out, 0, 6); }, (e: unknown) => e instanceof WireError && e.code === 'invalid' && e.field === 'rsrvAckID');
  assert.throws(() => { encodeHeader({ ...h, rsrvAckID: 2 }, out, 0, 5); }, (e: unknown) => e instanceof WireError && e.code === 'range' && e.field === 'rsrvAckID');
});

test('Part 3 §2.4: tt 0b00 Dev8, 0b01 Dev16, 0b10 Dev32, 0b11 reserved', () => {
  assert.equal(idBytes(0), 1);
  assert.equal(idBytes(1), 2);
  assert.equal(idBytes(2), 4);
  assert.throws(() => idBytes(3), (e: unknown) => e instanceof WireError && e.code === 'reserved' && e.field === 'tt');
  assert.throws(() => decodeHeader(Uint8Array.of(0, 0x37), 0, 2), WireError);
});

test('Part 3 §2.4: Dev32 IDs are unsigned 32-bit big-endian', () => {
  const b = new Uint8Array(4);
  writeId(0xfedcba98, b, 0, 4);
  assert.deepEqual([...b], [0xfe, 0xdc, 0xba, 0x98]);
  assert.equal(readId(b, 0, 4), 0xfedcba98);
});

test('truncated prefix is a typed error naming the field and offset', () => {
  assert.throws(
    () => decodeHeader(Uint8Array.of(0), 0, 1),
    (e: unknown) => e instanceof WireError && e.code === 'truncated' && e.field === 'prefix' && e.offset === 0,
  );
});
