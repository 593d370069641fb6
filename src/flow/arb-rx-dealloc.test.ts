import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbRx } from './arb-rx.ts';
import { RX, acts, lines, rel, req, sent, seg } from '../../test/support/arb-rx.ts';

const idle = (src: number, flowID: string) => ({ kind: 'timer', name: `idle:${src}/${flowID}` }) as const;
const reclaim = (sourceID: number, flowID: '0A' | '0B') => ({ kind: 'reclaim', sourceID, flowID }) as const;

test('Part 9 §2.4.7 rule 5, §2.2.1: a single-PDU resource is freed at the end segment, not before', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(lines(rx.handle(seg(1, '0A', 'start'), 10)), ['timer idle:1/0A 110']);
  assert.equal(rx.allocation(1, '0A')?.pduOpen, true);
  assert.deepEqual(lines(rx.handle(seg(1, '0A', 'continuation'), 20)), ['timer idle:1/0A 120']);
  assert.deepEqual(lines(rx.handle(seg(1, '0A', 'end'), 30)), ['timer idle:1/0A cancel', 'freed 1/0A last-segment']);
  assert.equal(rx.free(), 1);
  assert.equal(rx.allocation(1, '0A'), undefined);
});

test('Part 9 §2.4.7 rule 5: a single-PDU resource is freed at a single segment (the PDU\'s only and last segment)', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(lines(rx.handle(seg(1, '0A', 'single'), 5)), ['freed 1/0A last-segment']);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'single'), 6)), ['unexpected-segment 1/0A']);
});

test('Part 9 §2.4.8 1: "An aborted PDU results in the de-allocation of the resources" (single-PDU)', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(seg(1, '0A', 'start'), 1);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'abort'), 2)), ['freed 1/0A abort']);
  assert.equal(rx.free(), 1);
});

test('Part 9 §2.4.7 rule 5, §2.4.8 1: a single-PDU resource with no packet before the idle timeout is freed; a segment restarts the timer', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(seg(1, '0A', 'start'), 60);
  assert.deepEqual(rx.handle(idle(1, '0A'), 100), [], 'the first deadline was pushed to 160: a late expiry is ignored');
  assert.deepEqual(lines(rx.handle(idle(1, '0A'), 160)), ['freed 1/0A idle-timeout']);
  assert.equal(rx.counters().idleFreed, 1);
  assert.deepEqual(rx.handle(idle(1, '0A'), 300), [], 'a second delivery is ignored');
});

test('Part 9 §2.4.7 rule 5: freeing at the idle timeout grants the next queued REQUEST', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(req(2, '0A', 'single', 1), 10);
  assert.deepEqual(lines(rx.handle(idle(1, '0A'), 100)), ['freed 1/0A idle-timeout', 'XON_ARB 2/0A y1', 'allocated 2/0A single y1', 'timer idle:2/0A 200']);
});

test('Part 9 §2.4.7 rule 6, §2.2.1 Figure 2-2: a multi-PDU resource is held across PDUs until RELEASE', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 1), 0);
  for (const s of ['start', 'continuation', 'end', 'single', 'start', 'end'] as const) assert.deepEqual(rx.handle(seg(1, '0A', s), 1), []);
  assert.equal(rx.allocation(1, '0A')?.pdus, 3);
  assert.equal(rx.free(), 0);
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 1), 2)), ['freed 1/0A release']);
  assert.equal(rx.counters().released, 1);
  assert.equal(rx.free(), 1);
});

test('Part 9 §2.4.8 2: "A PDU may be aborted ... The resources will still not be de-allocated until a RELEASE message is received"', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  rx.handle(seg(1, '0A', 'start'), 1);
  assert.deepEqual(rx.handle(seg(1, '0A', 'abort'), 2), []);
  assert.equal(rx.allocation(1, '0A')?.mode, 'multi');
  assert.equal(rx.allocation(1, '0A')?.pduOpen, false);
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 0), 3)), ['freed 1/0A release']);
});

