import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { CongestionPoint } from './congestion-point.ts';
import { deq, enq } from '../../test/support/congestion-point.ts';
import type { BufferedPacket, CongestionPointConfig, CongestionPointOutput, CongestionPointSnapshot } from './congestion-point-types.ts';

type Out = CongestionPointOutput;

function req(sourceID: number, destinationID = 9, extra: Partial<BufferedPacket> = {}): BufferedPacket {
  return { sourceID, destinationID, tt: 0, prio: 0, crf: 0, ftype: 5, ...extra };
}
const MAINT: BufferedPacket = { sourceID: 5, destinationID: 9, tt: 0, prio: 0, crf: 0, ftype: 8 };

function cp(c: Partial<CongestionPointConfig> = {}): CongestionPoint {
  return new CongestionPoint({ role: 'switch', highWatermark: 2, lowWatermark: 0, routes: { default: 4 }, ...c });
}
function level(e: CongestionPoint, destinationID: number, lvl: number, flowID: FlowIdLabel = '0A'): Out[] {
  return e.handle({ kind: 'set-restart-level', destinationID, tgtdestinationID: 9, flowID, level: lvl }, 0);
}
function names(out: readonly Out[]): string[] {
  return out.map((o) => (o.kind === 'event' ? `${o.name}${o.destinationID === undefined ? '' : ` ${o.destinationID}`}` : `${o.packet.command} ${o.packet.destinationID}`));
}
function listed(e: CongestionPoint): number[] {
  return e.controlledFlows().map((f) => f.destinationID);
}

test('Part 9 §2.4.2.2: with the list full, a more important flow (more packets buffered) makes the least important entry XON early and takes its place', () => {
  const e = cp({ listCapacity: 1 });
  assert.deepEqual(names(enq(e, req(1), 3)), ['congested', 'XOFF 1']);
  // B at 3 packets ties A: A (seen first) stays the top flow.
  assert.deepEqual(enq(e, req(2), 3), []);
  const out = enq(e, req(2));
  assert.deepEqual(out[0], { kind: 'event', name: 'early-xon', destinationID: 1, tgtdestinationID: 9, flowID: '0A', occupancy: 7, port: 4 });
  assert.deepEqual(names(out), ['early-xon 1', 'XON 1', 'XOFF 2']);
  assert.deepEqual(listed(e), [2]);
  assert.equal(e.counters().earlyXon, 1);
});

test('Part 9 §2.4.2.2 (decision): with the list full, a flow that is not strictly more important is not XOFF\'d ("list-full")', () => {
  const e = cp({ listCapacity: 1, policy: { kind: 'histogram', flows: 2 } });
  enq(e, req(1), 2);
  const out = enq(e, req(2));
  assert.deepEqual(names(out), ['congested', 'XOFF 1', 'list-full 2']);
  assert.deepEqual(out[2], { kind: 'event', name: 'list-full', destinationID: 2, tgtdestinationID: 9, flowID: '0A', occupancy: 3 });
  assert.deepEqual(names(enq(e, req(2))), ['list-full 2']);
  assert.deepEqual(listed(e), [1]);
  assert.equal(e.counters().listFull, 2);
});

test('Part 9 §2.4.2.2 "It shall not however be permissible to abandon the controlled flow by forgetting it": every XOFF\'d flow is XON\'d exactly once by the time the buffer is empty', () => {
  const e = cp({ highWatermark: 4, lowWatermark: 1, listCapacity: 2, policy: { kind: 'histogram', flows: 3 } });
  const balance = new Map<number, number>();
  const tally = (out: readonly Out[]): void => {
    for (const o of out) {
      if (o.kind !== 'send') continue;
      const d = o.packet.destinationID;
      const b = (balance.get(d) ?? 0) + (o.packet.command === 'XOFF' ? 1 : -1);
      assert.ok(b === 0 || b === 1, `flow ${d} balance ${b}`);
      balance.set(d, b);
    }
  };
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return (seed >>> 16) % n;
  };
  const held: BufferedPacket[] = [];
  // Bursts from a changing set of sources, each followed by a drain to 0–2 packets.
  for (let round = 0; round < 30; round++) {
    for (let i = 0; i < 12; i++) {
      const p = req(1 + next(2 + (round % 5)));
      held.push(p);
      tally(enq(e, p));
    }
    while (held.length > next(3)) tally(deq(e, held.splice(next(held.length), 1)[0] as BufferedPacket));
  }
  assert.ok(e.counters().earlyXon > 0 && e.counters().xoffSent > 6, 'the run exercised the list');
  for (const p of held) tally(deq(e, p));
  assert.equal(e.occupancy(), 0);
  assert.deepEqual(e.controlledFlows(), []);
  assert.ok([...balance.values()].every((b) => b === 0));
  assert.equal(e.counters().xoffSent, e.counters().xonSent);
});

