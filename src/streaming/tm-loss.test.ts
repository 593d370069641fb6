import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TmEgress } from './tm-egress.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import type { TmModeSetting } from './tm-mode.ts';
import { EGRESS, INGRESS, VIDEO } from '../../test/support/tm.ts';
import { TmLink } from '../../test/support/tm-link.ts';

/** §3.4.5 rules 6 and 7: lost and duplicated TM messages, over the zero-latency link of test/support/tm-link.ts. */

const Q: TmDesignation = { peer: INGRESS, cos: 0x40, streamID: 7, wildcard: 1, mask: 0 };
const V = '33/64';

/** Drops the first packet whose trace text is `text`. */
function dropOnce(text: string): (t: string) => boolean {
  let done = false;
  return (t) => {
    if (done || t !== text) return false;
    done = true;
    return true;
  };
}

function link(drop: (t: string) => boolean = () => false, mode: TmModeSetting = 'CREDIT', credits = 4): TmLink {
  const ingress = new TmIngress({ localID: INGRESS, mode, lowCredits: 2, queues: [VIDEO], rate: { average: 1_000_000 } });
  const egress = new TmEgress({ localID: EGRESS, mode, policy: { onOff: null, rate: null, credit: { credits, auCount: 16, maxOutstanding: 2, lowCredits: 2 } } });
  return new TmLink(ingress, egress, VIDEO, drop);
}

test('Part 10 §3.4.5 rule 6: a duplicated XOFF is ignored as a duplicate; the queue stays off until one XON', () => {
  const l = link(undefined, 'BASIC');
  l.command(Q, { message: 'XOFF' });
  l.command(Q, { message: 'XOFF' });
  assert.deepEqual(l.events, ['ingress duplicate-xoff']);
  assert.equal(l.ingress.isOn(V), false);
  l.command(Q, { message: 'XON' });
  assert.equal(l.ingress.isOn(V), true);
});

test('Part 10 §3.4.5 rule 6 "Lost messages are recovered by sending duplicates": a lost XOFF is made good by repeating it', () => {
  const l = link(dropOnce('E>I BASIC XOFF'), 'BASIC');
  l.command(Q, { message: 'XOFF' });
  assert.equal(l.ingress.isOn(V), true, 'lost');
  l.command(Q, { message: 'XOFF' });
  assert.equal(l.ingress.isOn(V), false);
  assert.deepEqual(l.events, [], 'the repeat is not a duplicate at the ingress: the first never arrived');
});

test('Part 10 §3.4.5 rule 6: "A lost Rate DECREASE message results in the egress sending a second DECREASE with a larger requested decrease amount"', () => {
  const ingress = new TmIngress({ localID: INGRESS, mode: 'RATE', queues: [VIDEO], rate: { average: 1_000_000 } });
  const egress = new TmEgress({ localID: EGRESS, mode: 'RATE', policy: { onOff: null, rate: { high: 160, low: 64, reduce: 32, increase: 16 } } });
  const l = new TmLink(ingress, egress, VIDEO, dropOnce('E>I RATE REDUCE average 32'));
  l.egressLevel(200);
  l.egressLevel(200);
  assert.deepEqual(l.trace, ['E>I RATE REDUCE average 32 (lost)', 'E>I RATE REDUCE average 64']);
  assert.equal(ingress.rate(V), 750_000, 'only the second, larger REDUCE (64/256) arrived');
});

test('Part 10 §3.4.5 rule 7: a lost CREDIT STATUS <AU> <0>: the egress assumes AU 0 closed when CREDIT STATUS <AU+1> <N> arrives', () => {
  const l = link(dropOnce('I>E CREDIT CREDIT_STATUS 0 0'));
  l.ready(6);
  l.send();
  assert.deepEqual(l.trace, [
    'I>E CREDIT Q_STATUS 1', 'E>I CREDIT ALLOCATE 0 4', 'I>E CREDIT CREDIT_STATUS 0 4', 'PDU 0/1', 'PDU 0/2',
    'I>E CREDIT CREDIT_STATUS 0 2', 'E>I CREDIT ALLOCATE 1 4', 'PDU 0/3', 'PDU 0/4',
    'I>E CREDIT CREDIT_STATUS 0 0 (lost)', 'I>E CREDIT CREDIT_STATUS 1 4', 'PDU 1/1', 'PDU 1/2',
    'I>E CREDIT CREDIT_STATUS 1 2', 'E>I CREDIT ALLOCATE 2 4',
  ]);
  assert.deepEqual(l.events, ['egress au-assumed-closed 0']);
  const aus = l.egress.creditState(Q)!.aus;
  assert.deepEqual(aus.map((a) => [a.allocationUnit, a.state, a.received]), [[1, 'open', 2], [2, 'allocated', 0]]);
});

