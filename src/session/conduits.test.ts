import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConduitTable, NO_STREAM, isComplete } from './conduits.ts';

const F = NO_STREAM;
const ETH = 0x0102;
const M = 1; // master / node M
const S = 2; // slave / node P
const P_NODE = S;

/** A streamID allocator handing out `ids` in order. */
function allocator(...ids: number[]): () => number | undefined {
  return () => ids.shift();
}

/** CONDUIT_STREAM as the 32-bit value of §3.5.3.8: transmit in the first sixteen bits, receive in the last. */
const cs = (v: { transmit: number; receive: number }): number => ((v.transmit << 16) | v.receive) >>> 0;

test('Annex 2 §3.4.1: the first OPEN of a conduit carries CONDUIT_STREAM 0xFFFFFFFF (create_conduit)', () => {
  const master = new ConduitTable('master');
  const r = master.create(S, ETH);
  assert.ok(r.ok);
  assert.equal(cs(r.open), 0xffffffff);
  assert.deepEqual(r.conduit, { id: 1, remote: S, protoID: ETH, transmit: F, receive: F, openSent: true });
});

test('Annex 2 §3.4.1: the slave answers the first OPEN with ACCEPT 0xFFFFSSSS and then its own OPEN 0xFFFFSSSS (process_incoming_open)', () => {
  const slave = new ConduitTable('slave');
  const r = slave.incomingOpen(M, ETH, F, F, allocator(0x0123));
  assert.ok(r.ok);
  assert.equal(r.accept.streamID, 0x0123);
  assert.equal(cs(r.accept), 0xffff0123);
  assert.ok(r.open);
  assert.equal(cs(r.open), 0xffff0123);
  assert.equal(r.complete, false);
  assert.deepEqual(r.conduit, { id: 1, remote: M, protoID: ETH, transmit: F, receive: 0x0123, openSent: true });
});

test('Annex 2 §3.4.1: the master ACCEPTs the slave\'s OPEN with CONDUIT_STREAM 0xSSSSMMMM and the conduit completes on both sides', () => {
  const master = new ConduitTable('master');
  const slave = new ConduitTable('slave');
  master.create(S, ETH);
  const s1 = slave.incomingOpen(M, ETH, F, F, allocator(0x0005));
  assert.ok(s1.ok && s1.open);
  // The slave's ACCEPT (0xFFFF0005) reaches the master: it now knows it transmits on 0x0005.
  const m1 = master.incomingAccept(S, ETH, s1.accept.transmit, s1.accept.receive);
  assert.equal(m1.open, undefined, 'OPEN_SENT: the master sent its OPEN already');
  assert.equal(m1.complete, false);
  assert.equal(m1.conduit.transmit, 0x0005);
  // The slave's OPEN (0xFFFF0005) reaches the master.
  const m2 = master.incomingOpen(S, ETH, s1.open.transmit, s1.open.receive, allocator(0x0009));
  assert.ok(m2.ok);
  assert.equal(cs(m2.accept), 0x00050009);
  assert.equal(m2.accept.streamID, 0x0009);
  assert.equal(m2.open, undefined);
  assert.equal(m2.complete, true);
  // The master's ACCEPT (0x00050009) reaches the slave.
  const s2 = slave.incomingAccept(M, ETH, m2.accept.transmit, m2.accept.receive);
  assert.equal(s2.open, undefined);
  assert.equal(s2.complete, true);
  assert.deepEqual([master.snapshot()[0]?.transmit, master.snapshot()[0]?.receive], [0x0005, 0x0009]);
  assert.deepEqual([slave.snapshot()[0]?.transmit, slave.snapshot()[0]?.receive], [0x0009, 0x0005]);
});

test('Annex 2 §3.4.1: a slave may not initiate a conduit', () => {
  const slave = new ConduitTable('slave');
  assert.deepEqual(slave.create(M, ETH), { ok: false, reason: 'slave-may-not-initiate' });
  assert.deepEqual(slave.snapshot(), []);
});

test('Annex 2 §3.4.1: "If no such data record is found, the master may respond with REFUSE" — the master refuses an OPEN it has no record for', () => {
  const master = new ConduitTable('master');
  let allocated = 0;
  const alloc = (): number => ++allocated;
  assert.deepEqual(master.incomingOpen(S, ETH, F, F, alloc), { ok: false, reason: 'master-without-record' });
  master.create(S, ETH);
  const other = master.incomingOpen(S, 0x0101, F, 0x0005, alloc);
  assert.deepEqual(other, { ok: false, reason: 'master-without-record' }, 'another protocol does not match');
  assert.equal(allocated, 0, 'no stream allocated for a refused OPEN');
  assert.equal(master.snapshot().length, 1);
});

test('Annex 2 §3.4.1: a slave refuses a non-first conduit OPEN (CONDUIT_STREAM other than 0xFFFFFFFF) without a record', () => {
  const slave = new ConduitTable('slave');
  const r = slave.incomingOpen(M, ETH, F, 0x0007, allocator(1));
  assert.deepEqual(r, { ok: false, reason: 'slave-without-record' });
  assert.deepEqual(slave.snapshot(), []);
});