test('Part 9 §2.4.2.2 "relative shut off order": fifo restarts the oldest controlled flow first, lifo the newest', () => {
  for (const [order, want] of [['fifo', [1, 2, 3]], ['lifo', [3, 2, 1]]] as const) {
    const e = cp({ lowWatermark: 1, policy: { kind: 'threshold' }, restartOrder: order });
    enq(e, MAINT, 2);
    assert.deepEqual(names([...enq(e, req(1)), ...enq(e, req(2)), ...enq(e, req(3))]), ['congested', 'XOFF 1', 'XOFF 2', 'XOFF 3']);
    assert.deepEqual(listed(e), want);
    assert.deepEqual([...deq(e, MAINT, 2), ...deq(e, req(1))], []);
    assert.deepEqual(names(deq(e, req(2))), ['decongested', ...want.map((d) => `XON ${d}`)]);
  }
});

test('Part 9 §2.4.2.2, Annex A.2 (decision): staggered restart levels; a dequeue XONs the entries due at its levels, re-evaluated levels apply from the next dequeue', () => {
  const e = cp({ highWatermark: 4, lowWatermark: 3, policy: { kind: 'threshold' }, restartStagger: 1 });
  enq(e, MAINT, 4);
  enq(e, req(1));
  enq(e, req(2));
  enq(e, req(3));
  assert.deepEqual(e.controlledFlows().map((f) => f.restartLevel), [3, 2, 1]);
  assert.deepEqual(deq(e, MAINT, 3), []);
  assert.deepEqual(names(deq(e, MAINT)), ['decongested', 'XON 1']);
  assert.deepEqual(e.controlledFlows().map((f) => [f.destinationID, f.restartLevel]), [[2, 3], [3, 2]]);
  assert.deepEqual(names(deq(e, req(1))), ['XON 2', 'XON 3']);
});

test('Part 9 §2.4.2.2 "modify … expected XON watermark level": set-restart-level moves one entry\'s level and XONs it at once when already reached', () => {
  const e = cp({ lowWatermark: 1, policy: { kind: 'threshold' } });
  enq(e, MAINT, 4);
  enq(e, req(1));
  enq(e, req(2));
  assert.deepEqual(level(e, 1, 5), []);
  assert.deepEqual(e.controlledFlows().map((f) => f.restartLevel), [5, 1]);
  assert.deepEqual(names(deq(e, MAINT)), ['XON 1']);
  assert.deepEqual(names(level(e, 2, 9)), ['XON 2']);
  assert.deepEqual(listed(e), []);
});

test('Part 9 §2.4.2.2 (decision): set-restart-level for a flow not in the list, or with a level that is not a non-negative number, changes nothing', () => {
  const e = cp({ policy: { kind: 'threshold' } });
  enq(e, MAINT, 2);
  enq(e, req(1));
  assert.deepEqual([...level(e, 7, 9), ...level(e, 1, 9, '0B'), ...level(e, 1, -1), ...level(e, 1, Number.NaN)], []);
  assert.deepEqual(e.controlledFlows().map((f) => f.restartLevel), [0]);
});

