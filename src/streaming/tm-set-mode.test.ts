import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dsControlRegister } from '../registers/data-streaming.ts';
import { RegisterSpace } from '../registers/space.ts';
import { TM_OP } from '../wire/type9-tm.ts';
import { TmEgress } from './tm-egress.ts';
import { TmIngress } from './tm-ingress.ts';
import type { TmIngressConfig } from './tm-types.ts';
import { AUDIO, EGRESS, INGRESS, VIDEO, eventNames, fromEgress, fromIngress, gates, tmText } from '../../test/support/tm.ts';

/**
 * `set-mode` (TmSetModeInput): a write of the TM Mode field (Part 10 §5.5.1 Table 5-6) given to
 * engines configured with `mode`, as `set-mtu` gives the MTU to the segmenter and reassembler.
 */

const V = '33/64';
const A = '33/67';
const CLASS_V = { cos: 0x40, streamID: 7, wildcard: 1 } as const;

function ingress(config: TmIngressConfig = {}): TmIngress {
  return new TmIngress({ localID: INGRESS, queues: [VIDEO, AUDIO], ...config });
}

const ready = (target = VIDEO) => ({ kind: 'pdu-ready', stream: { target }, bytes: 64 }) as const;
const sent = (target = VIDEO) => ({ kind: 'pdu-sent', stream: { target }, bytes: 64 }) as const;
const xoff = { kind: 'tm', packet: fromEgress(TM_OP.basic, { message: 'XOFF' }, CLASS_V) } as const;

test('Part 10 §5.5.1 Table 5-6 TM Mode, §3.4.4 (decision 26): set-mode BASIC → CREDIT closes every queue without credit (reason mode) and a queue with PDUs asks for credit; the PDUs stay queued', () => {
  const e = ingress({ types: 'BASIC_CREDIT' });
  e.handle(ready(), 0);
  e.handle(ready(), 0);
  assert.equal(e.mayTransmit(V), true);
  const out = e.handle({ kind: 'set-mode', mode: 'CREDIT' }, 1);
  assert.equal(e.mode(), 'CREDIT');
  assert.deepEqual(gates(out), [`${V} closed mode`, `${A} closed mode`]);
  assert.deepEqual(tmText(out), ['CREDIT Q_STATUS 1'], '§3.4.4 Queue Status "get attention for a queue that has become active, needing credits"');
  assert.equal(e.queueState(V)?.ready, 2);
  // The egress's ALLOCATE is now taken: the queue opens with its credit.
  const allocated = e.handle({ kind: 'tm', packet: fromEgress(TM_OP.credit, { message: 'ALLOCATE', allocationUnit: 0, credits: 4 }, CLASS_V) }, 2);
  assert.deepEqual(gates(allocated), [`${V} open credit`]);
  assert.deepEqual(e.snapshot().mode, { from: 'config', mode: 'CREDIT', types: 'BASIC_CREDIT' });
});

test('Part 10 §5.5.1 Table 5-6 TM Mode, §3.4.5 rule 4 (decision 26): the state is kept across a mode change: an XOFF stays in force, credits held come back with the credit mode', () => {
  const e = ingress({ mode: 'CREDIT', types: 'BASIC_CREDIT', lowCredits: 0 });
  e.handle(ready(), 0);
  e.handle({ kind: 'tm', packet: fromEgress(TM_OP.credit, { message: 'ALLOCATE', allocationUnit: 0, credits: 3 }, CLASS_V) }, 1);
  e.handle(sent(), 2);
  assert.deepEqual(gates(e.handle({ kind: 'set-mode', mode: 'BASIC' }, 3)), [`${A} open mode`], 'the audio queue was held for credit only');
  // In BASIC a PDU takes no credit; the XOFF of the basic table still stops the queue.
  e.handle(ready(), 4);
  e.handle(sent(), 4);
  assert.deepEqual(gates(e.handle(xoff, 5)), [`${V} closed on-off`]);
  assert.deepEqual(gates(e.handle({ kind: 'set-mode', mode: 'CREDIT' }, 6)), [`${A} closed mode`], 'still off: an ingress "shall not overrule a TM directive from the egress"');
  assert.equal(e.isOn(V), false);
  assert.deepEqual(e.creditContexts().map((c) => c.current?.remaining), [2], 'the AU opened before keeps the 2 credits left');
});

test('Part 10 §3.4.5 Supported Functionality rule 1, §5.5.1 Table 5-6 (decision 26): set-mode DISABLED opens every gate and TM packets are ignored; set-mode back re-applies what was kept', () => {
  const e = ingress();
  e.handle(xoff, 0);
  assert.deepEqual(gates(e.handle({ kind: 'set-mode', mode: 'DISABLED' }, 1)), [`${V} open mode`]);
  assert.deepEqual(eventNames(e.handle({ kind: 'tm', packet: fromEgress(TM_OP.basic, { message: 'XON' }, CLASS_V) }, 2)), ['tm-disabled']);
  assert.deepEqual(gates(e.handle({ kind: 'set-mode', mode: 'BASIC' }, 3)), [`${V} closed mode`]);
});

test('Part 10 §3.4.5 rule 4 "Any supported modes shall be supported fully", §5.5.1 TM Types Supported (read only): set-mode to a mode the types do not support, to no mode, or to an engine reading its registers is refused with bad-command and changes nothing', () => {
  const e = ingress({ types: 'BASIC_RATE' });
  for (const mode of ['CREDIT', 'CREDIT_RATE', 'FAST'] as const) {
    const out = e.handle({ kind: 'set-mode', mode: mode as 'CREDIT' }, 0);
    assert.deepEqual(eventNames(out), ['bad-command'], mode);
    assert.equal(e.mode(), 'BASIC');
  }
  assert.equal(e.counters().badCommand, 3);
  const r = new TmIngress({ localID: INGRESS, registers: new RegisterSpace([dsControlRegister(0xe1000040)]) });
  const out = r.handle({ kind: 'set-mode', mode: 'RATE' }, 0);
  assert.match(JSON.stringify(out), /reads its mode from the registers/);
  assert.equal(r.mode(), 'BASIC');
  const g = new TmEgress({ localID: EGRESS, types: 'BASIC' });
  assert.deepEqual(eventNames(g.handle({ kind: 'set-mode', mode: 'RATE' }, 0)), ['bad-command']);
  assert.equal(g.mode(), 'BASIC');
});

test('Part 10 §5.5.1 Table 5-6 TM Mode (decision 26): the egress takes set-mode: messages of the old mode\'s TM OP are then ignored (op-not-in-mode), the new mode\'s taken', () => {
  const g = new TmEgress({ localID: EGRESS, types: 'BASIC_RATE_CREDIT' });
  const qsCredit = { kind: 'tm', packet: fromIngress(TM_OP.credit, { message: 'Q_STATUS', level: 9, fullness: 9 / 255 }, CLASS_V) } as const;
  assert.deepEqual(eventNames(g.handle(qsCredit, 0)), ['op-not-in-mode']);
  assert.deepEqual(g.handle({ kind: 'set-mode', mode: 'CREDIT' }, 1), []);
  assert.equal(g.mode(), 'CREDIT');
  assert.deepEqual(tmText(g.handle(qsCredit, 2)), ['CREDIT ALLOCATE 0 16'], 'the default policy answers a credit Q_STATUS with an allocation');
  assert.deepEqual(g.snapshot().mode, { from: 'config', mode: 'CREDIT', types: 'BASIC_RATE_CREDIT' });
});
