import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RESPONSE_STATUS, messageResponseTo } from '../wire/type13.ts';
import type { Type11Packet } from '../wire/type11.ts';
import { Type11Conveyance } from './type11-conveyance.ts';
import type { Type11ConveyanceOutput } from './type11-conveyance-types.ts';
import { decodeSmp, smpBytes, smpClose } from '../wire/smp/index.ts';
import type { MessageInput, SendMessageOutput } from './types.ts';
import { drain, end, events, exchange, feed, isSegment, messages, octets, send, wire } from '../../test/support/type11-link.ts';
import type { End, Sent } from '../../test/support/type11-link.ts';

const A = 0x0a;
const B = 0x0b;

function segments(ps: readonly Sent[]): Type11Packet[] {
  return ps.filter(isSegment);
}

/** Answers every segment in `ps` with `status` as B would, and hands the responses to `e`. */
function answer(e: End, ps: readonly Sent[], status: number, now: number): void {
  for (const p of segments(ps)) feed(e, { kind: 'packet', packet: wire(messageResponseTo(p, status)) }, now);
}

test('Annex 2 §3.3: the session engine\'s send output goes in as it is and a delivered message is its MessageInput', () => {
  const a = end(A);
  const b = end(B);
  const message = smpClose({ sourceID: A, destID: B, streamID: 0x0102 });
  const output: SendMessageOutput = { kind: 'send', to: B, contact: { conveyance: 'type11', mailbox: 2 }, priority: 'high', message, bytes: smpBytes(message) };
  feed(a, output, 0);
  exchange(a, b, 0);
  const [got] = messages(b);
  assert.ok(got);
  const input: MessageInput = got;
  assert.deepEqual(decodeSmp(input.bytes, 0, input.bytes.length, { strict: true }), message);
  assert.deepEqual([input.from, input.mailbox], [A, 2]);
});

test('Part 2 §3.3.2, §4.2.5 Figure 4-2: a 600-octet message is three segments of ssize 256, msglen 2, msgseg 0–2, one letter', () => {
  const a = end(A);
  feed(a, send(B, 2, octets(600)), 0);
  const ps = segments(drain(a, 0));
  assert.deepEqual(ps.map((p) => [p.msglen, p.ssize, p.msgseg, p.letter, p.mbox, p.payload.length]), [
    [2, 0b1110, 0, 0, 2, 256], [2, 0b1110, 1, 0, 2, 256], [2, 0b1110, 2, 0, 2, 88],
  ]);
  assert.deepEqual(ps.map((p) => [p.tt, p.destinationID, p.sourceID]), [[1, B, A], [1, B, A], [1, B, A]], 'Dev16 by default');
  assert.deepEqual(Buffer.concat(ps.map((p) => p.payload)), Buffer.from(octets(600)));
});

test('Part 2 Table 4-4 xmbox: a single-segment message to mailbox 45 carries xmbox 11 and mbox 1 and arrives in mailbox 45', () => {
  const a = end(A);
  const b = end(B);
  feed(a, send(B, 45, octets(40)), 0);
  const [p] = segments(drain(a, 0));
  assert.ok(p);
  assert.deepEqual([p.msglen, p.xmbox, p.mbox, p.ssize, p.payload.length], [0, 11, 1, 0b1100, 40]);
  feed(b, { kind: 'packet', packet: wire(p) }, 1);
  assert.deepEqual(messages(b), [{ kind: 'message', from: A, mailbox: 45, bytes: octets(40) }]);
});

test('Annex 2 §3.7.2, Part 6 §6.12 rules 2–3: high messages go at prio 1, normal ones at prio 0, their responses one above', () => {
  const a = end(A);
  const b = end(B);
  feed(a, send(B, 0, octets(8), 'normal'), 0);
  feed(a, send(B, 1, octets(8), 'high'), 0);
  const carried = exchange(a, b, 0);
  assert.deepEqual(carried.map((p) => [p.ftype, p.prio]), [[11, 1], [11, 0], [13, 2], [13, 1]]);
});

