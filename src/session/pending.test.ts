import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TimerOutput } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { smpClose, smpBytes } from '../wire/smp/index.ts';
import { PendingTable, pendingOfTimer, pendingTimer } from './pending.ts';
import type { Pending } from './pending.ts';

function entry(started: number, retry: number, timeout: number): Pending {
  const message = smpClose({ sourceID: 1, destID: 2, streamID: 3 });
  return {
    key: 'close/2/tx/3', to: 2, contact: { conveyance: 'type11', mailbox: 2 }, priority: 'high', message, bytes: smpBytes(message),
    started, retry, timeout, what: { command: 'CLOSE', stream: { remote: 2, direction: 'tx', streamID: 3 } }, sends: 1,
  };
}

test('Annex 2 §3.7.1, §3.5.3.4-5: a request is retried every retry period and judged failed at the timeout period', () => {
  const timers = new Timers();
  const t = new PendingTable(timers);
  const out: TimerOutput[] = [];
  t.add(entry(0, 250, 1000), out);
  const fired: string[] = [];
  for (let guard = 0; guard < 10; guard++) {
    const at = timers.deadline(pendingTimer('close/2/tx/3'));
    if (at === undefined || !timers.expire(pendingTimer('close/2/tx/3'), at)) break;
    const r = t.fire('close/2/tx/3', at, out);
    fired.push(`${r?.outcome ?? 'none'}@${at}`);
    if (r?.outcome === 'timeout') break;
  }
  assert.deepEqual(fired, ['retry@250', 'retry@500', 'retry@750', 'timeout@1000']);
  assert.equal(t.get('close/2/tx/3'), undefined);
});

test('Annex 2 §3.7.1: a timeout shorter than the retry period fails the request without a retry; an answer cancels the timer', () => {
  const timers = new Timers();
  const t = new PendingTable(timers);
  const out: TimerOutput[] = [];
  t.add(entry(10, 500, 200), out);
  assert.deepEqual(out, [{ kind: 'timer', name: 'retry:close/2/tx/3', at: 210 }]);
  assert.equal(t.fire('close/2/tx/3', 210, out)?.outcome, 'timeout');
  t.add(entry(0, 250, 1000), out);
  assert.equal(t.resolve('close/2/tx/3', out)?.key, 'close/2/tx/3');
  assert.deepEqual(out.at(-1), { kind: 'timer', name: 'retry:close/2/tx/3', at: null });
  assert.equal(t.resolve('close/2/tx/3', out), undefined);
  assert.equal(pendingOfTimer('retry:open/7'), 'open/7');
  assert.equal(pendingOfTimer('xon:1/tx/2'), undefined);
});
