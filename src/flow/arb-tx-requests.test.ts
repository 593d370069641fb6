import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbTx } from './arb-tx.ts';
import { RX, TX, events, kinds, only, request, segment, sent, timer, xoffArb, xonArb } from '../../test/support/arb-tx.ts';

const tx = (extra: Partial<ConstructorParameters<typeof ArbTx>[0]> = {}): ArbTx => new ArbTx({ localID: TX, ...extra });
const REQ = `request:${RX}/0A`;
const RETRY = `retry:${RX}/0A`;

test('Part 9 §2.4.7 rule 3 1), rule 4: no response within requestTimeout re-sends the REQUEST with the same Y and re-arms the timer', () => {
  const e = tx({ requestTimeout: 500 });
  const first = only(e.handle(request('multi'), 0), 'send').packet;
  assert.deepEqual(e.handle(timer(REQ), 499), [], 'not due yet');
  const out = e.handle(timer(REQ), 500);
  assert.deepEqual(out[0], { kind: 'event', name: 'request-timeout', destinationID: RX, flowID: '0A', seq: 0 });
  assert.deepEqual(only(out, 'send').packet, first, 'byte-identical REQUEST');
  assert.deepEqual(only(out, 'timer'), { kind: 'timer', name: REQ, at: 1000 });
  assert.deepEqual(e.counters(), { ...e.counters(), requests: 1, reissued: 1 });
  assert.equal(e.state(RX, '0A').outstanding?.reissues, 1);
});

test('Part 9 §2.4.7 rule 4: lost XON(ARB) → timeout → same-Y reissue → XON(ARB) grants; the answer to the second copy is stale', () => {
  const e = tx({ requestTimeout: 100 });
  e.handle(request('single'), 0);
  // XON(ARB) seq 0 lost in the fabric.
  assert.equal(only(e.handle(timer(REQ), 100), 'send').packet.seq, 0);
  assert.equal(only(e.handle(xonArb(0), 150), 'grant').seq, 0);
  assert.deepEqual(e.handle(xonArb(0), 160), [{ kind: 'event', name: 'stale-response', destinationID: RX, flowID: '0A', seq: 0 }]);
  assert.equal(e.counters().stale, 1);
  assert.equal(e.counters().granted, 1);
});

test('Part 9 §2.4.7 rules 3, 4: lost XOFF(ARB) → timeout → same-Y reissue → XOFF(ARB) → new REQUEST with the next Y after retryDelay', () => {
  const e = tx({ requestTimeout: 100, retryDelay: 40 });
  e.handle(request('single'), 0);
  assert.equal(only(e.handle(timer(REQ), 100), 'send').packet.seq, 0);
  const rej = e.handle(xoffArb(0), 150);
  assert.deepEqual(events(rej), ['rejected']);
  assert.deepEqual(rej.filter((o) => o.kind === 'timer'), [{ kind: 'timer', name: REQ, at: null }, { kind: 'timer', name: RETRY, at: 190 }]);
  assert.deepEqual(e.state(RX, '0A').pending, { mode: 'single', waitingRetry: true });
  const retry = e.handle(timer(RETRY), 190);
  const p = only(retry, 'send').packet;
  assert.deepEqual([p.command, p.seq], ['REQUEST_SINGLE_PDU', 1]);
  assert.deepEqual(e.counters(), { ...e.counters(), requests: 2, reissued: 1, rejected: 1 });
});

test('Part 9 §2.4.2.1: after XOFF(ARB) the flow stays off — only a new REQUEST follows, never a transmission', () => {
  const e = tx();
  e.handle(request('single'), 0);
  e.handle(xoffArb(0), 5);
  assert.equal(only(e.handle(segment('single'), 6), 'refused').reason, 'no-grant');
  e.handle(timer(RETRY), 10_005);
  assert.equal(only(e.handle(segment('single'), 10_006), 'refused').reason, 'no-grant');
});

