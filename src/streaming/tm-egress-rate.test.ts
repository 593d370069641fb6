import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TM_OP } from '../wire/type9-tm.ts';
import { TmEgress } from './tm-egress.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmEgressCommand, TmEgressConfig } from './tm-types.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { EGRESS, INGRESS, VIDEO, fromIngress, tmOut, tmText } from '../../test/support/tm.ts';

const CLASS_40: TmDesignation = { peer: INGRESS, cos: 0x40, streamID: 7, wildcard: 1, mask: 0 };
const level = (l: number) => ({ kind: 'queue-level', sourceID: INGRESS, cos: 0x40, streamID: 7, level: l }) as const;

function egress(config: TmEgressConfig = {}): TmEgress {
  return new TmEgress({ localID: EGRESS, mode: 'RATE', policy: { onOff: null, rate: { high: 160, low: 64, reduce: 32, increase: 16 } }, ...config });
}

test('Part 10 §3.4.3: default rate policy: REDUCE above the high watermark, INCREASE below the low one, nothing between', () => {
  const e = egress();
  assert.deepEqual(tmText(e.handle(level(200), 0)), ['RATE REDUCE average 32']);
  assert.deepEqual(e.handle(level(100), 1), []);
  assert.deepEqual(tmText(e.handle(level(10), 2)), ['RATE INCREASE average 16']);
  assert.equal(e.counters().rateSent, 2);
});

test('Part 10 §3.4.5 rule 6: "A lost Rate DECREASE message results in the egress sending a second DECREASE with a larger requested decrease amount"', () => {
  const e = egress();
  const amounts = [200, 210, 220, 230].map((l, t) => tmOut(e.handle(level(l), t))[0]?.parameter2);
  assert.deepEqual(amounts, [32, 64, 128, 255], 'doubling, at most 0xFF');
  e.handle(level(100), 5);
  assert.equal(tmOut(e.handle(level(200), 6))[0]?.parameter2, 32, 'a level back under the watermark starts over');
});

test('Part 10 §3.4.3 Y bit: the rate policy may steer the peak rate', () => {
  const e = egress({ policy: { onOff: null, rate: { high: 160, low: 64, reduce: 8, increase: 8, rate: 'peak' } } });
  const [p] = tmOut(e.handle(level(200), 0));
  assert.deepEqual([p?.parameter1, p?.parameter2], [0x05, 8]);
});

test('Part 10 Table 4-5: rate commands from the egress: REDUCE, INCREASE, DOUBLE, MAINTAIN, XOFF, XON', () => {
  const e = egress();
  const send = (command: TmEgressCommand) => tmOut(e.handle({ kind: 'command', to: CLASS_40, command }, 0))[0];
  const fields = (p: ReturnType<typeof send>) => [p?.tmOp, p?.parameter1, p?.parameter2];
  assert.deepEqual(fields(send({ message: 'REDUCE', rate: 'average', amount: 0xff })), [1, 0x01, 0xff]);
  assert.deepEqual(fields(send({ message: 'INCREASE', rate: 'peak', amount: 0xfe })), [1, 0x06, 0xfe]);
  assert.deepEqual(fields(send({ message: 'DOUBLE', rate: 'average' })), [1, 0x02, 0xff]);
  assert.deepEqual(fields(send({ message: 'MAINTAIN', rate: 'peak' })), [1, 0x05, 0x00]);
  assert.deepEqual(fields(send({ message: 'XOFF' })), [1, 0x00, 0x00]);
  assert.deepEqual(fields(send({ message: 'XON' })), [1, 0x00, 0xff]);
  assert.deepEqual(fields(send({ message: 'USER_DEFINED', tmOp: 1, value: 0x42 })), [1, 0x00, 0x42]);
});

test('Part 10 §3.4.3: no rate messages to a queue the egress has XOFF\'d (an XOFF\'d ingress queue ignores them)', () => {
  const e = egress({ policy: { onOff: { high: 250, low: 100 }, rate: { high: 160, low: 64, reduce: 32, increase: 16 } } });
  assert.deepEqual(tmText(e.handle(level(250), 0)), ['RATE XOFF']);
  assert.deepEqual(e.handle(level(200), 1), []);
  assert.deepEqual(tmText(e.handle(level(60), 2)), ['RATE XON', 'RATE INCREASE average 16']);
});

test('Part 10 §4.3.3 notes: "Q_STATUS values should be rounded UP to the nearest precision" at the egress', () => {
  const e = egress({ levelBits: 4 });
  const out = e.handle({ kind: 'tm', packet: fromIngress(TM_OP.rate, { message: 'Q_STATUS', level: 3, fullness: 0 }, { cos: 0x40, wildcard: 1 }) }, 0);
  assert.deepEqual(out, [{ kind: 'event', name: 'q-status', designation: '6|class|64', level: 0x10 }]);
  assert.equal(e.ingressLevel(CLASS_40), 0x10);
});

test('Part 10 §3.4.3: a closed loop: the egress policy drives the ingress rate down and back up', () => {
  const eg = egress();
  const ing = new TmIngress({ localID: INGRESS, mode: 'RATE', queues: [VIDEO], rate: { average: 1_000_000 } });
  const deliver = (out: ReturnType<TmEgress['handle']>) => { for (const p of tmOut(out)) ing.handle({ kind: 'tm', packet: p }, 0); };
  deliver(eg.handle(level(200), 0));
  deliver(eg.handle(level(200), 1));
  assert.equal(ing.rate('33/64'), 656_250, 'REDUCE 32 then 64: 1e6 x 224/256 x 192/256');
  deliver(eg.handle(level(10), 2));
  assert.equal(ing.rate('33/64'), 697_265, '656250 x 272/256 = 697265.6, rounded down');
});
