import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { riodp } from '../support/spawn.ts';
import { connect, listening, startServe } from '../support/serve-client.ts';
import type { Json } from '../support/serve-client.ts';

/**
 * `riodp serve` as testbenches run it (issue 18 item 3): the real command, over stdin and stdout
 * and over --listen (loopback TCP, Unix socket), several clients at once.
 */
const DOORBELL_HEX = '001a0001ffff0000deaf9903';
const CCP_XOFF_0C = '01c712340004b0f2';

test('issue 18 item 3: riodp serve --help documents the protocol and every op; riodp --help lists serve', () => {
  const r = riodp(['serve', '--help']);
  assert.equal(r.status, 0);
  for (const op of ['ping', 'create', 'input', 'snapshot', 'counters', 'delete', 'list', 'describe', 'decode', 'encode']) {
    assert.match(r.stdout, new RegExp(`"op":"${op}"`), op);
  }
  assert.match(r.stdout, /--listen <address>/);
  assert.match(riodp(['--help']).stdout, /^ {2}serve \[options\]/m);
});

test('issue 18 item 3: over stdin, one request at a time and pipelined; every response carries its id, in request order; stdin\'s end ends the server with exit 0', async () => {
  const p = startServe();
  const ping = await p.stdio.ask({ id: 'p', op: 'ping' });
  assert.equal(ping['ok'], true);
  assert.equal(ping['protocol'], 'riodp-serve/1');
  const created = await p.stdio.ask({ id: 1, op: 'create', instance: 'ep', engine: 'ccp-endpoint' });
  assert.equal((created['header'] as Json)['engine'], 'ccp-endpoint');
  const xoff = await p.stdio.ask({ id: 2, op: 'input', instance: 'ep', t: 10, input: { kind: 'ccp', packet: CCP_XOFF_0C } });
  assert.deepEqual((xoff['outputs'] as Json[])[0], { t: 10, kind: 'flow', destinationID: 52, flowID: '0A', enabled: false, cause: 'xoff' });
  // 300 requests in one write, a bad one among them.
  const reqs: unknown[] = [];
  for (let i = 0; i < 300; i++) reqs.push(i === 150 ? '{"id":150,"op":"decode","hex":"00"}' : { id: 1000 + i, op: 'decode', hex: DOORBELL_HEX });
  p.stdio.send(...reqs);
  for (let i = 0; i < 300; i++) {
    const r = await p.stdio.next();
    assert.ok(r !== null);
    assert.equal(r['id'], i === 150 ? 150 : 1000 + i);
    assert.equal(r['ok'], i !== 150);
  }
  p.child.stdin.end();
  assert.equal(await p.exited, 0);
  assert.equal(p.stderr(), '');
});

test('issue 18 item 3: a line too long is an error response with id null, and the next request is answered; bad JSON does not end the server', async () => {
  const p = startServe(['--max-line', '200']);
  p.stdio.send(`{"id":1,"op":"decode","hex":"${'00'.repeat(2000)}"}`, 'garbage', { id: 2, op: 'ping' });
  assert.deepEqual(await p.stdio.next(), { id: null, ok: false, code: 'line-too-long', error: 'line longer than 200 bytes: dropped up to its newline (--max-line)' });
  assert.equal((await p.stdio.next())?.['code'], 'json');
  assert.equal((await p.stdio.next())?.['id'], 2);
  p.child.stdin.end();
  assert.equal(await p.exited, 0);
});

