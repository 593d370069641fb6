import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dsControlRegister } from '../registers/data-streaming.ts';
import { OperationsCar, operationsRegister } from '../registers/operations.ts';
import { RegisterSpace } from '../registers/space.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import { TmEgress } from './tm-egress.ts';
import type { TmEgressConfig } from './tm-types.ts';
import type { TmDesignation } from './tm-operand-match.ts';
import { EGRESS, INGRESS, eventNames, fromEgress, fromIngress, rawFrom, tmOut, tmText } from '../../test/support/tm.ts';

function egress(config: TmEgressConfig = {}): TmEgress {
  return new TmEgress({ localID: EGRESS, ...config });
}

const CLASS_40: TmDesignation = { peer: INGRESS, cos: 0x40, streamID: 7, wildcard: 1, mask: 0 };
const qs = (level: number, o = { cos: 0x40, streamID: 7, wildcard: 1 }) => ({ kind: 'tm', packet: fromIngress(TM_OP.basic, { message: 'Q_STATUS', level, fullness: level / 255 }, o) }) as const;
const level = (l: number, cos = 0x40) => ({ kind: 'queue-level', sourceID: INGRESS, cos, streamID: 7, level: l }) as const;

test('Part 10 §3.4.2, Table 4-4: the egress takes Q_STATUS n/255 from the ingress and keeps the level per designation', () => {
  const e = egress();
  const out = e.handle(qs(0x80), 0);
  assert.deepEqual(out, [{ kind: 'event', name: 'q-status', designation: '6|class|64', level: 0x80 }]);
  assert.equal(e.ingressLevel(CLASS_40), 0x80);
  assert.equal(e.ingressLevel({ ...CLASS_40, streamID: 99 }), 0x80, 'the streamID of a class operand is a don\'t care');
  assert.equal(e.counters().qStatus, 1);
});

test('Part 10 §3.4.2: XOFF and XON flow egress to ingress: received at the egress they are ignored with an event', () => {
  const e = egress();
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, { message: 'XOFF' }, { wildcard: 1 }, undefined, INGRESS) }, 0)), ['wrong-direction']);
  assert.equal(e.counters().wrongDirection, 1);
});

test('Part 10 Table 4-4: a user defined message from the ingress reaches the application with its raw parameters', () => {
  const e = egress();
  const out = e.handle({ kind: 'tm', packet: fromIngress(TM_OP.basic, { message: 'USER_DEFINED', value: 0x21 }, { cos: 5, wildcard: 1 }) }, 0);
  assert.deepEqual(out, [{ kind: 'event', name: 'user-defined', tmOp: 0, wildcard: 1, mask: 0, parameter1: 0, parameter2: 0x21, detail: 'from 6 cos 5 streamID 0' }]);
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: rawFrom(INGRESS, EGRESS, TM_OP.application, 1, 2) }, 0)), ['application-defined']);
});

test('Part 10 §3.4.2: default policy: XOFF at the high watermark of the egress\'s own queue, XON at the low one, each once', () => {
  const e = egress({ policy: { onOff: { high: 200, low: 100 } } });
  assert.deepEqual(e.handle(level(150), 0), []);
  const off = e.handle(level(200), 1);
  assert.deepEqual(tmText(off), ['BASIC XOFF']);
  const [p] = tmOut(off);
  // Own queues are source ID + cos (§3.3): the operand is that class, sent to the ingress.
  assert.deepEqual([p?.destinationID, p?.sourceID, p?.cos, p?.wildcard, p?.mask], [INGRESS, EGRESS, 0x40, 1, 0]);
  assert.equal(e.isOff(CLASS_40), true);
  assert.deepEqual(e.handle(level(250), 2), [], 'already off: no second XOFF');
  assert.deepEqual(e.handle(level(101), 3), []);
  assert.deepEqual(tmText(e.handle(level(100), 4)), ['BASIC XON']);
  assert.deepEqual(e.handle(level(0), 5), [], 'already on: no second XON');
  assert.deepEqual([e.counters().xoffSent, e.counters().xonSent], [1, 1]);
});

test('Part 10 §3.3: with 2 cos bins the egress XOFFs its bin as a class group (mask 0x7f)', () => {
  const e = egress({ granularity: { mode: 'class', cosBits: 1 }, policy: { onOff: { high: 10, low: 5 } } });
  const [p] = tmOut(e.handle(level(10, 0x43), 0));
  assert.deepEqual([p?.cos, p?.streamID, p?.wildcard, p?.mask], [0x43, 7, 1, 0x7f]);
});

test('Part 10 §3.4.5 protocol rule 1: the egress sends its messages in the flow the data came in', () => {
  const e = egress({ policy: { onOff: { high: 10, low: 5 } } });
  e.handle({ kind: 'pdu', sourceID: INGRESS, cos: 0x40, streamID: 7, flow: { prio: 2, crf: 1, vc: 0 } }, 0);
  const [p] = tmOut(e.handle(level(10), 1));
  assert.deepEqual([p?.prio, p?.crf, p?.vc], [2, 1, 0]);
  const other = egress({ defaultFlow: '0C' });
  const [q] = tmOut(other.handle({ kind: 'command', to: CLASS_40, command: { message: 'XOFF' } }, 0));
  assert.deepEqual([q?.prio, q?.crf], [1, 0], 'no data seen: the default flow 0C');
  other.handle({ kind: 'tm', packet: fromIngress(TM_OP.basic, { message: 'Q_STATUS', level: 1, fullness: 0 }, { cos: 0x40, wildcard: 1 }, { prio: 1, crf: 1, vc: 0 }) }, 1);
  const [r] = tmOut(other.handle({ kind: 'command', to: CLASS_40, command: { message: 'XON' } }, 2));
  assert.deepEqual([r?.prio, r?.crf], [1, 1], 'the flow of the ingress\'s messages about the same traffic');
});

