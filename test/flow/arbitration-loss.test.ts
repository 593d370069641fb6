/**
 * Flow arbitration end to end under message loss and abnormal de-allocation (Part 9 §2.4.7 rules
 * 3, 4, 8, 10, 12 and §2.4.8), on the test/support/arb-link.ts harness: `ArbTx` at A (ID 1),
 * `ArbRx` at B (ID 2). Unless a test says otherwise a Type 7 message and a data segment take 10
 * time units, A sends a segment every 10, re-sends a REQUEST after 100 without an answer and asks
 * again 30 after XOFF(ARB).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbLink, A_ID, B_ID } from '../support/arb-link.ts';
import { traceLines } from '../support/arb-trace.ts';
import { Workload } from '../support/arb-workload.ts';
import type { LinkConfig } from '../support/arb-link.ts';
import type { WireMessage } from '../support/arb-trace.ts';
import type { ArbMode, ArbTxInput } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';

const request = (mode: ArbMode, flowID: FlowIdLabel = '0A'): ArbTxInput => ({ kind: 'request', destinationID: B_ID, flowID, mode });
const release = (flowID: FlowIdLabel = '0A'): ArbTxInput => ({ kind: 'release', destinationID: B_ID, flowID });

/** Drops the first message `what` sent on `flowID`. */
const dropFirst = (what: string, flowID: FlowIdLabel = '0A') => (m: WireMessage): boolean => m.what === what && m.flowID === flowID && m.n === 1;

function link(c: LinkConfig): ArbLink {
  return new ArbLink({ ...c, tx: { requestTimeout: 100, retryDelay: 30, ...c.tx } });
}

test('Part 9 §2.4.7 rules 3 1), 4 and 10: a lost XON(ARB) ends in a re-request with the same sequence bit; the receiver grants the same resource again, no second allocation', () => {
  const l = link({ rx: { resources: 2 }, lose: dropFirst('XON_ARB(seq 0)') });
  l.inputA(0, request('single')).pdu(0, '0A', 3).run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_SINGLE_PDU(seq 0)',
    '10 B XON_ARB(seq 0) LOST',
    '10 B allocated(single, seq 0)',
    '100 A request-timeout(seq 0)',
    // Rule 4 "The sequence number shall remain the same for REQUESTs reissued … without having received a response".
    '100 A REQUEST_SINGLE_PDU(seq 0)',
    '110 B regrant(seq 0)',
    '110 B XON_ARB(seq 0)',
    '120 A grant(single, seq 0)',
    '120 A SOM',
    '130 A COM',
    '140 A EOM',
    '140 A grant-ended(last-segment)',
    '150 B freed(last-segment)',
  ]);
  // Rule 10 "Only a single instance of resources shall be allocated to a flow at any point in time".
  assert.deepEqual([l.rx.counters().granted, l.rx.counters().regranted], [1, 1]);
  assert.equal(l.tx.counters().reissued, 1);
  assert.equal(l.rx.free(), 2);
});

