import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineLimiter, formatLogLine, parseLogLine, prefixed } from './demo-log.ts';

const ccp = JSON.stringify({ level: 30, time: 1795330866376, pid: 1672, hostname: 'vm', name: 'switch', at: 123456, port: 2, congestedPort: 1, command: 'XOFF', destinationID: 3, tgtdestinationID: 2, flowID: '0A', msg: 'ccp-sent' });

test('issue 8 §4 "the log shows XOFF/XON": a switch ccp-sent line reads as its message and fields, without pino\'s bookkeeping', () => {
  assert.equal(formatLogLine(ccp), 'ccp-sent port=2 congestedPort=1 command=XOFF destinationID=3 tgtdestinationID=2 flowID=0A');
});

test('issue 8 §4: warnings and errors are marked, strings with spaces quoted, objects as JSON', () => {
  const line = JSON.stringify({ level: 40, time: 1, name: 'switch', port: 2, reason: 'lost', text: 'the connection ended', detail: { name: 'congested', occupancy: 9 }, msg: 'link-down' });
  assert.equal(formatLogLine(line), 'WARN link-down port=2 reason=lost text="the connection ended" detail={"name":"congested","occupancy":9}');
  assert.equal(formatLogLine(JSON.stringify({ level: 50, msg: 'send-failed', port: 1 })), 'ERROR send-failed port=1');
});

test('issue 8 §4: a line that is not a pino line (a command\'s own output) is shown as it is', () => {
  for (const text of ['sent a.bin: 10 bytes', '{"id":1,"ok":true}', '{not json', '[1,2]', '']) {
    assert.equal(formatLogLine(text), text);
  }
  assert.equal(parseLogLine('{"msg":3}'), null);
  assert.deepEqual(parseLogLine('{"msg":"x","a":1}'), { msg: 'x', a: 1 });
});

test('issue 8 §4: each line carries the name of its process, names padded to one width', () => {
  assert.equal(prefixed('B', 6, 'flow xoff'), '[B     ] flow xoff');
  assert.equal(prefixed('switch', 6, 'x'), '[switch] x');
});

test('decision: the first lines of each process and message are shown, the others counted, command output never limited', () => {
  const l = new LineLimiter(2);
  const flow = (n: number): string => JSON.stringify({ level: 30, msg: 'flow xoff', n });
  assert.deepEqual([1, 2, 3, 4].map((n) => l.admit('A', flow(n))), [true, true, false, false]);
  assert.equal(l.admit('C', flow(1)), true, 'another process has its own count');
  assert.equal(l.admit('A', JSON.stringify({ level: 30, msg: 'link up' })), true, 'another message has its own count');
  for (let i = 0; i < 5; i++) assert.equal(l.admit('A', `sent file-${i}.bin`), true);
  assert.deepEqual(l.suppressed(), [['A', 'flow xoff', 2]]);
  assert.throws(() => new LineLimiter(-1), /perKey must be a non-negative integer/);
});
