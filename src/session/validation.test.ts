import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildStatus, smpBytes, smpFlowControl, smpOpen, smpRequest, STATUS_BIT } from '../wire/smp/index.ts';
import { receive } from './validation.ts';

test('Annex 2 §3.5.2.1: an unassigned <CMD> and a known command with unknown <VER> are rejected in both modes, not as suspect', () => {
  for (const validation of [false, true]) {
    const u = receive(Uint8Array.of(0x0e, 1, 0, 0), validation);
    assert.ok(!u.ok && u.rejection === 'unknown-command' && !u.suspect && !u.isStatus);
    const v = receive(smpBytes(smpOpen({ ver: 3, sourceID: 1, protoID: 1, openMessageNumber: 1 })), validation);
    assert.ok(!v.ok && v.rejection === 'unknown-version' && !v.suspect && v.message?.command === 'OPEN');
    const s = receive(smpBytes(buildStatus({ ver: 0, sourceID: 1, streamID: 1, status: 0 })), validation);
    assert.ok(!s.ok && s.isStatus);
  }
});

test('Annex 2 §4.2.8: octets that are no message are malformed; a malformed STATUS is flagged so it is not answered', () => {
  const r = receive(Uint8Array.of(0x10, 0x01, 0x00), false);
  assert.ok(!r.ok && r.rejection === 'malformed' && r.isStatus && r.message === undefined);
  const e = receive(new Uint8Array(0), false);
  assert.ok(!e.ok && e.rejection === 'malformed' && !e.isStatus);
});

test('Annex 2 §3.8.5: a non-zero reserved field is rejected (sender suspect) only in validation mode', () => {
  const bytes = smpBytes(smpRequest({ sourceID: 1, destID: 2, protoID: 0xffff, rsrv: 1 }));
  assert.ok(receive(bytes, false).ok);
  const strict = receive(bytes, true);
  assert.ok(!strict.ok && strict.rejection === 'validation' && strict.suspect && strict.message?.command === 'REQUEST');
  const st = smpBytes(buildStatus({ sourceID: 1, streamID: 1, status: STATUS_BIT.STREAM_UNKNOWN | STATUS_BIT.ERROR }));
  assert.ok(receive(st, false).ok);
  assert.ok(!receive(st, true).ok);
});

test('Annex 2 §3.7, §3.8.5: invalid values (not reserved ones) are rejected in both modes', () => {
  for (const validation of [false, true]) {
    const fc = receive(smpBytes(smpFlowControl({ flowControl: 0x02, sourceID: 1, streamID: 1, protoID: 1 })), validation);
    assert.ok(!fc.ok && !fc.isStatus);
    const sid = receive(smpBytes(smpFlowControl({ flowControl: 'XON', sourceID: 1, streamID: 0xffff, protoID: 1 })), validation);
    assert.ok(!sid.ok);
    const q = receive(smpBytes(buildStatus({ sourceID: 1, streamID: 1, status: ['REQUEST_STATUS_OF_REMOTE'], contextSpecificData: new Uint8Array(8) })), validation);
    assert.ok(!q.ok && q.isStatus);
  }
  assert.ok(receive(smpBytes(smpFlowControl({ flowControl: 'RTS', sourceID: 1, streamID: 4, protoID: 1 })), true).ok);
});