test('Part 9 §4.3 Flow Control Participant "Do not route or issue flow control transactions to this port": XOFF suppressed, flow not controlled', () => {
  const e = cp({ policy: { kind: 'threshold' }, routes: { table: { 1: 1, 2: 2 } }, participants: [1] });
  enq(e, MAINT, 2);
  const out = enq(e, req(2));
  assert.deepEqual(out[1], { kind: 'event', name: 'ccp-suppressed', destinationID: 2, tgtdestinationID: 9, flowID: '0A', occupancy: 3, port: 2, command: 'XOFF' });
  assert.deepEqual(names(enq(e, req(1))), ['XOFF 1']);
  assert.deepEqual(listed(e), [1]);
  assert.equal(e.isParticipant(2), false);
  assert.deepEqual(e.handle({ kind: 'set-participant', port: -2, enabled: true }, 0), []);
  e.handle({ kind: 'set-participant', port: 2, enabled: true }, 0);
  assert.deepEqual(names(enq(e, req(2))), ['XOFF 2']);
  assert.equal(e.counters().ccpSuppressed, 1);
});

test('Part 9 §4.3 (decision): an XON to a port whose participant bit was cleared is suppressed and the entry leaves the list (orphan mechanism restarts the source)', () => {
  const e = cp({ policy: { kind: 'threshold' } });
  enq(e, MAINT, 2);
  enq(e, req(1));
  e.handle({ kind: 'set-participant', port: 4, enabled: false }, 0);
  assert.equal(e.isParticipant(4), false);
  assert.deepEqual(names(enq(e, req(2))), ['ccp-suppressed 2']);
  assert.deepEqual([...deq(e, MAINT, 2), ...deq(e, req(1))], []);
  const last = deq(e, req(2));
  assert.deepEqual(last[1], { kind: 'event', name: 'ccp-suppressed', destinationID: 1, tgtdestinationID: 9, flowID: '0A', occupancy: 0, port: 4, command: 'XON' });
  assert.deepEqual(listed(e), []);
  e.handle({ kind: 'set-participant', port: 4, enabled: true }, 0);
  assert.equal(e.isParticipant(4), true);
});

test('Part 9 §2.4.1 "a flow control transaction can be sent back to any transaction request flow source": a switch with no route to the source cannot XOFF it', () => {
  const e = cp({ policy: { kind: 'threshold' }, routes: { table: { 1: 3 } } });
  enq(e, MAINT, 2);
  const out = enq(e, req(2));
  assert.deepEqual(out[1], { kind: 'event', name: 'no-route', destinationID: 2, tgtdestinationID: 9, flowID: '0A', occupancy: 3 });
  const sent = enq(e, req(1));
  assert.equal(sent[0]?.kind === 'send' ? sent[0].port : -1, 3);
  assert.deepEqual(listed(e), [1]);
  assert.equal(e.counters().noRoute, 1);
  const ep = new CongestionPoint({ role: 'endpoint', highWatermark: 1, lowWatermark: 0, routes: { table: { 1: 3 } }, policy: { kind: 'threshold' } });
  enq(ep, MAINT);
  const epOut = enq(ep, req(2));
  assert.equal(epOut[1]?.kind === 'send' ? epOut[1].port : -1, 0);
});

test('Part 9 §2.4.6 rule 2 "If a switch runs out of packet buffer space, it is permitted to drop CCPs": XOFF dropped = not controlled, and no entry is XON\'d early for it', () => {
  const e = cp({ capacity: 4, policy: { kind: 'threshold' } });
  enq(e, MAINT, 2);
  assert.deepEqual(names(enq(e, req(1))), ['congested', 'XOFF 1']);
  const out = enq(e, req(2));
  assert.deepEqual(out, [{ kind: 'event', name: 'ccp-dropped', destinationID: 2, tgtdestinationID: 9, flowID: '0A', occupancy: 4, port: 4, command: 'XOFF' }]);
  assert.deepEqual(listed(e), [1]);
  assert.equal(e.counters().ccpDropped, 1);
  const f = cp({ capacity: 5, listCapacity: 1, policy: { kind: 'threshold' } });
  enq(f, MAINT, 2);
  enq(f, req(1));
  assert.deepEqual(names(enq(f, req(3))), ['list-full 3']);
  // Flow 3 now has more packets than flow 1 and would replace it, but its XOFF would be dropped.
  assert.deepEqual(names(enq(f, req(3))), ['ccp-dropped 3']);
  assert.deepEqual(listed(f), [1]);
  assert.equal(f.counters().earlyXon, 0);
});

