import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flowAt, flowChannel, flowIndex, flowKey, flowsAtOrAbove, flowsAtOrBelow } from './flows.ts';

test('Part 9 §3.2 Table 3-1: VC0 flows are ordered A..F and each VC1–VC8 flow stands alone', () => {
  assert.deepEqual(flowsAtOrAbove('0C'), ['0C', '0D', '0E', '0F']);
  assert.deepEqual(flowsAtOrBelow('0C'), ['0A', '0B', '0C']);
  assert.deepEqual(flowsAtOrAbove('3A'), ['3A']);
  assert.deepEqual(flowsAtOrBelow('8A'), ['8A']);
  assert.equal(flowChannel('0F'), 0);
  assert.equal(flowChannel('5A'), 5);
  assert.equal(flowAt(flowIndex('2A')), '2A');
  assert.equal(flowAt(14), undefined);
  assert.equal(flowKey(0x12, '0B'), '18/0B');
});
