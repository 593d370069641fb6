import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cosBin, destinationStreamKey, egressCosId, ingressCosId, sourceStreamKey } from './vsid.ts';

test('Part 10 §3.3: the cos field is used from the MSB, as many bits as the classes need', () => {
  // "Bit 0 - 2 Classes of Service; Bits 0, 1 - 4 Classes of Service; Bits 0, 1, 2 - 8 Classes"
  assert.equal(cosBin(0b1000_0000, 1), 1);
  assert.equal(cosBin(0b0111_1111, 1), 0);
  assert.equal(cosBin(0b1100_0000, 2), 3);
  assert.equal(cosBin(0b0110_0000, 3), 3);
  assert.equal(cosBin(0xab, 8), 0xab);
  assert.equal(cosBin(0xff, 0), 0, 'one bin: every cos shares it');
  assert.throws(() => cosBin(1, 9), RangeError);
});

test('Part 10 §3.2.2, §3.3: VSID keys from the source and destination viewpoints, CoS IDs for ingress and egress queues', () => {
  const v = { sourceID: 1, destinationID: 21, cos: 0xc3, streamID: 0x12 };
  assert.equal(sourceStreamKey(v), '21/195/18');
  assert.equal(destinationStreamKey(v), '1/195/18');
  assert.equal(ingressCosId(v, 2), '21/3');
  assert.equal(egressCosId(v, 1), '1/1');
  assert.equal(ingressCosId(v), '21/195');
});
