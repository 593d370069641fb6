import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeType10, encodeType10, type10Codec } from './type10.ts';
import type { Type10Packet } from './type10.ts';
import { decodeSerial, encodeSerial } from './serial.ts';
import { parseHex, toHex } from './hex.ts';
import { WireError } from './errors.ts';

test('DECISIONS §1: third-party golden doorbell 001a0001 ffff0000 deaf9903 decodes and re-encodes', () => {
  // 0x00 0x1a: ackID 0, VC 0, CRF 0, prio 0, tt 0b01 (Dev16), ftype 0b1010 (10).
  // destinationID 0x0001, sourceID 0xffff, rsrv 0x00, srcTID 0x00, info 0xdeaf, CRC 0x9903.
  const bytes = parseHex('001a0001 ffff0000 deaf9903');
  const p = decodeSerial(type10Codec, bytes, 0, bytes.length, { strict: true });
  assert.deepEqual(p, { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 1, sourceID: 0xffff, rsrv: 0, srcTID: 0, info: 0xdeaf, crc: 0x9903 });
  const out = new Uint8Array(12);
  encodeSerial(type10Codec, p, out, 0);
  assert.equal(toHex(out), '001a0001ffff0000deaf9903');
});

test('DECISIONS §1: the golden doorbell stays valid with ackID bits set (first byte 0xFC)', () => {
  const bytes = parseHex('fc1a0001 ffff0000 deaf9903');
  assert.equal(decodeSerial(type10Codec, bytes, 0, bytes.length).ackID, 63);
});

test('Part 2 §4.2.4: Dev8 doorbell is 8 logical bytes and needs no pad', () => {
  const p: Type10Packet = { ackID: 1, vc: 0, crf: 0, prio: 1, tt: 0, ftype: 10, destinationID: 0x12, sourceID: 0x34, rsrv: 0, srcTID: 0x56, info: 0x789a };
  const out = new Uint8Array(12);
  assert.equal(encodeSerial(type10Codec, p, out, 0), 12);
  // prefix 0x04 0x4a, dest 0x12, src 0x34, rsrv 00, srcTID 56, info 789a, CRC, no pad.
  assert.equal(toHex(out.subarray(0, 8)), '044a123400567 89a'.replace(/ /g, ''));
  assert.deepEqual(decodeSerial(type10Codec, out, 0, 12).info, 0x789a);
});

test('Part 2 §4.2.4: "Type 10 packets never have data payloads" — trailing bytes are an error', () => {
  const bytes = parseHex('001a0001 ffff0000 deaf 0000');
  assert.throws(() => decodeType10(bytes, 0, bytes.length), (e: unknown) => e instanceof WireError && e.code === 'trailing-bytes' && e.offset === 10);
});

test('Part 2 §4.2.4: strict mode rejects a non-zero rsrv byte; lenient keeps it for the round trip', () => {
  const bytes = parseHex('001a0001 ffff0100 deaf');
  assert.throws(() => decodeType10(bytes, 0, bytes.length, { strict: true }), (e: unknown) => e instanceof WireError && e.field === 'rsrv' && e.offset === 6);
  const p = decodeType10(bytes, 0, bytes.length);
  const out = new Uint8Array(10);
  encodeType10(p, out, 0);
  assert.deepEqual(out, bytes);
});

test('Part 2 §4.2.4: encoding checks the buffer first and never writes a truncated doorbell', () => {
  const p: Type10Packet = { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 0, ftype: 10, destinationID: 1, sourceID: 2, rsrv: 0, srcTID: 3, info: 4 };
  const small = new Uint8Array(7);
  assert.throws(() => encodeType10(p, small, 0), (e: unknown) => e instanceof WireError && e.code === 'range' && e.field === 'buffer');
  assert.deepEqual(small, new Uint8Array(7));
  assert.throws(() => encodeType10({ ...p, ftype: 7 } as unknown as Type10Packet, new Uint8Array(8), 0), (e: unknown) => e instanceof WireError && e.field === 'ftype');
});