test('issue 18 item 3: --listen 127.0.0.1:0 prints the bound address; two TCP clients and stdin at once, each with instances of its own; SIGTERM exits 0', async () => {
  const p = startServe(['--listen', '127.0.0.1:0']);
  const address = await listening(p);
  assert.match(address, /^127\.0\.0\.1:\d+$/);
  assert.doesNotMatch(address, /:0$/);
  const a = await connect(address);
  const b = await connect(address);
  for (const [c, period] of [[a.client, 5000], [b.client, 7000]] as const) {
    assert.equal((await c.ask({ id: 1, op: 'create', instance: 'ep', engine: 'ccp-endpoint', config: { orphanPeriod: period } }))['ok'], true);
  }
  // Pipelined from both clients at once.
  a.client.send({ id: 2, op: 'input', instance: 'ep', t: 0, input: { kind: 'ccp', packet: CCP_XOFF_0C } }, { id: 3, op: 'snapshot', instance: 'ep' });
  b.client.send({ id: 2, op: 'input', instance: 'ep', t: 0, input: { kind: 'ccp', packet: CCP_XOFF_0C } }, { id: 3, op: 'snapshot', instance: 'ep' });
  for (const [c, at] of [[a.client, 5000], [b.client, 7000]] as const) {
    assert.equal((await c.next())?.['id'], 2);
    const snap = await c.next();
    assert.equal(snap?.['id'], 3);
    assert.deepEqual(snap['pending'], [{ name: 'orphan', at }]);
  }
  assert.equal((await p.stdio.ask({ id: 's', op: 'snapshot', instance: 'ep' }))['code'], 'instance');
  assert.deepEqual(await p.stdio.ask({ id: 'd', op: 'decode', hex: DOORBELL_HEX }), await a.client.ask({ id: 'd', op: 'decode', hex: DOORBELL_HEX }));
  // A client that goes away mid-line leaves the others served.
  const c = await connect(address);
  c.client.send('{"id":1,"op":"pi');
  c.close();
  assert.equal((await b.client.ask({ id: 4, op: 'ping' }))['ok'], true);
  a.close();
  b.close();
  p.child.kill('SIGTERM');
  assert.equal(await p.exited, 0);
});

test('issue 18 item 3: --listen on a Unix socket path: mode 0600, served, removed on SIGINT', { skip: process.platform === 'win32' }, async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'riodp-serve-')), 'serve.sock');
  const p = startServe(['--listen', path]);
  assert.equal(await listening(p), path);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const a = await connect(path);
  assert.equal((await a.client.ask({ id: 1, op: 'encode', value: { ackID: 0, vc: 0, crf: 0, prio: 0, tt: 1, ftype: 10, destinationID: 1, sourceID: 65535, srcTID: 0, info: 57007 } }))['hex'], DOORBELL_HEX);
  a.close();
  p.child.kill('SIGINT');
  assert.equal(await p.exited, 0);
  assert.equal(existsSync(path), false);
});

test('issue 18 item 3: --listen on a path that is a file, or a socket another server answers on, exits 1 and leaves it alone; a stale socket file is replaced', { skip: process.platform === 'win32' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-serve-'));
  const file = join(dir, 'notes.txt');
  writeFileSync(file, 'keep me');
  const r = riodp(['serve', '--listen', file], '');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^riodp serve: .*notes\.txt: exists and is not a socket$/m);
  assert.equal(readFileSync(file, 'utf8'), 'keep me');
  const path = join(dir, 'serve.sock');
  const first = startServe(['--listen', path]);
  await listening(first);
  const second = riodp(['serve', '--listen', path], '');
  assert.equal(second.status, 1);
  assert.match(second.stderr, /another process listens on it/);
  // SIGKILL leaves the socket file behind: the next server replaces it.
  first.child.kill('SIGKILL');
  await first.exited;
  assert.equal(existsSync(path), true);
  const third = startServe(['--listen', path]);
  assert.equal(await listening(third), path);
  const c = await connect(path);
  assert.equal((await c.client.ask({ id: 1, op: 'ping' }))['ok'], true);
  c.close();
  third.child.kill('SIGTERM');
  assert.equal(await third.exited, 0);
});

test('issue 18 item 3: usage errors exit 2 with one stderr line: a non-loopback --listen, a bad --max-line', () => {
  for (const [args, message] of [
    [['--listen', '0.0.0.0:4000'], /^riodp serve: --listen 0\.0\.0\.0:4000: 0\.0\.0\.0 is not a loopback address/],
    [['--listen', '192.0.2.1:0'], /is not a loopback address \(127\.0\.0\.0\/8 or ::1\)/],
    [['--listen', '127.0.0.1:70000'], /port 70000 is not 0\.\.65535/],
    [['--max-line', '0'], /^riodp serve: --max-line 0: expected a number of bytes > 0$/m],
  ] as const) {
    const r = riodp(['serve', ...args], '');
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
});
