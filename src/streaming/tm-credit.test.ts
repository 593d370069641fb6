import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IngressCreditContext } from './tm-credit.ts';
import { EgressCreditContext } from './tm-credit-egress.ts';
import type { TmDesignation } from './tm-operand-match.ts';

const D: TmDesignation = { peer: 0x21, cos: 0x40, streamID: 7, wildcard: 1, mask: 0 };
const cs = (allocationUnit: number, credits: number) => ({ allocationUnit, credits });

test('Part 10 §3.4.4: "<Q> CREDIT STATUS <AU> <nn> … is sent ahead of the first packet to delimit the beginning of the use of that AU"', () => {
  const c = new IngressCreditContext('k', D, 2);
  assert.equal(c.allocate(0, 4), 'held');
  assert.equal(c.hasCredit(), true);
  assert.deepEqual(c.open(), [cs(0, 4)]);
  assert.deepEqual(c.open(), [], 'one AU in use at a time');
});

test('Part 10 §3.4.4: CREDIT STATUS <AU> <xx> once at the low level, <AU> <00> "always sent after the last packet"', () => {
  const c = new IngressCreditContext('k', D, 2);
  c.allocate(3, 4);
  assert.deepEqual(c.consume(), [cs(3, 4)], 'the first PDU opens the AU');
  assert.deepEqual(c.consume(), [cs(3, 2)], '2 left: low level');
  assert.deepEqual(c.consume(), [], 'reported once');
  assert.deepEqual(c.consume(), [cs(3, 0)]);
  assert.equal(c.consume(), null, 'no credit: no PDU');
  assert.equal(c.isEmpty(), true);
});

test('Part 10 §3.4.4: an allocation at or below the low level is reported by its opening status alone', () => {
  const c = new IngressCreditContext('k', D, 2);
  c.allocate(0, 2);
  assert.deepEqual(c.consume(), [cs(0, 2)]);
  assert.deepEqual(c.consume(), [cs(0, 0)]);
});

test('Part 10 §3.4.4: "When the credits in an allocation unit are consumed, the ingress begins to use credits in the next allocation unit"', () => {
  const c = new IngressCreditContext('k', D, 0);
  c.allocate(0, 1);
  c.allocate(1, 2);
  assert.deepEqual(c.consume(), [cs(0, 1), cs(0, 0)]);
  assert.deepEqual(c.consume(), [cs(1, 2)]);
  assert.deepEqual(c.current, { allocationUnit: 1, credits: 2, remaining: 1, lowReported: false });
});

test('Part 10 §3.4.5 rule 7 "ALLOCATE messages are never duplicated": an ALLOCATE for an AU held is ignored', () => {
  const c = new IngressCreditContext('k', D, 2);
  c.allocate(0, 4);
  assert.equal(c.allocate(0, 9), 'duplicate');
  c.open();
  assert.equal(c.allocate(0, 9), 'duplicate', 'in use');
  assert.equal(c.waiting.length, 0);
});

test('Part 10 §3.4.4: "<Q> ALLOCATE <AU> <0> is used to retire an allocation", answered by CREDIT STATUS <AU> <00>', () => {
  const c = new IngressCreditContext('k', D, 2);
  c.allocate(0, 4);
  c.allocate(1, 4);
  c.open();
  assert.deepEqual(c.retire(1), { result: 'waiting', status: [cs(1, 0)] });
  assert.deepEqual(c.retire(0), { result: 'in-use', status: [cs(0, 0)] });
  assert.deepEqual(c.retire(5), { result: 'unknown', status: [cs(5, 0)] }, 'an AU never received (lost ALLOCATE) is acknowledged too');
  assert.equal(c.hasCredit(), false);
});

test('Part 10 §3.4.4: "An ingress may use the credit status <0> to asynchronously relinquish credits"', () => {
  const c = new IngressCreditContext('k', D, 2);
  c.allocate(0, 9);
  c.consume();
  assert.deepEqual(c.relinquish(), [cs(0, 0)]);
  assert.deepEqual(c.relinquish(), []);
});

