import { test } from 'node:test';
import assert from 'node:assert/strict';
import { messageSegment, type11FromFields } from '../wire/type11.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { RESPONSE_STATUS, response } from '../wire/type13.ts';
import type { Type13MessageResponse } from '../wire/type13.ts';
import { drain, end, events, feed, messages, octets } from '../../test/support/type11-link.ts';
import type { End } from '../../test/support/type11-link.ts';

const A = 0x0a;
const B = 0x0b;

/** Segment `msgseg` of a `count`-segment message from A to B, ssize 32, cut from `message`. */
function seg(message: Uint8Array, msgseg: number, count: number, opts: { letter?: number; mailbox?: number; prio?: number } = {}): Type11Packet {
  return messageSegment({
    tt: 1, destinationID: B, sourceID: A, prio: opts.prio ?? 0, letter: opts.letter ?? 0, mailbox: opts.mailbox ?? 1,
    msglen: count - 1, msgseg, segmentSize: 32, payload: message.subarray(msgseg * 32, Math.min(message.length, msgseg * 32 + 32)),
  });
}

/** A segment with any fields, as lenient decoding may give it. */
function raw(f: { msglen: number; ssize: number; msgseg: number; payload: Uint8Array; letter?: number; mbox?: number }): Type11Packet {
  return type11FromFields({
    ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 11, destinationID: B, sourceID: A,
    msglen: f.msglen, ssize: f.ssize, letter: f.letter ?? 0, mbox: f.mbox ?? 1, msgsegXmbox: f.msgseg, payload: f.payload,
  });
}

/** The MESSAGE RESPONSEs B queued, as [status, letter, mbox, msgseg]. */
function answers(b: End, now = 0): [number, number, number, number][] {
  return drain(b, now).map((p) => {
    const r = p as Type13MessageResponse;
    return [r.status, r.letter, r.mbox, r.msgseg];
  });
}

function deliver(b: End, p: Type11Packet, now = 0): void {
  feed(b, { kind: 'packet', packet: p }, now);
}

test('Part 2 §2.4.2: segments arriving in any order are put back in msgseg order', () => {
  const b = end(B);
  const m = octets(80);
  for (const i of [2, 0, 1]) deliver(b, seg(m, i, 3));
  assert.deepEqual(messages(b), [{ kind: 'message', from: A, mailbox: 1, bytes: m }]);
  assert.deepEqual(answers(b), [[0, 0, 1, 2], [0, 0, 1, 0], [0, 0, 1, 1]]);
});

test('Part 2 §4.3.3 Figure 4-3, Part 6 §6.12 rule 3: a response echoes letter, mbox and msgseg, IDs swapped, one priority above', () => {
  const b = end(B);
  deliver(b, seg(octets(64), 1, 2, { letter: 3, mailbox: 2, prio: 1 }));
  const [r] = drain(b, 0) as Type13MessageResponse[];
  assert.ok(r);
  assert.deepEqual(
    [r.ftype, r.transactionName, r.statusName, r.destinationID, r.sourceID, r.prio, r.letter, r.mbox, r.msgseg, r.payload.length],
    [13, 'MESSAGE_RESPONSE', 'DONE', A, B, 2, 3, 2, 1, 0],
  );
});

test('Part 2 §4.3.3: the response to a single-segment message carries its xmbox in the msgseg position', () => {
  const b = end(B);
  deliver(b, messageSegment({ tt: 1, destinationID: B, sourceID: A, letter: 2, mailbox: 0b100111, payload: octets(8) }));
  assert.deepEqual(answers(b), [[0, 2, 0b11, 0b1001]]);
  assert.deepEqual(messages(b).map((m) => m.mailbox), [39]);
});