test('Part 9 §2.4.7 rules 3 and 4: a lost XOFF(ARB) ends in a re-request with the same sequence bit; its XOFF(ARB) leads to a new REQUEST with the next bit', () => {
  // B's one resource is held by A's flow 0B; B rejects what it cannot grant at once.
  const l = link({ rx: { resources: 1, whenBusy: 'reject' }, lose: dropFirst('XOFF_ARB(seq 0)') });
  l.inputA(0, request('multi', '0B'));
  l.inputA(25, request('single')).pdu(25, '0A', 3);
  l.inputA(150, release('0B'));
  l.run();
  assert.deepEqual(traceLines(l.trace, { flows: true }), [
    '0 A 0B REQUEST_MULTI_PDU(seq 0)',
    '10 B 0B XON_ARB(seq 0)',
    '10 B 0B allocated(multi, seq 0)',
    '20 A 0B grant(multi, seq 0)',
    '25 A 0A REQUEST_SINGLE_PDU(seq 0)',
    '35 B 0A XOFF_ARB(seq 0) LOST',
    '125 A 0A request-timeout(seq 0)',
    '125 A 0A REQUEST_SINGLE_PDU(seq 0)',
    '135 B 0A XOFF_ARB(seq 0)',
    '145 A 0A rejected(seq 0)',
    '150 A 0B RELEASE(seq 0)',
    '150 A 0B grant-ended(released)',
    '160 B 0B freed(release)',
    // Rule 3 2) "it received a XOFF(ARB)"; rule 4 "shall advance for any new REQUESTs".
    '175 A 0A REQUEST_SINGLE_PDU(seq 1)',
    '185 B 0A XON_ARB(seq 1)',
    '185 B 0A allocated(single, seq 1)',
    '195 A 0A grant(single, seq 1)',
    '195 A 0A SOM',
    '205 A 0A COM',
    '215 A 0A EOM',
    '215 A 0A grant-ended(last-segment)',
    '225 B 0A freed(last-segment)',
  ]);
  assert.deepEqual(l.tx.counters(), { ...l.tx.counters(), requests: 3, reissued: 1, rejected: 1 });
});

test('Part 9 §2.4.7 rules 3 1) and 4: a lost REQUEST is re-sent with the same sequence bit after the response timeout', () => {
  const l = link({ rx: { resources: 1 }, lose: dropFirst('REQUEST_SINGLE_PDU(seq 0)') });
  l.inputA(0, request('single')).pdu(0, '0A', 3).run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_SINGLE_PDU(seq 0) LOST',
    '100 A request-timeout(seq 0)',
    '100 A REQUEST_SINGLE_PDU(seq 0)',
    '110 B XON_ARB(seq 0)',
    '110 B allocated(single, seq 0)',
    '120 A grant(single, seq 0)',
    '120 A SOM',
    '130 A COM',
    '140 A EOM',
    '140 A grant-ended(last-segment)',
    '150 B freed(last-segment)',
  ]);
  assert.deepEqual([l.rx.counters().requests, l.rx.counters().regranted], [1, 0]);
});

test('Part 9 §2.4.7 rules 8 and 12: XOFF(ARB) in the middle of a multi-PDU transfer — the current PDU completes, then RELEASE goes in the data flow, behind its last segment; the rest waits for a new REQUEST', () => {
  // Type 7 messages at high priority take 2, data 10: a RELEASE sent at the REQUEST's priority
  // would overtake the EOM it follows.
  const l = link({ rx: { resources: 1 }, ctrlLatency: 2, dataLatency: 10 });
  l.inputA(0, request('multi')).pdu(0, '0A', 3).pdu(0, '0A', 3, { thenRelease: true });
  l.inputB(15, { kind: 'reclaim', sourceID: A_ID, flowID: '0A' });
  l.inputA(40, request('multi'));
  l.run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_MULTI_PDU(seq 0)',
    '2 B XON_ARB(seq 0)',
    '2 B allocated(multi, seq 0)',
    '4 A grant(multi, seq 0)',
    '4 A SOM',
    '14 A COM',
    '15 B XOFF_ARB(seq 0)',
    '17 A revoked(seq 0)',
    // Rule 8 "shall complete transmission of the current PDU and send a RELEASE message".
    '24 A EOM',
    '24 A RELEASE(seq 0)',
    '24 A grant-ended(released)',
    '34 B freed(release)',
    '40 A REQUEST_MULTI_PDU(seq 1)',
    '42 B XON_ARB(seq 1)',
    '42 B allocated(multi, seq 1)',
    '44 A grant(multi, seq 1)',
    '44 A SOM',
    '54 A COM',
    '64 A EOM',
    '64 A RELEASE(seq 1)',
    '64 A grant-ended(released)',
    '74 B freed(release)',
  ]);
  const rel = l.trace.find((e) => e.what === 'RELEASE(seq 0)')?.packet;
  const req = l.trace.find((e) => e.what === 'REQUEST_MULTI_PDU(seq 0)')?.packet;
  // Rule 12 "RELEASE messages shall be sent in the same flow that the context is allocated for":
  // flow 0A is prio 0, CRF 0 (DECISIONS §3); the REQUEST went at prio 3, CRF 1 (§2.4.2).
  assert.deepEqual([rel?.prio, rel?.crf, req?.prio, req?.crf], [0, 0, 3, 1]);
  assert.deepEqual(l.refusals.map((r) => `${r.t} ${r.segment} ${r.reason}`), ['0 start no-grant', '34 start no-grant'], 'no PDU after XOFF(ARB) without a new grant');
  assert.equal(l.rx.counters().unexpectedSegments, 0);
});

