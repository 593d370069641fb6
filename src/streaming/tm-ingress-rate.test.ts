import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TM_OP } from '../wire/type9-tm.ts';
import type { TmMessage, TmRate } from '../wire/type9-tm.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmIngressConfig } from './tm-types.ts';
import { VIDEO, eventNames, fromEgress, gates, tmText } from '../../test/support/tm.ts';

const V = '33/64';
const RATE = { unit: 1000, average: 1000, peak: 2000, burst: 100, peakBurst: 100, minRate: 10, maxRate: 100_000 };

function ingress(config: TmIngressConfig = {}): TmIngress {
  return new TmIngress({ localID: 6, mode: 'RATE', queues: [VIDEO], rate: RATE, ...config });
}

const toV = (m: TmMessage, op: number = TM_OP.rate) => ({ kind: 'tm', packet: fromEgress(op, m, { cos: 0x40, wildcard: 1 }) }) as const;
const reduce = (amount: number, rate: TmRate = 'average') => toV({ message: 'REDUCE', rate, amount, factor: 1 - amount / 256 });
const increase = (amount: number, rate: TmRate = 'average') => toV({ message: 'INCREASE', rate, amount, factor: 1 + amount / 256 });

test('Part 10 Table 4-5: REDUCE n sets the average rate to CurrentRate x (1-n/256)', () => {
  const e = ingress();
  e.handle(reduce(64), 0);
  assert.equal(e.rate(V), 750);
  assert.equal(e.rate(V, 'peak'), 2000, 'Y = 0: the average rate only');
  assert.equal(e.counters().rateChanges, 1);
});

test('Part 10 §4.3.3 "For \'Y\' = 1 (Param 1 = 0x05, 0x06) the messages apply to peak rate"', () => {
  const e = ingress();
  const m = reduce(128, 'peak');
  assert.equal(m.packet.parameter1, 0x05);
  e.handle(m, 0);
  e.handle(increase(0x40, 'peak'), 1);
  assert.deepEqual([e.rate(V), e.rate(V, 'peak')], [1000, 1250], '2000 x 1/2 = 1000, x 320/256 = 1250');
});

test('Part 10 Table 4-5: INCREASE n sets the rate to CurrentRate x (1+n/256); 0xFF is DOUBLE; REDUCE 0 is MAINTAIN', () => {
  const e = ingress();
  e.handle(increase(0x80), 0);
  assert.equal(e.rate(V), 1500);
  e.handle(toV({ message: 'DOUBLE', rate: 'average' }), 1);
  assert.equal(e.rate(V), 3000);
  const maintain = toV({ message: 'MAINTAIN', rate: 'average' });
  assert.deepEqual([maintain.packet.parameter1, maintain.packet.parameter2], [0x01, 0x00]);
  assert.deepEqual(e.handle(maintain, 2), []);
  assert.equal(e.rate(V), 3000);
  assert.equal(e.counters().rateChanges, 2);
});

test('Part 10 §4.3.3 notes: with n/16 precision a REDUCE of 0b0000_0011 acts as 0b0001_0000', () => {
  const e = ingress({ amountBits: 4 });
  e.handle(reduce(0b0000_0011), 0);
  assert.equal(e.rate(V), 937, '1000 x 240/256 = 937.5');
});

test('Part 10 §4.3.3 notes: with n/32 precision an INCREASE of 0b1100_1110 acts as 0b1100_1000', () => {
  const e = ingress({ amountBits: 5 });
  e.handle(increase(0b1100_1110), 0);
  assert.equal(e.rate(V), 1781, '1000 x 456/256 = 1781.25');
  const coarse = ingress({ amountBits: 4 });
  coarse.handle(increase(0x05), 0);
  assert.equal(coarse.rate(V), 1000, 'an increase below the precision rounds to nothing');
});

test('Part 10 §4.3.3 notes: "a decrease must never reduce the rate completely to zero": REDUCE stops at minRate with an event', () => {
  const e = ingress();
  for (let i = 0; i < 3; i++) e.handle(reduce(0xff), i);
  assert.equal(e.rate(V), 10);
  const out = e.handle(reduce(0xff), 3);
  assert.deepEqual(eventNames(out), ['rate-clamped']);
  assert.equal(e.rate(V), 10);
  assert.equal(e.mayTransmit(V), true, 'only XOFF stops the queue');
});

