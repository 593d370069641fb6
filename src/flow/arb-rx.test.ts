import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCcp } from '../wire/type7.ts';
import { ArbRx } from './arb-rx.ts';
import { singleBeforeMulti } from './grant-policy.ts';
import type { GrantPolicy, QueuedRequest } from './arbitration-types.ts';
import { RX, acts, lines, rel, req, sent, seg } from '../../test/support/arb-rx.ts';

test('Part 9 §2.2.1, §2.4.7 rule 2: a REQUEST with a free resource is answered XON(ARB) at once, allocated, idle timer armed', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: 500 });
  const out = rx.handle(req(7, '0C', 'single', 1), 100);
  assert.deepEqual(lines(out), ['XON_ARB 7/0C y1', 'allocated 7/0C single y1', 'timer idle:7/0C 600']);
  assert.equal(rx.free(), 1);
  assert.deepEqual(rx.allocation(7, '0C'), { sourceID: 7, flowID: '0C', mode: 'single', seq: 1, since: 100, pduOpen: false, pdus: 0, reclaiming: false });
  assert.equal(rx.counters().requests, 1);
  assert.equal(rx.counters().granted, 1);
});

test('Part 9 §3.3 Table 3-2, §2.4.2, Table 3-1 SOC: XON(ARB) goes to the requester from this end point, same flowID and Y, prio 3 CRF 1, SOC 1', () => {
  const rx = new ArbRx({ localID: RX, resources: 1 });
  const [p] = sent(rx.handle(req(7, '2A', 'multi', 0), 0));
  assert.ok(p);
  assert.equal(p.command, 'XON_ARB');
  assert.equal(p.xonXoff, 1);
  assert.equal(p.fam, 0b010);
  assert.equal(p.seq, 0);
  assert.equal(p.destinationID, 7);
  assert.equal(p.tgtdestinationID, RX);
  assert.equal(p.flowID, '2A');
  assert.equal(p.flowIDCode, 0b1000010);
  assert.equal(p.prio, 3);
  assert.equal(p.crf, 1);
  assert.equal(p.soc, 1);
  assert.equal(p.tt, 0);
  assert.equal(p.rsrv, 0);
});

test('Part 9 §3.3 Table 3-2, §2.4.7 rule 12: XOFF(ARB) carries the REQUEST\'s Y (FAM 01Y), responseFlow prio/CRF and the configured tt', () => {
  const rx = new ArbRx({ localID: 0x1234, tt: 1, resources: 0, whenBusy: 'reject', responseFlow: { prio: 2, crf: 0 } });
  const [p] = sent(rx.handle(req(0xbeef, '0A', 'single', 1, { tt: 1, destinationID: 0x1234 }), 0));
  assert.ok(p);
  assert.equal(p.command, 'XOFF_ARB');
  assert.equal(p.xonXoff, 0);
  assert.equal(p.fam, 0b011);
  assert.equal(p.seq, 1);
  assert.equal(p.destinationID, 0xbeef);
  assert.equal(p.tgtdestinationID, 0x1234);
  assert.equal(p.flowID, '0A');
  assert.equal(p.prio, 2);
  assert.equal(p.crf, 0);
  assert.equal(p.soc, 1);
  assert.equal(p.tt, 1);
  assert.equal(rx.counters().rejected, 1);
});

test('Part 9 §2.4.7 rule 9: a REQUEST that cannot be granted is queued and answered XON(ARB) when a resource frees, in FIFO order', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'multi', 1), 1)), ['queued 2/0A y1']);
  assert.deepEqual(acts(rx.handle(req(3, '0B', 'single', 0), 2)), ['queued 3/0B y0']);
  assert.deepEqual(rx.queue().map((q) => [q.sourceID, q.flowID, q.mode, q.seq, q.at, q.order]), [[2, '0A', 'multi', 1, 1, 1], [3, '0B', 'single', 0, 2, 2]]);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'single'), 3)), ['freed 1/0A last-segment', 'XON_ARB 2/0A y1', 'allocated 2/0A multi y1']);
  assert.deepEqual(acts(rx.handle(rel(2, '0A', 1), 4)), ['freed 2/0A release', 'XON_ARB 3/0B y0', 'allocated 3/0B single y0']);
  assert.deepEqual(rx.queue(), []);
  assert.equal(rx.counters().queued, 2);
});

test('Part 9 §2.2.2: whenBusy reject — "it can send a XOFF (ARB) message immediately to indicate lack of resources"', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, whenBusy: 'reject' });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'single', 0), 1)), ['XOFF_ARB 2/0A y0']);
  assert.deepEqual(rx.queue(), []);
  assert.equal(rx.free(), 0);
});

