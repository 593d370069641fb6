import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TmEgress } from './tm-egress.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { EGRESS, INGRESS, VIDEO } from '../../test/support/tm.ts';
import { TmLink } from '../../test/support/tm-link.ts';

/**
 * Figures 3-6 and 3-7 as message traces. The figures are drawings; the traces follow the text
 * around them (§3.4.4) and the figure legend: "QS = QUEUE STATUS, CS = CREDIT STATUS,
 * ALL = ALLOCATE", data packets "<Q> <AU><PKT#> implied". Every message is about the same <Q>
 * (the class queue of destination 0x21, cos 0x40) and travels in the data's flow.
 */

const Q: TmDesignation = { peer: INGRESS, cos: 0x40, streamID: 7, wildcard: 1, mask: 0 };

function link(): TmLink {
  const ingress = new TmIngress({ localID: INGRESS, mode: 'CREDIT', lowCredits: 2 });
  const egress = new TmEgress({ localID: EGRESS, mode: 'CREDIT', policy: { onOff: null, rate: null, credit: { credits: 16, auCount: 16, maxOutstanding: 2, lowCredits: 2 } } });
  return new TmLink(ingress, egress, VIDEO);
}

const pdus = (au: number, from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `PDU ${au}/${from + i}`);

test('Part 10 §3.4.4 Figure 3-6: typical credit based flow control, as an exact message trace', () => {
  const l = link();
  l.ready(18);
  l.send();
  assert.deepEqual(l.trace, [
    // "the ingress initiates activity with queue status, indicating traffic available. The egress responds with an allocation of 16 credits."
    'I>E CREDIT Q_STATUS 1',
    'E>I CREDIT ALLOCATE 0 16',
    'I>E CREDIT CREDIT_STATUS 0 16',
    ...pdus(0, 1, 14),
    // "At a level of 2 credits remaining, the ingress sends a credit status of <2> indicating a low level of credits."
    'I>E CREDIT CREDIT_STATUS 0 2',
    // "The egress responds to the request for more credits with an allocation of 16 additional PDUs."
    'E>I CREDIT ALLOCATE 1 16',
    // "It proceeds with sending the last two PDUs."
    ...pdus(0, 15, 16),
    // "The ingress indicates the last PDU has been sent on the first allocation, and that new PDUs are being sent on the new allocation with the two sequential credit status messages."
    'I>E CREDIT CREDIT_STATUS 0 0',
    'I>E CREDIT CREDIT_STATUS 1 16',
    ...pdus(1, 1, 2),
  ]);
  assert.deepEqual(l.events, []);
  assert.deepEqual(l.egress.creditState(Q), { designation: Q, nextAllocationUnit: 2, aus: [{ allocationUnit: 1, credits: 16, state: 'open', opened: true, received: 2, reported: 16 }] });
});

test('Part 10 §3.4.5 protocol rule 1: every message of Figure 3-6 names the same <Q> and travels in the data\'s flow (0D: prio 1, CRF 1)', () => {
  const l = link();
  l.ready(18);
  l.send();
  assert.equal(l.packets.length, 7);
  for (const p of l.packets) {
    assert.deepEqual({ cos: p.cos, streamID: p.streamID, wc: p.wildcard, mask: p.mask, prio: p.prio, crf: p.crf, vc: p.vc }, { cos: 0x40, streamID: 7, wc: 1, mask: 0, prio: 1, crf: 1, vc: 0 });
    assert.equal(p.sourceID === INGRESS ? p.destinationID : p.sourceID, EGRESS);
  }
});

test('Part 10 §3.4.4 Figure 3-7: the egress moves the traffic from AU 0 to AU 1, as an exact message trace', () => {
  const l = link();
  l.ready(6);
  l.send(3);
  // "the egress moves the traffic from AU 0 to AU 1 by first allocating more credits with AU 1, then terminating the credits for AU 0."
  l.command(Q, { message: 'ALLOCATE', credits: 16 });
  l.command(Q, { message: 'RETIRE', allocationUnit: 0 });
  l.send();
  assert.deepEqual(l.trace, [
    'I>E CREDIT Q_STATUS 1',
    'E>I CREDIT ALLOCATE 0 16',
    'I>E CREDIT CREDIT_STATUS 0 16',
    ...pdus(0, 1, 3),
    'E>I CREDIT ALLOCATE 1 16',
    'E>I CREDIT ALLOCATE 0 0',
    // "The ingress responds by sending credit status of 0 for AU 0, and credit status to indicate the beginning of AU 1."
    'I>E CREDIT CREDIT_STATUS 0 0',
    'I>E CREDIT CREDIT_STATUS 1 16',
    ...pdus(1, 1, 3),
  ]);
  assert.deepEqual(l.events, []);
  const state = l.egress.creditState(Q)!;
  assert.deepEqual(state.aus.map((a) => [a.allocationUnit, a.received]), [[1, 3]]);
});
