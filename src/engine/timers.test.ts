import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Timers } from './timers.ts';
import type { TimerOutput } from './contract.ts';

test('engine contract: arm asks the driver for a timer and expire fires it once when due', () => {
  const t = new Timers<'a'>();
  const out: TimerOutput<'a'>[] = [];
  t.arm('a', 100, out);
  assert.deepEqual(out, [{ kind: 'timer', name: 'a', at: 100 }]);
  assert.equal(t.expire('a', 99), false, 'not due yet');
  assert.equal(t.expire('a', 100), true);
  assert.equal(t.expire('a', 100), false, 'a second delivery is stale');
});

test('engine contract: a cancelled or re-armed timer ignores the stale expiry', () => {
  const t = new Timers<'a' | 'b'>();
  const out: TimerOutput<'a' | 'b'>[] = [];
  t.arm('a', 10, out);
  t.cancel('a', out);
  assert.deepEqual(out[1], { kind: 'timer', name: 'a', at: null });
  assert.equal(t.expire('a', 10), false);
  t.cancel('a', out);
  assert.equal(out.length, 2, 'cancelling an idle timer asks nothing of the driver');
  t.arm('b', 10, out);
  t.arm('b', 30, out);
  assert.equal(t.expire('b', 10), false, 'the expiry of the replaced deadline is stale');
  assert.equal(t.deadline('b'), 30);
  t.arm('a', 5, out);
  assert.deepEqual(t.pending(), [{ name: 'a', at: 5 }, { name: 'b', at: 30 }]);
  assert.equal(t.isArmed('b'), true);
});