test('Part 10 §3.4.4: the egress issues AUs 0..15 in rotation and rolls over at its limit', () => {
  const e = new EgressCreditContext('k', D, 16);
  const issued: number[] = [];
  for (let i = 0; i < 16; i++) {
    const au = e.allocate(1);
    assert.ok(au !== null);
    issued.push(au);
    e.status(au, 1);
    e.status(au, 0);
  }
  assert.deepEqual(issued, [...Array(16).keys()]);
  assert.equal(e.allocate(1), 0, 'rolls over to AU 0');
  const small = new EgressCreditContext('k', D, 2);
  assert.deepEqual([small.allocate(1), small.allocate(1)], [0, 1]);
  assert.equal(small.allocate(1), null, '"It is up to the egress to be sure an AU is unused before reusing that number"');
  small.status(0, 1);
  small.status(0, 0);
  assert.equal(small.allocate(1), 0);
});

test('Part 10 §3.4.4: CREDIT STATUS <AU> <n> opens, a later one reports the level, <AU> <0> closes; unknown AUs are reported', () => {
  const e = new EgressCreditContext('k', D, 16);
  e.allocate(16);
  assert.deepEqual(e.status(0, 16), { kind: 'opened', assumedClosed: [], lost: [] });
  assert.deepEqual(e.status(0, 2), { kind: 'low' });
  assert.equal(e.outstanding(), 1);
  assert.deepEqual(e.status(0, 0), { kind: 'closed' });
  assert.deepEqual(e.status(0, 0), { kind: 'unknown' }, 'a duplicate close');
  assert.equal(e.outstanding(), 0);
});

test('Part 10 §3.4.5 rule 7: a lost CREDIT STATUS <AU> <0>: the AU is assumed closed when CREDIT STATUS <AU+1> <N> arrives', () => {
  const e = new EgressCreditContext('k', D, 16);
  e.allocate(4);
  e.allocate(4);
  e.status(0, 4);
  assert.deepEqual(e.status(1, 4), { kind: 'opened', assumedClosed: [0], lost: [] });
  assert.equal(e.au(0), undefined);
});

test('Part 10 §3.4.5 rule 7: a lost CREDIT STATUS <AU+1> <N>: the next AU is assumed opened by the next PDU', () => {
  const e = new EgressCreditContext('k', D, 16);
  e.allocate(2);
  e.allocate(2);
  e.status(0, 2);
  assert.equal(e.pdu().kind, 'counted');
  assert.equal(e.pdu().kind, 'counted');
  e.status(0, 0);
  assert.deepEqual(e.pdu(), { kind: 'counted', allocationUnit: 1, assumedOpen: true, assumedClosed: [] });
  assert.equal(e.au(1)?.state, 'open');
  assert.deepEqual(e.pdu(), { kind: 'counted', allocationUnit: 1, assumedOpen: false, assumedClosed: [] });
  assert.deepEqual(e.pdu(), { kind: 'no-credit' });
});

test('Part 10 §3.4.5 rule 7: both delimiters lost: a PDU beyond the open AU\'s credits closes it and opens the next', () => {
  const e = new EgressCreditContext('k', D, 16);
  e.allocate(1);
  e.allocate(1);
  e.status(0, 1);
  e.pdu();
  assert.deepEqual(e.pdu(), { kind: 'counted', allocationUnit: 1, assumedOpen: true, assumedClosed: [0] });
});

test('Part 10 §3.4.5 rule 7: an AU opened while an earlier one never was reveals a lost ALLOCATE', () => {
  const e = new EgressCreditContext('k', D, 16);
  e.allocate(4);
  e.allocate(4);
  e.allocate(4);
  assert.deepEqual(e.status(2, 4), { kind: 'opened', assumedClosed: [], lost: [0, 1] });
});

test('Part 10 §3.4.5 rule 7: ALLOCATE <AU> <0> retires an AU, even one the egress lost track of, until CREDIT STATUS <AU> <0>', () => {
  const e = new EgressCreditContext('k', D, 2);
  e.allocate(4);
  e.retire(0);
  assert.equal(e.au(0)?.state, 'retiring');
  assert.equal(e.outstanding(), 0);
  e.retire(1);
  assert.equal(e.allocate(4), null, 'AU 1 is still being retired');
  assert.deepEqual(e.status(1, 0), { kind: 'closed' });
  assert.equal(e.allocate(4), 1);
});
