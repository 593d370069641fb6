import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegisterSpace } from '../registers/space.ts';
import { dsControlRegister } from '../registers/data-streaming.ts';
import { OperationsCar, operationsRegister } from '../registers/operations.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import { decodeType9, encodeType9, type9Length } from '../wire/type9.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmIngressConfig } from './tm-types.ts';
import { AUDIO, BULK, EGRESS, INGRESS, OTHER, VIDEO, eventNames, fromEgress, fromIngress, gates, rawFrom, tmOut, tmText } from '../../test/support/tm.ts';

const XOFF = { message: 'XOFF' } as const;
const XON = { message: 'XON' } as const;

function ingress(config: TmIngressConfig = {}): TmIngress {
  return new TmIngress({ localID: INGRESS, queues: [VIDEO, AUDIO, BULK, OTHER], ...config });
}

const V = '33/64';
const A = '33/67';
const B = '33/128';
const O = '7/64';

test('Part 10 §3.4.2, Table 4-4: <Q> XOFF stops the addressed queue and <Q> XON starts it again', () => {
  const e = ingress();
  assert.equal(e.mayTransmit(V), true);
  const off = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) }, 10);
  assert.deepEqual(gates(off), [`${V} closed on-off`]);
  assert.equal(e.mayTransmit(V), false);
  assert.equal(e.mayTransmit(A), true, 'another class keeps going');
  const on = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XON, { cos: 0x40, wildcard: 1 }) }, 20);
  assert.deepEqual(gates(on), [`${V} open on-off`]);
  assert.deepEqual([e.counters().xoff, e.counters().xon], [1, 1]);
});

test('Part 10 §3.4.1 example: "Endpoint 21 sends <cos 3> XOFF to endpoint 6. Endpoint 6 would stop all streams to VSID: DestID 21, class 3"', () => {
  const e = new TmIngress({ localID: 6, queues: [{ destinationID: 21, cos: 3, streamID: 1, flowID: '0A' }, { destinationID: 21, cos: 4, streamID: 1, flowID: '0A' }, { destinationID: 22, cos: 3, streamID: 1, flowID: '0A' }] });
  const p = fromEgress(TM_OP.basic, XOFF, { cos: 3, wildcard: 1 }, undefined, 21);
  assert.deepEqual(gates(e.handle({ kind: 'tm', packet: p }, 0)), ['21/3 closed on-off']);
});

test('Part 10 §3.4.5 rule 6: an XOFF to a <Q> already off and an XON to a <Q> already on are ignored and counted as duplicates', () => {
  const e = ingress();
  const xoff = { kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) } as const;
  e.handle(xoff, 0);
  const dup = e.handle(xoff, 1);
  assert.deepEqual(eventNames(dup), ['duplicate-xoff']);
  assert.deepEqual(gates(dup), []);
  e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XON, { cos: 0x40, wildcard: 1 }) }, 2);
  const dupOn = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XON, { cos: 0x40, wildcard: 1 }) }, 3);
  assert.deepEqual(eventNames(dupOn), ['duplicate-xon']);
  assert.deepEqual([e.counters().duplicateXoff, e.counters().duplicateXon, e.counters().xoff, e.counters().xon], [1, 1, 1, 1]);
  assert.equal(e.mayTransmit(V), true);
});

test('Part 10 §3.4.5 rule 6: duplicates are judged per queue: a class-group XOFF after a class XOFF stops only the queues still on', () => {
  const e = ingress();
  e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) }, 0);
  const out = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1, mask: 0x03 }) }, 1);
  assert.deepEqual(gates(out), [`${A} closed on-off`]);
  assert.deepEqual(out.filter((o) => o.kind === 'event'), [{ kind: 'event', name: 'duplicate-xoff', queue: V }]);
});

test('Part 10 §4.3.1: operand scopes at the ingress: stream, class group (mask 0x03 = 4 classes), destination and all traffic from this source', () => {
  const stream = ingress({ classifier: { granularity: { mode: 'stream' } } });
  assert.deepEqual(gates(stream.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, streamID: 7 }) }, 0)), ['33/64/7 closed on-off']);
  const group = ingress();
  assert.deepEqual(gates(group.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x42, wildcard: 1, mask: 0x03 }) }, 0)), [`${V} closed on-off`, `${A} closed on-off`]);
  const dest = ingress();
  assert.deepEqual(gates(dest.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { wildcard: 0b011, mask: 0x55 }) }, 0)), [`${B} closed on-off`, `${V} closed on-off`, `${A} closed on-off`]);
  const all = ingress();
  assert.deepEqual(gates(all.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { wildcard: 0b111 }) }, 0)).length, 4, 'wc=111: every destination');
});

