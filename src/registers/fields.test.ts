import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bitMask, fieldMask, getField, setField } from './fields.ts';

test('Part 10 §5.4: CARs are big-endian with bit 0 the most significant bit', () => {
  assert.equal(bitMask(0), 0x80000000);
  assert.equal(bitMask(31), 0x00000001);
  // Part 9 Table 4-1 bits 20 and 24; Part 10 Table 5-3 bits 12 and 13; Part 9 Table 4-2 bits 13 and 15.
  assert.equal(bitMask(20), 0x00000800);
  assert.equal(bitMask(24), 0x00000080);
  assert.equal(bitMask(12), 0x00080000);
  assert.equal(bitMask(13), 0x00040000);
  assert.equal(bitMask(15), 0x00010000);
  // Multi-bit fields: Table 5-6 bits 0-3, 4-7, 24-31; Table 5-5 bits 0-15 and 16-31.
  assert.equal(fieldMask(0, 4), 0xf0000000);
  assert.equal(fieldMask(4, 4), 0x0f000000);
  assert.equal(fieldMask(24, 8), 0x000000ff);
  assert.equal(fieldMask(0, 16), 0xffff0000);
  assert.equal(fieldMask(16, 16), 0x0000ffff);
  assert.equal(fieldMask(0, 32), 0xffffffff);
  // Bit 0 of a field is its most significant bit too: TM Types 0b1000 (Basic) is word bit 0.
  assert.equal(setField(0, 0, 4, 0b1000), 0x80000000);
  assert.equal(getField(0xe4000040, 4, 4), 0b0100);
  assert.equal(getField(0xe4000040, 24, 8), 0x40);
});
