import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TM_OP } from '../wire/type9-tm.ts';
import type { TmMessage } from '../wire/type9-tm.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmIngressConfig } from './tm-types.ts';
import type { Operand } from '../../test/support/tm.ts';
import { AUDIO, VIDEO, eventNames, fromEgress, gates, tmOut, tmText } from '../../test/support/tm.ts';

const V = '33/64';
const CLASS_V: Operand = { cos: 0x40, streamID: 7, wildcard: 1 };

function ingress(config: TmIngressConfig = {}): TmIngress {
  return new TmIngress({ localID: 6, mode: 'CREDIT', queues: [VIDEO, AUDIO], ...config });
}

const credit = (m: TmMessage, o: Operand = CLASS_V) => ({ kind: 'tm', packet: fromEgress(TM_OP.credit, m, o) }) as const;
const allocate = (allocationUnit: number, credits: number, o: Operand = CLASS_V) => credit({ message: 'ALLOCATE', allocationUnit, credits }, o);
const ready = (n = 1, target = VIDEO) => ({ kind: 'pdu-ready', stream: { target }, bytes: 64 * n }) as const;
const sent = (target = VIDEO) => ({ kind: 'pdu-sent', stream: { target }, bytes: 64 }) as const;

test('Part 10 §3.4.4 "PDUs are only transmitted when an ingress is given an allocation of credits": queues start closed', () => {
  const e = ingress();
  assert.equal(e.mayTransmit(V), false);
  const out = e.handle(allocate(0, 4), 0);
  assert.deepEqual(gates(out), [`${V} open credit`]);
  assert.deepEqual(tmOut(out), [], 'no PDU waits: the AU is not opened yet');
});

test('Part 10 §3.4.4 Queue Status: "get attention for a queue that has become active, needing credits" (parameter 1 = 0x30)', () => {
  const e = ingress();
  const out = e.handle(ready(), 0);
  const [p] = tmOut(out);
  assert.deepEqual(tmText(out), ['CREDIT Q_STATUS 1']);
  assert.deepEqual([p?.parameter1, p?.prio, p?.crf], [0x30, 1, 1], 'in the flow of the data (0D)');
  assert.deepEqual(e.handle(ready(), 1), [], 'not again while it stays active');
});

test('Part 10 §3.4.4 Queue Status: "the current rate of credits being issued is not keeping up": a queue that runs out of credit with PDUs left asks again', () => {
  const e = ingress({ lowCredits: 0 });
  e.handle(ready(), 0);
  e.handle(ready(), 0);
  e.handle(allocate(0, 1), 1);
  assert.deepEqual(tmText(e.handle(sent(), 2)), ['CREDIT CREDIT_STATUS 0 0', 'CREDIT Q_STATUS 1']);
  assert.deepEqual(tmText(e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'Q_STATUS' } }, 3)), ['CREDIT Q_STATUS 1'], 'rule 5: and may insist');
});

test('Part 10 §3.4.4, Table 4-6: ALLOCATE then CREDIT STATUS <AU> <n> ahead of the first PDU, one credit per PDU, <AU> <0> after the last', () => {
  const e = ingress({ lowCredits: 0 });
  e.handle(ready(), 0);
  e.handle(ready(), 0);
  const out = e.handle(allocate(0, 2), 1);
  assert.deepEqual(tmText(out), ['CREDIT CREDIT_STATUS 0 2']);
  assert.deepEqual(gates(out), [`${V} open credit`]);
  assert.deepEqual(tmText(e.handle(sent(), 2)), []);
  const last = e.handle(sent(), 3);
  assert.deepEqual(tmText(last), ['CREDIT CREDIT_STATUS 0 0']);
  assert.deepEqual(gates(last), [`${V} closed credit`]);
  assert.equal(e.counters().creditStatusSent, 2);
});

test('Part 10 §3.4.4: a PDU sent without a credit is a gate violation and takes no credit', () => {
  const e = ingress();
  e.handle(ready(), 0);
  const out = e.handle(sent(), 1);
  assert.deepEqual(eventNames(out), ['gate-violation']);
  assert.deepEqual(tmOut(out), []);
});

test('Part 10 §3.4.4 "XOFF and XON are used to pause / resume transmission without changing the state of credit allocation"', () => {
  const e = ingress();
  e.handle(ready(3), 0);
  e.handle(allocate(0, 8), 0);
  e.handle(sent(), 1);
  assert.deepEqual(gates(e.handle(credit({ message: 'XOFF' }), 2)), [`${V} closed on-off`]);
  assert.deepEqual(gates(e.handle(credit({ message: 'XON' }), 3)), [`${V} open on-off`]);
  assert.deepEqual(e.creditContexts()[0]?.current?.remaining, 7);
});

test('Part 10 §3.4.4: "<Q> ALLOCATE <AU> <0> … can be used to pause a transmission by forcing the only credits to zero"', () => {
  const e = ingress();
  e.handle(ready(), 0);
  e.handle(allocate(0, 8), 0);
  const out = e.handle(allocate(0, 0), 1);
  // The queue still holds a PDU and now has no credit: it asks again (riodp decision).
  assert.deepEqual(tmText(out), ['CREDIT CREDIT_STATUS 0 0', 'CREDIT Q_STATUS 1']);
  assert.deepEqual(gates(out), [`${V} closed credit`]);
  assert.deepEqual(e.creditContexts(), []);
});

