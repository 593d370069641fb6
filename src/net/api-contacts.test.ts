import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maintenanceReadRequest } from '../wire/type8-build.ts';
import type { Packet } from '../wire/packet.ts';
import { ContactGate } from './api-contacts.ts';

function type9(from: number, n = 0): Packet {
  return { ftype: 9, sourceID: from, destinationID: 1, tag: n } as unknown as Packet;
}

test('Annex 2 §3.3, Figure 3-1 (decision): Type 9 and Type 11 packets of a node not yet discovered are held and its discovery asked for once; MAINTENANCE passes', () => {
  const g = new ContactGate(1);
  assert.deepEqual(g.admit(type9(5, 1)), { action: 'hold', discover: 5 });
  assert.deepEqual(g.admit(type9(5, 2)), { action: 'hold', discover: null });
  assert.deepEqual(g.admit({ ftype: 11, sourceID: 5, destinationID: 1 } as unknown as Packet), { action: 'hold', discover: null });
  const read = maintenanceReadRequest({ tt: 1, destinationID: 1, sourceID: 5, srcTID: 0, byteOffset: 0, byteCount: 4 });
  assert.deepEqual(g.admit(read), { action: 'pass', overflow: false });
  assert.equal(g.held, 3);
  assert.deepEqual(g.waiting(), [5]);
});

test('Annex 2 §3.3 (decision): once discovery reported the node (any outcome) its held packets come back in order and the next pass', () => {
  const g = new ContactGate(1);
  g.admit(type9(5, 1));
  g.admit(type9(5, 2));
  assert.deepEqual(g.reported(5).map((p) => (p as unknown as { tag: number }).tag), [1, 2]);
  assert.equal(g.held, 0);
  assert.ok(g.known(5));
  assert.deepEqual(g.admit(type9(5, 3)), { action: 'pass', overflow: false });
  g.forget(5);
  assert.deepEqual(g.admit(type9(5, 4)), { action: 'hold', discover: 5 });
  assert.deepEqual(g.admit(type9(1, 0)), { action: 'pass', overflow: false }, 'its own ID');
});

test('issue 8 §3 "a flood does not grow memory without bound": the hold is bounded per node and in all; beyond, packets pass (counted as overflow)', () => {
  const g = new ContactGate(1, { perNode: 2, total: 3 });
  g.admit(type9(5));
  g.admit(type9(5));
  assert.deepEqual(g.admit(type9(5)), { action: 'pass', overflow: true });
  g.admit(type9(6));
  assert.deepEqual(g.admit(type9(7)), { action: 'pass', overflow: true });
  assert.equal(g.held, 3);
});
