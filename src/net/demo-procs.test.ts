import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DemoError, DemoTimeout, Supervisor } from './demo-procs.ts';
import type { ProcLine } from './demo-procs.ts';
import { alive } from '../../test/support/alive.ts';

/** A supervisor whose children are `node -e SCRIPT`. */
function supervisor(): { sup: Supervisor; seen: [string, ProcLine][] } {
  const seen: [string, ProcLine][] = [];
  const sup = new Supervisor({ command: process.execPath, baseArgs: ['-e'], onLine: (name, l) => seen.push([name, l]) });
  return { sup, seen };
}

/** A child that runs until killed, or until the test process is gone (a killed test run leaves no orphan). */
const SLEEP = 'const p = process.ppid; setInterval(() => { if (process.ppid !== p) process.exit(0); }, 100); console.log("ready");';

test('issue 8 §4 "each process\'s log lines prefixed with its name": both streams of a child come out as lines under its name, in order', async () => {
  const { sup, seen } = supervisor();
  const p = sup.start('echo', ['console.log("one"); console.error("two"); process.stdout.write("three")']);
  const exit = await sup.waitExit(p, 10_000, 'end of echo');
  assert.deepEqual(exit, { code: 0, signal: null });
  const texts = seen.filter(([n]) => n === 'echo').map(([, l]) => `${l.stream}:${l.text}`).sort();
  assert.deepEqual(texts, ['stderr:two', 'stdout:one', 'stdout:three'], 'a last line without a newline is a line too');
  assert.equal(p.lines.length, 3);
});

test('issue 8 §4: a wait finds a line already there or one still to come, and names what it waited for when the deadline passes', async () => {
  const { sup } = supervisor();
  try {
    const p = sup.start('late', ['console.log("early"); setTimeout(() => console.log("late"), 200); setTimeout(() => {}, 3000);']);
    assert.equal((await sup.waitLine(p, (l) => l.text === 'late', 10_000, 'the late line')).text, 'late');
    assert.equal((await sup.waitLine(p, (l) => l.text === 'early', 10_000, 'the early line')).text, 'early');
    await assert.rejects(sup.waitLine(p, (l) => l.text === 'early', 300, 'second early line', p.lines.length), (e: unknown) => e instanceof DemoTimeout && e.message === 'no second early line within 0.3 s');
  } finally {
    await sup.stopAll(2000);
  }
});

test('decision: a service that exits on its own fails every wait at once with one line naming it', async () => {
  const { sup } = supervisor();
  const other = sup.start('other', [SLEEP]);
  try {
    await sup.waitLine(other, (l) => l.text === 'ready', 10_000, 'other ready');
    const started = Date.now();
    const waiting = sup.waitLine(other, () => false, 30_000, 'a line that never comes');
    sup.start('switch', ['setTimeout(() => process.exit(3), 100)'], { service: true });
    await assert.rejects(waiting, (e: unknown) => e instanceof DemoError && e.message === 'switch exited with code 3 while the demo needed it');
    assert.ok(Date.now() - started < 20_000, 'failed before the deadline');
    assert.throws(() => sup.start('late', [SLEEP]), /switch exited with code 3/);
    await assert.rejects(sup.sleep(10), /switch exited with code 3/);
  } finally {
    await sup.stopAll(2000);
  }
  assert.equal(alive(other.pid), false);
});

test('decision: a service stopped on purpose (kill) does not fail the demo', async () => {
  const { sup } = supervisor();
  try {
    const svc = sup.start('C', [SLEEP], { service: true });
    const keep = sup.start('B', [SLEEP], { service: true });
    await sup.waitLine(svc, (l) => l.text === 'ready', 10_000, 'C ready');
    sup.kill(svc, 'SIGKILL');
    assert.deepEqual(await sup.waitExit(svc, 10_000, 'end of C'), { code: null, signal: 'SIGKILL' });
    await sup.sleep(50);
    assert.equal((await sup.waitLine(keep, (l) => l.text === 'ready', 10_000, 'B ready')).text, 'ready');
  } finally {
    await sup.stopAll(2000);
  }
});

test('issue 8 §4 "kills every child process on any exit": stopAll ends stopped children and ones that ignore SIGTERM', async () => {
  const { sup } = supervisor();
  const polite = sup.start('polite', [SLEEP], { service: true });
  const stopped = sup.start('stopped', [SLEEP], { service: true });
  const stubborn = sup.start('stubborn', [`process.on("SIGTERM", () => {}); ${SLEEP}`], { service: true });
  try {
    for (const p of [polite, stopped, stubborn]) await sup.waitLine(p, (l) => l.text === 'ready', 10_000, `${p.name} ready`);
    sup.kill(stopped, 'SIGSTOP');
  } finally {
    await sup.stopAll(500);
  }
  assert.deepEqual([polite.exit?.signal, stopped.exit?.signal, stubborn.exit?.signal], ['SIGTERM', 'SIGTERM', 'SIGKILL']);
  for (const p of [polite, stopped, stubborn]) assert.equal(alive(p.pid), false, p.name);
  assert.throws(() => sup.start('after', [SLEEP]), /the demo is stopping/);
});

test('issue 8 §4: killAllNow sends SIGKILL to every child synchronously (for process exit)', async () => {
  const { sup } = supervisor();
  const a = sup.start('a', [SLEEP]);
  try {
    await sup.waitLine(a, (l) => l.text === 'ready', 10_000, 'a ready');
  } finally {
    sup.killAllNow();
  }
  assert.deepEqual(await a.exited, { code: null, signal: 'SIGKILL' });
});