test('Part 9 §2.2.2 (decision): even in reject mode a pipelined REQUEST is queued behind its flow\'s allocation ("only has to queue up one outstanding request per flow")', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, whenBusy: 'reject', idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 1), 1)), ['queued 1/0A y1']);
  assert.equal(rx.allocation(1, '0A')?.seq, 0);
  assert.deepEqual(rx.queue().map((q) => q.seq), [1]);
  const max = new ArbRx({ localID: RX, resources: 1, maxQueued: 0, idleTimeout: null });
  max.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(acts(max.handle(req(1, '0A', 'single', 1), 1)), ['queued 1/0A y1'], 'maxQueued bounds other flows only');
});

test('Part 9 §2.4.8 (decision): the idle timeout defaults to 1_000_000 time units (1 ms in the CLI\'s nanoseconds)', () => {
  const rx = new ArbRx({ localID: RX, resources: 1 });
  assert.deepEqual(lines(rx.handle(req(1, '0A', 'single', 0), 5)).at(-1), 'timer idle:1/0A 1000005');
});

test('Part 9 §2.2.2: with maxQueued requests waiting, the next REQUEST is answered XOFF(ARB) at once', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, maxQueued: 1 });
  rx.handle(req(1, '0A', 'single', 0), 0);
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'single', 0), 1)), ['queued 2/0A y0']);
  assert.deepEqual(acts(rx.handle(req(3, '0A', 'single', 1), 2)), ['XOFF_ARB 3/0A y1']);
  assert.equal(rx.queue().length, 1);
  const none = new ArbRx({ localID: RX, resources: 0, maxQueued: 0 });
  assert.deepEqual(acts(none.handle(req(1, '0A', 'single', 0), 0)), ['XOFF_ARB 1/0A y0']);
});

test('Part 9 §2.2.2 Figure 2-4, §2.4.7 rule 10: a pipelined REQUEST is not honored until the current PDU has been completely received, even with resources free', () => {
  const rx = new ArbRx({ localID: RX, resources: 4, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(seg(1, '0A', 'start'), 1);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 1), 2)), ['queued 1/0A y1']);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'continuation'), 3)), []);
  assert.equal(rx.allocation(1, '0A')?.seq, 0);
  assert.equal(rx.free(), 3);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'end'), 4)), ['freed 1/0A last-segment', 'XON_ARB 1/0A y1', 'allocated 1/0A single y1']);
  assert.equal(rx.allocation(1, '0A')?.seq, 1);
});

test('Part 9 §2.2.2, §2.4.7 rules 7 and 10: a REQUEST pipelined behind a multi-PDU grant waits for its RELEASE', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 1), 0);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0), 1)), ['queued 1/0A y0']);
  rx.handle(seg(1, '0A', 'single'), 2);
  rx.handle(seg(1, '0A', 'single'), 3);
  assert.equal(rx.allocation(1, '0A')?.mode, 'multi');
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 1), 4)), ['freed 1/0A release', 'XON_ARB 1/0A y0', 'allocated 1/0A single y0']);
});

test('Part 9 §2.4.7 rules 4 and 10: a REQUEST reissued with the grant\'s Y (XON(ARB) lost) is answered XON(ARB) again without a second resource', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'single', 1), 0);
  assert.deepEqual(lines(rx.handle(req(1, '0A', 'single', 1), 50)), ['regrant 1/0A y1', 'XON_ARB 1/0A y1', 'timer idle:1/0A 150']);
  assert.equal(rx.free(), 1);
  assert.equal(rx.counters().regranted, 1);
  assert.equal(rx.counters().granted, 1);
});

test('Part 9 §2.4.7 rules 2 and 3 1), §2.2.1: a reissue of a queued REQUEST is answered XOFF(ARB) at once and leaves the queue', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(req(2, '0A', 'single', 1), 1);
  // §2.2.1 "respond with either a XON(ARB) or XOFF(ARB) message depending on whether it has buffer
  // and context resources available": none is, so the transmitter that timed out hears XOFF(ARB).
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'single', 1), 2)), ['duplicate-request 2/0A y1', 'XOFF_ARB 2/0A y1']);
  assert.equal(rx.queue().length, 0);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'single'), 3)), ['freed 1/0A last-segment']);
  // A copy still in flight (or a reissue after a lost XOFF(ARB)) is answered the same way, not granted.
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'single', 1), 3)), ['duplicate-request 2/0A y1', 'XOFF_ARB 2/0A y1']);
  assert.equal(rx.free(), 1);
  assert.deepEqual([rx.counters().duplicates, rx.counters().rejected], [2, 2]);
  // Rule 3 2): after XOFF(ARB) a new REQUEST (Y advanced) is granted.
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'single', 0), 4)), ['XON_ARB 2/0A y0', 'allocated 2/0A single y0']);
});