test('Part 10 §3.4.4: the ingress follows the egress\'s rotation across 16 AUs and back to AU 0', () => {
  const e = ingress({ lowCredits: 0 });
  e.handle(ready(), 0);
  const seen: string[] = [];
  for (let i = 0; i < 17; i++) {
    const au = i % 16;
    seen.push(...tmText(e.handle(allocate(au, 1), i)));
    seen.push(...tmText(e.handle(sent(), i)));
    e.handle(ready(), i);
  }
  assert.deepEqual(seen, [...Array(17).keys()].flatMap((i) => [`CREDIT CREDIT_STATUS ${i % 16} 1`, `CREDIT CREDIT_STATUS ${i % 16} 0`]));
});

test('Part 10 §3.4.4: an ALLOCATE to a class covers every stream queue of that class, which share its credits', () => {
  const e = new TmIngress({ localID: 6, mode: 'CREDIT', lowCredits: 0, classifier: { granularity: { mode: 'stream' } }, queues: [VIDEO, { ...VIDEO, streamID: 8 }] });
  const out = e.handle(allocate(0, 2, { cos: 0x40, wildcard: 1 }), 0);
  assert.deepEqual(gates(out), ['33/64/7 open credit', '33/64/8 open credit']);
  e.handle(ready(), 1);
  e.handle(sent(), 1);
  e.handle(ready(1, { ...VIDEO, streamID: 8 }), 2);
  const last = e.handle(sent({ ...VIDEO, streamID: 8 }), 2);
  const [cs] = tmOut(last);
  assert.deepEqual([cs?.wildcard, cs?.cos, cs?.parameter1, cs?.parameter2], [1, 0x40, 0x20, 0], 'CREDIT STATUS names the designation of the ALLOCATE');
  assert.deepEqual(gates(last), ['33/64/7 closed credit', '33/64/8 closed credit']);
});

test('Part 10 §3.4.4: a queue draws from the narrowest designation that covers it (riodp decision)', () => {
  const e = ingress({ lowCredits: 0 });
  e.handle(allocate(0, 5, { wildcard: 0b011 }), 0);
  e.handle(allocate(0, 1, CLASS_V), 0);
  e.handle(ready(), 1);
  const out = e.handle(sent(), 2);
  assert.deepEqual(tmOut(out).map((p) => [p.wildcard, p.parameter1 & 0x0f, p.parameter2]), [[1, 0, 0]], 'the class AU was used and closed');
  assert.equal(e.mayTransmit(V), true, 'then the destination-wide AU');
  assert.equal(e.mayTransmit('33/67'), true);
});

test('Part 10 §3.4.4: "An ingress may use the credit status <0> to asynchronously relinquish credits for a stream"', () => {
  const e = ingress();
  e.handle(ready(), 0);
  e.handle(allocate(0, 8), 0);
  e.handle(sent(), 1);
  const out = e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'RELINQUISH' } }, 2);
  assert.deepEqual(tmText(out), ['CREDIT CREDIT_STATUS 0 0'], 'an idle queue gives its credits back and asks for nothing');
  assert.equal(e.mayTransmit(V), false);
});

test('Part 10 §3.4.5 protocol rule 1: an answer about traffic with no queue yet goes in the flow the classifier gives it, else in the flow of the message', () => {
  const ruled = new TmIngress({ localID: 6, mode: 'CREDIT', classifier: { rules: [{ match: { app: 'v' }, target: VIDEO }] } });
  const [a] = tmOut(ruled.handle(allocate(3, 0), 0));
  assert.deepEqual([a?.parameter1, a?.parameter2, a?.prio, a?.crf], [0x23, 0, 1, 1], 'flow 0D of the rule\'s target');
  assert.deepEqual(eventNames(ruled.handle(allocate(3, 0), 0)), ['retire-unknown']);
  const bare = new TmIngress({ localID: 6, mode: 'CREDIT' });
  const [b] = tmOut(bare.handle({ kind: 'tm', packet: fromEgress(TM_OP.credit, { message: 'ALLOCATE', allocationUnit: 3, credits: 0 }, CLASS_V, { prio: 2, crf: 0, vc: 0 }) }, 0));
  assert.deepEqual([b?.prio, b?.crf], [2, 0]);
});

test('Part 10 Table 4-6: Q_STATUS and CREDIT STATUS flow ingress to egress; received by the ingress they are ignored', () => {
  const e = ingress();
  assert.deepEqual(eventNames(e.handle(credit({ message: 'CREDIT_STATUS', allocationUnit: 0, credits: 3 }), 0)), ['wrong-direction']);
  assert.deepEqual(eventNames(e.handle(credit({ message: 'Q_STATUS', level: 3, fullness: 0 }), 0)), ['wrong-direction']);
  assert.deepEqual(eventNames(e.handle(credit({ message: 'USER_DEFINED', value: 0x80 }), 0)), ['user-defined']);
  assert.deepEqual(tmText(e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'USER_DEFINED', tmOp: 2, value: 0x80 } }, 0)), ['CREDIT USER_DEFINED 128']);
});
