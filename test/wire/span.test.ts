import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePacket, decodeSerialPacket } from '../../src/wire/packet.ts';
import { WireError } from '../../src/wire/errors.ts';
import { parseHex } from '../../src/wire/hex.ts';

test('decodePacket/decodeSerialPacket refuse a span outside the array instead of reading zeros', () => {
  const doorbell = parseHex('001a0001 ffff0000 deaf9903');
  const isSpan = (e: unknown) => e instanceof WireError && e.code === 'range' && e.field === 'span';
  assert.throws(() => decodeSerialPacket(doorbell, 0, 16), isSpan);
  assert.throws(() => decodePacket(doorbell.subarray(0, 8), 0, 10), isSpan);
  assert.throws(() => decodePacket(doorbell, -2, 10), isSpan);
  assert.throws(() => decodePacket(doorbell, 6, 4), isSpan);
  assert.equal(decodeSerialPacket(doorbell, 0, 12).ftype, 10);
});
