import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logEngineOutput, logFlowChange } from './endpoint-log.ts';
import { LogCapture, makeLogger } from './log.ts';

test('issue 8 §4 "the log shows XOFF/XON": FLOW_CONTROL XOFF and XON of a stream and Part 9 flow changes are logged at info; other events only at debug', () => {
  const cap = new LogCapture();
  const log = makeLogger({ level: 'info', destination: cap });
  const stream = { remote: 2, direction: 'tx', streamID: 0x10 } as const;
  logEngineOutput(log, { kind: 'event', source: 'session', at: 5, detail: { event: 'xoff', stream } });
  logEngineOutput(log, { kind: 'event', source: 'session', at: 6, detail: { event: 'xon', stream } });
  logEngineOutput(log, { kind: 'flow-state', at: 7, destinationID: 3, flowID: '0A', state: 'xoff', cause: 'xoff' });
  logEngineOutput(log, { kind: 'event', source: 'type9', at: 8, detail: { name: 'sent', unit: 'pdu', to: 2, streamID: 0x10, cos: 0, length: 5 } });
  assert.deepEqual(cap.lines.map((l) => [l['msg'], l['stream'] ?? l['flowID']]), [['xoff', 'tx 2/0x10'], ['xon', 'tx 2/0x10'], ['flow xoff', '0A']]);
  const dbg = new LogCapture();
  logEngineOutput(makeLogger({ level: 'debug', destination: dbg }), { kind: 'event', source: 'type9', at: 8, detail: { name: 'sent', unit: 'pdu', to: 2, streamID: 0x10, cos: 0, length: 5 } });
  assert.deepEqual(dbg.lines.map((l) => [l['msg'], l['level'], l['source']]), [['sent', 20, 'type9']]);
});

test('Annex 2 §4.2.6 (receive side): the XOFF and XON an end point sends are logged at info as `xoff sent` / `xon sent`, a stalled stream at warn, the link held and released only at debug', () => {
  const cap = new LogCapture();
  const log = makeLogger({ level: 'info', destination: cap });
  const stream = { remote: 1, direction: 'rx', streamID: 0x1362 } as const;
  logFlowChange(log, { kind: 'session-rx', at: 1, stream, state: 'xoff', cause: 'buffer' });
  logFlowChange(log, { kind: 'rx-link', at: 2, stream, state: 'held' });
  logFlowChange(log, { kind: 'rx-link', at: 3, stream, state: 'stalled' });
  logFlowChange(log, { kind: 'rx-link', at: 4, stream, state: 'released' });
  logFlowChange(log, { kind: 'session-rx', at: 5, stream, state: 'xon', cause: 'buffer' });
  // Part 9 changes are logged from the engine's flow-state output (logEngineOutput), not twice.
  logFlowChange(log, { kind: 'part9', at: 6, destinationID: 2, flowID: '0A', state: 'xoff', cause: 'xoff' });
  assert.deepEqual(cap.lines.map((l) => [l['msg'], l['level'], l['stream']]), [
    ['xoff sent', 30, 'rx 1/0x1362'],
    ['receive stalled: the application does not read; PDUs beyond api.rxLimit are dropped', 40, 'rx 1/0x1362'],
    ['xon sent', 30, 'rx 1/0x1362'],
  ]);
  const dbg = new LogCapture();
  logFlowChange(makeLogger({ level: 'debug', destination: dbg }), { kind: 'rx-link', at: 2, stream, state: 'held' });
  assert.deepEqual(dbg.lines.map((l) => [l['msg'], l['level']]), [['receive held', 20]]);
});
