import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../net/connect.ts';
import { decodePcapng } from '../wire/pcapng/decode.ts';
import { decodeCaptureRecord } from '../wire/pcapng/record.ts';
import { RIODP_ARGS } from '../../test/support/riodp-entry.ts';


function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'riodp-switch-cli-'));
  const path = join(dir, 'switch.yaml');
  writeFileSync(path, text);
  return path;
}

interface Running {
  readonly stdout: string[];
  readonly stderr: () => string;
  readonly exit: Promise<number | null>;
  /** Resolves with the first `n` stdout lines. */
  lines(n: number): Promise<string[]>;
  kill(signal: NodeJS.Signals): void;
}

function riodp(args: readonly string[]): Running {
  const child = spawn(process.execPath, [...RIODP_ARGS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  let err = '';
  let partial = '';
  let waiting: (() => void) | null = null;
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    const parts = (partial + s).split('\n');
    partial = parts.pop() ?? '';
    stdout.push(...parts);
    waiting?.();
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => { err += s; });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => { waiting?.(); resolve(code); }));
  return {
    stdout,
    stderr: () => err,
    exit,
    async lines(n) {
      // tsx takes about a second to start alone, ten on a loaded machine; a process left running
      // after a failure would keep the test runner waiting on its pipes, so it is killed.
      const deadline = Date.now() + 30_000;
      while (stdout.length < n) {
        if (Date.now() > deadline || child.exitCode !== null) {
          child.kill('SIGKILL');
          throw new Error(`stdout ${JSON.stringify(stdout)}, stderr ${err}`);
        }
        await new Promise<void>((r) => { waiting = r; setTimeout(r, 100); });
      }
      return stdout.slice(0, n);
    },
    kill: (signal) => { child.kill(signal); },
  };
}

const CONFIG = `
deviceId: 0x50
ports:
  - { port: 0, listen: { port: 0 }, accept: [1] }
  - { port: 1, listen: { port: 0 }, accept: [2] }
routes: { 1: 0, 2: 1 }
log: info
`;