test('Part 9 §2.4.8 2, §2.4.2.2: a lost RELEASE — the idle timeout sends XOFF(ARB) (stale at the transmitter, which holds nothing), a second idle timeout de-allocates asynchronously, counted as possible loss', () => {
  const l = link({ rx: { resources: 1, idleTimeout: 200 }, lose: dropFirst('RELEASE(seq 0)') });
  l.inputA(0, request('multi')).pdu(0, '0A', 1, { thenRelease: true }).run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_MULTI_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(multi, seq 0)',
    '20 A grant(multi, seq 0)',
    '20 A SINGLE',
    '20 A RELEASE(seq 0) LOST',
    '20 A grant-ended(released)',
    // §2.4.8 2 "the receiver shall first attempt to use the XOFF(ARB) / RELEASE handshake".
    '230 B XOFF_ARB(seq 0)',
    '240 A stale-response(seq 0)',
    // "If a subsequent timeout is encountered, the SAR resources are asynchronously de-allocated".
    '430 B possible-loss(seq 0)',
    '430 B freed(async)',
  ]);
  assert.deepEqual([l.rx.counters().asyncFreed, l.tx.counters().stale], [1, 1]);
  assert.equal(l.rx.free(), 1);
});

test('Part 9 §2.4.7 rule 3 2), §2.4.8 2: a lost XON(ARB) of a multi-PDU grant with no reissue before the idle timeout — the idle XOFF(ARB) answers the REQUEST, A asks again with the next bit, B frees the orphan asynchronously, then grants', () => {
  const l = link({ rx: { resources: 1, idleTimeout: 150 }, tx: { requestTimeout: 1000 }, lose: dropFirst('XON_ARB(seq 0)') });
  l.inputA(0, request('multi')).pdu(0, '0A', 2, { thenRelease: true }).run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_MULTI_PDU(seq 0)',
    '10 B XON_ARB(seq 0) LOST',
    '10 B allocated(multi, seq 0)',
    '160 B XOFF_ARB(seq 0)',
    '170 A rejected(seq 0)',
    '200 A REQUEST_MULTI_PDU(seq 1)',
    // Rule 10: the flow still holds the orphaned resource, so the new REQUEST waits.
    '210 B queued(seq 1)',
    '310 B possible-loss(seq 0)',
    '310 B freed(async)',
    '310 B XON_ARB(seq 1)',
    '310 B allocated(multi, seq 1)',
    '320 A grant(multi, seq 1)',
    '320 A SOM',
    '330 A EOM',
    '330 A RELEASE(seq 1)',
    '330 A grant-ended(released)',
    '340 B freed(release)',
  ]);
  assert.equal(l.rx.counters().unexpectedSegments, 0);
});

