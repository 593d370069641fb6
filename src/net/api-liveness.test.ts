import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIVENESS_TIMER, PeerLiveness } from './api-liveness.ts';
import type { FabricEndpointInput } from './endpoint-engine.ts';
import { startEndpoint } from './endpoint-start.ts';
import { MS, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';

const DATA3 = { protoID: 0x4242, dataHeaderFormat: 'DATA3' as const };

function fake(remotes: number[]): { live: PeerLiveness; posted: FabricEndpointInput[]; timers: (number | null)[]; at: { now: number } } {
  const posted: FabricEndpointInput[] = [];
  const timers: (number | null)[] = [];
  const at = { now: 0 };
  const live = new PeerLiveness(
    {
      post: (i) => posted.push(i),
      setTimer: (name, t) => {
        assert.equal(name, LIVENESS_TIMER);
        timers.push(t);
      },
      now: () => at.now,
      remotes: () => new Set(remotes),
    },
    10,
  );
  return { live, posted, timers, at };
}

test('Annex 2 §3.8.3 (decision EA18): every verifyIdleMs, the nodes with open streams heard nothing from during the whole period are verified; the others are not', () => {
  const f = fake([2, 3]);
  f.live.heard(2);
  f.live.heard(3);
  assert.deepEqual(f.timers, [10 * MS], 'one timer, armed by the first packet heard');
  f.at.now = 10 * MS;
  assert.equal(f.live.timer(LIVENESS_TIMER), true);
  assert.deepEqual(f.posted, [], 'both heard during the period');
  assert.deepEqual(f.timers.at(-1), 20 * MS);
  f.at.now = 14 * MS;
  f.live.heard(3);
  f.at.now = 20 * MS;
  f.live.timer(LIVENESS_TIMER);
  assert.deepEqual(f.posted, [{ kind: 'verify', node: 2 }], 'node 3 was heard at 14 ms');
  f.at.now = 30 * MS;
  f.live.timer(LIVENESS_TIMER);
  assert.deepEqual(f.posted.slice(1), [{ kind: 'verify', node: 2 }, { kind: 'verify', node: 3 }]);
  assert.equal(f.timers.length, 4, 'one timer per period, none per packet');
  assert.equal(f.live.timer('other'), false);
});

test('decision EA18: verifyIdleMs null checks nothing and arms no timer', () => {
  const timers: unknown[] = [];
  const live = new PeerLiveness({ post: () => assert.fail('no verify'), setTimer: (_n, t) => timers.push(t), now: () => 0, remotes: () => new Set([2]) }, null);
  live.heard(2);
  assert.equal(live.timer(LIVENESS_TIMER), true);
  assert.deepEqual(timers, []);
});

test('issue 8 §3 "its streams reported closed", Annex 2 §3.7.1: a peer that goes silent between two PDUs has its streams closed (status-timeout) and is suspect; a live idle peer keeps them', async () => {
  const relay = await startRelay([1, 2]);
  const more = { protocols: [DATA3], session: { retryPeriod: 100 * MS, timeoutPeriod: 1000 * MS }, api: { verifyIdleMs: 200 } };
  const [a, b] = await Promise.all([
    startEndpoint(testEndpointConfig(1, relay.port(1), { ...more, discovery: { targets: [{ node: 2 }] } })),
    startEndpoint(testEndpointConfig(2, relay.port(2), { ...more, discovery: { targets: [{ node: 1 }] } })),
  ]);
  try {
    const s = await a.openStream({ to: 2, protoID: DATA3.protoID });
    await s.send(new Uint8Array([1, 2, 3]));
    // Idle but alive: verified a few times, answered, kept.
    await new Promise((r) => setTimeout(r, 900));
    assert.deepEqual(a.status().streams.map((x) => x.remote), [2]);
    // B stops answering between two PDUs: nothing of it arrives any more.
    relay.hold = (p) => 'sourceID' in p && p.sourceID === 2;
    await until(() => a.status().streams.length === 0, 8000, 'A closing its stream to B');
    assert.ok(a.status().peers.some((p) => p.node === 2 && p.suspect), 'B is suspect');
    await assert.rejects(s.send(new Uint8Array([4])));
  } finally {
    relay.hold = null;
    await Promise.all([a.close(), b.close()]);
    await relay.close();
  }
});
