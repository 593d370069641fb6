import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidMask, tmMessage, tmOpCode, tmOpName, tmOperand, tmOperandFields, tmParameters } from './type9-tm.ts';
import type { TmMessage, TmOperand } from './type9-tm.ts';
import { WireError } from './errors.ts';

/** Checks tmMessage for a row and, where the message defines its parameters, that tmParameters inverts it. */
function row(tmOp: number, p1: number, p2: number, want: TmMessage): void {
  const got = tmMessage(tmOp, p1, p2);
  assert.deepEqual(got, want, `TM OP ${tmOp} p1 0x${p1.toString(16)} p2 0x${p2.toString(16)}`);
  const back = tmParameters(tmOp, got);
  if (got.message === 'APPLICATION_DEFINED' || got.message === 'RESERVED') assert.equal(back, undefined);
  else assert.deepEqual(back, { parameter1: p1, parameter2: p2 });
}

test('Part 10 §4.3 Table 4-3: TM OP 0 basic, 1 rate, 2 credit, 3 application defined, 0b0100–0b1111 reserved', () => {
  assert.deepEqual([0, 1, 2, 3].map(tmOpName), ['BASIC', 'RATE', 'CREDIT', 'APPLICATION']);
  for (let op = 4; op < 16; op++) {
    assert.equal(tmOpName(op), 'RESERVED');
    row(op, 0, 0, { message: 'RESERVED', field: 'tmOp' });
  }
  assert.equal(tmOpCode('CREDIT'), 2);
});

test('Part 10 §4.3.2 Table 4-4: basic XOFF (p2 0x00), XON (0xFF), user defined (0x01–0xFE)', () => {
  row(0, 0x00, 0x00, { message: 'XOFF' });
  row(0, 0x00, 0xff, { message: 'XON' });
  row(0, 0x00, 0x01, { message: 'USER_DEFINED', value: 0x01 });
  row(0, 0x00, 0xfe, { message: 'USER_DEFINED', value: 0xfe });
});

test('Part 10 §4.3.2 Table 4-4: basic Q_Status "Source queue is n/255 full", parameter 1 = 0b0000_0011', () => {
  row(0, 0x03, 0x00, { message: 'Q_STATUS', level: 0, fullness: 0 });
  row(0, 0x03, 0x80, { message: 'Q_STATUS', level: 0x80, fullness: 128 / 255 });
  row(0, 0x03, 0xff, { message: 'Q_STATUS', level: 0xff, fullness: 1 });
});

test('Part 10 §4.3.2: "All other parameter 1 values are reserved" (basic)', () => {
  for (const p1 of [0x01, 0x02, 0x04, 0x30, 0xff]) row(0, p1, 0, { message: 'RESERVED', field: 'parameter1' });
});

test('Part 10 §4.3.3 Table 4-5: rate XOFF, XON and user defined with parameter 1 = 0', () => {
  row(1, 0x00, 0x00, { message: 'XOFF' });
  row(1, 0x00, 0xff, { message: 'XON' });
  row(1, 0x00, 0x33, { message: 'USER_DEFINED', value: 0x33 });
});

test('Part 10 §4.3.3 Table 4-5: 0b0000_0Y01 with 0 is MAINTAIN, n is REDUCE to CurrentRate x (1-n/256); Y=0 average, Y=1 peak', () => {
  row(1, 0x01, 0x00, { message: 'MAINTAIN', rate: 'average' });
  row(1, 0x05, 0x00, { message: 'MAINTAIN', rate: 'peak' });
  row(1, 0x01, 0x01, { message: 'REDUCE', rate: 'average', amount: 1, factor: 1 - 1 / 256 });
  row(1, 0x01, 0x02, { message: 'REDUCE', rate: 'average', amount: 2, factor: 1 - 2 / 256 });
  row(1, 0x05, 0xff, { message: 'REDUCE', rate: 'peak', amount: 0xff, factor: 1 / 256 });
});

test('Part 10 §4.3.3 Table 4-5: 0b0000_0Y10 with 0x01–0xFE is INCREASE (1+n/256), 0xFF is DOUBLE; 0x00 is not defined', () => {
  row(1, 0x02, 0x01, { message: 'INCREASE', rate: 'average', amount: 1, factor: 1 + 1 / 256 });
  row(1, 0x06, 0xfe, { message: 'INCREASE', rate: 'peak', amount: 0xfe, factor: 1 + 254 / 256 });
  row(1, 0x02, 0xff, { message: 'DOUBLE', rate: 'average' });
  row(1, 0x06, 0xff, { message: 'DOUBLE', rate: 'peak' });
  row(1, 0x02, 0x00, { message: 'RESERVED', field: 'parameter2' });
  row(1, 0x06, 0x00, { message: 'RESERVED', field: 'parameter2' });
});

test('Part 10 §4.3.3 Table 4-5: rate Q_Status with parameter 1 = 0x03 ("0x00 = Empty" is kept valid)', () => {
  row(1, 0x03, 0x00, { message: 'Q_STATUS', level: 0, fullness: 0 });
  row(1, 0x03, 0xff, { message: 'Q_STATUS', level: 0xff, fullness: 1 });
});

test('Part 10 §4.3.3: "All other parameter 1 values are reserved" (rate: 0x04, 0x07, 0x08 and up)', () => {
  for (const p1 of [0x04, 0x07, 0x08, 0x09, 0x0a, 0x10, 0xff]) row(1, p1, 0x10, { message: 'RESERVED', field: 'parameter1' });
});

