import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logEngineOutput } from './endpoint-log.ts';
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
