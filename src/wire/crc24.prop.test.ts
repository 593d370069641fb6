import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fcParams } from '../../test/support/fc.ts';
import { crc24, crc24Bitwise } from './crc24.ts';

test('Part 6 §3.6.5: the table-driven CRC-24 equals the bit-serial reference on random CS64 bits 0–37', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffffff }), fc.integer({ min: 0, max: 0x3fff }), (high, low) => {
      assert.equal(crc24(high, low), crc24Bitwise(high, low));
    }),
    fcParams(),
  );
});

test('Part 6 §3.6.5: with the all-ones preset CRC-24 is affine, so CRC(a xor b) = CRC(a) xor CRC(b) xor CRC(0)', () => {
  const bits = fc.tuple(fc.integer({ min: 0, max: 0xffffff }), fc.integer({ min: 0, max: 0x3fff }));
  const k = crc24(0, 0);
  fc.assert(
    fc.property(bits, bits, ([h1, l1], [h2, l2]) => {
      assert.equal(crc24(h1 ^ h2, l1 ^ l2), (crc24(h1, l1) ^ crc24(h2, l2) ^ k) >>> 0);
    }),
    fcParams(),
  );
});
