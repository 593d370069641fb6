import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { crc16Bitwise, crc16Packet, crc16Update, CRC16_INIT } from './crc16.ts';
import { parseHex } from './hex.ts';
import { fcParams } from '../../test/support/fc.ts';

test('DECISIONS §1: third-party doorbell 001a0001 ffff0000 deaf has CRC 0x9903', () => {
  const p = parseHex('001a0001 ffff0000 deaf9903');
  assert.equal(crc16Packet(p, 0, 10), 0x9903);
  assert.equal(crc16Bitwise(p, 0, 10), 0x9903);
});

test('Part 6 §2.4: the ackID bits are treated as 0 (first byte 0xFC gives the same CRC)', () => {
  const p = parseHex('fc1a0001 ffff0000 deaf9903');
  assert.equal(crc16Packet(p, 0, 10), 0x9903);
});

test('Part 6 §2.4.1: running the CRC over a packet including its CRC leaves 0', () => {
  const p = parseHex('001a0001 ffff0000 deaf9903');
  assert.equal(crc16Packet(p, 0, 12), 0);
});

test('Part 6 §2.4.2: CRC-16/CCITT check value (0x1021, init 0xFFFF) of "123456789" is 0x29B1', () => {
  // The published check value of CRC-16/CCITT-FALSE (same parameters as DECISIONS §1).
  const s = new TextEncoder().encode('123456789');
  assert.equal(crc16Update(CRC16_INIT, s, 0, s.length), 0x29b1);
});

test('crc16 slicing-by-8 fast path equals the bitwise reference on random spans', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), (bytes, cut) => {
      const start = cut % bytes.length;
      assert.equal(crc16Packet(bytes, start, bytes.length), crc16Bitwise(bytes, start, bytes.length));
    }),
    fcParams(20_000),
  );
});

test('crc16 is linear across split updates (the early CRC continues the running value)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 2, maxLength: 300 }), fc.nat(), (bytes, cut) => {
      const mid = 1 + (cut % (bytes.length - 1));
      const split = crc16Update(crc16Packet(bytes, 0, mid), bytes, mid, bytes.length);
      assert.equal(split, crc16Packet(bytes, 0, bytes.length));
    }),
    fcParams(20_000),
  );
});
