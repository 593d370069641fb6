import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PortStaging } from './staging.ts';
import type { StagedPacket } from './staging.ts';

let seq = 0;
function pkt(packetId: number, downstreamPort: number, vc = 0): StagedPacket {
  return { packetId, destID: packetId, vc, downstreamPort, seq: seq++, stagedAt: 0 };
}

test('VoQ Backpressure §2.3: a queue shared by several ports "must be shut down when any of those ports are congested"', () => {
  // Decoder: ports 1 and 3 share queue 1 of 2.
  const s = new PortStaging(1, 2, (p) => p % 2);
  assert.deepEqual(s.setPort(0, 1, true), { lane: 0, queue: 1, blocked: true });
  assert.equal(s.setPort(0, 3, true), undefined, 'already blocked: no second change');
  assert.equal(s.setPort(0, 1, false), undefined, 'port 3 still congested');
  assert.equal(s.isBlocked(0, 1), true);
  assert.deepEqual(s.setPort(0, 3, false), { lane: 0, queue: 1, blocked: false });
  assert.equal(s.isBlocked(0, 0), false);
});

test('VoQ Backpressure §4.3 e: a repeated status for a port changes nothing', () => {
  const s = new PortStaging(1, 1, () => 0);
  s.setPort(0, 4, true);
  assert.equal(s.setPort(0, 4, true), undefined);
  assert.equal(s.setPort(0, 4, false)?.blocked, false, 'one clear undoes any number of repeated congested statuses');
});

test('VoQ Backpressure §2.3: congestion of a port the reverse map does not cover is recorded and blocks nothing', () => {
  const s = new PortStaging(1, 2, (p) => (p < 4 ? p % 2 : undefined));
  assert.equal(s.setPort(0, 9, true), undefined);
  assert.equal(s.isCongested(0, 9), true);
  assert.deepEqual(s.congestedPorts(0), [9]);
  assert.equal(s.isBlocked(0, 0) || s.isBlocked(0, 1), false);
});

test('VoQ Backpressure §4.3 b, c: the oldest head of an unblocked queue goes; a blocked queue keeps its packets', () => {
  const s = new PortStaging(1, 2, (p) => p % 2);
  const a = pkt(1, 0);
  const b = pkt(2, 1);
  const c = pkt(3, 0);
  s.enqueue(0, 0, a);
  s.enqueue(0, 1, b);
  s.enqueue(0, 0, c);
  s.setPort(0, 0, true);
  assert.equal(s.takeEligible()?.packet, b, 'other traffic passes the blocked queue');
  assert.equal(s.takeEligible(), undefined, 'nothing eligible: nothing is taken');
  assert.equal(s.size, 2);
  s.setPort(0, 0, false);
  assert.equal(s.takeEligible()?.packet, a);
  assert.equal(s.takeEligible()?.packet, c);
  assert.equal(s.size, 0);
});

test('VoQ Backpressure §4.3 d: a queue drains in the order it was filled, across many packets', () => {
  const s = new PortStaging(1, 1, () => 0);
  const ps = Array.from({ length: 50 }, (_, i) => pkt(i, 0));
  for (const p of ps) s.enqueue(0, 0, p);
  assert.deepEqual(s.contents(0, 0).map((p) => p.packetId), ps.map((p) => p.packetId));
  const got: (number | string)[] = [];
  for (let t = s.takeEligible(); t !== undefined; t = s.takeEligible()) got.push(t.packet.packetId);
  assert.deepEqual(got, ps.map((p) => p.packetId));
});

test('VoQ Backpressure §2.4: lanes (per-VC staging queues) block independently', () => {
  const s = new PortStaging(2, 1, () => 0);
  s.setPort(1, 0, true);
  assert.equal(s.isBlocked(1, 0), true);
  assert.equal(s.isBlocked(0, 0), false);
  s.enqueue(0, 0, pkt(1, 0, 0));
  s.enqueue(1, 0, pkt(2, 0, 1));
  assert.equal(s.takeEligible()?.packet.packetId, 1);
  assert.equal(s.takeEligible(), undefined);
});

test('VoQ Backpressure §4.2 g: clearing congestion reports every blocked queue as unblocked, by lane then queue', () => {
  const s = new PortStaging(2, 3, (p) => p % 3);
  s.setPort(1, 2, true);
  s.setPort(0, 1, true);
  s.setPort(0, 4, true);
  assert.deepEqual(s.clearCongestion(), [
    { lane: 0, queue: 1, blocked: false },
    { lane: 1, queue: 2, blocked: false },
  ]);
  assert.deepEqual(s.congestedPorts(0), []);
  assert.equal(s.setPort(0, 1, true)?.blocked, true, 'counts restart from zero');
});