test('Part 9 §2.2.2, §2.4.7 rules 2, 3 1) and 8: a reissue of a REQUEST pipelined behind a multi-PDU holder that keeps its resource asks the resource back with XOFF(ARB); the RELEASE lets XON(ARB) answer it', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: 100 });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'multi', 1), 1)), ['queued 1/0A y1']);
  for (let t = 2; t < 6; t++) rx.handle(seg(1, '0A', 'single'), t);
  // §2.2.2 "The destination only acknowledges the next request when the current request has
  // completed"; rule 8 "The receiver may send a XOFF(ARB) message during the multi-PDU transfer".
  assert.deepEqual(lines(rx.handle(req(1, '0A', 'multi', 1), 6)), ['duplicate-request 1/0A y1', 'timer idle:1/0A 106', 'XOFF_ARB 1/0A y0']);
  assert.equal(rx.allocation(1, '0A')?.reclaiming, true);
  assert.deepEqual(rx.queue().map((q) => q.seq), [1]);
  // A second reissue re-sends the XOFF(ARB) but does not push the §2.4.8 2 deadline back.
  assert.deepEqual(lines(rx.handle(req(1, '0A', 'multi', 1), 50)), ['duplicate-request 1/0A y1', 'XOFF_ARB 1/0A y0']);
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 0), 60)), ['freed 1/0A release', 'XON_ARB 1/0A y1', 'allocated 1/0A multi y1']);
  assert.equal(rx.counters().duplicates, 2);
});

test('Part 9 §2.2.2, §2.4.7 rules 2 and 5: a reissue of a REQUEST pipelined behind a single-PDU resource waits for that PDU\'s end, which answers it', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(seg(1, '0A', 'start'), 1);
  rx.handle(req(1, '0A', 'single', 1), 2);
  // "The pipelined request shall not be honored until the current transaction has been completely
  // received"; an XOFF(ARB) now would let the next new REQUEST carry the Y still held (y0).
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 1), 3)), ['duplicate-request 1/0A y1']);
  assert.deepEqual(acts(rx.handle(seg(1, '0A', 'end'), 4)), ['freed 1/0A last-segment', 'XON_ARB 1/0A y1', 'allocated 1/0A single y1']);
});

test('Part 9 §2.4.7 rules 2 and 4: a REQUEST of the other mode carrying the Y of its flow\'s allocation is no reissue: answered XOFF(ARB), the resource stays', () => {
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0), 1)), ['XOFF_ARB 1/0A y0']);
  assert.equal(rx.allocation(1, '0A')?.mode, 'multi');
  assert.deepEqual([rx.counters().regranted, rx.counters().rejected], [0, 1]);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 1), 2)), ['queued 1/0A y1']);
});

test('Part 9 §2.2.1, §2.4.7 rule 2: every reissue of a REQUEST waiting on resources held by multi-PDU holders is answered, none only logged', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  let y = 0;
  for (let t = 1; t < 20; t += 2) {
    rx.handle(seg(1, '0A', 'single'), t);
    const first = acts(rx.handle(req(2, '0B', 'single', y), t));
    assert.deepEqual(first, [`queued 2/0B y${y}`]);
    assert.deepEqual(acts(rx.handle(req(2, '0B', 'single', y), t + 1)), [`duplicate-request 2/0B y${y}`, `XOFF_ARB 2/0B y${y}`]);
    y ^= 1;
  }
  assert.equal(rx.counters().rejected, 10);
});

test('Part 9 §2.4.7 rules 2 and 4 (decision): a queued REQUEST replaced by one with a new Y is answered XOFF(ARB); the new one joins the back of the queue', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(req(2, '0A', 'single', 0), 1);
  rx.handle(req(3, '0A', 'single', 0), 2);
  assert.deepEqual(acts(rx.handle(req(2, '0A', 'multi', 1), 3)), ['XOFF_ARB 2/0A y0', 'queued 2/0A y1']);
  assert.deepEqual(rx.queue().map((q) => `${q.sourceID} ${q.mode} y${q.seq}`), ['3 single y0', '2 multi y1']);
});

