import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrphanFifo } from './orphan-fifo.ts';

test('Part 9 Annex A.2: the XOFF\'d flow FIFO keeps stop order, ignores re-entry and removes from anywhere', () => {
  const q = new OrphanFifo();
  assert.equal(q.head(), undefined);
  q.push({ key: 1, destinationID: 1, flowID: '0A' });
  q.push({ key: 2, destinationID: 1, flowID: '1A' });
  q.push({ key: 3, destinationID: 2, flowID: '0C' });
  q.push({ key: 1, destinationID: 9, flowID: '8A' });
  assert.deepEqual([...q.values()].map((e) => e.key), [1, 2, 3], 'a second push does not move an entry');
  assert.equal(q.head()?.flowID, '0A', 'the entry of the first push is kept');
  assert.equal(q.remove(2), true);
  assert.equal(q.remove(2), false);
  assert.equal(q.remove(1), true);
  assert.equal(q.head()?.key, 3);
  assert.equal(q.size, 1);
  assert.equal(q.has(3), true);
});
