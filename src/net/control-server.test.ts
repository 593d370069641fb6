import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEndpoint } from './endpoint-start.ts';
import type { RiodpEndpoint } from './api-types.ts';
import { ControlClient } from './control-client.ts';
import { MAX_LINE } from './control-protocol.ts';
import { partName } from './api-file-store.ts';
import { startControlServer } from './control-server.ts';
import type { ControlServer } from './control-server.ts';
import { bytes, startRelay, testEndpointConfig, until } from '../../test/support/net-endpoint.ts';
import type { Relay } from '../../test/support/net-endpoint.ts';

interface Fixture {
  readonly dir: string;
  readonly relay: Relay;
  readonly a: RiodpEndpoint;
  readonly b: RiodpEndpoint;
  readonly sa: ControlServer;
  readonly sb: ControlServer;
  close(): Promise<void>;
}

async function fixture(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-control-'));
  const relay = await startRelay([1, 2]);
  const [a, b] = await Promise.all([startEndpoint(testEndpointConfig(1, relay.port(1))), startEndpoint(testEndpointConfig(2, relay.port(2)))]);
  const sa = await startControlServer(a, join(dir, 'a.sock'));
  const sb = await startControlServer(b, join(dir, 'b.sock'));
  return {
    dir,
    relay,
    a,
    b,
    sa,
    sb,
    close: async () => {
      await Promise.all([sa.close(), sb.close()]);
      await Promise.all([a.close(), b.close()]);
      await relay.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Sends raw text on a control socket and collects the response lines until `n` came. */
function raw(path: string, text: string, n: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const c = createConnection(path);
    const out: Record<string, unknown>[] = [];
    let buf = '';
    c.setEncoding('utf8');
    c.on('data', (d: string) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) out.push(JSON.parse(l) as Record<string, unknown>);
      if (out.length >= n) {
        c.destroy();
        resolve(out);
      }
    });
    c.on('error', reject);
    c.on('close', () => {
      resolve(out);
    });
    c.write(text);
  });
}