test('Part 9 §2.4.7 rule 4 (decision): a copy of a REQUEST whose allocation has ended is answered XOFF(ARB), not granted again', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null });
  rx.handle(req(1, '0A', 'single', 0), 0);
  rx.handle(seg(1, '0A', 'single'), 1);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0), 2)), ['duplicate-request 1/0A y0', 'XOFF_ARB 1/0A y0']);
  assert.equal(rx.free(), 1);
  // The next new REQUEST advances Y and is granted; after an XOFF(ARB) the old Y is new again.
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 1), 3)), ['XON_ARB 1/0A y1', 'allocated 1/0A single y1']);
  const busy = new ArbRx({ localID: RX, resources: 1, whenBusy: 'reject' });
  busy.handle(req(1, '0A', 'single', 0), 0);
  busy.handle(seg(1, '0A', 'single'), 1);
  busy.handle(req(9, '0A', 'multi', 0), 2);
  assert.deepEqual(acts(busy.handle(req(1, '0A', 'single', 1), 3)), ['XOFF_ARB 1/0A y1']);
  assert.deepEqual(acts(busy.handle(rel(9, '0A', 0), 4)), ['freed 9/0A release']);
  assert.deepEqual(acts(busy.handle(req(1, '0A', 'single', 0), 5)), ['XON_ARB 1/0A y0', 'allocated 1/0A single y0']);
});

test('Part 9 §2.4.7 rule 9: a custom grant policy chooses which queued REQUEST to grant (singleBeforeMulti)', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: null }, singleBeforeMulti);
  rx.handle(req(1, '0A', 'multi', 0), 0);
  rx.handle(req(2, '0A', 'multi', 0), 1);
  rx.handle(req(3, '0A', 'single', 0), 2);
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 0), 3)), ['freed 1/0A release', 'XON_ARB 3/0A y0', 'allocated 3/0A single y0']);
});

test('Part 9 §2.4.7 rules 9 and 10: the policy sees only requests of flows holding no resource, with the free count; undefined keeps them waiting', () => {
  const seen: [string[], number][] = [];
  let answer: number | undefined;
  const spy: GrantPolicy = (queue: readonly QueuedRequest[], free: number) => {
    seen.push([queue.map((q) => `${q.sourceID}/${q.flowID}`), free]);
    return answer;
  };
  const rx = new ArbRx({ localID: RX, resources: 2, idleTimeout: null }, spy);
  answer = 0;
  rx.handle(req(1, '0A', 'multi', 0), 0);
  answer = undefined;
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'multi', 1), 1)), ['queued 1/0A y1']);
  assert.deepEqual(acts(rx.handle(req(2, '0B', 'single', 0), 2)), ['queued 2/0B y0']);
  assert.deepEqual(seen, [[['1/0A'], 2], [['2/0B'], 1]]);
  answer = 7;
  assert.deepEqual(acts(rx.handle(req(3, '0B', 'single', 0), 3)), ['queued 3/0B y0']);
  assert.equal(rx.free(), 1);
});

test('Part 9 §2.2.1, §2.4.7 rule 2: with no resources at all every REQUEST is answered XOFF(ARB) at once, in queue mode too', () => {
  const rx = new ArbRx({ localID: RX, resources: 0 });
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0), 0)), ['XOFF_ARB 1/0A y0']);
  assert.deepEqual(acts(rx.handle(req(2, '0B', 'multi', 1), 1)), ['XOFF_ARB 2/0B y1']);
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0), 2)), ['XOFF_ARB 1/0A y0']);
  assert.deepEqual(rx.queue(), []);
  assert.equal(rx.free(), 0);
  assert.deepEqual([rx.counters().requests, rx.counters().rejected, rx.counters().queued], [3, 3, 0]);
});

test('Part 9 §3.3 Table 3-2: XON, XOFF, XON(ARB), XOFF(ARB) and undefined FAMs are not for the receiver: ignored', () => {
  const rx = new ArbRx({ localID: RX, resources: 1 });
  for (const command of ['XON', 'XOFF'] as const) {
    const packet = makeCcp({ destinationID: RX, tgtdestinationID: 1, tt: 0, command, flowID: '0A', soc: 0 });
    assert.deepEqual(acts(rx.handle({ kind: 'ccp', packet }, 0)), ['ignored 1/-']);
  }
  for (const command of ['XON_ARB', 'XOFF_ARB'] as const) {
    const packet = makeCcp({ destinationID: RX, tgtdestinationID: 1, tt: 0, command, seq: 1, flowID: '0A', soc: 1 });
    assert.deepEqual(acts(rx.handle({ kind: 'ccp', packet }, 0)), ['ignored 1/- y1']);
  }
  const undef = { ...makeCcp({ destinationID: RX, tgtdestinationID: 1, tt: 0, command: 'XOFF', flowID: '0A', soc: 0 }), fam: 0b110 };
  assert.deepEqual(acts(rx.handle({ kind: 'ccp', packet: undef }, 0)), ['ignored 1/-']);
  assert.equal(rx.counters().ignored, 5);
  assert.equal(rx.free(), 1);
});

