import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualTime } from './manual-time.ts';
import { PeerClock } from './peer-clock.ts';
import { TimerDriver } from './timer-driver.ts';

const MS = 1_000_000;

function setup(opts: { silenceNs?: number | null } = {}): { raw: ManualTime; clock: PeerClock; step: (ms: number) => void } {
  const raw = new ManualTime(1_000 * MS);
  const clock = new PeerClock({ raw, tickNs: 50 * MS, stallNs: 500 * MS, ...opts });
  // The tick, as the host's interval would look: every 50 ms of raw time.
  const step = (ms: number): void => {
    for (let i = 0; i < ms / 50; i++) {
      raw.advance(50 * MS);
      clock.now();
    }
  };
  return { raw, clock, step };
}

test('FF2: a running process sees the monotonic clock', () => {
  const { clock, step } = setup();
  const t0 = clock.now();
  step(2_000);
  assert.equal(clock.now() - t0, 2_000 * MS);
  assert.deepEqual(clock.counters(), { stops: 0, stoppedNs: 0, silences: 0, silentNs: 0 });
});

test('FF2: the time a process was stopped is left out, but one tick', () => {
  const { raw, clock, step } = setup();
  step(100);
  const before = clock.now();
  raw.advance(3_000 * MS); // SIGSTOP for 3 s: no look meanwhile
  assert.equal(clock.now() - before, 50 * MS);
  assert.equal(clock.counters().stops, 1);
  assert.equal(clock.counters().stoppedNs, 2_950 * MS);
  step(1_000);
  assert.equal(clock.now() - before, 1_050 * MS);
});

test('FF2: a gap shorter than stallNs is time that passed (a busy event loop)', () => {
  const { raw, clock } = setup();
  const before = clock.now();
  raw.advance(400 * MS);
  assert.equal(clock.now() - before, 400 * MS);
  assert.equal(clock.counters().stops, 0);
});

test('FF2 (Part 6 §6.5.3.2): a watched link silent past silenceNs freezes the clock until heard', () => {
  const { clock, step } = setup();
  clock.watch(true);
  const t0 = clock.now();
  step(300);
  clock.heard();
  clock.now(); // the engine reads the clock for the packet heard
  step(2_000); // the partner stops: 2 s without a status symbol
  assert.equal(clock.now() - t0, 800 * MS, 'frozen 500 ms after the last frame heard');
  clock.heard();
  assert.equal(clock.now() - t0, 800 * MS, 'goes on from where it stood');
  step(100);
  assert.equal(clock.now() - t0, 900 * MS);
  assert.equal(clock.counters().silences, 1);
  assert.equal(clock.counters().silentNs, 1_500 * MS);
});

test('FF2: an unwatched link (paused by the host, or a partner without keepalives) never freezes the clock', () => {
  const { clock, step } = setup();
  const t0 = clock.now();
  step(2_000);
  assert.equal(clock.now() - t0, 2_000 * MS);
  clock.watch(true);
  step(1_000);
  clock.watch(false); // paused: the silence so far is left out, and time runs again
  const t1 = clock.now();
  step(1_000);
  assert.equal(clock.now() - t1, 1_000 * MS);
  assert.equal(t1 - t0, 2_500 * MS);
});

test('FF2: silenceNs null never freezes', () => {
  const { clock, step } = setup({ silenceNs: null });
  clock.watch(true);
  const t0 = clock.now();
  step(2_000);
  assert.equal(clock.now() - t0, 2_000 * MS);
});

test('FF2: a timer due during a stop waits for the input read after it (TimerDriver on the clock)', () => {
  const raw = new ManualTime(0);
  const clock = new PeerClock({ raw, tickNs: 50 * MS, stallNs: 500 * MS });
  const fired: number[] = [];
  const driver = new TimerDriver<string>((_k, _i, now) => fired.push(now), { clock, host: raw });
  driver.apply('engine', { kind: 'timer', name: 'idle', at: clock.now() + 1_000 * MS });
  raw.advance(200 * MS);
  clock.now();
  // Stopped for 5 s: when the process runs again the host timer fires first, finds nothing due
  // (the stop is left out) and re-arms; the input then read pushes the timer back.
  raw.skip(5_000 * MS);
  raw.advance(0);
  assert.deepEqual(fired, []);
  driver.apply('engine', { kind: 'timer', name: 'idle', at: clock.now() + 1_000 * MS });
  for (let i = 0; i < 40; i++) {
    raw.advance(50 * MS);
    clock.now();
  }
  assert.equal(fired.length, 1);
  driver.close();
});

test('FF2: the clock never goes back, and stallNs must exceed tickNs', () => {
  const { raw, clock } = setup();
  clock.watch(true);
  const a = clock.now();
  raw.advance(3_000 * MS);
  const b = clock.now();
  clock.heard();
  assert.ok(clock.now() >= b && b >= a);
  assert.throws(() => new PeerClock({ tickNs: 500 * MS, stallNs: 500 * MS }), /stallNs must be longer than tickNs/);
});

test('FF2: heard() per frame reads no clock; the next look (now() or the tick) takes its time', () => {
  const raw = new ManualTime(1_000 * MS);
  let reads = 0;
  const clock = new PeerClock({ raw: { now: () => { reads++; return raw.now(); } }, tickNs: 50 * MS, stallNs: 500 * MS });
  clock.watch(true);
  const t0 = clock.now();
  raw.advance(2_000 * MS); // silent past silenceNs, and a stop: both left out at the next look
  const before = reads;
  for (let i = 0; i < 1_000; i++) clock.heard();
  assert.equal(reads, before, 'no clock read per frame');
  // The packet's now() takes the time: the same as a heard() that read the clock itself.
  assert.equal(clock.now() - t0, 50 * MS);
  assert.equal(reads, before + 1);
});

test('FF2: a frame with no now() after it (a keepalive) is taken by the next tick, at most one tick late', () => {
  const { raw, clock, step } = setup();
  clock.watch(true);
  const t0 = clock.now();
  step(300);
  raw.advance(20 * MS); // a keepalive arrives 20 ms after the last look …
  clock.heard();
  raw.advance(30 * MS); // … and the tick looks 30 ms later: heard at 350 ms
  clock.now();
  step(2_000);
  assert.equal(clock.now() - t0, 850 * MS, 'frozen 500 ms after the look that took the frame');
  assert.equal(clock.counters().silences, 0, 'not judged until heard again');
  clock.heard(); // a keepalive again: the next look (50 ms later) goes on from where the clock stood
  step(100);
  assert.equal(clock.now() - t0, 900 * MS);
  assert.equal(clock.counters().silences, 1);
});