test('Part 10 Table 4-5: INCREASE and DOUBLE stop at maxRate', () => {
  const e = ingress();
  for (let i = 0; i < 7; i++) e.handle(toV({ message: 'DOUBLE', rate: 'average' }), i);
  assert.equal(e.rate(V), 100_000);
  assert.equal(e.counters().rateClamped, 1);
});

test('Part 10 Table 4-5 XON: "Start transmitting at the rate prior to receiving the XOFF"', () => {
  const e = ingress();
  e.handle(reduce(128), 0);
  e.handle(toV({ message: 'XOFF' }), 1);
  const during = e.handle(reduce(128), 2);
  assert.deepEqual(eventNames(during), ['rate-while-off']);
  e.handle(toV({ message: 'XON' }), 3);
  assert.equal(e.rate(V), 500, 'the rate held before the XOFF');
  assert.equal(e.isOn(V), true);
});

test('Part 10 §3.4.3: the rate gate closes when the bucket cannot pay for the next PDU and a timer reopens it', () => {
  const e = ingress();
  e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 100 }, 0);
  e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 50 }, 0);
  assert.equal(e.mayTransmit(V), true, 'a full 100-byte bucket');
  const sent = e.handle({ kind: 'pdu-sent', stream: { target: VIDEO }, bytes: 100 }, 0);
  // Average 1 byte per unit: 50 bytes in 50 units; peak 2 bytes per unit: 25 units.
  assert.deepEqual(gates(sent), [`${V} closed rate`]);
  assert.deepEqual(sent.filter((o) => o.kind === 'timer'), [{ kind: 'timer', name: `rate:${V}`, at: 50 }]);
  assert.equal(e.mayTransmit(V, 49), false);
  assert.equal(e.mayTransmit(V, 50), true);
  assert.deepEqual(e.handle({ kind: 'timer', name: `rate:${V}` }, 40), [], 'early delivery: still closed, no output');
  const woke = e.handle({ kind: 'timer', name: `rate:${V}` }, 50);
  assert.deepEqual(gates(woke), [`${V} open rate`]);
});

test('Part 10 §3.4.3: a REDUCE while the rate gate is closed moves the wake-up timer later', () => {
  const e = ingress();
  e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 100 }, 0);
  e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 50 }, 0);
  e.handle({ kind: 'pdu-sent', stream: { target: VIDEO }, bytes: 100 }, 0);
  const out = e.handle(reduce(128), 10);
  // 10 bytes earned by t=10, 40 more at 0.5 byte per unit: t=90.
  assert.deepEqual(out.filter((o) => o.kind === 'timer'), [{ kind: 'timer', name: `rate:${V}`, at: 90 }]);
});

test('Part 10 Table 4-5: XOFF and XON of the rate table; Q_STATUS from the ingress uses parameter 1 = 0x03 of the rate table', () => {
  const e = ingress();
  assert.deepEqual(gates(e.handle(toV({ message: 'XOFF' }), 0)), [`${V} closed on-off`]);
  assert.deepEqual(gates(e.handle(toV({ message: 'XON' }), 1)), [`${V} open on-off`]);
  const out = e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 0xff }, 2);
  assert.deepEqual(tmText(out), ['RATE Q_STATUS 255']);
  assert.deepEqual(eventNames(e.handle(toV({ message: 'USER_DEFINED', value: 7 }), 3)), ['user-defined']);
});

test('Part 10 §3.4.3: rate messages need a rate mode; in CREDIT_RATE mode both the credit and the rate gate apply', () => {
  const basic = ingress({ mode: 'CREDIT' });
  assert.deepEqual(eventNames(basic.handle(reduce(1), 0)), ['op-not-in-mode']);
  const both = ingress({ mode: 'CREDIT_RATE' });
  both.handle(reduce(128), 0);
  assert.equal(both.rate(V), 500);
  assert.equal(both.mayTransmit(V), false, 'no credit yet');
  // riodp decision: XOFF/XON/Q_STATUS of the credit table in CREDIT_RATE mode.
  assert.deepEqual(tmText(both.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 3 }, 1)), ['CREDIT Q_STATUS 3']);
});