test('Part 9 §3.4: a REQUEST with a reserved flowID is ignored ("no action required and the tgtdestinationID is ignored")', () => {
  const rx = new ArbRx({ localID: RX, resources: 1 });
  const { packet } = req(1, '0A', 'single', 0) as { packet: ReturnType<typeof makeCcp> };
  assert.deepEqual(acts(rx.handle({ kind: 'ccp', packet: { ...packet, flowIDCode: 0b0111111, flowID: 'RESERVED' } }, 0)), ['ignored 1/- y0']);
  assert.equal(rx.free(), 1);
});

test('Part 9 §3.2 (decision): REQUESTs for another end point, or from a source our tt cannot address, are ignored', () => {
  const rx = new ArbRx({ localID: RX, resources: 1 });
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0, { destinationID: RX + 1 }), 0)), ['ignored 1/- y0']);
  assert.deepEqual(acts(rx.handle(req(0x1234, '0A', 'single', 0, { tt: 1 }), 0)), ['ignored 4660/- y0']);
  assert.equal(rx.free(), 1);
  assert.equal(rx.counters().requests, 0);
});

test('Part 9 §4.2 Table 4-1 bit 20: with arbitration disabled REQUEST, RELEASE and reclaim are ignored (arbitration-disabled); segments pass', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, enabled: false });
  assert.deepEqual(acts(rx.handle(req(1, '0A', 'single', 0), 0)), ['arbitration-disabled 1/0A y0']);
  assert.deepEqual(acts(rx.handle(rel(1, '0A', 0), 0)), ['arbitration-disabled 1/0A y0']);
  assert.deepEqual(acts(rx.handle({ kind: 'reclaim', sourceID: 1, flowID: '0A' }, 0)), ['arbitration-disabled 1/0A']);
  assert.deepEqual(rx.handle(seg(1, '0A', 'single'), 0), []);
  assert.equal(rx.counters().ignored, 3);
  assert.equal(rx.counters().unexpectedSegments, 0);
});

test('Engine contract: constructor validation names the field', () => {
  const bad: [object, RegExp][] = [
    [{ localID: 256, resources: 1 }, /^localID must be/],
    [{ localID: 1, resources: -1 }, /^resources must be a non-negative integer$/],
    [{ localID: 1, resources: 1.5 }, /^resources must/],
    [{ localID: 1, resources: 1, tt: 3 }, /^tt must be/],
    [{ localID: 1, resources: 1, maxQueued: -2 }, /^maxQueued must/],
    [{ localID: 1, resources: 1, idleTimeout: 0 }, /^idleTimeout must be a positive integer or null$/],
    [{ localID: 1, resources: 1, whenBusy: 'drop' }, /^whenBusy must/],
    [{ localID: 1, resources: 1, enabled: 'yes' }, /^enabled must/],
    [{ localID: 1, resources: 1, responseFlow: { prio: 4, crf: 1 } }, /^responseFlow.prio must/],
    [{ localID: 1, resources: 1, responseFlow: { prio: 3, crf: 2 } }, /^responseFlow.crf must/],
  ];
  for (const [config, message] of bad) assert.throws(() => new ArbRx(config as never), (e: unknown) => e instanceof RangeError && message.test(e.message));
  assert.doesNotThrow(() => new ArbRx({ localID: 0xffff, tt: 1, resources: 0, idleTimeout: null, maxQueued: 0 }));
});

test('Engine contract: queries return copies; snapshot is JSON-serialisable', () => {
  const rx = new ArbRx({ localID: RX, resources: 1, idleTimeout: 10 });
  rx.handle(req(1, '0A', 'multi', 0), 0);
  rx.handle(req(2, '0B', 'single', 1), 1);
  const counters = rx.counters();
  counters.requests = 99;
  assert.equal(rx.counters().requests, 2);
  const snap = rx.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  assert.equal(snap.free, 0);
  assert.deepEqual(snap.allocations.map((a) => `${a.sourceID}/${a.flowID}`), ['1/0A']);
  assert.deepEqual(snap.queue.map((q) => `${q.sourceID}/${q.flowID}`), ['2/0B']);
  assert.deepEqual(snap.timers, [{ name: 'idle:1/0A', at: 10 }]);
  assert.equal(snap.config.maxQueued, null);
});