test('Part 2 §3.3.2, Table 4-4: a segment with a size no receiver can place is answered ERROR and its message dropped', () => {
  const cases: [string, Type11Packet][] = [
    ['reserved ssize', raw({ msglen: 1, ssize: 0b1111, msgseg: 0, payload: octets(32) })],
    ['msgseg beyond msglen', raw({ msglen: 1, ssize: 0b1011, msgseg: 2, payload: octets(32) })],
    ['empty payload', raw({ msglen: 1, ssize: 0b1011, msgseg: 1, payload: new Uint8Array(0) })],
    ['not double-words', raw({ msglen: 1, ssize: 0b1011, msgseg: 1, payload: octets(12) })],
    ['larger than ssize', raw({ msglen: 1, ssize: 0b1011, msgseg: 1, payload: octets(40) })],
    ['not the last and not ssize', raw({ msglen: 1, ssize: 0b1011, msgseg: 0, payload: octets(16) })],
  ];
  for (const [what, bad] of cases) {
    const b = end(B);
    if (bad.msgseg !== 0) deliver(b, seg(octets(64), 0, 2));
    drain(b, 0);
    deliver(b, bad);
    assert.deepEqual(answers(b), [[RESPONSE_STATUS.error, 0, 1, bad.msgseg ?? 0]], what);
    const [e] = events(b, 'segment-rejected');
    assert.ok(e, what);
    assert.equal(e.dropped, bad.msgseg !== 0 ? 32 : 0, what);
    assert.match(e.clause, /^Part 2 §/, what);
    deliver(b, seg(octets(64), 1, 2));
    assert.deepEqual(messages(b), [], `${what}: the message cannot complete`);
  }
});

test('Part 2 §3.1: a segment for a mailbox this node does not receive on is answered ERROR', () => {
  const b = end(B, { mailboxes: [0, 2] });
  deliver(b, seg(octets(32), 0, 1, { mailbox: 1 }));
  deliver(b, seg(octets(32), 0, 1, { mailbox: 2 }));
  assert.deepEqual(answers(b).map((r) => r[0]), [RESPONSE_STATUS.error, RESPONSE_STATUS.done]);
  assert.deepEqual(events(b, 'segment-rejected').map((e) => e.reason), ['mailbox 1 does not receive messages']);
  assert.deepEqual(messages(b).map((m) => m.mailbox), [2]);
});

test('Part 2 §4.2.5 (decision): a segment received twice is answered DONE both times and stored once', () => {
  const b = end(B);
  const m = octets(64);
  deliver(b, seg(m, 0, 2));
  deliver(b, seg(m, 0, 2));
  deliver(b, seg(m, 1, 2));
  assert.deepEqual(answers(b).map((r) => r[0]), [0, 0, 0]);
  assert.deepEqual(messages(b).map((x) => x.bytes), [m]);
  assert.equal(events(b, 'duplicate-segment').length, 1);
});

test('Part 2 §4.2.5 (decision): a segment that cannot belong to the message collected under its letter starts a new one', () => {
  const b = end(B);
  const old = octets(96, 1);
  const fresh = octets(64, 9);
  deliver(b, seg(old, 0, 3));
  deliver(b, seg(fresh, 0, 2));
  assert.deepEqual(events(b, 'stale-reassembly').map((e) => e.dropped), [32], 'another msglen');
  deliver(b, seg(old, 1, 2));
  assert.deepEqual(events(b, 'stale-reassembly').map((e) => e.dropped), [32], 'a segment not held yet joins');
  assert.deepEqual(messages(b).map((x) => x.bytes), [new Uint8Array([...fresh.subarray(0, 32), ...old.subarray(32, 64)])], 'which is as far as a receiver can tell');
  const b2 = end(B);
  deliver(b2, seg(old, 0, 2));
  deliver(b2, seg(fresh, 0, 2));
  deliver(b2, seg(fresh, 1, 2));
  assert.deepEqual(events(b2, 'stale-reassembly').length, 1, 'other octets for a segment already held');
  assert.deepEqual(messages(b2).map((x) => x.bytes), [fresh]);
});