test('Part 9 §2.4.8 NOTE: with requestTimeout null no response timer is armed; with retryDelay null XOFF(ARB) leaves the re-request to the application', () => {
  const e = tx({ requestTimeout: null, retryDelay: null });
  assert.deepEqual(kinds(e.handle(request('single'), 0)), ['send']);
  assert.deepEqual(e.handle(xoffArb(0), 5), [{ kind: 'event', name: 'rejected', destinationID: RX, flowID: '0A', seq: 0 }]);
  assert.equal(e.state(RX, '0A').pending, null);
  assert.deepEqual(e.snapshot().timers, []);
  const again = e.handle(request('single'), 6);
  assert.deepEqual(kinds(again), ['send']);
  assert.equal(only(again, 'send').packet.seq, 1, 'a new REQUEST advances Y');
});

test('Part 9 §2.4.7 rule 4: Y alternates 0, 1, 0 over new REQUESTs (after a grant, after XOFF(ARB), pipelined) and stays on reissues', () => {
  const e = tx({ requestTimeout: 100, retryDelay: null });
  const seqs: number[] = [];
  const push = (out: ReturnType<ArbTx['handle']>): void => { for (const p of sent(out)) if (p.command !== 'RELEASE') seqs.push(p.seq ?? -1); };
  push(e.handle(request('single'), 0)); // new: 0
  push(e.handle(timer(REQ), 100)); // reissue: 0
  push(e.handle(xonArb(0), 110));
  push(e.handle(segment('single'), 120));
  push(e.handle(request('multi'), 130)); // new after a grant: 1
  push(e.handle(xoffArb(1), 140));
  push(e.handle(request('multi'), 150)); // new after XOFF(ARB): 0
  push(e.handle(xonArb(0), 160));
  push(e.handle(segment('start'), 170));
  push(e.handle(request('single'), 180)); // pipelined: 1
  push(e.handle(timer(REQ), 280)); // reissue: 1
  assert.deepEqual(seqs, [0, 0, 1, 0, 1, 1]);
  assert.equal(e.state(RX, '0A').seq, 0, 'the next new REQUEST would carry 0');
});

test('Part 9 §2.4.7 rule 4: sequence bits are per flow (destinationID, flowID)', () => {
  const e = tx();
  e.handle(request('single', '0A'), 0);
  assert.equal(only(e.handle(request('single', '0B'), 0), 'send').packet.seq, 0);
  assert.equal(only(e.handle(request('single', '0A', RX + 1), 0), 'send').packet.seq, 0);
});

test('Part 9 §3.3 Table 3-2: XON/XOFF(ARB) whose Y matches no outstanding REQUEST is stale and ignored', () => {
  const e = tx();
  assert.deepEqual(events(e.handle(xonArb(0, '0E'), 0)), ['stale-response'], 'unknown flow');
  e.handle(request('single'), 1);
  assert.deepEqual(events(e.handle(xonArb(1), 2)), ['stale-response']);
  assert.deepEqual(events(e.handle(xoffArb(1), 3)), ['stale-response']);
  assert.equal(e.state(RX, '0A').grant, null);
  assert.deepEqual(e.state(RX, '0A').outstanding, { mode: 'single', seq: 0, reissues: 0 });
  assert.equal(e.counters().stale, 3);
  assert.deepEqual(e.snapshot().flows.map((f) => f.flowID), ['0A'], 'a stale answer creates no flow state');
});

test('Part 9 §2.2.2, rule 11: with a grant current a request is sent at once (pipelined) during the PDU; its XON(ARB) is held until the current grant ends', () => {
  const e = tx();
  e.handle(request('single'), 0);
  e.handle(xonArb(0), 10);
  e.handle(segment('start'), 20);
  const pipelined = e.handle(request('single'), 21);
  assert.equal(only(pipelined, 'send').packet.seq, 1);
  assert.deepEqual(e.handle(xonArb(1), 30), [{ kind: 'timer', name: REQ, at: null }], 'held: no grant output yet');
  assert.deepEqual(e.state(RX, '0A').held, { mode: 'single', seq: 1, revoked: false });
  assert.equal(only(e.handle(segment('single'), 31), 'refused').reason, 'out-of-sequence', 'still the first PDU');
  const out = e.handle(segment('end'), 40);
  assert.deepEqual(kinds(out), ['transmit', 'grant-ended', 'grant']);
  assert.deepEqual(only(out, 'grant'), { kind: 'grant', destinationID: RX, flowID: '0A', mode: 'single', seq: 1 });
  assert.deepEqual(kinds(e.handle(segment('single'), 41)), ['transmit', 'grant-ended']);
});