test('riodp control protocol: status answers the end point\'s streams, peers and counters; the socket is the owner\'s only (mode 0600)', async () => {
  const f = await fixture();
  try {
    const c = await ControlClient.connect(f.sa.path);
    const s = (await c.request({ op: 'status' })) as { nodeId: number; link: { state: string }; counters: { api: Record<string, number> } };
    assert.deepEqual([s.nodeId, s.link.state, s.counters.api['connects']], [1, 'up', 1]);
    assert.equal((await stat(f.sa.path)).mode & 0o777, 0o600);
    c.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol, Part 1 §4.1.10: read-reg answers the register value; discover the participants', async () => {
  const f = await fixture();
  try {
    const c = await ControlClient.connect(f.sa.path);
    const r = (await c.request({ op: 'read-reg', to: 2, hop: 255, offset: 0x60 })) as { value: number };
    assert.equal(r.value & 0xffff, 2);
    const peers = (await c.request({ op: 'discover', node: 2 })) as { node: number }[];
    assert.deepEqual(peers.map((p) => p.node), [2]);
    await assert.rejects(c.request({ op: 'read-reg', to: 2, hop: 255, offset: 3 }), /offset must be a word-aligned/);
    c.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol, Annex 2 §3.4, §6.2: send-file to a node whose recv client is attached moves the file over a file-transfer conduit; size and SHA-256 match', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'out');
    await writeFile(join(f.dir, 'placeholder'), '');
    await rm(join(f.dir, 'placeholder'));
    await (await import('node:fs/promises')).mkdir(out);
    const data = bytes(300_000, 5);
    const src = join(f.dir, 'data.bin');
    await writeFile(src, data);
    const files: Record<string, unknown>[] = [];
    const recv = await ControlClient.connect(f.sb.path);
    await recv.request({ op: 'recv', dir: out }, (e) => files.push(e['file'] as Record<string, unknown>));
    const send = await ControlClient.connect(f.sa.path);
    const sent = (await send.request({ op: 'send-file', to: 2, path: src })) as { size: number; sha256: string; result: { status: string } };
    const sha = createHash('sha256').update(data).digest('hex');
    assert.deepEqual([sent.size, sent.sha256, sent.result.status], [300_000, sha, 'ok']);
    await until(() => files.length === 1, 3000, 'the file event');
    assert.deepEqual([files[0]?.['name'], files[0]?.['status'], files[0]?.['sha256'], files[0]?.['from']], ['data.bin', 'ok', sha, 1]);
    assert.deepEqual(new Uint8Array(await readFile(join(out, 'data.bin'))), data);
    send.close();
    recv.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol: a file sent before any recv client attached waits, and goes to the first one that does', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'later');
    await (await import('node:fs/promises')).mkdir(out);
    const src = join(f.dir, 'small.txt');
    await writeFile(src, 'hello riodp\n');
    const send = await ControlClient.connect(f.sa.path);
    const sending = send.request({ op: 'send-file', to: 2, path: src });
    await until(() => f.b.status().streams.length === 1, 3000, 'the conduit at B');
    const files: Record<string, unknown>[] = [];
    const recv = await ControlClient.connect(f.sb.path);
    await recv.request({ op: 'recv', dir: out }, (e) => files.push(e['file'] as Record<string, unknown>));
    assert.equal(((await sending) as { result: { status: string } }).result.status, 'ok');
    assert.equal(await readFile(join(out, 'small.txt'), 'utf8'), 'hello riodp\n');
    send.close();
    recv.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol: a line that is not a request is answered with an error and the connection kept; an unknown op names the ops; an over-long line ends the connection', async () => {
  const f = await fixture();
  try {
    const r = await raw(f.sa.path, 'nonsense\n{"id":7,"op":"fly"}\n{"op":"status"}\n{"id":"s","op":"status"}\n', 4);
    assert.deepEqual(r.slice(0, 3), [
      { id: null, ok: false, error: 'not JSON' },
      { id: 7, ok: false, error: 'op must be one of status, send-file, recv, read-reg, discover' },
      { id: null, ok: false, error: 'id must be an integer or a string of at most 128 characters' },
    ]);
    assert.deepEqual([r[3]?.['id'], r[3]?.['ok']], ['s', true]);
    const long = await raw(f.sa.path, 'x'.repeat(MAX_LINE + 10), 1);
    assert.deepEqual(long, [{ id: null, ok: false, error: `a line longer than ${MAX_LINE} bytes: connection closed` }]);
    const rel = await raw(f.sa.path, '{"id":1,"op":"send-file","to":2,"path":"relative.bin"}\n', 1);
    assert.deepEqual(rel, [{ id: 1, ok: false, error: 'path must be an absolute path' }]);
  } finally {
    await f.close();
  }
});

test('riodp control protocol: a stale socket file is replaced; a socket another end point serves is refused', async () => {
  const f = await fixture();
  try {
    await assert.rejects(startControlServer(f.a, f.sb.path), /is in use by another process/);
    await f.sa.close();
    const stale = join(f.dir, 'stale.sock');
    await writeFile(stale, '');
    const s = await startControlServer(f.a, stale);
    const c = await ControlClient.connect(stale);
    assert.equal(((await c.request({ op: 'status' })) as { nodeId: number }).nodeId, 1);
    c.close();
    await s.close();
  } finally {
    await f.close();
  }
});

test('riodp endpoint (decision): a stream of a protocol riodp endpoint has no consumer for is closed', async () => {
  const relay = await startRelay([1, 2]);
  const P = [{ protoID: 0x1234, dataHeaderFormat: 'DATA3' as const }];
  const a = await startEndpoint(testEndpointConfig(1, relay.port(1), { protocols: P }));
  const b = await startEndpoint(testEndpointConfig(2, relay.port(2), { protocols: P }));
  const dir = await mkdtemp(join(tmpdir(), 'riodp-control-'));
  const sb = await startControlServer(b, join(dir, 'b.sock'));
  try {
    const s = await a.openStream({ to: 2, protoID: 0x1234 });
    await until(() => s.closed, 3000, 'the stream to be closed by B');
    assert.equal(s.closed, true);
  } finally {
    await sb.close();
    await Promise.all([a.close(), b.close()]);
    await relay.close();
    await rm(dir, { recursive: true, force: true });
  }
});

type FileEvent = Record<string, unknown>;

/** A recv client on B's socket with `opts`; its file events are collected. */
async function recvOn(f: Fixture, dir: string, opts: Record<string, unknown> = {}): Promise<{ c: ControlClient; ack: Record<string, unknown>; files: FileEvent[] }> {
  const files: FileEvent[] = [];
  const c = await ControlClient.connect(f.sb.path);
  const ack = (await c.request({ op: 'recv', dir, ...opts }, (e) => files.push(e['file'] as FileEvent))) as Record<string, unknown>;
  return { c, ack, files };
}

const partsIn = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.riodp-part'));

test('riodp control protocol (issue 16 item 5): recv with onExists refuse and maxSize: the sender of a name the folder has gets "exists", of a file too large "too-large", both before their data; the recv client gets file events with those statuses', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'out');
    await mkdir(out);
    await writeFile(join(out, 'data.bin'), 'already here');
    const { c: recv, ack, files } = await recvOn(f, out, { onExists: 'refuse', maxSize: 100_000 });
    assert.deepEqual(ack, { dir: out, onExists: 'refuse', maxSize: 100_000, staleParts: 0 });
    await writeFile(join(f.dir, 'data.bin'), bytes(50_000, 1));
    await writeFile(join(f.dir, 'big.bin'), bytes(2_000_000, 2));
    const send = await ControlClient.connect(f.sa.path);
    type Sent = { result: { status: string; text: string } };
    const exists = (await send.request({ op: 'send-file', to: 2, path: join(f.dir, 'data.bin') })) as Sent;
    assert.deepEqual(exists.result, { status: 'exists', text: "data.bin exists in the receiver's folder, and it refuses to replace files" });
    const before = f.a.status().counters.api.pdusSent;
    const big = (await send.request({ op: 'send-file', to: 2, path: join(f.dir, 'big.bin') })) as Sent;
    const pdus = f.a.status().counters.api.pdusSent - before;
    assert.deepEqual(big.result, { status: 'too-large', text: '2000000 bytes is more than the 100000 this receiver takes' });
    await until(() => files.length === 2, 3000, 'the file events');
    assert.deepEqual(files.map((e) => [e['name'], e['status'], e['path']]), [['data.bin', 'exists', null], ['big.bin', 'too-large', null]]);
    assert.deepEqual(await readdir(out), ['data.bin']);
    assert.equal(await readFile(join(out, 'data.bin'), 'utf8'), 'already here');
    // Refused at its header, A stopped sending: far fewer than the header and the 2 MB's 31 PDUs.
    assert.ok(pdus < 16, `A sent ${pdus} PDUs`);
    send.close();
    recv.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol (issue 16 item 5): by default a name the folder has is written as "name (1).ext", the file event naming that path', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'out');
    await mkdir(out);
    await writeFile(join(out, 'data.bin'), 'already here');
    const { c: recv, ack, files } = await recvOn(f, out);
    assert.deepEqual(ack, { dir: out, onExists: 'rename', maxSize: 4 * 1024 ** 3, staleParts: 0 });
    const data = bytes(10_000, 3);
    await writeFile(join(f.dir, 'data.bin'), data);
    const send = await ControlClient.connect(f.sa.path);
    const sent = (await send.request({ op: 'send-file', to: 2, path: join(f.dir, 'data.bin') })) as { result: { status: string } };
    assert.equal(sent.result.status, 'ok');
    await until(() => files.length === 1, 3000, 'the file event');
    assert.deepEqual([files[0]?.['status'], files[0]?.['path']], ['ok', join(out, 'data (1).bin')]);
    assert.equal(await readFile(join(out, 'data.bin'), 'utf8'), 'already here');
    assert.deepEqual(new Uint8Array(await readFile(join(out, 'data (1).bin'))), data);
    send.close();
    recv.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol (issue 16 item 5): recv removes the part files of processes no longer running from its folder and says how many; a live process\'s part is kept', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'out');
    await mkdir(out);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const stale = partName('killed.bin', dead);
    const live = partName('other.bin', process.ppid);
    await writeFile(join(out, stale), 'x');
    await writeFile(join(out, live), 'x');
    const { c: recv, ack } = await recvOn(f, out);
    assert.equal(ack['staleParts'], 1);
    assert.deepEqual(await readdir(out), [live]);
    recv.close();
  } finally {
    await f.close();
  }
});

