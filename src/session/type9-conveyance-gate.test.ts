import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytes } from '../../test/support/type9-segments.ts';
import { carry, feed9, named, node9, pdus } from '../../test/support/type9-link.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import type { Type9ConveyanceInput } from './type9-conveyance-types.ts';
import type { SmpPriority } from './types.ts';

const A = 0x0a;
const B = 0x0b;
const C = 0x0c;
const MGMT = { conveyance: 'type9' as const, streamID: 0xfff0, cos: 0xe0 };

function message(to: number, b: Uint8Array, priority: SmpPriority): Type9ConveyanceInput {
  return { kind: 'send', to, contact: MGMT, priority, bytes: b };
}

function data(to: number, streamID: number, pdu: Uint8Array): Type9ConveyanceInput {
  return { kind: 'send-pdu', to, streamID, cos: 3, pdu };
}

const gate = (destinationID: number, flowID: FlowIdLabel, stopped: boolean): Type9ConveyanceInput => ({ kind: 'gate', destinationID, flowID, stopped });

test('Part 9 §2.4.5 rule 1, Annex 2 §3.7.2: the high-priority pull passes over a gated high flow; the high flow to another destination and the data go on; restarted, the held-back message goes first and arrives whole', () => {
  const a = node9(A, { mtu: 32 });
  const b = node9(B, { mtu: 32 });
  const c = node9(C, { mtu: 32 });
  const toB = bytes(60, 1);
  const toC = bytes(20, 2);
  const pdu = bytes(40, 3);
  feed9(a, message(B, toB, 'high'), 0);
  feed9(a, message(C, toC, 'high'), 0);
  feed9(a, data(B, 7, pdu), 0);
  assert.deepEqual(feed9(a, gate(B, '0C', true), 0), []);
  const order: string[] = [];
  for (let p = feed9(a, { kind: 'pull' }, 0)[0]; p !== undefined; p = feed9(a, { kind: 'pull' }, 0)[0]) {
    order.push(`${p.destinationID}:${p.segment}@${p.prio}`);
    feed9(p.destinationID === B ? b : c, { kind: 'packet', packet: p }, 0);
  }
  assert.deepEqual(order, [`${C}:single@1`, `${B}:start@0`, `${B}:end@0`]);
  assert.deepEqual(pdus(b).map((p) => p.pdu), [pdu]);
  feed9(a, gate(B, '0C', false), 1);
  assert.deepEqual(carry(a, b, 1).map((p) => `${p.segment}@${p.prio}`), ['start@1', 'end@1']);
  assert.deepEqual(pdus(b).map((p) => p.pdu), [pdu, toB]);
  assert.deepEqual(pdus(c).map((p) => p.pdu), [toC]);
});

test('Part 9 §2.4.5 rule 1, Part 10 §3.2.5 rule 1: a data PDU whose flow is gated mid-PDU pauses while the other destination\'s PDU goes; restarted, it ends and reassembles whole', () => {
  const a = node9(A, { mtu: 32 });
  const b = node9(B, { mtu: 32 });
  const c = node9(C, { mtu: 32 });
  const toB = bytes(100, 4);
  const toC = bytes(70, 5);
  feed9(a, data(B, 1, toB), 0);
  assert.deepEqual(carry(a, b, 0, 1).map((p) => p.segment), ['start']);
  feed9(a, gate(B, '0A', true), 0);
  feed9(a, data(C, 1, toC), 0);
  assert.deepEqual(carry(a, c, 0).map((p) => `${p.destinationID}:${p.segment}`), [`${C}:start`, `${C}:continuation`, `${C}:end`]);
  assert.deepEqual(feed9(a, { kind: 'pull', max: 4 }, 0), []);
  assert.equal(a.log.at(-1)?.kind, 'idle');
  feed9(a, gate(B, '0A', false), 1);
  assert.deepEqual(carry(a, b, 1).map((p) => p.segment), ['continuation', 'continuation', 'end']);
  assert.deepEqual([pdus(b).map((p) => p.pdu), pdus(c).map((p) => p.pdu)], [[toB], [toC]]);
  assert.deepEqual(named(a, 'sent').map((e) => e['to']), [C, B]);
  const seg = a.engine.snapshot().segmenter;
  assert.deepEqual(seg.stopped, []);
});

test('riodp engine contract: a gate naming no flow is the conveyance\'s counted invalid-input, never thrown; the snapshot lists the stopped flows', () => {
  const a = node9(A);
  feed9(a, { kind: 'gate', destinationID: B, flowID: 'ZZ', stopped: true } as never, 0);
  feed9(a, { kind: 'gate', destinationID: B, flowID: '0A', stopped: 1 } as never, 0);
  assert.deepEqual(named(a, 'invalid-input').map((e) => e['detail']), [
    `gate: ${B}/"ZZ" stopped true is not a flow and a boolean`,
    `gate: ${B}/"0A" stopped 1 is not a flow and a boolean`,
  ]);
  assert.equal(a.engine.counters().invalidInputs, 2);
  feed9(a, gate(B, '0C', true), 0);
  const snap = JSON.parse(JSON.stringify(a.engine.snapshot())) as { segmenter: { stopped: unknown[] } };
  assert.deepEqual(snap.segmenter.stopped, [{ destinationID: B, flowID: '0C' }]);
});