test('Annex 2 §3.4.3 process_incoming_open: no stream left to allocate refuses and changes nothing', () => {
  const peers = new ConduitTable('peers');
  assert.deepEqual(peers.incomingOpen(M, ETH, F, F, allocator()), { ok: false, reason: 'no-stream-ids' });
  assert.deepEqual(peers.snapshot(), []);
});

test('Annex 2 §3.4.2: both peers OPEN at once — each ACCEPTs the other\'s OPEN without a second OPEN and both end with the same pair of streamIDs', () => {
  const m = new ConduitTable('peers');
  const p = new ConduitTable('peers');
  const mo = m.create(P_NODE, ETH);
  const po = p.create(M, ETH);
  assert.ok(mo.ok && po.ok);
  // Each receives the other's OPEN 0xFFFFFFFF while its own is outstanding.
  const pa = p.incomingOpen(M, ETH, mo.open.transmit, mo.open.receive, allocator(0x0100));
  const ma = m.incomingOpen(P_NODE, ETH, po.open.transmit, po.open.receive, allocator(0x0200));
  assert.ok(pa.ok && ma.ok);
  assert.equal(pa.open, undefined, 'node P "will note that stream against its own attempt"');
  assert.equal(ma.open, undefined);
  assert.equal(cs(pa.accept), 0xffff0100);
  assert.equal(cs(ma.accept), 0xffff0200);
  const mc = m.incomingAccept(P_NODE, ETH, pa.accept.transmit, pa.accept.receive);
  const pc = p.incomingAccept(M, ETH, ma.accept.transmit, ma.accept.receive);
  assert.equal(mc.complete, true);
  assert.equal(pc.complete, true);
  assert.equal(mc.open, undefined);
  assert.equal(pc.open, undefined);
  assert.deepEqual([mc.conduit.transmit, mc.conduit.receive], [0x0100, 0x0200]);
  assert.deepEqual([pc.conduit.transmit, pc.conduit.receive], [0x0200, 0x0100]);
});


test('Annex 2 §3.4.2: a peer receiving the OPEN before sending its own degenerates to the master/slave algorithm', () => {
  const p = new ConduitTable('peers');
  const r = p.incomingOpen(M, ETH, F, F, allocator(0x0042));
  assert.ok(r.ok && r.open);
  assert.equal(cs(r.open), 0xffff0042);
  // The application asking for the conduit now finds it under way.
  const again = p.create(M, ETH);
  assert.ok(!again.ok);
  assert.equal(again.reason, 'conduit-pending');
  assert.equal(p.snapshot().length, 1);
});

test('Annex 2 §3.4.3 find_partial_conduit: a streamID of 0xFFFF in the call matches any streamID', () => {
  const t = new ConduitTable('peers');
  const r = t.incomingOpen(M, ETH, F, F, allocator(0x0011));
  assert.ok(r.ok);
  assert.equal(t.find(M, ETH, F, F)?.id, r.conduit.id);
});

test('Annex 2 §3.4.3 find_partial_conduit: a 0xFFFF streamID in the local structure matches any streamID in the call', () => {
  const t = new ConduitTable('peers');
  const c = t.create(M, ETH);
  assert.ok(c.ok);
  assert.equal(t.find(M, ETH, 0x0001, 0x0002)?.id, c.conduit.id);
});

test('Annex 2 §3.4.3 find_partial_conduit: when neither is 0xFFFF the values must be identical (sender transmit = local receive, sender receive = local transmit)', () => {
  const t = new ConduitTable('peers');
  const r = t.incomingOpen(M, ETH, F, F, allocator(0x0011)); // local {transmit 0xFFFF, receive 0x0011}
  assert.ok(r.ok);
  assert.equal(t.find(M, ETH, 0x0011, F)?.id, r.conduit.id, "the sender's transmit is our receive");
  assert.equal(t.find(M, ETH, 0x0012, F), undefined);
  assert.equal(t.find(M, ETH, F, 0x0011)?.id, r.conduit.id, 'our transmit is still 0xFFFF: anything matches');
  assert.equal(t.find(M + 7, ETH, F, F), undefined, 'another remote');
  assert.equal(t.find(M, 0x0101, F, F), undefined, 'another protocol');
});

test('Annex 2 §3.4.3 find_partial_conduit: a complete conduit is not partial — a first OPEN 0xFFFFFFFF starts a new conduit', () => {
  const t = new ConduitTable('peers');
  const r = t.incomingOpen(M, ETH, F, 0x0030, allocator(0x0031));
  assert.ok(r.ok);
  assert.equal(r.complete, true);
  assert.equal(t.find(M, ETH, F, F), undefined);
  const second = t.incomingOpen(M, ETH, F, F, allocator(0x0032));
  assert.ok(second.ok);
  assert.notEqual(second.conduit.id, r.conduit.id);
  assert.equal(t.snapshot().length, 2);
  // A message naming the complete conduit's streams still finds it.
  assert.equal(t.find(M, ETH, F, 0x0030)?.id, r.conduit.id);
});