/** Starts a 4 MB transfer from A to B's recv client in `out`, and holds A's Type 9 packets once B writes its part. */
async function stalledTransfer(f: Fixture, out: string): Promise<{ sending: Promise<unknown>; send: ControlClient }> {
  await writeFile(join(f.dir, 'long.bin'), bytes(4_000_000, 4));
  const send = await ControlClient.connect(f.sa.path);
  const sending = send.request({ op: 'send-file', to: 2, path: join(f.dir, 'long.bin') });
  const end = Date.now() + 5000;
  while ((await partsIn(out)).length === 0) {
    if (Date.now() > end) throw new Error('no part file');
    await new Promise((r) => setTimeout(r, 2));
  }
  f.relay.hold = (p) => p.ftype === 9 && 'sourceID' in p && p.sourceID === 1;
  return { sending, send };
}

test('riodp control protocol (issue 16 item 5): a recv client that disconnects during a transfer aborts it: the part file is removed and the sender answered "aborted"', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'out');
    await mkdir(out);
    const { c: recv } = await recvOn(f, out);
    const { sending, send } = await stalledTransfer(f, out);
    assert.equal((await partsIn(out)).length, 1);
    recv.close();
    const sent = (await sending) as { result: { status: string; text: string } };
    assert.deepEqual(sent.result, { status: 'aborted', text: 'the receiver gave the transfer up: its riodp recv disconnected' });
    assert.deepEqual(await readdir(out), []);
    f.relay.hold = null;
    send.close();
  } finally {
    await f.close();
  }
});

