import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytes, startRelay, testEndpointConfig } from '../../test/support/net-endpoint.ts';
import { partName } from '../net/api-file-store.ts';
import { startControlServer } from '../net/control-server.ts';
import { startEndpoint } from '../net/endpoint-start.ts';
import { main } from './main.ts';
import { RIODP_ARGS } from '../../test/support/riodp-entry.ts';


interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Resolves with the exit code. */
  readonly exit: Promise<number | null>;
}

/** Starts `riodp ARGS` from source; resolves once its stdout has a line matching `ready` (or at once without one). */
async function start(args: readonly string[], ready?: RegExp): Promise<Running> {
  const env = { ...process.env };
  delete env['RIODP_CONTROL'];
  const child = spawn(process.execPath, [...RIODP_ARGS, ...args], { stdio: 'pipe', env });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => { resolve(code); }));
  let seen: () => void = () => undefined;
  const ok = new Promise<void>((resolve) => {
    seen = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout.push(d);
    if (ready !== undefined && ready.test(stdout.join(''))) seen();
  });
  if (ready !== undefined) {
    await Promise.race([ok, exit.then((code) => { throw new Error(`riodp ${args.join(' ')} exited ${String(code)}: ${stderr.join('')}`); })]);
  }
  return { child, stdout, stderr, exit };
}

/**
 * Runs `riodp ARGS` in this process for a command that fails before printing on stdout, keeping
 * what it writes on stderr (no Node start-up: these runs only check the messages and exit codes).
 */
async function stderrOf(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  const saved = process.env['RIODP_CONTROL'];
  delete process.env['RIODP_CONTROL'];
  const write = process.stderr.write.bind(process.stderr);
  let stderr = '';
  process.stderr.write = (chunk: string | Uint8Array): boolean => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  try {
    const code = await main(args);
    process.exitCode = undefined;
    return { code, stderr };
  } finally {
    process.stderr.write = write;
    if (saved !== undefined) process.env['RIODP_CONTROL'] = saved;
  }
}

function yaml(nodeId: number, port: number, control: string): string {
  return [
    `nodeId: ${nodeId}`,
    `switch: { host: 127.0.0.1, port: ${port} }`,
    `control: ${control}`,
    'log: warn',
    `discovery: { targets: [{ node: ${nodeId === 1 ? 2 : 1} }] }`,
    '',
  ].join('\n');
}