test('Part 10 §3.4.5 rule 7: a lost CREDIT STATUS <AU+1> <N>: the egress assumes AU 1 opened when the next PDU arrives', () => {
  const l = link(dropOnce('I>E CREDIT CREDIT_STATUS 1 4'));
  l.ready(6);
  l.send();
  assert.ok(l.trace.includes('I>E CREDIT CREDIT_STATUS 1 4 (lost)'));
  assert.deepEqual(l.events, ['egress au-assumed-open 1']);
  const aus = l.egress.creditState(Q)!.aus;
  assert.deepEqual(aus.map((a) => [a.allocationUnit, a.state, a.received]), [[1, 'open', 2], [2, 'allocated', 0]], 'both PDUs of AU 1 counted against it');
});

test('Part 10 §3.4.5 rule 7: a lost ALLOCATE is recovered by ALLOCATE <AU> <0>, "insuring it is de-allocated before reusing it"', () => {
  const l = link(dropOnce('E>I CREDIT ALLOCATE 1 4'));
  l.ready(6);
  l.send();
  assert.deepEqual(l.trace, [
    'I>E CREDIT Q_STATUS 1', 'E>I CREDIT ALLOCATE 0 4', 'I>E CREDIT CREDIT_STATUS 0 4', 'PDU 0/1', 'PDU 0/2',
    'I>E CREDIT CREDIT_STATUS 0 2', 'E>I CREDIT ALLOCATE 1 4 (lost)', 'PDU 0/3', 'PDU 0/4', 'I>E CREDIT CREDIT_STATUS 0 0',
    // Out of credit with PDUs left, the ingress asks; ALLOCATE is never duplicated, so the egress issues AU 2.
    'I>E CREDIT Q_STATUS 1', 'E>I CREDIT ALLOCATE 2 4', 'I>E CREDIT CREDIT_STATUS 2 4',
    // AU 2 opened before AU 1: AU 1's ALLOCATE was lost, and the egress retires it.
    'E>I CREDIT ALLOCATE 1 0', 'I>E CREDIT CREDIT_STATUS 1 0',
    'PDU 2/1', 'PDU 2/2', 'I>E CREDIT CREDIT_STATUS 2 2', 'E>I CREDIT ALLOCATE 3 4',
  ]);
  assert.deepEqual(l.events, ['egress allocate-lost 1', 'ingress retire-unknown']);
  const aus = l.egress.creditState(Q)!.aus;
  assert.deepEqual(aus.map((a) => a.allocationUnit), [2, 3], 'AU 1 is free again');
});

test('Part 10 §3.4.5 rule 7: the egress may also retire an AU on command with ALLOCATE <AU> <0>', () => {
  const l = link(dropOnce('E>I CREDIT ALLOCATE 0 4'));
  l.ready(1);
  assert.deepEqual(l.trace, ['I>E CREDIT Q_STATUS 1', 'E>I CREDIT ALLOCATE 0 4 (lost)']);
  l.command(Q, { message: 'RETIRE', allocationUnit: 0 });
  l.command(Q, { message: 'ALLOCATE', credits: 4 });
  l.send();
  assert.deepEqual(l.trace.slice(2), ['E>I CREDIT ALLOCATE 0 0', 'I>E CREDIT CREDIT_STATUS 0 0', 'E>I CREDIT ALLOCATE 1 4', 'I>E CREDIT CREDIT_STATUS 1 4', 'PDU 1/1']);
  assert.deepEqual(l.events, ['ingress retire-unknown']);
});

test('Part 10 §3.4.5 rule 6: duplicated credit messages are recognised: a repeated CREDIT STATUS <AU> <n> and a repeated ALLOCATE change nothing', () => {
  const l = link();
  l.ready(2);
  l.send();
  const cs0 = l.packets.find((p) => p.tm.message === 'CREDIT_STATUS' && p.tm.credits === 0);
  const alloc = l.packets.find((p) => p.tm.message === 'ALLOCATE');
  assert.ok(cs0 === undefined && alloc !== undefined, 'AU 0 still open after 2 of 4 PDUs');
  const before = l.egress.creditState(Q);
  const egressOut = l.egress.handle({ kind: 'tm', packet: l.packets[2] as never }, 0);
  assert.deepEqual(egressOut.filter((o) => o.kind === 'tm'), [], 'CREDIT STATUS 0 4 again: AU 0 is already open, no new allocation');
  assert.deepEqual(l.egress.creditState(Q), before);
  const ingressOut = l.ingress.handle({ kind: 'tm', packet: alloc }, 0);
  assert.deepEqual(ingressOut.map((o) => (o.kind === 'event' ? o.name : o.kind)), ['allocate-duplicate']);
});