test('Part 9 §2.4.7 rule 11: one REQUEST outstanding; a second request is deferred and sent when the first is answered; a third is refused', () => {
  const e = tx();
  e.handle(request('single'), 0);
  assert.deepEqual(e.handle(request('multi'), 1), [{ kind: 'event', name: 'request-deferred', destinationID: RX, flowID: '0A' }]);
  assert.deepEqual(events(e.handle(request('single'), 2)), ['request-refused']);
  assert.deepEqual(e.state(RX, '0A').pending, { mode: 'multi', waitingRetry: false });
  const out = e.handle(xonArb(0), 10);
  assert.deepEqual(kinds(out), ['timer', 'grant', 'send', 'timer']);
  const p = only(out, 'send').packet;
  assert.deepEqual([p.command, p.seq], ['REQUEST_MULTI_PDU', 1]);
  assert.equal(e.counters().requests, 2);
});

test('Part 9 §2.2.2 (decision): a deferred request is not sent while a pipelined grant is held; it goes when that grant becomes current', () => {
  const e = tx();
  e.handle(request('multi'), 0);
  e.handle(xonArb(0), 1);
  e.handle(request('single'), 2); // pipelined, seq 1
  e.handle(request('single'), 3); // deferred
  assert.deepEqual(kinds(e.handle(xonArb(1), 4)), ['timer'], 'held; the deferred request waits: three grants cannot share one Y bit');
  const out = e.handle({ kind: 'release', destinationID: RX, flowID: '0A' }, 5);
  assert.deepEqual(kinds(out), ['send', 'grant-ended', 'grant', 'send', 'timer']);
  const [rel, req] = sent(out);
  assert.deepEqual([rel?.command, rel?.seq, req?.command, req?.seq], ['RELEASE', 0, 'REQUEST_SINGLE_PDU', 0]);
});

test('Part 9 §2.2.2 (pipelining false): a request during a grant is deferred until the grant ends', () => {
  const e = tx({ pipelining: false });
  e.handle(request('single'), 0);
  e.handle(xonArb(0), 1);
  assert.deepEqual(events(e.handle(request('single'), 2)), ['request-deferred']);
  e.handle(segment('start'), 3);
  const out = e.handle(segment('end'), 4);
  assert.deepEqual(kinds(out), ['transmit', 'grant-ended', 'send', 'timer']);
  assert.equal(only(out, 'send').packet.seq, 1);
});

test('Part 9 §2.4.7 rule 4 (decision): after XOFF(ARB) rejects the pipelined REQUEST, the retry (whose Y equals the current grant\'s) waits until that grant ends', () => {
  const e = tx({ retryDelay: 10 });
  e.handle(request('multi'), 0);
  e.handle(xonArb(0), 1);
  e.handle(segment('start'), 2);
  e.handle(request('single'), 3); // pipelined, seq 1
  assert.deepEqual(events(e.handle(xoffArb(1), 4)), ['rejected'], 'Y 1 answers the outstanding REQUEST, not the grant');
  assert.equal(e.state(RX, '0A').grant?.revoked, false);
  assert.deepEqual(e.handle(timer(RETRY), 14), [], 'a REQUEST with Y 0 would read as a reissue of the current grant');
  assert.deepEqual(e.state(RX, '0A').pending, { mode: 'single', waitingRetry: false });
  e.handle(segment('end'), 15);
  const out = e.handle({ kind: 'release', destinationID: RX, flowID: '0A' }, 16);
  assert.deepEqual(kinds(out), ['send', 'grant-ended', 'send', 'timer']);
  assert.deepEqual(sent(out).map((p) => [p.command, p.seq]), [['RELEASE', 0], ['REQUEST_SINGLE_PDU', 0]]);
});

