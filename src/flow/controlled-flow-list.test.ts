import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { ControlledFlowList } from './controlled-flow-list.ts';
import type { ControlledFlowListConfig } from './controlled-flow-list.ts';
import { ccpFlowKey } from './offending-flow.ts';
import type { CcpFlow } from './offending-flow.ts';

function flow(destinationID: number, flowID: FlowIdLabel = '0A', tt = 0): CcpFlow {
  return { destinationID, tgtdestinationID: 9, flowID, tt };
}

function list(c: Partial<ControlledFlowListConfig> = {}): ControlledFlowList {
  return new ControlledFlowList({ capacity: 4, restartOrder: 'fifo', lowWatermark: 4, restartStagger: 0, ...c });
}

function add(l: ControlledFlowList, f: CcpFlow, crf = 0, port = 0): string {
  const key = ccpFlowKey(f);
  l.add(key, f, crf, port);
  return key;
}

test('Part 9 §2.4.2.2: an entry keeps the flow identification, its shut-off order and its restart level', () => {
  const l = list();
  add(l, flow(1, '0C', 1), 0, 3);
  assert.deepEqual(l.entries(), [{ destinationID: 1, tgtdestinationID: 9, flowID: '0C', tt: 1, order: 0, restartLevel: 4, port: 3 }]);
  assert.equal(l.has(ccpFlowKey(flow(1, '0C', 1))), true);
  assert.equal(l.has(ccpFlowKey(flow(1, '0C', 0))), false);
});

test('Part 9 §2.4.2.2 "relative shut off order": fifo restarts the oldest first, lifo the newest', () => {
  const f = list();
  const l = list({ restartOrder: 'lifo' });
  for (const x of [f, l]) for (const id of [1, 2, 3]) add(x, flow(id));
  assert.deepEqual(f.entries().map((e) => e.destinationID), [1, 2, 3]);
  assert.deepEqual(l.entries().map((e) => e.destinationID), [3, 2, 1]);
  assert.deepEqual(l.entries().map((e) => e.order), [2, 1, 0]);
});

test('Part 9 §2.4.2.2 "modify … expected XON watermark level" (decision): staggered levels max(0, low − k·stagger) follow the restart order and are re-evaluated on every change', () => {
  const f = list({ restartStagger: 3 });
  const a = add(f, flow(1));
  add(f, flow(2));
  add(f, flow(3));
  assert.deepEqual(f.entries().map((e) => e.restartLevel), [4, 1, 0]);
  f.remove(a);
  assert.deepEqual(f.entries().map((e) => e.restartLevel), [4, 1]);
  const l = list({ restartOrder: 'lifo', restartStagger: 1 });
  add(l, flow(1));
  add(l, flow(2));
  assert.deepEqual(l.entries().map((e) => [e.destinationID, e.restartLevel]), [[2, 4], [1, 3]]);
});

test('Part 9 §2.4.2.2 (decision): a level set explicitly overrides the stagger for every tt of that flow and sticks while the entry stays', () => {
  const l = list({ restartStagger: 1 });
  const a = add(l, flow(1));
  add(l, flow(2, '0B', 0));
  add(l, flow(2, '0B', 1));
  assert.equal(l.setLevel(2, 9, '0B', 7), 2);
  assert.equal(l.setLevel(5, 9, '0B', 7), 0);
  assert.deepEqual(l.entries().map((e) => e.restartLevel), [4, 7, 7]);
  l.remove(a);
  assert.deepEqual(l.entries().map((e) => e.restartLevel), [7, 7]);
});

test('Part 9 §2.4.5 rule 4, §2.4.6 rule 3: the entries due at an occupancy are those whose level it reached, in restart order', () => {
  const l = list({ restartOrder: 'lifo', restartStagger: 2 });
  for (const id of [1, 2, 3]) add(l, flow(id));
  assert.deepEqual(l.due(5).map((e) => e.destinationID), []);
  assert.deepEqual(l.due(2).map((e) => e.destinationID), [3, 2]);
  assert.deepEqual(l.due(0).map((e) => e.destinationID), [3, 2, 1]);
});

test('Part 9 §2.4.2.2 (decision): the least important entry has the fewest buffered packets, then CRF=1 before CRF=0, then the most recently XOFF\'d', () => {
  const l = list({ capacity: 3 });
  const a = add(l, flow(1), 0);
  const b = add(l, flow(2), 1);
  const c = add(l, flow(3), 0);
  assert.equal(l.full, true);
  const counts = new Map([[a, 2], [b, 5], [c, 3]]);
  const count = (k: string): number => counts.get(k) ?? 0;
  assert.equal(l.leastImportant(count)?.entry.destinationID, 1);
  counts.set(b, 2);
  assert.deepEqual(l.leastImportant(count)?.entry.destinationID, 2);
  counts.set(c, 2);
  counts.set(b, 3);
  assert.equal(l.leastImportant(count)?.entry.destinationID, 3);
  assert.equal(l.leastImportant(count)?.buffered, 2);
  assert.equal(list().leastImportant(count), undefined);
});

test('Part 9 §2.4.2.2 "at the very least it shall contain entries for each currently XOFF\'d flow": removal returns the entry, once', () => {
  const l = list({ capacity: 1 });
  const a = add(l, flow(1));
  assert.equal(l.full, true);
  assert.equal(l.remove(a)?.destinationID, 1);
  assert.equal(l.remove(a), undefined);
  assert.equal(l.size, 0);
  assert.deepEqual(l.entries(), []);
});