test('Part 10 §4.3.1 "No other combinations of these fields is permitted": an invalid operand is ignored with an event', () => {
  const e = ingress();
  for (const [wildcard, mask] of [[0b010, 0], [0b000, 0x03], [0b001, 0x05]] as const) {
    const out = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard, mask }) }, 0);
    assert.deepEqual(eventNames(out), ['invalid-operand']);
    assert.deepEqual(gates(out), []);
  }
  assert.equal(e.counters().invalidOperand, 3);
});

test('Part 10 §3.4.5 protocol rule 2: an operand that addresses no queue of the ingress is counted', () => {
  const e = ingress();
  const out = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x10, wildcard: 1 }) }, 0);
  assert.deepEqual(eventNames(out), ['no-queue']);
  assert.equal(e.counters().noQueue, 1);
});

test('Part 10 §3.4.2, Table 4-4: the ingress reports its queue level with Q_STATUS n/255 in the data\'s flow', () => {
  const e = ingress();
  const out = e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 0x80 }, 0);
  const [p] = tmOut(out);
  assert.ok(p !== undefined);
  assert.deepEqual(tmText(out), ['BASIC Q_STATUS 128']);
  // Flow 0D = prio 1, CRF 1 (DECISIONS §3); class queue 64 of destination 33: wc 001, mask 0.
  assert.deepEqual({ dest: p.destinationID, src: p.sourceID, prio: p.prio, crf: p.crf, vc: p.vc, cos: p.cos, streamID: p.streamID, wc: p.wildcard, mask: p.mask },
    { dest: EGRESS, src: INGRESS, prio: 1, crf: 1, vc: 0, cos: 0x40, streamID: 7, wc: 1, mask: 0 });
  assert.deepEqual(tmOut(e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 0x80 }, 1)), [], 'an unchanged level is not re-sent');
  assert.deepEqual(tmText(e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'Q_STATUS' } }, 2)), ['BASIC Q_STATUS 128'], 'rule 5: the ingress may insist');
});

test('Part 10 §3.4.5 protocol rule 1: TM packets encode and decode as Type 9 xh=1 packets', () => {
  const e = ingress();
  const [p] = tmOut(e.handle({ kind: 'queue-level', stream: { target: AUDIO }, level: 0xff }, 0));
  assert.ok(p !== undefined);
  const bytes = new Uint8Array(type9Length(p));
  encodeType9(p, bytes, 0);
  assert.deepEqual(decodeType9(bytes, 0, bytes.length, { strict: true }), p);
});

test('Part 10 §3.4.5 protocol rule 1: with class bins the don\'t-care cos bits and streamID are those of the queue\'s data', () => {
  const e = new TmIngress({ localID: INGRESS, classifier: { granularity: { mode: 'class', cosBits: 2 } } });
  const [p] = tmOut(e.handle({ kind: 'queue-level', stream: { target: AUDIO }, level: 9 }, 0));
  assert.ok(p !== undefined);
  assert.deepEqual({ cos: p.cos, streamID: p.streamID, wc: p.wildcard, mask: p.mask, prio: p.prio, crf: p.crf }, { cos: 0x43, streamID: 9, wc: 1, mask: 0x3f, prio: 0, crf: 1 });
});

test('Part 10 Table 4-4: user defined parameter 2 values reach the application with their raw parameters', () => {
  const e = ingress();
  const out = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, { message: 'USER_DEFINED', value: 0x5a }, { cos: 0x40, wildcard: 1 }) }, 0);
  assert.deepEqual(out, [{ kind: 'event', name: 'user-defined', tmOp: 0, wildcard: 1, mask: 0, parameter1: 0, parameter2: 0x5a, detail: 'from 33 cos 64 streamID 0' }]);
  const app = e.handle({ kind: 'tm', packet: rawFrom(EGRESS, INGRESS, TM_OP.application, 0x12, 0x34, { wildcard: 0b110 }) }, 1);
  assert.deepEqual(eventNames(app), ['application-defined'], 'application messages are surfaced whatever their operand');
  assert.deepEqual([e.counters().userDefined, e.counters().applicationDefined], [1, 1]);
});