test('riodp control protocol (issue 16 item 5): the control server closing during a transfer aborts it, and its close resolves once the part file is removed', async () => {
  const f = await fixture();
  try {
    const out = join(f.dir, 'out');
    await mkdir(out);
    await recvOn(f, out);
    const { sending, send } = await stalledTransfer(f, out);
    await f.sb.close();
    assert.deepEqual(await readdir(out), []);
    const sent = (await sending) as { result: { status: string; text: string } };
    assert.deepEqual(sent.result, { status: 'aborted', text: 'the receiver gave the transfer up: its end point is closing' });
    f.relay.hold = null;
    send.close();
  } finally {
    await f.close();
  }
});

test('startEndpoint with `control` (an accepted option acts): the end point serves its control socket, a ControlClient status() answers, close() removes the socket; a socket another end point serves makes startEndpoint reject', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-control-'));
  const relay = await startRelay([1, 2]);
  const path = join(dir, 'ep.sock');
  try {
    const ep = await startEndpoint(testEndpointConfig(1, relay.port(1), { control: path }));
    const c = await ControlClient.connect(path);
    const s = await c.status();
    assert.deepEqual([s.nodeId, s.link.state], [1, 'up']);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    await assert.rejects(startEndpoint(testEndpointConfig(2, relay.port(2), { control: path })), /control socket .*ep\.sock is in use by another process/);
    c.close();
    await ep.close();
    await assert.rejects(stat(path), { code: 'ENOENT' });
  } finally {
    await relay.close();
    await rm(dir, { recursive: true, force: true });
  }
});