test('Part 10 §4.3.4 Table 4-6: credit XOFF, XON, user defined; ALLOCATE 0b0001_nnnn and CREDIT STATUS 0b0010_nnnn', () => {
  row(2, 0x00, 0x00, { message: 'XOFF' });
  row(2, 0x00, 0xff, { message: 'XON' });
  row(2, 0x00, 0x10, { message: 'USER_DEFINED', value: 0x10 });
  row(2, 0x13, 0x10, { message: 'ALLOCATE', allocationUnit: 3, credits: 16 });
  // §3.4.4: "<Q> ALLOCATE <AU> <0> is used to retire an allocation".
  row(2, 0x10, 0x00, { message: 'ALLOCATE', allocationUnit: 0, credits: 0 });
  row(2, 0x2f, 0x02, { message: 'CREDIT_STATUS', allocationUnit: 15, credits: 2 });
  row(2, 0x20, 0xff, { message: 'CREDIT_STATUS', allocationUnit: 0, credits: 255 });
});

test('Part 10 §4.3.4 Table 4-6: credit Queue Status is parameter 1 = 0b0011_0000; other parameter 1 values reserved', () => {
  row(2, 0x30, 0x09, { message: 'Q_STATUS', level: 9, fullness: 9 / 255 });
  for (const p1 of [0x01, 0x03, 0x0f, 0x31, 0x3f, 0x40, 0xff]) row(2, p1, 0, { message: 'RESERVED', field: 'parameter1' });
});

test('Part 10 §4.3 Table 4-3: TM OP 0b0011 is application defined whatever the parameters', () => {
  row(3, 0x00, 0x00, { message: 'APPLICATION_DEFINED' });
  row(3, 0xab, 0xcd, { message: 'APPLICATION_DEFINED' });
});

test('Part 10 §4.3.2–4.3.4: tmParameters rejects messages a TM OP does not define', () => {
  const invalid = (fn: () => unknown): void => {
    assert.throws(fn, (e: unknown) => e instanceof WireError && (e.code === 'invalid' || e.code === 'range'));
  };
  invalid(() => tmParameters(0, { message: 'ALLOCATE', allocationUnit: 1, credits: 1 }));
  invalid(() => tmParameters(2, { message: 'MAINTAIN', rate: 'average' }));
  invalid(() => tmParameters(3, { message: 'XOFF' }));
  invalid(() => tmParameters(1, { message: 'INCREASE', rate: 'peak', amount: 0, factor: 1 }));
  invalid(() => tmParameters(1, { message: 'REDUCE', rate: 'peak', amount: 0, factor: 1 }));
  invalid(() => tmParameters(0, { message: 'USER_DEFINED', value: 0xff }));
  invalid(() => tmParameters(2, { message: 'ALLOCATE', allocationUnit: 16, credits: 1 }));
});

test('Part 10 §4.3.1: the five permitted operands', () => {
  const cases: [number, number, TmOperand][] = [
    [0b000, 0x00, { scope: 'stream' }],
    [0b001, 0x00, { scope: 'class' }],
    [0b001, 0x01, { scope: 'classGroup', cosValues: 2 }],
    [0b001, 0x3f, { scope: 'classGroup', cosValues: 64 }],
    [0b001, 0xff, { scope: 'classGroup', cosValues: 256 }],
    [0b011, 0x00, { scope: 'destination' }],
    [0b111, 0x00, { scope: 'source' }],
  ];
  for (const [wc, mask, want] of cases) {
    assert.deepEqual(tmOperand(wc, mask), want);
    assert.deepEqual(tmOperandFields(want), { wildcard: wc, mask });
  }
});

test('Part 10 §4.3.1: with wc = 011 and 111 the mask is a don\'t care (<m = xx>)', () => {
  assert.deepEqual(tmOperand(0b011, 0x55), { scope: 'destination' });
  assert.deepEqual(tmOperand(0b111, 0xaa), { scope: 'source' });
});

test('Part 10 §4.3.1: "No other combinations … is permitted" — wildcards 010, 100, 101, 110 are invalid', () => {
  for (const wc of [0b010, 0b100, 0b101, 0b110]) assert.deepEqual(tmOperand(wc, 0), { scope: 'INVALID', problem: 'wildcard' });
});

test('Part 10 §4.3 Table 4-3: masks are 0x00, 0x01, 0x03, … 0xFF; others invalid; a specific stream needs mask 0x00', () => {
  const valid = [0x00, 0x01, 0x03, 0x07, 0x0f, 0x1f, 0x3f, 0x7f, 0xff];
  for (let m = 0; m < 256; m++) {
    assert.equal(isValidMask(m), valid.includes(m), `mask 0x${m.toString(16)}`);
    if (!valid.includes(m)) assert.deepEqual(tmOperand(0b001, m), { scope: 'INVALID', problem: 'mask' });
  }
  assert.deepEqual(tmOperand(0b000, 0x01), { scope: 'INVALID', problem: 'mask' });
  assert.throws(() => tmOperandFields({ scope: 'classGroup', cosValues: 3 }), WireError);
  assert.throws(() => tmOperandFields({ scope: 'INVALID', problem: 'mask' }), WireError);
});