test('Part 10 §3.4.5 rule 4: user defined and application messages can be sent from the ingress', () => {
  const e = ingress();
  assert.deepEqual(tmText(e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'USER_DEFINED', tmOp: 0, value: 0x33 } }, 0)), ['BASIC USER_DEFINED 51']);
  const [p] = tmOut(e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'APPLICATION_DEFINED', parameter1: 0xab, parameter2: 0xcd } }, 1));
  assert.deepEqual([p?.tmOpName, p?.parameter1, p?.parameter2], ['APPLICATION', 0xab, 0xcd]);
  const bad = e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'USER_DEFINED', tmOp: 1, value: 3 } }, 2);
  assert.deepEqual(eventNames(bad), ['bad-command'], 'TM OP rate is not used in BASIC mode');
  assert.deepEqual(eventNames(e.handle({ kind: 'command', stream: { target: VIDEO }, command: { message: 'USER_DEFINED', tmOp: 0, value: 0xff } }, 3)), ['bad-command']);
});

test('Part 10 Table 4-4 "All other parameter 1 values are reserved": a reserved message is ignored with an event', () => {
  const e = ingress();
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: rawFrom(EGRESS, INGRESS, TM_OP.basic, 0x07, 0, { wildcard: 1 }) }, 0)), ['reserved-message']);
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: rawFrom(EGRESS, INGRESS, 0x9, 0, 0, { wildcard: 1 }) }, 0)), ['reserved-message']);
  assert.equal(e.counters().reserved, 2);
});

test('Part 10 §3.4.2: Q_STATUS flows ingress to egress: received at the ingress it is ignored with an event', () => {
  const e = ingress();
  const out = e.handle({ kind: 'tm', packet: fromIngress(TM_OP.basic, { message: 'Q_STATUS', level: 3, fullness: 3 / 255 }, { cos: 0x40, wildcard: 1 }, undefined, EGRESS) }, 0);
  assert.deepEqual(eventNames(out), ['wrong-direction']);
});

test('Part 10 §3.4.5 Supported Functionality: messages of a TM OP the mode does not use are ignored with an event', () => {
  const e = ingress({ mode: 'BASIC' });
  const out = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.rate, { message: 'REDUCE', rate: 'average', amount: 8, factor: 0 }, { cos: 0x40, wildcard: 1 }) }, 0);
  assert.deepEqual(eventNames(out), ['op-not-in-mode']);
  const credit = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.credit, XOFF, { cos: 0x40, wildcard: 1 }) }, 0);
  assert.deepEqual(eventNames(credit), ['op-not-in-mode'], 'XOFF of the credit table is a credit message');
  assert.equal(e.isOn(V), true);
});

test('Part 10 §3.4.3: in RATE mode XOFF/XON come in the rate table, and basic-table messages are still honoured', () => {
  const e = ingress({ mode: 'RATE' });
  assert.deepEqual(gates(e.handle({ kind: 'tm', packet: fromEgress(TM_OP.rate, XOFF, { cos: 0x40, wildcard: 1 }) }, 0)), [`${V} closed on-off`]);
  assert.deepEqual(gates(e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XON, { cos: 0x40, wildcard: 1 }) }, 1)), [`${V} open on-off`]);
  assert.deepEqual(tmText(e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 1 }, 2)), ['RATE Q_STATUS 1']);
});

test('Part 10 §3.4.5 rule 1: with TM disabled every TM packet is ignored and nothing is sent', () => {
  const e = ingress({ mode: 'DISABLED' });
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) }, 0)), ['tm-disabled']);
  assert.deepEqual(e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 9 }, 1), []);
  assert.equal(e.mayTransmit(V), true);
});

test('Part 10 §5.5.1 Table 5-6: the mode is read from the Data Streaming Logical Layer Control CSR at every input', () => {
  // TM types 0b1010 (basic + credit) in bits 0-3, mode 0b0001 (basic) in bits 4-7, MTU 0x40.
  const space = new RegisterSpace([dsControlRegister(0xa1000040), operationsRegister(OperationsCar.source, 0x00080000)]);
  const e = ingress({ registers: space });
  assert.equal(e.mode(), 'BASIC');
  space.writeWord(0x48, 0xa3000040);
  const out = e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 4 }, 0);
  assert.equal(e.mode(), 'CREDIT');
  assert.deepEqual(tmText(out), ['CREDIT Q_STATUS 4']);
  assert.deepEqual(gates(out), [`${B} closed mode`, `${V} closed mode`, `${A} closed mode`, `${O} closed mode`], 'no credit yet');
});

test('Part 10 §5.4.1 Table 5-3: without the TM bit in the Source Operations CAR the ingress runs with TM disabled', () => {
  const space = new RegisterSpace([dsControlRegister(0x81000040), operationsRegister(OperationsCar.source, 0)]);
  const e = ingress({ registers: space });
  assert.equal(e.mode(), 'DISABLED');
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) }, 0)), ['tm-disabled']);
});

