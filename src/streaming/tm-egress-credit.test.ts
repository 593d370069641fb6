import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TM_OP } from '../wire/type9-tm.ts';
import type { TmMessage } from '../wire/type9-tm.ts';
import { TmEgress } from './tm-egress.ts';
import type { TmEgressConfig } from './tm-types.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { EGRESS, INGRESS, eventNames, fromIngress, tmOut, tmText } from '../../test/support/tm.ts';

const CLASS_40: TmDesignation = { peer: INGRESS, cos: 0x40, streamID: 7, wildcard: 1, mask: 0 };

function egress(config: TmEgressConfig = {}): TmEgress {
  return new TmEgress({ localID: EGRESS, mode: 'CREDIT', ...config });
}

const fromQ = (m: TmMessage) => ({ kind: 'tm', packet: fromIngress(TM_OP.credit, m, { cos: 0x40, streamID: 7, wildcard: 1 }) }) as const;
const qs = (level: number) => fromQ({ message: 'Q_STATUS', level, fullness: level / 255 });
const cs = (allocationUnit: number, credits: number) => fromQ({ message: 'CREDIT_STATUS', allocationUnit, credits });
const pdu = { kind: 'pdu', sourceID: INGRESS, cos: 0x40, streamID: 7 } as const;

test('Part 10 §3.4.4, Figure 3-6: the egress answers a Q_STATUS that shows traffic with ALLOCATE <0> <16> in the data\'s designation', () => {
  const e = egress();
  const out = e.handle(qs(0x10), 0);
  assert.deepEqual(tmText(out), ['CREDIT ALLOCATE 0 16']);
  const [p] = tmOut(out);
  assert.deepEqual([p?.destinationID, p?.sourceID, p?.cos, p?.streamID, p?.wildcard, p?.parameter1, p?.parameter2], [INGRESS, EGRESS, 0x40, 7, 1, 0x10, 16]);
  assert.deepEqual(e.handle(qs(0), 1).filter((o) => o.kind === 'tm'), [], 'an empty queue asks for nothing');
});

test('Part 10 §3.4.4: the default policy keeps at most maxOutstanding AUs allocated or open', () => {
  const e = egress({ policy: { credit: { credits: 8, auCount: 16, maxOutstanding: 2, lowCredits: 2 } } });
  assert.deepEqual(tmText(e.handle(qs(9), 0)), ['CREDIT ALLOCATE 0 8']);
  assert.deepEqual(tmText(e.handle(qs(9), 1)), ['CREDIT ALLOCATE 1 8'], 'rule 5: the ingress insists');
  assert.deepEqual(tmText(e.handle(qs(9), 2)), [], 'two outstanding');
});

test('Part 10 §3.4.4: "CREDIT STATUS <AU> <xx> … may be sent by an ingress to indicate a low level of credit allocation as a trigger to request more credits"', () => {
  const e = egress();
  e.handle(qs(1), 0);
  assert.deepEqual(tmText(e.handle(cs(0, 16), 1)), [], 'the opening status is not a request');
  assert.deepEqual(tmText(e.handle(cs(0, 2), 2)), ['CREDIT ALLOCATE 1 16']);
  assert.deepEqual(e.handle(cs(0, 0), 3), [], 'AU 0 closed');
  assert.deepEqual(e.handle(cs(1, 16), 4), []);
  assert.deepEqual(e.creditState(CLASS_40), { designation: CLASS_40, nextAllocationUnit: 2, aus: [{ allocationUnit: 1, credits: 16, state: 'open', opened: true, received: 0, reported: 16 }] });
});

test('Part 10 §3.4.4: an opening CREDIT STATUS at or below the low level asks for the next AU', () => {
  const e = egress({ policy: { credit: { credits: 2, auCount: 16, maxOutstanding: 2, lowCredits: 2 } } });
  e.handle(qs(1), 0);
  assert.deepEqual(tmText(e.handle(cs(0, 2), 1)), ['CREDIT ALLOCATE 1 2']);
});

