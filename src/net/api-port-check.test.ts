import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSwitchRegisters, setPortLink } from '../node/switch/registers.ts';
import { RouteTable } from '../node/switch/routes.ts';
import type { RegisterSpace } from '../registers/space.ts';
import { PORT_CHECK_TIMER, PeerPortCheck } from './api-port-check.ts';
import type { FabricEndpointInput } from './endpoint-engine.ts';

const MS = 1_000_000;
const PERIOD = 1000;

interface Fake {
  check: PeerPortCheck;
  space: RegisterSpace;
  lpSerialBase: number;
  posted: FabricEndpointInput[];
  ops: string[];
  at: { now: number };
  /** Requests held instead of answered (to see one check in flight). */
  held: (() => void)[];
  hold: { on: boolean; fail: boolean };
  remotes: Set<number>;
  tickAt(ms: number): Promise<void>;
}

const kinds = (f: Fake): string[] => f.posted.map((p) => p.kind);

/** A switch of 4 ports (node 2 on port 1, node 3 on port 2), its register space answering the check's hop 0 requests. */
function fake(opts: { switchRegs?: boolean } = {}): Fake {
  const routes = new RouteTable(4, 0xffff, new Map([[2, 1], [3, 2]]), 0xff);
  const { space, lpSerialBase } = buildSwitchRegisters({ ports: 4, tt: 1, deviceId: 0x50, routes, flowControl: false });
  for (let p = 0; p < 4; p++) setPortLink(space, lpSerialBase, p, true);
  const posted: FabricEndpointInput[] = [];
  const ops: string[] = [];
  const at = { now: 0 };
  const held: (() => void)[] = [];
  const hold = { on: false, fail: false };
  const remotes = new Set<number>([2, 3]);
  const answer = <T>(op: string, f: () => T): Promise<T> => {
    ops.push(op);
    if (hold.fail) return Promise.reject(new Error('no MAINTENANCE response within 1000 ms'));
    if (!hold.on) return Promise.resolve(f());
    return new Promise<T>((resolve) => held.push(() => { resolve(f()); }));
  };
  const check = new PeerPortCheck(
    {
      post: (i) => posted.push(i),
      setTimer: (name) => { assert.equal(name, PORT_CHECK_TIMER); },
      now: () => at.now,
      remotes: () => remotes,
      tt: 1,
      read: (o) => answer(`r${o.toString(16)}`, () => (opts.switchRegs === false ? 0 : space.readWord(o))),
      write: (o, v) => answer(`w${o.toString(16)}=${v.toString(16)}`, () => { space.writeWord(o, v); }),
    },
    PERIOD,
  );
  const tickAt = async (ms: number): Promise<void> => {
    at.now = ms * MS;
    assert.equal(check.timer(PORT_CHECK_TIMER), true);
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return { check, space, lpSerialBase, posted, ops, at, held, hold, remotes, tickAt };
}

test('decision FF4, Part 6 §7.6.10: a node silent for a whole peerCheckMs is checked at its switch port; Port Uninitialized ⇒ peer-lost at once', async () => {
  const f = fake();
  f.check.heard(2);
  f.check.heard(3);
  await f.tickAt(500);
  assert.deepEqual(f.ops, [], 'heard in the last period');
  f.check.heard(3);
  await f.tickAt(1000);
  assert.deepEqual(f.ops, [], 'node 2 heard in the window [0, 500 ms): not silent for a whole period yet');
  setPortLink(f.space, f.lpSerialBase, 1, false);
  await f.tickAt(1500);
  // Switch (PE Features, PortTotal, EF list), route (Part 3 §3.5.5–§3.5.6), then Port 1 Error and Status.
  assert.deepEqual(f.ops, ['r10', 'r14', 'rc', `r${f.lpSerialBase.toString(16)}`, 'w70=2', 'r74', 'r70', `r${(f.lpSerialBase + 0x58 + 0x20).toString(16)}`]);
  assert.deepEqual(f.posted, [{ kind: 'peer-lost', node: 2, reason: 'switch port 1 uninitialized (Part 6 §7.6.10)' }]);
});

test('decision FF4: Port OK ⇒ the peer is alive (maybe stopped) and is waited for; the switch and the route are read once, the port once per period', async () => {
  const f = fake();
  f.check.heard(2);
  f.check.heard(3);
  for (let t = 500; t <= 5500; t += 500) await f.tickAt(t);
  assert.deepEqual(f.posted, []);
  const es = (port: number): string => `r${(f.lpSerialBase + 0x58 + 0x20 * port).toString(16)}`;
  assert.equal(f.ops.filter((o) => o === 'r10').length, 1, 'the switch is looked at once');
  assert.deepEqual(f.ops.filter((o) => o.startsWith('w70')).sort(), ['w70=2', 'w70=3']);
  // Silent since the window [0, 500 ms): checks at 1500, 2500, ... 5500 ms, one per node and period, never per half period.
  assert.equal(f.ops.filter((o) => o === es(1)).length, 5);
  assert.equal(f.ops.filter((o) => o === es(2)).length, 5);
  assert.equal(f.check.counts.ok, 10);
});

test('decision FF4: one check per node in flight: a node whose check is unanswered is not checked again meanwhile', async () => {
  const f = fake();
  f.remotes.delete(3);
  f.check.heard(2);
  f.hold.on = true;
  for (const t of [500, 1000, 1500]) await f.tickAt(t);
  assert.equal(f.ops.length, 1);
  assert.equal(f.check.busy(2), true);
  for (const t of [2000, 2500, 3000, 3500]) await f.tickAt(t);
  assert.equal(f.ops.length, 1, 'still the one request in flight');
  f.hold.on = false;
  while (f.held.length > 0) {
    (f.held.shift() as () => void)();
    for (let i = 0; i < 20; i++) await Promise.resolve();
  }
  assert.equal(f.check.busy(2), false);
  assert.deepEqual(f.posted, []);
});

test('decision FF4: a failed read decides nothing (the STATUS verification stays the fallback), and the next period tries again', async () => {
  const f = fake();
  f.remotes.delete(3);
  f.check.heard(2);
  f.hold.fail = true;
  for (const t of [500, 1000, 1500]) await f.tickAt(t);
  assert.deepEqual(f.posted, []);
  assert.equal(f.check.counts.failed, 1);
  f.hold.fail = false;
  setPortLink(f.space, f.lpSerialBase, 1, false);
  await f.tickAt(2000);
  assert.deepEqual(f.posted, [], 'one check per period');
  await f.tickAt(2500);
  assert.deepEqual(kinds(f), ['peer-lost']);
});

test('decision FF4: a switch without the registers (no Switch bit, no LP-Serial block) is not asked again for a while; nothing is decided', async () => {
  const f = fake({ switchRegs: false });
  f.remotes.delete(3);
  f.check.heard(2);
  for (let t = 500; t <= 5000; t += 500) await f.tickAt(t);
  assert.deepEqual(f.ops, ['r10']);
  assert.deepEqual(f.posted, []);
});

test('decision FF4: a route select changed by another host between the write and the read-back fails the lookup, which is done again', async () => {
  const f = fake();
  f.remotes.delete(3);
  f.check.heard(2);
  setPortLink(f.space, f.lpSerialBase, 1, false);
  let meddled = false;
  f.space.subscribe((ch) => {
    if (ch.offset === 0x70 && ch.value === 2 && !meddled) {
      meddled = true;
      queueMicrotask(() => { f.space.writeWord(0x70, 3); });
    }
  });
  for (const t of [500, 1000, 1500]) await f.tickAt(t);
  assert.deepEqual(f.posted, []);
  assert.equal(f.check.counts.failed, 1);
  await f.tickAt(2000);
  await f.tickAt(2500);
  assert.deepEqual(kinds(f), ['peer-lost']);
});

test('decision FF4: peerCheckMs null checks nothing and arms no timer', () => {
  const timers: unknown[] = [];
  const check = new PeerPortCheck({ post: () => assert.fail('no check'), setTimer: (_n, t) => timers.push(t), now: () => 0, remotes: () => new Set([2]), tt: 1, read: () => assert.fail('no read'), write: () => assert.fail('no write') }, null);
  check.heard(2);
  assert.equal(check.timer(PORT_CHECK_TIMER), true);
  assert.deepEqual(timers, []);
});