test('Part 10 §5.5.1 Table 5-6: a user-defined TM mode in the register acts as DISABLED', () => {
  const space = new RegisterSpace([dsControlRegister(0x81000040)]);
  const e = ingress({ registers: space });
  assert.equal(e.mode(), 'BASIC');
  space.writeLocal(0x48, 0x89000040);
  e.handle({ kind: 'queue-level', stream: { target: VIDEO }, level: 4 }, 0);
  assert.equal(e.mode(), 'DISABLED');
});

test('Part 10 §3.4.5 Supported Functionality 4: a mode its types do not support, or registers with mode, is a config error', () => {
  assert.throws(() => new TmIngress({ mode: 'CREDIT', types: 'BASIC_RATE' }), /^RangeError: mode must be supported by types \(CREDIT is not in BASIC_RATE\)$/);
  assert.throws(() => new TmIngress({ mode: 'FAST' as 'BASIC' }), /mode must be one of DISABLED, BASIC, RATE, CREDIT, CREDIT_RATE/);
  assert.throws(() => new TmIngress({ registers: new RegisterSpace([dsControlRegister(0x81000040)]), mode: 'BASIC' }), /mode and types must be absent when registers is given/);
  assert.throws(() => new TmIngress({ registers: new RegisterSpace() }), /registers must define the Data Streaming Logical Layer Control CSR/);
  assert.throws(() => new TmIngress({ amountBits: 0 }), /amountBits must be an integer from 1 to 8/);
  assert.throws(() => new TmIngress({ discard: { mode: 'bound', maxQueued: 0 } }), /discard\.maxQueued must be a positive integer/);
});

test('Part 10 §2.5: PDUs named by application key are classified; a key with no rule is counted', () => {
  const e = new TmIngress({ localID: INGRESS, classifier: { rules: [{ match: { app: 'video' }, target: VIDEO }] } });
  e.handle({ kind: 'pdu-ready', stream: { app: { app: 'video' } }, bytes: 100 }, 0);
  assert.deepEqual(e.queueKeys(), [V]);
  assert.equal(e.queueOf({ app: { app: 'video' } }), V);
  assert.deepEqual(eventNames(e.handle({ kind: 'pdu-ready', stream: { app: { app: 'mail' } }, bytes: 100 }, 1)), ['unclassified']);
  assert.deepEqual(eventNames(e.handle({ kind: 'pdu-ready', stream: { target: { ...VIDEO, cos: 300 } }, bytes: 100 }, 1)), ['bad-command']);
  assert.deepEqual(eventNames(e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 0 }, 1)), ['bad-command']);
});

test('Part 10 §3.4.5 rule 4: the application sending while the gate is closed is counted as a gate violation', () => {
  const e = ingress();
  e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) }, 0);
  e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 64 }, 1);
  const out = e.handle({ kind: 'pdu-sent', stream: { target: VIDEO }, bytes: 64 }, 2);
  assert.deepEqual(out, [{ kind: 'event', name: 'gate-violation', queue: V, detail: 'on-off' }]);
  assert.deepEqual(eventNames(e.handle({ kind: 'pdu-sent', stream: { target: AUDIO }, bytes: 64 }, 3)), ['nothing-ready']);
});

test('Part 10 §3.4.5 rule 4: "The ingress may discard traffic should the egress not adequately permit that traffic": the bound policy', () => {
  const e = ingress({ discard: { mode: 'bound', maxQueued: 2 } });
  for (let i = 0; i < 3; i++) e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 64 }, i);
  assert.equal(e.counters().discarded, 0, 'the gate is open: nothing is discarded');
  e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, XOFF, { cos: 0x40, wildcard: 1 }) }, 3);
  assert.deepEqual(eventNames(e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 64 }, 4)), ['pdu-discarded']);
  assert.equal(e.counters().discarded, 1);
  assert.equal(ingress().handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 64 }, 0).length, 0, 'default policy: none');
});

test('Part 10 §3.4: snapshot and counters are plain data', () => {
  const e = ingress();
  e.handle({ kind: 'pdu-ready', stream: { target: VIDEO }, bytes: 64 }, 0);
  const snap = JSON.parse(JSON.stringify(e.snapshot())) as { queues: { key: string; ready: number }[]; mode: { mode: string } };
  assert.equal(snap.mode.mode, 'BASIC');
  assert.deepEqual(snap.queues.map((q) => [q.key, q.ready]), [[B, 0], [V, 1], [A, 0], [O, 0]]);
  const c = e.counters();
  c.pdusReady = 99;
  assert.equal(e.counters().pdusReady, 1, 'counters() is a copy');
});