test('Part 2 §2.4.2 (decision): a partly received message with no segment for reassemblyTimeout is dropped', () => {
  const b = end(B, { reassemblyTimeout: 500 });
  const out = b.engine.handle({ kind: 'packet', packet: seg(octets(64), 0, 2) }, 100);
  assert.deepEqual(out, [{ kind: 'timer', name: `rx:${A}/0/1`, at: 600 }]);
  feed(b, { kind: 'timer', name: `rx:${A}/0/1` }, 600);
  assert.deepEqual(events(b, 'reassembly-timeout').map((e) => [e.from, e.letter, e.mailbox, e.dropped]), [[A, 0, 1, 32]]);
  deliver(b, seg(octets(64), 1, 2), 700);
  assert.deepEqual(messages(b), [], 'segment 0 is gone');
  assert.deepEqual(b.engine.snapshot()['reassemblies'], [{ from: A, letter: 0, mailbox: 1, segments: 2, ssize: 0b1011, received: [1], octets: 32, openedAt: 700, lastAt: 700 }]);
});

test('Part 2 Annex A.4.3: with maxReassemblies messages open, a segment of another message is answered RETRY', () => {
  const b = end(B, { maxReassemblies: 2 });
  deliver(b, seg(octets(64), 0, 2, { letter: 0 }));
  deliver(b, seg(octets(64), 0, 2, { letter: 1 }));
  deliver(b, seg(octets(64), 0, 2, { letter: 2 }));
  deliver(b, seg(octets(64), 1, 2, { letter: 1 }));
  deliver(b, messageSegment({ tt: 1, destinationID: B, sourceID: A, letter: 3, mailbox: 5, payload: octets(8) }));
  deliver(b, seg(octets(64), 0, 2, { letter: 2 }));
  assert.deepEqual(answers(b).map((r) => [r[0], r[1]]), [[0, 0], [0, 1], [3, 2], [0, 1], [0, 3], [0, 2]]);
  assert.deepEqual(events(b, 'busy').map((e) => [e.letter, e.msgseg]), [[2, 0]]);
  assert.equal(messages(b).length, 2, 'letter 1 completed; a single segment needs no reassembly buffer');
});

test('Part 2 Annex A.4.3 (decision): a delivered message is written into memory of its own, not a view of the packet', () => {
  const b = end(B);
  const p = messageSegment({ tt: 1, destinationID: B, sourceID: A, letter: 0, mailbox: 0, payload: octets(16) });
  deliver(b, p);
  p.payload.fill(0);
  assert.deepEqual(messages(b)[0]?.bytes, octets(16));
});

test('Part 3 §2.4: packets for another destination are dropped unanswered; non-message packets are not this engine\'s', () => {
  const b = end(B);
  deliver(b, { ...seg(octets(32), 0, 1), destinationID: 0x77 });
  feed(b, { kind: 'packet', packet: response({ tt: 1, destinationID: B, sourceID: A, targetTID: 4 }) }, 0);
  assert.deepEqual(events(b, 'not-for-us').map((e) => [e.ftype, e.destinationID]), [[11, 0x77]]);
  assert.deepEqual(events(b, 'ignored-packet').map((e) => e.ftype), [13]);
  assert.deepEqual(drain(b, 0), []);
});

test('riodp engine contract: malformed inputs are reported, never thrown', () => {
  const b = end(B);
  feed(b, { kind: 'packet', packet: null } as never, 0);
  feed(b, { kind: 'packet', packet: { ftype: 11, destinationID: B, sourceID: A } } as never, 0);
  feed(b, { kind: 'nonsense' } as never, 0);
  feed(b, { kind: 'pull', max: 'two' } as never, 0);
  assert.deepEqual(events(b, 'invalid-input').map((e) => e.detail), [
    'packet: not a decoded packet', 'unknown input kind "nonsense"', 'pull: max "two" is not a positive integer',
  ]);
  assert.deepEqual(events(b, 'ignored-packet').length, 1, 'a Type 11 header without message fields');
  assert.equal(b.engine.counters().invalidInputs, 3);
});
