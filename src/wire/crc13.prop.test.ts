import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { crc13, crc13Bitwise } from './crc13.ts';

test('Part 6 §3.6.3: the table-driven CRC-13 equals the bit-serial reference on random CS48 bits 0–34', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffffff }), fc.integer({ min: 0, max: 0x7ff }), (high, low) => {
      assert.equal(crc13(high, low), crc13Bitwise(high, low));
    }),
    fcParams(),
  );
});

test('Part 6 §3.6.3: CRC-13 is linear with a zero preset, so CRC(a xor b) = CRC(a) xor CRC(b)', () => {
  const bits = fc.tuple(fc.integer({ min: 0, max: 0xffffff }), fc.integer({ min: 0, max: 0x7ff }));
  fc.assert(
    fc.property(bits, bits, ([h1, l1], [h2, l2]) => {
      assert.equal(crc13(h1 ^ h2, l1 ^ l2), crc13(h1, l1) ^ crc13(h2, l2));
    }),
    fcParams(),
  );
});