test('Part 10 §3.4.4 "rolling over at whatever limit it supports": AU numbers 0..auCount-1 then 0 again', () => {
  const e = egress({ policy: { credit: { credits: 1, auCount: 3, maxOutstanding: 1, lowCredits: 0 } } });
  const issued: string[] = [];
  for (let i = 0; i < 4; i++) {
    issued.push(...tmText(e.handle(qs(5), i)));
    e.handle(cs(i % 3, 1), i);
    e.handle(cs(i % 3, 0), i);
  }
  assert.deepEqual(issued, ['CREDIT ALLOCATE 0 1', 'CREDIT ALLOCATE 1 1', 'CREDIT ALLOCATE 2 1', 'CREDIT ALLOCATE 0 1']);
});

test('Part 10 §3.4.4: across all 16 AUs on command, and "It is up to the egress to be sure an AU is unused before reusing that number"', () => {
  const e = egress({ policy: { credit: null } });
  const allocate = { kind: 'command', to: CLASS_40, command: { message: 'ALLOCATE', credits: 1 } } as const;
  const issued = [...Array(16).keys()].flatMap((i) => tmText(e.handle(allocate, i)));
  assert.deepEqual(issued, [...Array(16).keys()].map((i) => `CREDIT ALLOCATE ${i} 1`));
  const busy = e.handle(allocate, 16);
  assert.deepEqual(busy, [{ kind: 'event', name: 'au-busy', designation: '6|class|64', allocationUnit: 0 }]);
  e.handle(cs(0, 1), 17);
  e.handle(cs(0, 0), 17);
  assert.deepEqual(tmText(e.handle(allocate, 18)), ['CREDIT ALLOCATE 0 1']);
  assert.equal(e.counters().auBusy, 1);
});

test('Part 10 §3.4.4: RETIRE on command sends ALLOCATE <AU> <0>; the ingress\'s CREDIT STATUS <AU> <0> frees the number', () => {
  const e = egress({ policy: { credit: null } });
  e.handle({ kind: 'command', to: CLASS_40, command: { message: 'ALLOCATE', credits: 16 } }, 0);
  assert.deepEqual(tmText(e.handle({ kind: 'command', to: CLASS_40, command: { message: 'RETIRE', allocationUnit: 0 } }, 1)), ['CREDIT ALLOCATE 0 0']);
  assert.deepEqual(e.handle(cs(0, 0), 2), []);
  assert.deepEqual(e.creditState(CLASS_40), { designation: CLASS_40, nextAllocationUnit: 1, aus: [] });
  assert.deepEqual([e.counters().retires, e.counters().auClosed], [1, 1]);
});

test('Part 10 §3.4.4 "The egress may also track the number of incoming PDUs": PDUs are counted against the open AU', () => {
  const e = egress();
  e.handle(qs(1), 0);
  e.handle(cs(0, 16), 1);
  for (let i = 0; i < 3; i++) assert.deepEqual(e.handle(pdu, 2), []);
  assert.equal(e.creditState(CLASS_40)!.aus[0]?.received, 3);
  assert.equal(e.counters().pdus, 3);
});

test('Part 10 §3.4.4: a PDU with no allocated credit is counted with an event', () => {
  const e = egress();
  assert.deepEqual(eventNames(e.handle(pdu, 0)), ['pdu-without-credit']);
  assert.equal(e.counters().pdusWithoutCredit, 1);
  assert.deepEqual(egress({ mode: 'BASIC' }).handle(pdu, 0), [], 'no credit accounting outside the credit modes');
});

test('Part 10 §3.4.4: CREDIT STATUS for an AU that was never allocated is reported', () => {
  const e = egress();
  assert.deepEqual(eventNames(e.handle(cs(5, 3), 0)), ['cs-unknown-au']);
});
