import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../net/connect.ts';
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
});