test('Part 9 §2.4.6 rule 2, §2.4.2.1: a dropped XON still removes the entry; end points never drop CCPs', () => {
  const e = cp({ capacity: 5, policy: { kind: 'threshold' } });
  enq(e, MAINT, 2);
  enq(e, req(1));
  enq(e, MAINT, 2);
  const out = level(e, 1, 5);
  assert.deepEqual(out, [{ kind: 'event', name: 'ccp-dropped', destinationID: 1, tgtdestinationID: 9, flowID: '0A', occupancy: 5, port: 4, command: 'XON' }]);
  assert.deepEqual(listed(e), []);
  const ep = new CongestionPoint({ role: 'endpoint', highWatermark: 2, lowWatermark: 0, capacity: 3, policy: { kind: 'threshold' } });
  enq(ep, MAINT, 2);
  assert.deepEqual(names(enq(ep, req(1))), ['congested', 'XOFF 1']);
  assert.deepEqual(names(enq(ep, req(2))), ['XOFF 2']);
  assert.deepEqual(names(level(ep, 1, 9)), ['XON 1']);
  assert.equal(ep.counters().ccpDropped, 0);
});

test('Part 9 §2.4.2.2 (decision): a dequeue for a packet that is not in the buffer is counted, reported and ignored', () => {
  const e = cp({ unit: 'bytes', highWatermark: 100, lowWatermark: 10 });
  enq(e, req(1, 9, { size: 40 }));
  enq(e, MAINT);
  const out = deq(e, req(2));
  assert.deepEqual(out, [{ kind: 'event', name: 'unknown-dequeue', destinationID: 2, tgtdestinationID: 9, occupancy: 40 }]);
  assert.deepEqual(names(deq(e, req(1, 9, { ftype: 13, prio: 1 }))), ['unknown-dequeue 1']);
  assert.deepEqual(names(deq(e, req(1, 9, { size: 41 }))), ['unknown-dequeue 1']);
  assert.deepEqual(names(deq(e, { ...MAINT, sourceID: 6 })), ['unknown-dequeue 6']);
  assert.deepEqual([...deq(e, MAINT), ...deq(e, req(1, 9, { size: 40 }))], []);
  assert.deepEqual(names(deq(e, req(1, 9, { size: 40 }))), ['unknown-dequeue 1']);
  assert.equal(e.occupancy(), 0);
  assert.deepEqual([e.counters().unknownDequeue, e.counters().dequeued], [5, 2]);
});

test('Part 9 §2.4.2.2: queries — controlled flows with their entries, buffered counts over every tt, counters as a copy, a JSON snapshot', () => {
  const e = cp({ policy: { kind: 'threshold' } });
  enq(e, MAINT, 2);
  enq(e, req(1));
  enq(e, req(1, 9, { tt: 1 }));
  assert.deepEqual(e.controlledFlows(), [
    { destinationID: 1, tgtdestinationID: 9, flowID: '0A', tt: 0, order: 0, restartLevel: 0, port: 4 },
    { destinationID: 1, tgtdestinationID: 9, flowID: '0A', tt: 1, order: 1, restartLevel: 0, port: 4 },
  ]);
  assert.equal(e.bufferedCount(1, 9, '0A'), 2);
  assert.equal(e.bufferedCount(1, 9, '0B'), 0);
  const c = e.counters();
  c.xoffSent = 99;
  assert.equal(e.counters().xoffSent, 2);
  const snap = JSON.parse(JSON.stringify(e.snapshot())) as CongestionPointSnapshot;
  assert.equal(snap['occupancy'], 4);
  assert.equal(snap['congested'], true);
  assert.equal(snap.controlled.length, 2);
  assert.deepEqual(snap['otherPackets'], { 'x0:5>9': 2 });
  assert.deepEqual(snap['participants'], { all: true, cleared: [] });
  assert.deepEqual(snap, e.snapshot());
});