/** The JSON log lines a process wrote on stderr. */
function logLines(r: Running): Record<string, unknown>[] {
  return r.stderr.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('issue 8 §2: riodp endpoint ×2, riodp recv and riodp send move a 1 MB file whose SHA-256 matches; status and read-reg answer through the control socket; the end points log `file sent` and `file received` (docs/fabric-api.md §7) at the level of --log (or its alias --log-level)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-cli-'));
  const relay = await startRelay([1, 2]);
  const running: Running[] = [];
  try {
    const sock = [join(dir, '1.sock'), join(dir, '2.sock')] as const;
    await writeFile(join(dir, '1.yaml'), yaml(1, relay.port(1), sock[0]));
    await writeFile(join(dir, '2.yaml'), yaml(2, relay.port(2), sock[1]));
    // The configurations say `log: warn`; the options raise it to info.
    running.push(...(await Promise.all([
      start(['endpoint', '--config', join(dir, '1.yaml'), '--log', 'info'], /link up/),
      start(['endpoint', '--config', join(dir, '2.yaml'), '--log-level', 'info'], /link up/),
    ])));
    assert.match(running[0]?.stdout.join('') ?? '', /^riodp endpoint 1: link up to 127\.0\.0\.1:\d+; control .*1\.sock\n$/);
    const data = bytes(1_000_000, 11);
    const file = join(dir, 'one-megabyte.bin');
    await writeFile(file, data);
    const sha = createHash('sha256').update(data).digest('hex');
    // All at once (Node start-ups overlap); a file that reaches node 2 before its recv client waits for it.
    const [recv, send, status, reg] = await Promise.all([
      start(['recv', '--control', sock[1], '--out', join(dir, 'out'), '--count', '1']),
      start(['send', '--control', sock[0], '--to', '2', file]),
      start(['status', '--json', '--control', sock[0]]),
      start(['read-reg', '--control', sock[0], '--to', '2', '--hop', '255', '0x60']),
    ]);
    running.push(recv, send, status, reg);
    assert.equal(await send.exit, 0, send.stderr.join(''));
    assert.match(send.stdout.join(''), new RegExp(`^sent one-megabyte\\.bin: 1000000 bytes, SHA-256 ${sha}, to node 2 in \\d+ ms \\(.* MB/s\\): ok`));
    assert.equal(await recv.exit, 0, recv.stderr.join(''));
    assert.equal(recv.stdout.join(''), `ok one-megabyte.bin: 1000000 bytes, SHA-256 ${sha}, from node 1\n`);
    const written = await readFile(join(dir, 'out', 'one-megabyte.bin'));
    assert.equal(createHash('sha256').update(written).digest('hex'), sha);
    assert.equal(await status.exit, 0, status.stderr.join(''));
    const s = JSON.parse(status.stdout.join('')) as { nodeId: number; link: { state: string }; counters: { api: { connects: number } } };
    assert.deepEqual([s.nodeId, s.link.state], [1, 'up']);
    assert.equal(s.counters.api.connects, 1);
    assert.equal(await reg.exit, 0, reg.stderr.join(''));
    assert.match(reg.stdout.join(''), /^0x[0-9a-f]{4}0002\n$/);
    const [ep1, ep2] = running;
    assert.ok(ep1 !== undefined && ep2 !== undefined);
    assert.deepEqual(logLines(ep1).filter((l) => l['msg'] === 'file sent').map((l) => [l['name'], l['to'], l['size'], l['status'], l['level']]), [['one-megabyte.bin', 2, 1_000_000, 'ok', 30]]);
    assert.deepEqual(logLines(ep2).filter((l) => l['msg'] === 'file received').map((l) => [l['name'], l['from'], l['size'], l['status'], l['level']]), [['one-megabyte.bin', 1, 1_000_000, 'ok', 30]]);
    assert.ok(logLines(ep2).some((l) => l['msg'] === 'link up' && l['name'] === 'endpoint-2'), 'the process logs through the same logger');
  } finally {
    for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGTERM');
    await Promise.all(running.map((r) => r.exit));
    await relay.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('riodp endpoint: a bad configuration is one stderr line per field, exit 2; send without a control socket is a usage error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-cli-'));
  try {
    const cfg = join(dir, 'bad.yaml');
    await writeFile(cfg, 'nodeId: 70000\nswitch: { port: 0 }\nsurprise: 1\n');
    const r = await stderrOf(['endpoint', '--config', cfg]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.stderr.trim().split('\n').sort(), [
      `riodp endpoint: ${cfg}: nodeId: expected an integer 0..65535`,
      `riodp endpoint: ${cfg}: surprise: unknown field`,
      `riodp endpoint: ${cfg}: switch.port: expected an integer 1..65535`,
    ].sort());
    assert.deepEqual(await stderrOf(['send', '--to', '2', cfg]), { code: 2, stderr: 'riodp send: give the control socket of the running riodp endpoint with --control or RIODP_CONTROL\n' });
    const g = await stderrOf(['read-reg', '--control', join(dir, 'none.sock'), '--to', '2', '0x61']);
    assert.equal(g.code, 2);
    assert.match(g.stderr, /^riodp read-reg: offset 0x61 is not word-aligned/);
    const n = await stderrOf(['status', '--control', join(dir, 'none.sock')]);
    assert.equal(n.code, 1);
    assert.match(n.stderr, /^riodp status: cannot connect to the control socket .*none\.sock \(ENOENT\): is riodp endpoint running\?\n$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('issue 8 §3 "Any other address requires TLS" (issue 16 item 6): riodp endpoint with a non-loopback switch host and no tls exits 2 at once with one line naming switch.host, before any connection attempt', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-cli-'));
  try {
    const cfg = join(dir, 'remote.yaml');
    // connect.timeoutMs 30 s: retrying would take that long and end with exit 1.
    await writeFile(cfg, 'nodeId: 1\nswitch: { host: 192.0.2.1, port: 4000 }\nconnect: { timeoutMs: 30000 }\n');
    const t0 = Date.now();
    const r = await start(['endpoint', '--config', cfg, '--control', join(dir, '1.sock')]);
    const code = await r.exit;
    const ms = Date.now() - t0;
    assert.equal(code, 2, r.stderr.join(''));
    assert.equal(r.stderr.join(''), `riodp endpoint: ${cfg}: switch.host: host must be a loopback address (127.0.0.0/8 or ::1) to connect to 192.0.2.1 without tls; configure tls.psk or tls.cert\n`);
    assert.equal(r.stdout.join(''), '');
    // Node and tsx start in one to four seconds, and took over 8 s at a load average of 15; the
    // retries alone would take 30 s more than the start.
    assert.ok(ms < 20_000, `exited after ${ms} ms`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('riodp switch and riodp endpoint both take --log <level> (riodp endpoint also its former --log-level): a word that is not a level is a usage error, exit 2, in the same words', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-cli-'));
  try {
    // Valid files, so that only the option can be wrong (it is checked before the file is read anyway).
    const ep = join(dir, 'endpoint.yaml');
    await writeFile(ep, yaml(1, 4000, join(dir, '1.sock')));
    const sw = join(dir, 'switch.yaml');
    await writeFile(sw, 'deviceId: 0x50\nports:\n  - { port: 0, listen: { port: 0 }, accept: [1] }\nroutes: { 1: 0 }\n');
    const levels = 'fatal, error, warn, info, debug, trace, silent';
    assert.deepEqual(await stderrOf(['switch', '--config', sw, '--log', 'loud']), { code: 2, stderr: `riodp switch: --log: expected one of ${levels}\n` });
    assert.deepEqual(await stderrOf(['endpoint', '--config', ep, '--log', 'loud']), { code: 2, stderr: `riodp endpoint: --log: expected one of ${levels}\n` });
    assert.deepEqual(await stderrOf(['endpoint', '--config', ep, '--log-level', 'loud']), { code: 2, stderr: `riodp endpoint: --log-level: expected one of ${levels}\n` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('riodp recv (issue 16 item 5): --on-exists takes rename or refuse, --max-size a byte count (10MB, 512KiB, 4GiB …); any other value is a usage error on one line, exit 2', async () => {
  const none = join(tmpdir(), 'riodp-none.sock');
  assert.deepEqual(await stderrOf(['recv', '--control', none, '--out', tmpdir(), '--on-exists', 'overwrite']), { code: 2, stderr: "riodp recv: --on-exists must be one of rename, refuse, not 'overwrite'\n" });
  assert.deepEqual(await stderrOf(['recv', '--control', none, '--out', tmpdir(), '--max-size', '10X']), {
    code: 2,
    stderr: "riodp recv: --max-size must be a size in bytes: an integer, or with B, kB, KB, KiB, MB, MiB, GB or GiB (10MB is 10000000, 4GiB is 4294967296), not '10X'\n",
  });
  assert.equal((await stderrOf(['recv', '--control', none, '--out', tmpdir(), '--max-size', '-1'])).code, 2);
  // Good values pass the checks: the command goes on to the (missing) control socket, exit 1.
  const ok = await stderrOf(['recv', '--control', none, '--out', tmpdir(), '--on-exists', 'refuse', '--max-size', '512KiB']);
  assert.equal(ok.code, 1);
  assert.match(ok.stderr, /^riodp recv: cannot connect to the control socket/);
});

test('riodp recv (issue 16 item 5): --on-exists refuse and --max-size act: the senders fail with one stderr line naming the status, recv prints the refusals and reports the stale part it removed; by default a taken name is written as "name (1).ext"', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'riodp-cli-'));
  const relay = await startRelay([1, 2]);
  const [a, b] = await Promise.all([startEndpoint(testEndpointConfig(1, relay.port(1))), startEndpoint(testEndpointConfig(2, relay.port(2)))]);
  const sa = await startControlServer(a, join(dir, 'a.sock'));
  const sb = await startControlServer(b, join(dir, 'b.sock'));
  const running: Running[] = [];
  try {
    const out = join(dir, 'out');
    await mkdir(out);
    await writeFile(join(out, 'data.bin'), 'already here');
    const stale = partName('killed.bin', spawnSync(process.execPath, ['-e', '']).pid);
    await writeFile(join(out, stale), 'x');
    await writeFile(join(dir, 'data.bin'), bytes(10, 1));
    await writeFile(join(dir, 'big.bin'), bytes(2000, 2));
    const sha = (x: Uint8Array): string => createHash('sha256').update(x).digest('hex');
    // All at once: a file that reaches B before the recv client waits for it.
    // One send after the other: an end point opens one conduit to a node at a time (a second OPEN
    // while the first is pending is refused, conduit-pending).
    const [recv, sendData] = await Promise.all([
      start(['recv', '--control', sb.path, '--out', out, '--count', '2', '--on-exists', 'refuse', '--max-size', '1KiB']),
      start(['send', '--control', sa.path, '--to', '2', join(dir, 'data.bin')]),
    ]);
    running.push(recv, sendData);
    assert.equal(await sendData.exit, 1);
    const sendBig = await start(['send', '--control', sa.path, '--to', '2', join(dir, 'big.bin')]);
    running.push(sendBig);
    assert.equal(sendData.stderr.join(''), "riodp send: node 2 did not store data.bin (10 bytes): exists (data.bin exists in the receiver's folder, and it refuses to replace files)\n");
    assert.equal(await sendBig.exit, 1);
    assert.equal(sendBig.stderr.join(''), 'riodp send: node 2 did not store big.bin (2000 bytes): too-large (2000 bytes is more than the 1024 this receiver takes)\n');
    assert.equal(await recv.exit, 1);
    assert.deepEqual(recv.stdout.join('').split('\n').filter((l) => l !== '').sort(), [
      `exists data.bin: 10 bytes, SHA-256 ${sha(bytes(10, 1))}, from node 1 (data.bin exists in the receiver's folder, and it refuses to replace files)`,
      `too-large big.bin: 2000 bytes, SHA-256 ${sha(bytes(2000, 2))}, from node 1 (2000 bytes is more than the 1024 this receiver takes)`,
    ]);
    assert.equal(recv.stderr.join(''), `riodp recv: removed 1 part file (*.riodp-part) that receivers no longer running left in ${out}\n`);
    assert.deepEqual(await readdir(out), ['data.bin']);
    const [again, send] = await Promise.all([
      start(['recv', '--control', sb.path, '--out', out, '--count', '1']),
      start(['send', '--control', sa.path, '--to', '2', join(dir, 'data.bin')]),
    ]);
    running.push(again, send);
    assert.equal(await send.exit, 0, send.stderr.join(''));
    assert.equal(await again.exit, 0, again.stderr.join(''));
    assert.equal(again.stdout.join(''), `ok data.bin: 10 bytes, SHA-256 ${sha(bytes(10, 1))}, from node 1, written as data (1).bin\n`);
    assert.equal(await readFile(join(out, 'data.bin'), 'utf8'), 'already here');
    assert.deepEqual(new Uint8Array(await readFile(join(out, 'data (1).bin'))), bytes(10, 1));
  } finally {
    for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGTERM');
    await Promise.all(running.map((r) => r.exit));
    await Promise.all([sa.close(), sb.close()]);
    await Promise.all([a.close(), b.close()]);
    await relay.close();
    await rm(dir, { recursive: true, force: true });
  }
});
