import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smpBytes, smpClose, smpOpen } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';
import { prioritise, priorityOf } from './outbox.ts';
import type { SessionOutput } from './types.ts';

const send = (message: SmpMessage): SessionOutput => ({ kind: 'send', to: 2, contact: { conveyance: 'type11', mailbox: 2 }, priority: priorityOf(message), message, bytes: smpBytes(message) });

test('Annex 2 §3.7.2: ACCEPT, CLOSE, FLOW_CONTROL and STATUS are high priority; OPEN, REQUEST, ADVERTISE, REFUSE, DATA and USERDEFINED normal', () => {
  const high = ['ACCEPT', 'CLOSE', 'FLOW_CONTROL', 'STATUS'];
  const normal = ['OPEN', 'REQUEST', 'ADVERTISE', 'REFUSE', 'DATA', 'DATA1', 'DATA2', 'USERDEFINED'];
  for (const c of high) assert.equal(priorityOf({ command: c } as SmpMessage), 'high', c);
  for (const c of normal) assert.equal(priorityOf({ command: c } as SmpMessage), 'normal', c);
});

test('Annex 2 §3.7.2: within one input the high-priority sends move ahead of the normal ones; everything else keeps its place', () => {
  const open = send(smpOpen({ sourceID: 1, protoID: 1, openMessageNumber: 1 }));
  const close = send(smpClose({ sourceID: 1, destID: 2, streamID: 3 }));
  const pdu: SessionOutput = { kind: 'send-pdu', to: 2, streamID: 3, cos: 0, pdu: Uint8Array.of(1) };
  const ev: SessionOutput = { kind: 'event', at: 0, detail: { event: 'xon', stream: { remote: 2, direction: 'tx', streamID: 3 } } };
  const timer: SessionOutput = { kind: 'timer', name: 't', at: 5 };
  assert.deepEqual(prioritise([open, ev, pdu, timer, close]), [close, ev, open, timer, pdu]);
  const ordered = [close, open];
  assert.equal(prioritise(ordered), ordered);
});