test('Annex 2 §3.7.2: segments of a high message go before the waiting segments of normal messages queued earlier', () => {
  const a = end(A);
  feed(a, send(B, 0, octets(768), 'normal', 'n'), 0);
  assert.equal(segments(feed(a, { kind: 'pull' }, 0)).length, 1, 'the normal message starts');
  feed(a, send(B, 1, octets(16), 'high', 'h'), 1);
  const order = segments(drain(a, 1)).map((p) => `${p.mbox}:${p.msgseg ?? 'x'}`);
  assert.deepEqual(order, ['1:x', '0:1', '0:2']);
});

test('Part 2 §2.3.1: letters let four messages per (destination, mailbox) be in flight; a fifth waits for a letter', () => {
  const a = end(A);
  for (let i = 0; i < 5; i++) feed(a, send(B, 3, octets(8, i), 'normal', i), 0);
  const first = segments(drain(a, 0));
  assert.deepEqual(first.map((p) => p.letter), [0, 1, 2, 3]);
  assert.equal(a.engine.pending, 0);
  answer(a, first.slice(2, 3), RESPONSE_STATUS.done, 1);
  assert.deepEqual(events(a, 'sent').map((e) => [e.id, e.letter]), [[2, 2]]);
  const fifth = segments(drain(a, 1));
  assert.deepEqual(fifth.map((p) => [p.letter, p.payload[0]]), [[2, octets(8, 4)[0]]], 'the freed letter');
  feed(a, send(B, 2, octets(8)), 2);
  assert.deepEqual(segments(drain(a, 2)).map((p) => p.letter), [0], 'another mbox has its own letters');
});

test('Annex 2 §3.7.2: when a letter frees, a waiting high message takes it before older waiting normal ones', () => {
  const a = end(A, { letters: 1 });
  feed(a, send(B, 0, octets(8), 'normal', 'first'), 0);
  feed(a, send(B, 0, octets(8), 'normal', 'second'), 0);
  feed(a, send(B, 0, octets(8), 'high', 'urgent'), 0);
  const ids: unknown[] = [];
  for (let t = 0; t < 3; t++) {
    const ps = drain(a, t);
    answer(a, ps, RESPONSE_STATUS.done, t);
    ids.push(...events(a, 'sent').slice(ids.length).map((e) => e.id));
  }
  assert.deepEqual(ids, ['first', 'urgent', 'second']);
});

test('Part 2 §4.2.5: a single-segment message to mailbox 4 does not reuse the letter of a message to mailbox 0 in flight', () => {
  const a = end(A);
  feed(a, send(B, 0, octets(512)), 0);
  feed(a, send(B, 4, octets(8)), 0);
  const ps = segments(drain(a, 0));
  assert.deepEqual(ps.map((p) => [p.mbox, p.letter, p.msglen]), [[0, 0, 1], [0, 0, 1], [0, 1, 0]]);
});

test('Part 2 §3.1: DONE for every segment completes the message', () => {
  const a = end(A);
  const b = end(B);
  feed(a, send(B, 1, octets(1000), 'normal', 'm'), 0);
  exchange(a, b, 0);
  assert.deepEqual(events(a, 'sent'), [{ kind: 'event', name: 'sent', to: B, mailbox: 1, letter: 0, segments: 4, id: 'm' }]);
  assert.deepEqual(messages(b).map((m) => [m.from, m.mailbox, Buffer.from(m.bytes).equals(octets(1000))]), [[A, 1, true]]);
  assert.equal(a.engine.counters().doneReceived, 4);
});

test('Part 2 §3.1: a segment answered RETRY is sent again at the next pull when retryDelay is 0', () => {
  const a = end(A);
  feed(a, send(B, 0, octets(16)), 0);
  const ps = drain(a, 0);
  answer(a, ps, RESPONSE_STATUS.retry, 5);
  const again = segments(drain(a, 5));
  assert.equal(again.length, 1);
  assert.deepEqual(again[0]?.payload, segments(ps)[0]?.payload);
  answer(a, again, RESPONSE_STATUS.done, 6);
  assert.equal(events(a, 'sent').length, 1);
  assert.deepEqual([a.engine.counters().retriesReceived, a.engine.counters().segmentsResent], [1, 1]);
});