test('Part 9 §2.4.7 rule 3 (decision): an application request during the retry delay cancels the back-off and goes at once', () => {
  const e = tx({ retryDelay: 1000 });
  e.handle(request('single'), 0);
  e.handle(xoffArb(0), 1);
  const out = e.handle(request('multi'), 2);
  assert.deepEqual(out[0], { kind: 'timer', name: RETRY, at: null });
  const p = only(out, 'send').packet;
  assert.deepEqual([p.command, p.seq], ['REQUEST_MULTI_PDU', 1]);
  assert.deepEqual(e.handle(timer(RETRY), 1001), [], 'the cancelled retry expiry is stale');
});

test('Part 9 §2.4.7 rule 3 (decision): XOFF(ARB) with a deferred request waiting sends that request at once, and arms no retry', () => {
  const e = tx({ retryDelay: 1000 });
  e.handle(request('single'), 0);
  e.handle(request('multi'), 1);
  const out = e.handle(xoffArb(0), 2);
  assert.deepEqual(kinds(out), ['timer', 'event', 'send', 'timer']);
  assert.deepEqual(out.filter((o) => o.kind === 'timer').map((o) => o.name), [REQ, REQ]);
  const p = only(out, 'send').packet;
  assert.deepEqual([p.command, p.seq], ['REQUEST_MULTI_PDU', 1]);
});

test('Part 9 §2.4.7 rule 8 (decision): XOFF(ARB) naming a held single-PDU grant drops it; the deferred request goes once the current grant no longer shares its Y', () => {
  const e = tx();
  e.handle(request('multi'), 0);
  e.handle(xonArb(0), 1);
  e.handle(request('single'), 2); // seq 1
  e.handle(xonArb(1), 3); // held
  e.handle(request('multi'), 4); // deferred
  assert.deepEqual(e.handle(xoffArb(1), 5), [{ kind: 'event', name: 'revoked', destinationID: RX, flowID: '0A', seq: 1 }]);
  assert.equal(e.state(RX, '0A').held, null);
  assert.deepEqual(e.state(RX, '0A').pending, { mode: 'multi', waitingRetry: false }, 'its Y would be 0, the current grant\'s');
  const out = e.handle({ kind: 'release', destinationID: RX, flowID: '0A' }, 6);
  assert.deepEqual(sent(out).map((p) => [p.command, p.seq]), [['RELEASE', 0], ['REQUEST_MULTI_PDU', 0]]);
  assert.equal(e.counters().revoked, 1);
});

test('Part 9 §2.4.7 rule 8 (decision): XOFF(ARB) naming a held multi-PDU grant: it becomes current when the current grant ends and is released at once', () => {
  const e = tx();
  e.handle(request('single'), 0);
  e.handle(xonArb(0), 1);
  e.handle(request('multi'), 2); // seq 1
  e.handle(xonArb(1), 3); // held
  assert.deepEqual(events(e.handle(xoffArb(1), 4)), ['revoked']);
  assert.equal(e.state(RX, '0A').held?.revoked, true);
  const out = e.handle(segment('single'), 5);
  assert.deepEqual(kinds(out), ['transmit', 'grant-ended', 'grant', 'send', 'grant-ended']);
  const p = only(out, 'send').packet;
  assert.deepEqual([p.command, p.seq], ['RELEASE', 1]);
  assert.equal(e.state(RX, '0A').grant, null);
});

test('engine contract: a timer expiry that is early, repeated, unknown or for a flow with nothing to do is ignored', () => {
  const e = tx({ requestTimeout: 100 });
  e.handle(request('single'), 0);
  assert.deepEqual(e.handle(timer(REQ), 50), []);
  e.handle(xonArb(0), 60);
  assert.deepEqual(e.handle(timer(REQ), 100), [], 'cancelled by the answer');
  assert.deepEqual(e.handle(timer('bogus'), 100), []);
  assert.deepEqual(e.handle(timer(`retry:${RX}/0F`), 100), []);
  assert.equal(e.counters().reissued, 0);
});
