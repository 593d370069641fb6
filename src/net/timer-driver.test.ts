import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Time, TimerInput, TimerOutput } from '../engine/contract.ts';
import { Timers } from '../engine/timers.ts';
import { MonotonicClock, nodeScheduler } from './clock.ts';
import { ManualTime } from './manual-time.ts';
import { TimerDriver } from './timer-driver.ts';

interface Fired {
  readonly key: string;
  readonly name: string;
  readonly now: Time;
}

function setup(start = 0): { time: ManualTime; driver: TimerDriver<string>; fired: Fired[] } {
  const time = new ManualTime(start);
  const fired: Fired[] = [];
  const driver = new TimerDriver<string>((key, input, now) => fired.push({ key, name: input.name, now }), { clock: time, host: time });
  return { time, driver, fired };
}

const arm = (name: string, at: Time | null): TimerOutput => ({ kind: 'timer', name, at });

test('engine contract, issue 8 §1: an engine timer expires at its time with { kind: "timer", name } and the clock reading', () => {
  const { time, driver, fired } = setup();
  driver.apply('a', arm('retry', 5_000));
  time.advance(4_999);
  assert.deepEqual(fired, []);
  time.advance(1);
  assert.deepEqual(fired, [{ key: 'a', name: 'retry', now: 5_000 }]);
  assert.equal(driver.size, 0);
  assert.equal(time.pending, 0);
});

test('engine contract: a new request for the same (engine, name) replaces the pending one; the same name on another engine is another timer', () => {
  const { time, driver, fired } = setup();
  driver.apply('a', arm('t', 100));
  driver.apply('a', arm('t', 300));
  driver.apply('b', arm('t', 200));
  time.advance(1_000);
  assert.deepEqual(fired, [
    { key: 'b', name: 't', now: 200 },
    { key: 'a', name: 't', now: 300 },
  ]);
});

test('engine contract: at null cancels; cancelling what is not armed does nothing', () => {
  const { time, driver, fired } = setup();
  driver.apply('a', arm('t', 100));
  driver.apply('a', arm('t', null));
  driver.apply('a', arm('other', null));
  time.advance(1_000);
  assert.deepEqual(fired, []);
  assert.equal(time.pending, 0);
});

test('issue 8 §1 "through one driver": however many engines and timers, one host timer is pending, set for the earliest expiry', () => {
  const { time, driver } = setup();
  for (let e = 0; e < 10; e++) for (let n = 0; n < 3; n++) driver.apply(`e${e}`, arm(`t${n}`, 1_000 + 37 * e + 11 * n));
  assert.equal(driver.size, 30);
  assert.equal(time.pending, 1);
  assert.equal(time.next(), 1_000);
  driver.apply('x', arm('early', 10));
  assert.equal(time.pending, 1);
  assert.equal(time.next(), 10);
  time.advance(500);
  assert.equal(time.pending, 1);
  assert.equal(time.next(), 1_000);
});

test('engine contract: a timer pushed back on every packet does not move the host timer; it fires early, finds nothing due and re-arms', () => {
  const { time, driver, fired } = setup();
  driver.apply('a', arm('idle', 1_000));
  for (let t = 100; t <= 900; t += 100) {
    time.advance(100);
    driver.apply('a', arm('idle', t + 1_000));
    assert.equal(time.next(), 1_000);
  }
  time.advance(100);
  assert.deepEqual(fired, []);
  assert.equal(time.next(), 1_900);
  time.advance(900);
  assert.deepEqual(fired, [{ key: 'a', name: 'idle', now: 1_900 }]);
});

test('engine contract: a host late by several expiries delivers them all in (at, request) order with the same now', () => {
  const { time, driver, fired } = setup();
  driver.apply('a', arm('x', 30));
  driver.apply('b', arm('y', 10));
  driver.apply('c', arm('z', 30));
  time.skip(50);
  time.advance(0);
  assert.deepEqual(fired, [
    { key: 'b', name: 'y', now: 50 },
    { key: 'a', name: 'x', now: 50 },
    { key: 'c', name: 'z', now: 50 },
  ]);
});

test('engine contract: a time already past expires on the next turn, also when requested from an expiry callback', () => {
  const time = new ManualTime(1_000);
  const fired: string[] = [];
  const driver: TimerDriver<string> = new TimerDriver<string>(
    (key, input, now) => {
      fired.push(`${input.name}@${now}`);
      if (input.name === 'first') driver.apply(key, arm('again', now - 5));
    },
    { clock: time, host: time },
  );
  driver.apply('a', arm('first', 900));
  assert.deepEqual(fired, [], 'nothing runs inside apply');
  assert.equal(time.next(), 1_000);
  time.advance(0);
  assert.deepEqual(fired, ['first@1000', 'again@1000']);
});

