/**
 * Part 9 §2.2 Figures 2-1 to 2-4 as end-to-end traces: an `ArbTx` at A (ID 1) and an `ArbRx` at
 * B (ID 2) joined by the test/support/arb-link.ts harness. Each trace line is
 * `<time> <side> <what>`: what the side put on the link (Type 7 messages, data segments SOM / COM /
 * EOM), B's allocations and frees, A's grants, and the engines' events. Unless a test says
 * otherwise a Type 7 message and a data segment both take 10 time units and A sends one segment
 * every 10.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbLink, A_ID, B_ID } from '../support/arb-link.ts';
import { traceLines } from '../support/arb-trace.ts';
import type { ArbMode, ArbTxInput } from '../../src/flow/arbitration-types.ts';
import type { FlowIdLabel } from '../../src/wire/flow-id.ts';

const request = (mode: ArbMode, flowID: FlowIdLabel = '0A'): ArbTxInput => ({ kind: 'request', destinationID: B_ID, flowID, mode });
const release = (flowID: FlowIdLabel = '0A'): ArbTxInput => ({ kind: 'release', destinationID: B_ID, flowID });

test('Part 9 §2.2.1 Figure 2-1: single PDU transfer — REQUEST, XON(ARB), then SOM, COM, EOM; "The receiver will automatically de-allocate resources once it receives the last packet for the PDU"', () => {
  const link = new ArbLink({ rx: { resources: 1 } });
  link.inputA(0, request('single')).pdu(0, '0A', 3);
  link.run(49);
  assert.equal(link.rx.allocation(A_ID, '0A')?.pduOpen, true, 'held while the PDU is being received');
  link.run();
  assert.deepEqual(traceLines(link.trace), [
    '0 A REQUEST_SINGLE_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(single, seq 0)',
    // "the transmitting endpoint can start transmitting the PDU segments once it receives the XON(ARB) message"
    '20 A grant(single, seq 0)',
    '20 A SOM',
    '30 A COM',
    '40 A EOM',
    // Rule 5: "The transmitter shall assume the context is no longer available upon sending the last segment".
    '40 A grant-ended(last-segment)',
    '50 B freed(last-segment)',
  ]);
  assert.deepEqual(link.refusals, [{ t: 0, flowID: '0A', segment: 'start', reason: 'no-grant' }], 'the PDU offered before XON(ARB) waited for it');
  assert.equal(link.rx.free(), 1);
  assert.equal(link.idle, true);
});

test('Part 9 §2.2.1 Figure 2-1: XOFF(ARB) branch — with the pool full the receiver answers XOFF(ARB) and "the transmitting endpoint can send a new REQUEST message" (next sequence bit), transmitting only after XON(ARB)', () => {
  // B's only resource is held by A's multi-PDU flow 0B; B rejects what it cannot grant (§2.2.2
  // "it can send a XOFF (ARB) message immediately"); A re-requests after its retryDelay of 30.
  const link = new ArbLink({ rx: { resources: 1, whenBusy: 'reject' }, tx: { retryDelay: 30 } });
  link.script([
    { t: 0, input: request('multi', '0B') },
    { t: 25, input: request('single', '0A') },
    { t: 50, input: release('0B') },
  ]).pdu(25, '0A', 3);
  link.run();
  assert.deepEqual(traceLines(link.trace, { flows: true }), [
    '0 A 0B REQUEST_MULTI_PDU(seq 0)',
    '10 B 0B XON_ARB(seq 0)',
    '10 B 0B allocated(multi, seq 0)',
    '20 A 0B grant(multi, seq 0)',
    '25 A 0A REQUEST_SINGLE_PDU(seq 0)',
    '35 B 0A XOFF_ARB(seq 0)',
    '45 A 0A rejected(seq 0)',
    '50 A 0B RELEASE(seq 0)',
    '50 A 0B grant-ended(released)',
    '60 B 0B freed(release)',
    // Rule 3 2) a new REQUEST after XOFF(ARB); rule 4 "The sequence number shall advance for any new REQUESTs".
    '75 A 0A REQUEST_SINGLE_PDU(seq 1)',
    '85 B 0A XON_ARB(seq 1)',
    '85 B 0A allocated(single, seq 1)',
    '95 A 0A grant(single, seq 1)',
    '95 A 0A SOM',
    '105 A 0A COM',
    '115 A 0A EOM',
    '115 A 0A grant-ended(last-segment)',
    '125 B 0A freed(last-segment)',
  ]);
  assert.deepEqual(link.refusals.map((r) => `${r.t} ${r.reason}`), ['25 no-grant'], '§2.4.2.1 "arbitrated flows are expected to remain off until explicitly enabled"');
  assert.equal(link.rx.counters().rejected, 1);
  assert.equal(link.rx.free(), 1);
});

test('Part 9 §2.2.1 Figure 2-2: multi-PDU transfer — REQUEST, XON(ARB), two PDUs "without having to renegotiate", RELEASE; the receiver holds the resource until RELEASE', () => {
  const link = new ArbLink({ rx: { resources: 1 } });
  link.inputA(0, request('multi')).pdu(0, '0A', 3).pdu(0, '0A', 3, { thenRelease: true });
  link.run(79);
  const held = link.rx.allocation(A_ID, '0A');
  assert.deepEqual([held?.mode, held?.pdus], ['multi', 1], 'after the first PDU\'s EOM (t 50) the resource is still held');
  link.run();
  assert.deepEqual(traceLines(link.trace), [
    '0 A REQUEST_MULTI_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(multi, seq 0)',
    '20 A grant(multi, seq 0)',
    '20 A SOM',
    '30 A COM',
    '40 A EOM',
    '50 A SOM',
    '60 A COM',
    '70 A EOM',
    // Rule 7 "relinquish a multi-PDU context by sending a RELEASE message after completion of the current PDU".
    '70 A RELEASE(seq 0)',
    '70 A grant-ended(released)',
    // "The receiver will hold the allocated resources until it receives a RELEASE message"; the
    // RELEASE travels in the data flow (rule 12) and arrives after the EOM sent with it.
    '80 B freed(release)',
  ]);
  assert.equal(link.tx.counters().requests, 1);
  assert.equal(link.rx.counters().released, 1);
});

test('Part 9 §2.2.1 Figure 2-3, §2.4.7 rule 8: receiver based de-allocation — XOFF(ARB) in the middle of the second PDU; the transmitter completes that PDU, then RELEASE; "The receiver shall de-allocate the resources only when it has received the RELEASE message"', () => {
  // Latencies 5, one segment every 10: B asks the resource back at 60, after the second PDU's SOM
  // reached it (55), and the XOFF(ARB) reaches A at 65, between that PDU's COMs.
  const link = new ArbLink({ rx: { resources: 1 }, ctrlLatency: 5, dataLatency: 5 });
  link.inputA(0, request('multi')).pdu(0, '0A', 4).pdu(0, '0A', 4);
  link.inputB(60, { kind: 'reclaim', sourceID: A_ID, flowID: '0A' });
  link.run(84);
  assert.equal(link.rx.allocation(A_ID, '0A')?.reclaiming, true, 'XOFF(ARB) sent, resource still held');
  link.run();
  assert.deepEqual(traceLines(link.trace), [
    '0 A REQUEST_MULTI_PDU(seq 0)',
    '5 B XON_ARB(seq 0)',
    '5 B allocated(multi, seq 0)',
    '10 A grant(multi, seq 0)',
    '10 A SOM',
    '20 A COM',
    '30 A COM',
    '40 A EOM',
    '50 A SOM',
    '60 B XOFF_ARB(seq 0)',
    '60 A COM',
    '65 A revoked(seq 0)',
    // "shall complete transmission of the current PDU and send a RELEASE message".
    '70 A COM',
    '80 A EOM',
    '80 A RELEASE(seq 0)',
    '80 A grant-ended(released)',
    '85 B freed(release)',
  ]);
  assert.equal(link.rx.counters().released, 1);
  assert.equal(link.rx.counters().unexpectedSegments, 0, 'every segment of the second PDU was received under the resource');
});

test('Part 9 §2.2.2 Figure 2-4: pipelined requests — Request_1 goes after XON_0(ARB) is received, during PDU 0; "The pipelined request shall not be honored until the current transaction has been completely received"; XON_1(ARB), then PDU 1', () => {
  // Two resources: Request_1 waits for PDU 0 to end (rule 10), not for a free resource.
  const link = new ArbLink({ rx: { resources: 2 } });
  link.inputA(0, request('single')).pdu(0, '0A', 3).pdu(0, '0A', 3);
  link.inputA(25, request('single'));
  link.run();
  assert.deepEqual(traceLines(link.trace), [
    '0 A REQUEST_SINGLE_PDU(seq 0)',
    '10 B XON_ARB(seq 0)',
    '10 B allocated(single, seq 0)',
    '20 A grant(single, seq 0)',
    '20 A SOM',
    '25 A REQUEST_SINGLE_PDU(seq 1)',
    '30 A COM',
    '35 B queued(seq 1)',
    '40 A EOM',
    '40 A grant-ended(last-segment)',
    '50 B freed(last-segment)',
    '50 B XON_ARB(seq 1)',
    '50 B allocated(single, seq 1)',
    '60 A grant(single, seq 1)',
    '60 A SOM',
    '70 A COM',
    '80 A EOM',
    '80 A grant-ended(last-segment)',
    '90 B freed(last-segment)',
  ]);
  assert.equal(link.rx.counters().granted, 2);
  assert.equal(link.rx.free(), 2);
});
