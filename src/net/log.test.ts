import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogCapture, makeLogger } from './log.ts';
import { eventLevel, logSwitchEvent } from './switch-process-log.ts';

test('riodp fabric logs: makeLogger writes JSON lines at or above its level to the destination it is given', () => {
  const cap = new LogCapture();
  const log = makeLogger({ level: 'warn', destination: cap, name: 'switch' });
  log.info({ port: 1 }, 'link-up');
  log.warn({ port: 2 }, 'link-down');
  assert.equal(cap.lines.length, 1);
  assert.deepEqual([cap.lines[0]?.['msg'], cap.lines[0]?.['port'], cap.lines[0]?.['level'], cap.lines[0]?.['name']], ['link-down', 2, 40, 'switch']);
  assert.throws(() => makeLogger({ level: 'loud' as never }), /^RangeError: log level must be one of fatal, error, warn, info, debug, trace, silent$/);
});

test('issue 8 §3 "drops (and counts)": a rejected source is a warning; congestion control (issue 8 §4 "the log shows XOFF/XON") is information', () => {
  const cap = new LogCapture();
  const log = makeLogger({ level: 'info', destination: cap });
  logSwitchEvent(log, 123, { name: 'source-rejected', port: 0, ftype: 11, id: 2 });
  logSwitchEvent(log, 124, { name: 'voq', voqEvent: 'unknown-port', port: 9 });
  assert.deepEqual(cap.lines.map((l) => [l['msg'], l['level'], l['at'], l['id']]), [['source-rejected', 40, 123, 2]]);
  assert.equal(eventLevel({ name: 'ccp-sent', port: 1, congestedPort: 2, command: 'XOFF', destinationID: 1, tgtdestinationID: 2, flowID: '0A' }), 'info');
  assert.equal(eventLevel({ name: 'maintenance-answered', port: 0, sourceID: 1, transaction: 'MAINTENANCE_READ_REQUEST', offset: 0, status: 'ERROR', reason: 'x' }), 'warn');
  assert.equal(eventLevel({ name: 'invalid-input', detail: 'x' }), 'error');
});