test('Part 2 §3.1: with a retryDelay a RETRY\'d segment waits for its timer before it is resent', () => {
  const a = end(A, { retryDelay: 50, responseTimeout: 1000 });
  feed(a, send(B, 0, octets(16)), 0);
  const out = a.engine.handle({ kind: 'pull' }, 0);
  const p = out.find((o): o is Extract<Type11ConveyanceOutput, { kind: 'packet' }> => o.kind === 'packet');
  assert.ok(p && isSegment(p.packet));
  const r = a.engine.handle({ kind: 'packet', packet: wire(messageResponseTo(p.packet, RESPONSE_STATUS.retry)) }, 10);
  assert.deepEqual(r, [{ kind: 'timer', name: `msg:${B}/0/0`, at: 60 }]);
  assert.deepEqual(a.engine.handle({ kind: 'pull' }, 20), [{ kind: 'idle' }]);
  assert.deepEqual(a.engine.handle({ kind: 'timer', name: `msg:${B}/0/0` }, 59), [], 'an early expiry is ignored');
  a.engine.handle({ kind: 'timer', name: `msg:${B}/0/0` }, 60);
  assert.equal(segments(drain(a, 60)).length, 1);
});

test('Part 2 §3.1: a segment answered RETRY more than maxRetries times fails its message', () => {
  const a = end(A, { maxRetries: 2 });
  feed(a, send(B, 0, octets(8), 'normal', 'x'), 0);
  for (let t = 0; t < 3; t++) answer(a, drain(a, t), RESPONSE_STATUS.retry, t);
  assert.deepEqual(events(a, 'failed'), [{ kind: 'event', name: 'failed', reason: 'retry-limit', to: B, mailbox: 0, letter: 0, segment: 0, id: 'x' }]);
  assert.deepEqual(drain(a, 3), []);
});

test('Part 2 §3.1 Table 4-6: ERROR fails the message and its unsent segments are dropped', () => {
  const a = end(A);
  feed(a, send(B, 0, octets(1024)), 0);
  const first = segments(feed(a, { kind: 'pull' }, 0));
  answer(a, first, RESPONSE_STATUS.error, 1);
  assert.deepEqual(events(a, 'failed').map((e) => [e.reason, e.segment, e.status]), [['error', 0, RESPONSE_STATUS.error]]);
  assert.deepEqual(drain(a, 1), []);
  feed(a, send(B, 0, octets(8)), 2);
  assert.deepEqual(segments(drain(a, 2)).map((p) => p.letter), [0], 'no segment was outstanding: the letter is free');
});

test('Part 2 Table 4-6: an implementation-defined or reserved status fails the message like ERROR', () => {
  for (const status of [0b1100, 0b0001]) {
    const a = end(A);
    feed(a, send(B, 0, octets(8)), 0);
    // As lenient decoding gives it: the codec's constructors and strict decoding reject a reserved status.
    for (const p of segments(drain(a, 0))) feed(a, { kind: 'packet', packet: { ...messageResponseTo(p), status } }, 1);
    assert.deepEqual(events(a, 'failed').map((e) => [e.reason, e.status]), [['error', status]]);
  }
});

test('Part 2 §4.2.5: the letter of a failed message stays taken until its segments in flight are answered', () => {
  const a = end(A, { letters: 1 });
  feed(a, send(B, 0, octets(512), 'normal', 'old'), 0);
  feed(a, send(B, 0, octets(8), 'normal', 'new'), 0);
  const [s0, s1] = segments(drain(a, 0));
  assert.ok(s0 && s1);
  answer(a, [s0], RESPONSE_STATUS.error, 1);
  assert.deepEqual(drain(a, 1), [], 'segment 1 is still unanswered: letter 0 is not reused');
  answer(a, [s1], RESPONSE_STATUS.done, 2);
  assert.equal(a.engine.counters().lateResponses, 1);
  assert.deepEqual(segments(drain(a, 2)).map((p) => p.letter), [0]);
});