// Each test spawns its own process (tsx starts in about a second): they run side by side.
describe('riodp switch (spawned)', { concurrency: true }, () => {
  test('issue 8 §1 "riodp switch --config switch.yaml": one line per listening port, a peer gets a link, SIGTERM closes it with CLOSE normal and exits 0', async () => {
    const run = riodp(['switch', '--config', configFile(CONFIG)]);
    const lines = await run.lines(2);
    const ports = lines.map((l) => /^port (\d) listening on 127\.0\.0\.1:(\d+)$/.exec(l));
    assert.deepEqual(ports.map((m) => m?.[1]), ['0', '1'], lines.join('\n'));
    const closed = new Promise<string>((resolve) => {
      void connect({ port: Number(ports[1]?.[2]) }, { onClose: (c) => { resolve(`${c.by} ${c.reasonName} ${c.text}`); } });
    });
    // The signal comes once the switch has the peer's HELLO (its log says link-up).
    for (let k = 0; k < 500 && !run.stderr().includes('"msg":"link-up"'); k++) await new Promise((r) => setTimeout(r, 10));
    run.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.stderr());
    assert.equal(await closed, 'peer normal shutdown');
    const log = run.stderr().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(log.filter((l) => l['msg'] === 'link-up').map((l) => l['port']), [1]);
    assert.equal(log.at(-1)?.['msg'], 'stopped');
  });

  test('riodp switch: a configuration error is one line naming the field path, exit 2', async () => {
    const file = configFile(CONFIG.replace('accept: [2]', 'accept: [2], lisen: 3').replace('1: 0, 2: 1', '1: 0, 2: 7'));
    const run = riodp(['switch', '--config', file]);
    assert.equal(await run.exit, 2);
    assert.deepEqual(run.stderr().trim().split('\n'), [`riodp switch: ${file}: ports.1.lisen: unknown field`]);
  });

  test('issue 8 §3 "Any other address requires TLS": listening on 0.0.0.0 without tls is refused with security.ts\'s message, exit 2', async () => {
    const file = configFile(CONFIG.replace('listen: { port: 0 }, accept: [1]', 'listen: { host: 0.0.0.0, port: 0 }, accept: [1]'));
    const run = riodp(['switch', '--config', file]);
    assert.equal(await run.exit, 2);
    assert.match(run.stderr(), /^riodp switch: .*: ports\.0\.listen\.host: host must be a loopback address \(127\.0\.0\.0\/8 or ::1\) to listen on 0\.0\.0\.0 without tls; configure tls\.psk or tls\.cert\n$/);
  });

  test('riodp capture §3, §4 (issue 19): riodp switch --pcap FILE --pcap-name NAME records each port\'s frames both ways on NAME.p<port>.tx|rx, and its last log line counts them', async () => {
    const cfg = configFile(CONFIG);
    const pcap = join(cfg, '..', 'sw.pcapng');
    const run = riodp(['switch', '--config', cfg, '--pcap', pcap, '--pcap-name', 'core']);
    const lines = await run.lines(2);
    const tcpPort = Number(/:(\d+)$/.exec(lines[1] ?? '')?.[1]);
    const closed = new Promise<void>((resolve) => {
      void connect({ port: tcpPort }, { onClose: () => { resolve(); } });
    });
    for (let k = 0; k < 500 && !run.stderr().includes('"msg":"link-up"'); k++) await new Promise((r) => setTimeout(r, 10));
    run.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.stderr());
    await closed;
    const f = decodePcapng(readFileSync(pcap));
    assert.deepEqual(f.interfaces.map((i) => i.name), ['core.p0.tx', 'core.p0.rx', 'core.p1.tx', 'core.p1.rx']);
    const kinds = (name: string): string[] => f.packets.filter((p) => f.interfaces[p.interface]?.name === name).map((p) => decodeCaptureRecord(p.data, 0, p.data.length).kindName);
    assert.deepEqual(kinds('core.p1.rx'), ['hello']);
    const sent = kinds('core.p1.tx');
    assert.deepEqual([sent[0], sent.at(-1)], ['hello', 'close']);
    const last = JSON.parse(run.stderr().trim().split('\n').at(-1) ?? '{}') as { msg?: string; capture?: { records: number; notRecorded: number } };
    assert.equal(last.msg, 'stopped');
    assert.deepEqual([last.capture?.records, last.capture?.notRecorded], [f.packets.length, 0]);
  });

  test('riodp capture (issue 19): --pcap-max-bytes and --pcap-name are checked (one line, exit 2), need --pcap, and a capture that cannot be written is one line, exit 1', async () => {
    const cfg = configFile(CONFIG);
    const cases: [string[], number, RegExp][] = [
      [['--pcap', join(cfg, '..', 'a.pcapng'), '--pcap-max-bytes', '10X'], 2, /^riodp switch: --pcap-max-bytes must be a size in bytes: .* not '10X'$/],
      [['--pcap', join(cfg, '..', 'a.pcapng'), '--pcap-name', 'sw.0'], 2, /^riodp switch: --pcap-name must be 1 to 64 letters, digits, '_' or '-', not 'sw\.0'$/],
      [['--pcap-max-bytes', '1MB'], 2, /^riodp switch: --pcap-max-bytes needs --pcap$/],
      [['--pcap', join(cfg, '..', 'no', 'a.pcapng')], 1, /^riodp switch: cannot write the capture .*a\.pcapng: ENOENT/],
    ];
    await Promise.all(cases.map(async ([args, code, line]) => {
      const run = riodp(['switch', '--config', cfg, ...args]);
      assert.equal(await run.exit, code, run.stderr());
      const err = run.stderr().trim().split('\n');
      assert.equal(err.length, 1, run.stderr());
      assert.match(err[0] ?? '', line);
    }));
    const ep = riodp(['endpoint', '--config', cfg, '--pcap-name', 'x']);
    assert.equal(await ep.exit, 2);
    assert.match(ep.stderr(), /--pcap-name needs --pcap/);
  });
});