test('Part 10 §3.4.5 rule 6: the egress may repeat an XOFF on command (recovery of a lost message)', () => {
  const e = egress();
  const cmd = { kind: 'command', to: CLASS_40, command: { message: 'XOFF' } } as const;
  assert.deepEqual(tmText(e.handle(cmd, 0)), ['BASIC XOFF']);
  assert.deepEqual(tmText(e.handle(cmd, 1)), ['BASIC XOFF']);
});

test('Part 10 §3.4.5 rule 4: user defined and application messages can be sent from the egress', () => {
  const e = egress();
  assert.deepEqual(tmText(e.handle({ kind: 'command', to: CLASS_40, command: { message: 'USER_DEFINED', tmOp: 0, value: 9 } }, 0)), ['BASIC USER_DEFINED 9']);
  const [p] = tmOut(e.handle({ kind: 'command', to: CLASS_40, command: { message: 'APPLICATION_DEFINED', parameter1: 1, parameter2: 2 } }, 0));
  assert.deepEqual([p?.tmOp, p?.parameter1, p?.parameter2], [3, 1, 2]);
});

test('Part 10 §3.4.5 Supported Functionality: commands of a TM OP the mode does not use, or out of range, are refused with an event', () => {
  const e = egress({ mode: 'BASIC' });
  assert.deepEqual(eventNames(e.handle({ kind: 'command', to: CLASS_40, command: { message: 'REDUCE', rate: 'average', amount: 4 } }, 0)), ['bad-command']);
  assert.deepEqual(eventNames(e.handle({ kind: 'command', to: CLASS_40, command: { message: 'ALLOCATE', credits: 4 } }, 0)), ['bad-command']);
  assert.deepEqual(eventNames(e.handle({ kind: 'command', to: { ...CLASS_40, wildcard: 2 }, command: { message: 'XOFF' } }, 0)), ['bad-command']);
  const credit = egress({ mode: 'CREDIT' });
  assert.deepEqual(eventNames(credit.handle({ kind: 'command', to: CLASS_40, command: { message: 'ALLOCATE', credits: 0 } }, 0)), ['bad-command'], 'ALLOCATE 0 is RETIRE');
  assert.equal(credit.counters().badCommand, 1);
});

test('Part 10 §3.4.5 Supported Functionality: received messages of a TM OP the mode does not use are ignored with an event', () => {
  const e = egress({ mode: 'BASIC' });
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: fromIngress(TM_OP.credit, { message: 'CREDIT_STATUS', allocationUnit: 0, credits: 4 }, { wildcard: 1 }) }, 0)), ['op-not-in-mode']);
  assert.deepEqual(eventNames(egress({ mode: 'DISABLED' }).handle(qs(1), 0)), ['tm-disabled']);
});

test('Part 10 §4.3.1: an invalid operand from the ingress is ignored with an event', () => {
  const e = egress();
  assert.deepEqual(eventNames(e.handle(qs(4, { cos: 0, streamID: 0, wildcard: 0b101 }), 0)), ['invalid-operand']);
});

test('Part 10 §5.4.2 Table 5-4, §5.5.1: the egress reads its mode from the registers, with the Destination Operations CAR', () => {
  const space = new RegisterSpace([dsControlRegister(0xc2000040), operationsRegister(OperationsCar.destination, 0x00080000)]);
  const e = egress({ registers: space });
  assert.equal(e.mode(), 'RATE');
  space.writeLocal(0x1c, 0);
  e.handle(qs(1), 0);
  assert.equal(e.mode(), 'DISABLED');
});

test('Part 10 §3.4: egress config is checked field by field', () => {
  assert.throws(() => egress({ policy: { onOff: { high: 10, low: 10 } } }), /^RangeError: policy\.onOff\.low must be an integer from 0 to 9$/);
  assert.throws(() => egress({ policy: { credit: { credits: 16, auCount: 1, maxOutstanding: 1, lowCredits: 2 } } }), /policy\.credit\.auCount must be an integer from 2 to 16/);
  assert.throws(() => egress({ policy: { credit: { credits: 16, auCount: 4, maxOutstanding: 5, lowCredits: 2 } } }), /policy\.credit\.maxOutstanding must be an integer from 1 to 4/);
  assert.throws(() => egress({ policy: { rate: { high: 100, low: 50, reduce: 0, increase: 1 } } }), /policy\.rate\.reduce must be an integer from 1 to 255/);
  assert.throws(() => egress({ levelBits: 9 }), /levelBits must be an integer from 1 to 8/);
  assert.throws(() => egress({ localID: 256 }), /localID must be an integer from 0 to 255/);
});

test('Part 10 §3.4: egress snapshot is plain data', () => {
  const e = egress();
  e.handle(qs(3), 0);
  e.handle(level(250), 1);
  const snap = JSON.parse(JSON.stringify(e.snapshot())) as { ingressLevels: unknown[]; off: string[] };
  assert.deepEqual(snap.ingressLevels, [{ designation: '6|class|64', level: 3 }]);
  assert.deepEqual(snap.off, ['6|class|64']);
});