test('Annex 2 §3.5.1.4: an OPEN repeated for a conduit with a receive stream gets the same streamID, not a second allocation', () => {
  const slave = new ConduitTable('slave');
  const first = slave.incomingOpen(M, ETH, F, F, allocator(0x0010));
  assert.ok(first.ok);
  let calls = 0;
  const again = slave.incomingOpen(M, ETH, F, F, () => ++calls);
  assert.ok(again.ok);
  assert.equal(calls, 0);
  assert.deepEqual(again.accept, first.accept);
  assert.equal(again.open, undefined, 'OPEN_SENT: the OPEN is not sent twice');
});

test('Annex 2 §3.4.3 process_incoming_accept: an ACCEPT repeated after completion changes nothing', () => {
  const master = new ConduitTable('master');
  master.create(S, ETH);
  master.incomingAccept(S, ETH, F, 0x0005);
  const m2 = master.incomingOpen(S, ETH, F, 0x0005, allocator(0x0009));
  assert.ok(m2.ok && m2.complete);
  const before = master.snapshot();
  const late = master.incomingAccept(S, ETH, F, 0x0005);
  assert.equal(late.complete, true);
  assert.equal(late.open, undefined);
  assert.deepEqual(master.snapshot(), before);
});

test('Annex 2 §3.4.3 process_incoming_accept: without a record a conduit is created and our OPEN sent (the procedure as written)', () => {
  const t = new ConduitTable('peers');
  const r = t.incomingAccept(M, ETH, F, 0x0022);
  assert.equal(r.conduit.transmit, 0x0022);
  assert.equal(r.conduit.receive, F);
  assert.ok(r.open);
  assert.equal(cs(r.open), 0xffffffff);
  assert.equal(r.complete, false);
});

test('Annex 2 §3.4.1: the slave\'s OPEN overtaking its ACCEPT (lost and resent) still completes the conduit on both sides', () => {
  const master = new ConduitTable('master');
  const slave = new ConduitTable('slave');
  master.create(S, ETH);
  const s1 = slave.incomingOpen(M, ETH, F, F, allocator(0x0005));
  assert.ok(s1.ok && s1.open);
  const m1 = master.incomingOpen(S, ETH, s1.open.transmit, s1.open.receive, allocator(0x0009));
  assert.ok(m1.ok);
  assert.equal(m1.open, undefined);
  assert.equal(cs(m1.accept), 0xffff0009, 'the master does not know its transmit stream yet');
  const s2 = slave.incomingAccept(M, ETH, m1.accept.transmit, m1.accept.receive);
  const m2 = master.incomingAccept(S, ETH, s1.accept.transmit, s1.accept.receive);
  assert.equal(s2.complete, true);
  assert.equal(m2.complete, true);
  assert.deepEqual([m2.conduit.transmit, m2.conduit.receive], [s2.conduit.receive, s2.conduit.transmit]);
});

test('Annex 2 §3.5.1.8: "When the stream is part of a conduit, the conduit should be closed" — byStream finds the conduit of either stream', () => {
  const t = new ConduitTable('peers');
  const r = t.incomingOpen(M, ETH, F, 0x0030, allocator(0x0031));
  assert.ok(r.ok);
  assert.equal(t.byStream(M, 'tx', 0x0030)?.id, r.conduit.id);
  assert.equal(t.byStream(M, 'rx', 0x0031)?.id, r.conduit.id);
  assert.equal(t.byStream(M, 'rx', 0x0030), undefined);
  assert.equal(t.byStream(S, 'tx', 0x0030), undefined);
  assert.equal(t.byStream(M, 'tx', F), undefined, '0xFFFF is no stream');
  assert.deepEqual(t.ofRemote(M).map((c) => c.id), [r.conduit.id]);
  t.remove(r.conduit.id);
  assert.equal(t.byStream(M, 'tx', 0x0030), undefined);
  assert.equal(t.get(r.conduit.id), undefined);
  assert.deepEqual(t.snapshot(), []);
});

test('Annex 2 §3.4: records returned are copies — the table cannot be changed through them, and snapshots are JSON', () => {
  const t = new ConduitTable('peers');
  const r = t.create(M, ETH);
  assert.ok(r.ok);
  (r.conduit as { transmit: number }).transmit = 7;
  assert.equal(t.get(r.conduit.id)?.transmit, F);
  assert.deepEqual(JSON.parse(JSON.stringify(t.snapshot())), t.snapshot());
  assert.equal(isComplete({ transmit: 1, receive: F }), false);
  assert.equal(isComplete({ transmit: 1, receive: 2 }), true);
});

test('Annex 2 §3.4: an unknown conduit role is a configuration error naming the field', () => {
  assert.throws(() => new ConduitTable('boss' as 'peers'), { name: 'RangeError', message: "conduitRole must be 'peers', 'master' or 'slave'" });
  assert.equal(new ConduitTable('master').role, 'master');
});