test('Part 9 §2.4.7 rule 7: a RELEASE whose Y is not the allocation\'s is stale and ignored', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 1), 1)), ['stale-release 1/0A y1']);
  assert.equal(rx.free(), 0);
  assert.equal(rx.counters().staleReleases, 1);
});

test('Part 9 §2.4.7 rule 7: a RELEASE for a flow holding no multi-PDU resource is stale', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null });
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 0), 0)), ['stale-release 1/0A y0']);
  rx.handle(req(1, '0B', 'single', 0), 1);
  assert.deepEqual(acts(rx.handle(rel(1, '0B', 0), 2)), ['stale-release 1/0B y0']);
  assert.equal(rx.allocation(1, '0B')?.mode, 'single');
  assert.equal(rx.counters().staleReleases, 2);
});

test('Part 9 §2.4.7 rule 12 (decision): a RELEASE is accepted in whatever prio/CRF it arrives', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0D', 'multi', 0), 0);
  assert.deepEqual(acts(rx.handle(rel(1, '0D', 0, { prio: 1, crf: 1 }), 1)), ['freed 1/0D release']);
  rx.handle(req(1, '0D', 'multi', 1), 2);
  assert.deepEqual(acts(rx.handle(rel(1, '0D', 1, { prio: 3, crf: 1 }), 3)), ['freed 1/0D release']);
});

test('Part 9 §2.4.7 rule 8, §2.2.1 Figure 2-3: reclaim sends XOFF(ARB) with the allocation\'s Y; the resource stays until RELEASE', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(5, '0B', 'multi', 1), 0);
  rx.handle(req(6, '0B', 'single', 0), 1);
  const out = rx.handle(reclaim(5, '0B'), 2);
  const [p] = sent(out);
  assert.ok(p);
  assert.deepEqual([p.command, p.xonXoff, p.fam, p.seq, p.destinationID, p.tgtdestinationID, p.flowID, p.prio, p.crf, p.soc], ['XOFF_ARB', 0, 0b011, 1, 5, RX, '0B', 3, 1, 1]);
  assert.equal(rx.allocation(5, '0B')?.reclaiming, true);
  assert.deepEqual(rx.handle(seg(5, '0B', 'end'), 3), []);
  assert.equal(rx.free(), 0, '"The receiver may not deallocate the resources until the RELEASE message is received"');
  assert.deepEqual(acts(rx.handle(rel(5, '0B', 1), 4)), ['freed 5/0B release', 'XON_ARB 6/0B y0', 'allocated 6/0B single y0']);
});

test('Part 9 §2.4.7 rule 8 (decision): reclaim of a single-PDU resource or of a flow holding nothing is ignored; a repeated reclaim re-sends XOFF(ARB)', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null });
  assert.deepEqual(acts(rx.handle(reclaim(1, '0A'), 0)), ['ignored 1/0A']);
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(acts(rx.handle(reclaim(1, '0A'), 1)), ['ignored 1/0A']);
  rx.handle(req(1, '0B', 'multi', 0), 2);
  assert.deepEqual(acts(rx.handle(reclaim(1, '0B'), 3)), ['XOFF_ARB 1/0B y0']);
  assert.deepEqual(acts(rx.handle(reclaim(1, '0B'), 4)), ['XOFF_ARB 1/0B y0']);
  assert.equal(rx.counters().ignored, 2);
});

test('Part 9 §2.4.7 rules 4 and 8 (decision): a REQUEST reissued during a reclaim gets XON(ARB) then the XOFF(ARB) again', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 1), 0);
  rx.handle(reclaim(1, '0A'), 1);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'multi', 1), 2)), ['regrant 1/0A y1', 'XON_ARB 1/0A y1', 'XOFF_ARB 1/0A y1']);
});