test('Part 9 §2.4.7 rule 5 2), §2.4.8 1: a single-PDU resource with no packet before the idle timeout is freed; a transmitter that still sends loses the PDU ("Incorrect use of a timer may result in packet loss")', () => {
  const l = link({ rx: { resources: 1, idleTimeout: 200 } });
  l.inputA(0, request('single')).pdu(300, '0A', 1);
  l.run(299);
  assert.equal(l.tx.state(B_ID, '0A').grant?.mode, 'single', 'A is not told: it still holds the grant');
  l.run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_SINGLE_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(single, seq 0)',
    '20 A grant(single, seq 0)',
    '210 B freed(idle-timeout)',
    '300 A SINGLE',
    '300 A grant-ended(last-segment)',
    '310 B unexpected-segment',
  ]);
  assert.deepEqual([l.rx.counters().idleFreed, l.rx.counters().unexpectedSegments], [1, 1]);
});

test('Part 9 §2.4.8 1: "An aborted PDU results in the de-allocation of the resources" (single-PDU grant)', () => {
  const l = link({ rx: { resources: 1 } });
  l.inputA(0, request('single')).pdu(0, '0A', 3, { last: 'abort' }).run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_SINGLE_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(single, seq 0)',
    '20 A grant(single, seq 0)',
    '20 A SOM',
    '30 A COM',
    '40 A ABORT',
    '40 A grant-ended(last-segment)',
    '50 B freed(abort)',
  ]);
});

test('Part 9 §2.4.8 2: an aborted PDU of a multi-PDU grant does not free the resource — "The resources will still not be de-allocated until a RELEASE message is received"', () => {
  const l = link({ rx: { resources: 1 } });
  l.inputA(0, request('multi')).pdu(0, '0A', 2, { last: 'abort' }).pdu(0, '0A', 2, { thenRelease: true });
  l.run(59);
  assert.deepEqual([l.rx.allocation(A_ID, '0A')?.mode, l.rx.allocation(A_ID, '0A')?.pdus], ['multi', 1], 'held after the ABORT arrived at 40');
  l.run();
  assert.deepEqual(traceLines(l.trace), [
    '0 A REQUEST_MULTI_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(multi, seq 0)',
    '20 A grant(multi, seq 0)',
    '20 A SOM',
    '30 A ABORT',
    '40 A SOM',
    '50 A EOM',
    '50 A RELEASE(seq 0)',
    '50 A grant-ended(released)',
    '60 B freed(release)',
  ]);
});

// Regressions found by the end-to-end property test with `whenBusy: 'reject'`: a pipelined REQUEST
// answered XOFF(ARB) let the next new REQUEST carry the Y of the resource still held.
test('Part 9 §2.2.2, §2.4.7 rules 4 and 12 (regression): with whenBusy reject, a re-request never reuses the Y of a grant whose EOM is still in flight, so no segment reaches B without a resource', () => {
  const l = new ArbLink({ rx: { resources: 1, whenBusy: 'reject', idleTimeout: null }, tx: { retryDelay: 0 }, ctrlLatency: 2, dataLatency: 10 });
  l.inputA(0, { kind: 'request', destinationID: B_ID, flowID: '0A', mode: 'single' }).pdu(0, '0A', 3);
  l.inputA(5, { kind: 'request', destinationID: B_ID, flowID: '0A', mode: 'single' }).pdu(6, '0A', 2);
  l.run();
  assert.deepEqual(l.deliveries.filter((d) => !d.accepted), []);
  assert.equal(l.deliveries.length, 5, 'both PDUs delivered');
});

test('Part 9 §2.4.7 rule 4, §2.4.8 2 (regression): with whenBusy reject, after a lost RELEASE the held resource is freed asynchronously and the next transfer completes', () => {
  const l = new ArbLink({ rx: { resources: 1, whenBusy: 'reject', idleTimeout: 200 }, tx: { retryDelay: 0 }, lose: (m) => m.what === 'RELEASE(seq 0)' && m.n === 1 });
  const app = new Workload(l, [{ flowID: '0A', mode: 'multi', pdus: [1], at: 0 }, { flowID: '0A', mode: 'single', pdus: [1], at: 300 }], true);
  l.run(5000);
  assert.equal(app.finished, 2);
  assert.equal(l.rx.free(), 1);
});
