import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';
import { ConnectError, connect } from './connect.ts';

test('issue 8 §3: connecting to an address that is not loopback without tls is refused before any connection', async () => {
  await assert.rejects(connect({ host: '192.0.2.1', port: 4000 }), /^RangeError: host must be a loopback address \(127\.0\.0\.0\/8 or ::1\) to connect to 192\.0\.2\.1 without tls/);
  await assert.rejects(connect({ port: 0 }), /^RangeError: port must be a positive integer$/);
  await assert.rejects(connect({ port: 4000, connectTimeoutMs: 0 }), /^RangeError: connectTimeoutMs must be a positive integer$/);
  await assert.rejects(connect({ port: 4000, sendBatchBytes: 1 }), /^RangeError: sendBatchBytes/);
});

test('riodp link §4.1: a port nobody listens on rejects with a ConnectError carrying the cause', async () => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  const err: unknown = await connect({ port }).then(
    () => assert.fail('connected'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ConnectError);
  assert.equal(err.name, 'ConnectError');
  assert.equal(err.closed, null);
  assert.match(err.message, /^cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
});

test('riodp link §4.1: a listener that never sends HELLO makes connect reject once helloTimeoutMs has passed', async (ctx) => {
  const accepted: Socket[] = [];
  const server = createServer((s: Socket) => {
    s.on('error', () => undefined);
    accepted.push(s);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  ctx.after(async () => {
    for (const s of accepted) s.destroy();
    await new Promise((r) => server.close(r));
  });
  const err: unknown = await connect({ port: (server.address() as AddressInfo).port, helloTimeoutMs: 50, closeTimeoutMs: 50 }).then(
    () => assert.fail('connected'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ConnectError);
  assert.equal(err.closed?.reasonName, 'protocol');
  assert.match(err.message, /closed before it opened: protocol no HELLO within 50 ms/);
});