test('Part 9 §2.4.8 2, §2.4.2.2: idle multi-PDU resource — XOFF(ARB) first, then asynchronous de-allocation with possible loss', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'multi', 1), 0);
  rx.handle(req(2, '0A', 'single', 0), 5);
  assert.deepEqual(lines(rx.handle(idle(1, '0A'), 100)), ['XOFF_ARB 1/0A y1', 'timer idle:1/0A 200']);
  assert.equal(rx.allocation(1, '0A')?.reclaiming, true);
  assert.deepEqual(lines(rx.handle(idle(1, '0A'), 200)), [
    'possible-loss 1/0A y1', 'freed 1/0A async', 'XON_ARB 2/0A y0', 'allocated 2/0A single y0', 'timer idle:2/0A 300',
  ]);
  assert.equal(rx.counters().asyncFreed, 1);
});

test('Part 9 §2.4.8 2: a RELEASE answering the idle XOFF(ARB) frees normally, no loss', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  rx.handle(idle(1, '0A'), 100);
  assert.deepEqual(lines(rx.handle(rel(1, '0A', 0), 150)), ['timer idle:1/0A cancel', 'freed 1/0A release']);
  assert.deepEqual(rx.handle(idle(1, '0A'), 200), []);
  assert.equal(rx.counters().asyncFreed, 0);
});

test('Part 9 §2.4.8 2 (decision): segments after the XOFF(ARB) push the deadline back, but the next timeout still frees asynchronously', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  rx.handle(idle(1, '0A'), 100);
  assert.deepEqual(lines(rx.handle(seg(1, '0A', 'start'), 150)), ['timer idle:1/0A 250']);
  assert.deepEqual(rx.handle(idle(1, '0A'), 200), []);
  assert.deepEqual(acts(rx.handle(idle(1, '0A'), 250)), ['possible-loss 1/0A y0', 'freed 1/0A async']);
});

test('Part 9 §2.4.2.2 (decision): a reclaim restarts the idle period, so the transmitter gets a whole period to answer', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  assert.deepEqual(lines(rx.handle(reclaim(1, '0A'), 90)), ['XOFF_ARB 1/0A y0', 'timer idle:1/0A 190']);
  assert.deepEqual(rx.handle(idle(1, '0A'), 100), []);
  assert.deepEqual(acts(rx.handle(idle(1, '0A'), 190)), ['possible-loss 1/0A y0', 'freed 1/0A async']);
});

test('Part 9 §2.4.8 NOTE "Use of timers with the arbitration protocol is optional": idleTimeout null arms no timer and frees nothing by time', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null });
  const out = [...rx.handle(req(1, '0A', 'single', 0), 0), ...rx.handle(req(1, '0B', 'multi', 0), 0), ...rx.handle(seg(1, '0B', 'single'), 5)];
  assert.equal(out.filter((o) => o.kind === 'timer').length, 0);
  assert.deepEqual(rx.handle(idle(1, '0A'), 1e12), []);
  assert.equal(rx.free(), 0);
  assert.deepEqual(rx.snapshot().timers, []);
});

test('Part 9 §2.4.7 preamble: a segment on a flow holding no resource is counted and changes nothing', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'single', 0), 0);
  const before = rx.snapshot();
  assert.deepEqual(lines(rx.handle(seg(2, '0A', 'start'), 1)), ['unexpected-segment 2/0A']);
  assert.deepEqual(lines(rx.handle(seg(1, '0B', 'end'), 1)), ['unexpected-segment 1/0B']);
  const after = rx.snapshot();
  assert.deepEqual({ ...after, counters: before.counters }, before);
  assert.equal(after.counters.unexpectedSegments, 2);
});

test('Engine contract: a timer that is not ours, or is stale, is ignored', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(rx.handle({ kind: 'timer', name: 'retry:1/0A' }, 500), []);
  assert.deepEqual(rx.handle(idle(1, '0B'), 500), []);
  assert.deepEqual(rx.handle(idle(1, '0A'), 99), []);
  assert.equal(rx.free(), 0);
});