test('Part 2 §3.1: a segment without a response for responseTimeout fails its message', () => {
  const a = end(A, { responseTimeout: 100 });
  feed(a, send(B, 1, octets(8), 'high', 't'), 0);
  const out = a.engine.handle({ kind: 'pull' }, 5);
  assert.deepEqual(out.filter((o) => o.kind === 'timer'), [{ kind: 'timer', name: `msg:${B}/1/0`, at: 105 }]);
  feed(a, { kind: 'timer', name: `msg:${B}/1/0` }, 105);
  assert.deepEqual(events(a, 'failed'), [{ kind: 'event', name: 'failed', reason: 'timeout', to: B, mailbox: 1, letter: 0, segment: 0, id: 't' }]);
  assert.equal(a.engine.counters().responseTimeouts, 1);
  assert.deepEqual(drain(a, 105), [], 'not resent: the session layer retries its requests');
  feed(a, { kind: 'timer', name: `msg:${B}/1/0` }, 106);
  assert.equal(events(a, 'failed').length, 1, 'a second expiry is stale');
});

test('Part 2 §4.3.3: a response that matches no segment waiting for one is reported, not acted upon', () => {
  const a = end(A);
  feed(a, send(B, 0, octets(8)), 0);
  const ps = drain(a, 0);
  answer(a, ps, RESPONSE_STATUS.done, 1);
  answer(a, ps, RESPONSE_STATUS.done, 2);
  const forged = segments(ps).map((p) => ({ ...p, letter: 3 }));
  answer(a, forged, RESPONSE_STATUS.done, 3);
  assert.deepEqual(events(a, 'stale-response').map((e) => [e.letter, e.mbox, e.msgseg, e.status]), [[0, 0, 0, 0], [3, 0, 0, 0]]);
  assert.equal(events(a, 'sent').length, 1);
});

test('Part 2 §2.3.1, §4.2.5, Table 4-4: messages no Type 11 operation can carry are refused', () => {
  const a = new Type11Conveyance({ nodeId: 1, tt: 0 });
  const cases: [unknown, string][] = [
    [{ ...send(2, 0, octets(8)), contact: { conveyance: 'type9', streamID: 1, cos: 0 } }, 'wrong-conveyance'],
    [send(300, 0, octets(8)), 'invalid-destination'],
    [send(2, 64, octets(8)), 'invalid-mailbox'],
    [{ ...send(2, 0, octets(8)), priority: 'urgent' }, 'invalid-priority'],
    [{ ...send(2, 0, octets(8)), bytes: [1, 2] }, 'invalid-payload'],
    [send(2, 0, new Uint8Array(0)), 'empty'],
    [send(2, 0, octets(4097)), 'too-long'],
    [send(2, 5, octets(264)), 'mailbox-single-segment'],
  ];
  for (const [input, reason] of cases) {
    const out = a.handle(input as Parameters<Type11Conveyance['handle']>[0], 0);
    assert.equal(out.length, 1);
    assert.equal((out[0] as { reason?: string }).reason, reason);
  }
  assert.equal(a.counters().messagesRefused, cases.length);
  assert.deepEqual(a.handle({ kind: 'pull' }, 0), [{ kind: 'idle' }]);
});

test('Annex 2 §4.3.2: a message that is not whole double-words is padded with zero octets', () => {
  const a = end(A);
  const b = end(B);
  feed(a, send(B, 0, octets(13)), 0);
  exchange(a, b, 0);
  assert.deepEqual([...(messages(b)[0]?.bytes ?? [])], [...octets(13), 0, 0, 0]);
  assert.equal(a.engine.counters().messagesPadded, 1);
});

