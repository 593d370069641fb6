import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { EngineEvent } from './api-types.ts';
import { startEndpoint } from './endpoint-start.ts';
import { makeLogger } from './log.ts';
import { parseSwitchConfig } from './switch-config.ts';
import { startSwitch } from './switch-process.ts';
import type { RunningSwitch } from './switch-process.ts';
import { testEndpointConfig } from '../../test/support/net-endpoint.ts';

const PROTO = 0x4343;
const DATA3 = { protoID: PROTO, dataHeaderFormat: 'DATA3' as const };

/** A 2-port switch: end point 1 on port 0, 2 on port 1. */
async function fabric(): Promise<{ sw: RunningSwitch; port(p: number): number }> {
  const sw = await startSwitch(
    parseSwitchConfig({
      deviceId: 0x50,
      ports: [{ port: 0, listen: { port: 0 }, accept: [1] }, { port: 1, listen: { port: 0 }, accept: [2] }],
      routes: { 1: 0, 2: 1 },
      log: 'silent',
    }),
    { logger: makeLogger({ level: 'silent' }) },
  );
  return { sw, port: (p) => (sw.addresses.find((x) => x.port === p) as { tcpPort: number }).tcpPort };
}

/**
 * A TCP pipe between an end point and its switch port, standing for the end point's process:
 * `kill` resets both sockets at once (as a kill -9 leaves them: no CLOSE of any kind), `stop`
 * stops moving bytes either way while the sockets stay open (a process that reads nothing).
 */
async function pipe(target: number): Promise<{ port: number; kill(): void; stop(): void; close(): Promise<void> }> {
  const pairs: [Socket, Socket][] = [];
  const server = createServer((inner) => {
    const outer = createConnection({ host: '127.0.0.1', port: target });
    inner.pipe(outer);
    outer.pipe(inner);
    inner.on('error', () => undefined);
    outer.on('error', () => undefined);
    pairs.push([inner, outer]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    kill: () => {
      server.close();
      for (const [a, b] of pairs) {
        a.resetAndDestroy();
        b.resetAndDestroy();
      }
    },
    stop: () => {
      for (const [a, b] of pairs) {
        a.unpipe();
        b.unpipe();
        a.pause();
        b.pause();
      }
    },
    close: async () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => { resolve(); }));
    },
  };
}

function closedCauses(events: EngineEvent[]): unknown[] {
  return events.filter((e) => e.source === 'session' && e.detail['event'] === 'closed').map((e) => e.detail['cause']);
}

test('decision FF4, Part 6 §7.6.10: a peer whose link is reset (kill -9) has its conduit closed with cause peer-lost within about 2 s; it is suspect', async (t) => {
  const f = await fabric();
  const p = await pipe(f.port(1));
  const a = await startEndpoint(testEndpointConfig(1, f.port(0), { protocols: [DATA3], discovery: { targets: [{ node: 2 }] } }));
  const b = await startEndpoint(testEndpointConfig(2, p.port, { protocols: [DATA3], connect: { timeoutMs: 3000, retryMs: 5000, maxRetryMs: 5000 } }));
  const events: EngineEvent[] = [];
  a.onEvent((e) => events.push(e));
  try {
    const c = await a.openConduit({ to: 2, protoID: PROTO });
    await c.send(new Uint8Array([1, 2, 3]));
    const t0 = Date.now();
    p.kill();
    while (closedCauses(events).length < 2 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
    const took = Date.now() - t0;
    t.diagnostic(`closed ${took} ms after the reset`);
    assert.deepEqual(closedCauses(events), ['peer-lost', 'peer-lost'], 'both streams of the conduit');
    assert.ok(took < 2500, `closed after ${took} ms`);
    assert.ok(a.status().peers.some((x) => x.node === 2 && x.suspect), 'node 2 is suspect');
    assert.equal(await c.read(), null);
    await assert.rejects(c.send(new Uint8Array([4])));
  } finally {
    await Promise.all([a.close(), b.close()]);
    await p.close();
    await f.sw.close();
  }
});

test('decision FF4: a peer that reads nothing while its link stays up (a stopped process) is waited for: not lost within 3 s', async () => {
  const f = await fabric();
  const p = await pipe(f.port(1));
  const a = await startEndpoint(testEndpointConfig(1, f.port(0), { protocols: [DATA3], discovery: { targets: [{ node: 2 }] } }));
  const b = await startEndpoint(testEndpointConfig(2, p.port, { protocols: [DATA3] }));
  const events: EngineEvent[] = [];
  a.onEvent((e) => events.push(e));
  try {
    const c = await a.openConduit({ to: 2, protoID: PROTO });
    await c.send(new Uint8Array([1, 2, 3]));
    p.stop();
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual(closedCauses(events), []);
    assert.deepEqual(a.status().streams.map((s) => s.remote), [2]);
    assert.ok(!a.status().peers.some((x) => x.node === 2 && x.suspect));
  } finally {
    await p.close();
    await Promise.all([a.close(), b.close()]);
    await f.sw.close();
  }
});