test('engine contract: with the Timers helper, a stale expiry (re-armed later while the host was late) is ignored by the engine', () => {
  const time = new ManualTime();
  const timers = new Timers<'t'>();
  const acted: Time[] = [];
  const out: TimerOutput[] = [];
  const driver = new TimerDriver<string>(
    (_k, input: TimerInput, now) => {
      if (timers.expire(input.name as 't', now)) acted.push(now);
    },
    { clock: time, host: time },
  );
  timers.arm('t', 100, out);
  driver.applyAll('e', out.splice(0));
  time.advance(100);
  assert.deepEqual(acted, [100]);
  timers.arm('t', 300, out);
  driver.applyAll('e', [...out.splice(0), { kind: 'packet' }]);
  timers.cancel('t', out);
  driver.applyAll('e', out.splice(0));
  time.advance(1_000);
  assert.deepEqual(acted, [100]);
});

test('issue 8 §1: cancelAll drops every timer of one engine and leaves the others', () => {
  const { time, driver, fired } = setup();
  driver.apply('gone', arm('a', 10));
  driver.apply('gone', arm('b', 20));
  driver.apply('kept', arm('a', 30));
  driver.cancelAll('gone');
  driver.cancelAll('never-seen');
  assert.deepEqual(driver.pending(), [{ key: 'kept', name: 'a', at: 30 }]);
  time.advance(100);
  assert.deepEqual(fired, [{ key: 'kept', name: 'a', now: 30 }]);
});

test('issue 8 §1: pending() lists timers earliest first, ties in request order, per engine when asked', () => {
  const { driver } = setup();
  driver.apply('a', arm('late', 50));
  driver.apply('b', arm('tie1', 20));
  driver.apply('a', arm('tie2', 20));
  assert.deepEqual(
    driver.pending().map((p) => `${p.key}.${p.name}@${p.at}`),
    ['b.tie1@20', 'a.tie2@20', 'a.late@50'],
  );
  assert.deepEqual(driver.pending('a').map((p) => p.name), ['tie2', 'late']);
});

test('issue 8 §1: close() clears the host timer; nothing expires afterwards and requests are ignored', () => {
  const { time, driver, fired } = setup();
  driver.apply('a', arm('t', 10));
  driver.close();
  assert.equal(time.pending, 0);
  driver.apply('a', arm('t', 20));
  time.advance(100);
  assert.deepEqual(fired, []);
  assert.equal(driver.size, 0);
});

test('issue 8 §1: closing from an expiry callback stops the expiries still due', () => {
  const time = new ManualTime();
  const fired: string[] = [];
  const driver: TimerDriver<string> = new TimerDriver<string>(
    (_k, input) => {
      fired.push(input.name);
      driver.close();
    },
    { clock: time, host: time },
  );
  driver.apply('a', arm('one', 10));
  driver.apply('a', arm('two', 10));
  time.advance(10);
  assert.deepEqual(fired, ['one']);
  assert.equal(time.pending, 0);
});

test('engine contract "Time is a non-negative safe integer": a request with another at is refused with a RangeError', () => {
  const { driver } = setup();
  assert.throws(() => { driver.apply('a', arm('t', -1)); }, /^RangeError: timer t: at must be a non-negative integer or null$/);
  assert.throws(() => { driver.apply('a', arm('t', 1.5)); }, RangeError);
  assert.throws(() => { driver.apply('a', arm('t', Number.NaN)); }, RangeError);
});

test('issue 8 §1: on the real clock a 20 ms timer expires no earlier than its time, on Node timers unref\'d when asked', async () => {
  const clock = new MonotonicClock();
  const host = nodeScheduler({ unref: true });
  const seen: Time[] = [];
  const done = new Promise<void>((resolve) => {
    const driver = new TimerDriver<string>(
      (_k, _i, now) => {
        seen.push(now);
        driver.close();
        resolve();
      },
      { clock, host },
    );
    driver.apply('a', arm('t', clock.now() + 20_000_000));
  });
  // The unref'd host timer alone would let the process exit: this ref'd one keeps the test alive.
  const guard = setTimeout(() => undefined, 5_000);
  await done;
  clearTimeout(guard);
  assert.equal(seen.length, 1);
  assert.ok(seen[0]! >= 20_000_000, `expired at ${seen[0]} ns`);
});