test('Part 2 §3.1, Annex A.4.3: a receiver out of reassembly buffers answers RETRY and the sender recovers', () => {
  const a = end(A, { retryDelay: 0 });
  const b = end(B, { maxReassemblies: 1 });
  feed(a, send(B, 0, octets(704, 1), 'normal', 'm0'), 0);
  feed(a, send(B, 1, octets(704, 2), 'normal', 'm1'), 0);
  // The two messages' segments arrive interleaved: B collects m0 and answers m1's segments RETRY.
  const interleaved = (ps: Sent[]): Sent[] => [...ps].sort((x, y) => (isSegment(x) ? x.msgseg ?? 0 : 0) - (isSegment(y) ? y.msgseg ?? 0 : 0));
  exchange(a, b, 0, { arrange: interleaved });
  assert.ok(b.engine.counters().busySegments > 0);
  assert.deepEqual(messages(b).map((m) => [m.mailbox, Buffer.from(m.bytes).equals(octets(704, m.mailbox + 1))]), [[0, true], [1, true]]);
  assert.deepEqual(events(a, 'sent').map((e) => e.id), ['m0', 'm1']);
  assert.equal(a.engine.counters().retriesReceived, b.engine.counters().busySegments);
});

test('Part 6 §6.12: a pull gives queued responses before any request segment; `max` takes several packets', () => {
  const a = end(A);
  const b = end(B);
  feed(b, send(A, 0, octets(8)), 0);
  feed(a, { kind: 'packet', packet: wire(segments(drain(b, 0))[0] as Type11Packet) }, 0);
  feed(a, send(B, 0, octets(300)), 0);
  assert.equal(a.engine.pending, 3);
  const got = feed(a, { kind: 'pull', max: 10 }, 0);
  assert.deepEqual(got.map((p) => p.ftype), [13, 11, 11]);
  assert.deepEqual(feed(a, { kind: 'pull', max: 0 }, 0), []);
  assert.deepEqual(events(a, 'invalid-input').map((e) => e.detail), ['pull: max 0 is not a positive integer']);
});

test('riodp engine contract: the config is checked, each bad field named in a RangeError', () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{}, /^nodeId must be/],
    [{ nodeId: 256, tt: 0 }, /^nodeId must be an integer from 0 to 255$/],
    [{ nodeId: 1, tt: 3 }, /^tt must be/],
    [{ nodeId: 1, segmentSize: 48 }, /^segmentSize must be one of 8, 16, 32, 64, 128, 256$/],
    [{ nodeId: 1, letters: 5 }, /^letters must be an integer from 1 to 4$/],
    [{ nodeId: 1, responseTimeout: 0 }, /^responseTimeout must be a positive integer$/],
    [{ nodeId: 1, retryDelay: -1 }, /^retryDelay must be a non-negative integer$/],
    [{ nodeId: 1, maxRetries: 1.5 }, /^maxRetries must be/],
    [{ nodeId: 1, maxReassemblies: 0 }, /^maxReassemblies must be/],
    [{ nodeId: 1, reassemblyTimeout: 0 }, /^reassemblyTimeout must be a positive integer or null$/],
    [{ nodeId: 1, mailboxes: [64] }, /^mailboxes\[0\] must be an integer from 0 to 63$/],
    [{ nodeId: 1, mailboxes: 3 }, /^mailboxes must be a list/],
  ];
  for (const [config, message] of bad) {
    assert.throws(() => new Type11Conveyance(config as never), (e: unknown) => e instanceof RangeError && message.test(e.message), JSON.stringify(config));
  }
});

test('riodp engine contract: snapshot() is plain JSON of the letters, queue, reassemblies and timers; counters() is a copy', () => {
  const a = end(A, { letters: 1 });
  feed(a, send(B, 0, octets(16), 'normal', 'one'), 0);
  feed(a, send(B, 0, octets(16), 'high', 'two'), 0);
  drain(a, 0);
  const snap = a.engine.snapshot();
  assert.deepEqual(JSON.parse(JSON.stringify(snap)), snap);
  assert.deepEqual(snap.active.map((m) => m.id), ['one']);
  assert.deepEqual(snap.waiting.map((m) => m.id), ['two']);
  assert.deepEqual(snap['timers'], [{ name: `msg:${B}/0/0`, at: 100_000_000 }]);
  const c = a.engine.counters();
  c.pulls = 99;
  assert.notEqual(a.engine.counters().pulls, 99);
});
