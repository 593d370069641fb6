import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/**
 * Headless Chromium driven over the Chrome DevTools Protocol on --remote-debugging-pipe: the
 * browser reads JSON commands on fd 3 and writes replies and events on fd 4, each message ended
 * by a NUL byte. No port to pick, no WebSocket client (Node 20 has none built in), nothing left
 * listening if the test dies.
 */

/** The Debian package installs `chromium`; Ubuntu and older images call it `chromium-browser`. */
export function findChromium(): string | undefined {
  const override = process.env['CHROMIUM'];
  if (override !== undefined && override !== '') return override;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of ['chromium', 'chromium-browser']) {
      const path = join(dir, name);
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not in this directory
      }
    }
  }
  return undefined;
}

export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
}

interface Pending {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

interface Waiter {
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly resolve: (event: CdpEvent) => void;
  readonly reject: (error: Error) => void;
}

export class Browser {
  /** Every event received, in order, for the test to inspect afterwards. */
  readonly events: CdpEvent[] = [];
  private readonly child: ChildProcess;
  private readonly toBrowser: Writable;
  private nextId = 1;
  private buffer = '';
  private stderr = '';
  private readonly pending = new Map<number, Pending>();
  private waiters: Waiter[] = [];
  private spawnError: Error | undefined;

  constructor(binary: string, userDataDir: string) {
    this.child = spawn(
      binary,
      [
        '--headless',
        // A root user in a CI container has no usable sandbox; the page under test is our own.
        '--no-sandbox',
        '--disable-gpu',
        // Containers often mount a tiny /dev/shm, which crashes renderers that use it.
        '--disable-dev-shm-usage',
        '--remote-debugging-pipe',
        `--user-data-dir=${userDataDir}`,
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-extensions',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--mute-audio',
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
    );
    const [, , err, toBrowser, fromBrowser] = this.child.stdio;
    this.toBrowser = toBrowser as Writable;
    (err as Readable).setEncoding('utf8');
    (err as Readable).on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    (fromBrowser as Readable).setEncoding('utf8');
    (fromBrowser as Readable).on('data', (chunk: string) => {
      this.receive(chunk);
    });
    // Whatever is still awaited fails with Chromium's last words instead of hanging the test.
    this.child.on('exit', () => {
      this.fail(new Error(`Chromium exited; its stderr ends with:\n${this.stderr}`));
    });
    this.child.on('error', (e) => {
      this.spawnError = e;
      this.fail(new Error(`Chromium could not be started (${binary}): ${e.message}`));
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.exited()) {
      const why = this.spawnError === undefined ? `its stderr ends with:\n${this.stderr}` : this.spawnError.message;
      return Promise.reject(new Error(`Chromium is not running: ${why}`));
    }
    const id = this.nextId++;
    const message = sessionId === undefined ? { id, method, params } : { id, method, params, sessionId };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.toBrowser.write(`${JSON.stringify(message)}\0`);
    });
  }

  /** The first event `method` (in `sessionId`) at or after this call. */
  waitFor(method: string, sessionId?: string): Promise<CdpEvent> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ method, sessionId, resolve, reject });
    });
  }

  /** Browser.close, then SIGKILL if Chromium is still there a second later. */
  async close(): Promise<void> {
    if (this.exited()) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => {
      resolve();
    }));
    this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
  }

  kill(): void {
    if (!this.exited()) this.child.kill('SIGKILL');
  }

  private exited(): boolean {
    return this.spawnError !== undefined || this.child.exitCode !== null || this.child.signalCode !== null;
  }

  private fail(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    for (const w of this.waiters) w.reject(error);
    this.waiters = [];
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end = this.buffer.indexOf('\0');
    while (end >= 0) {
      const text = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      end = this.buffer.indexOf('\0');
      this.dispatch(JSON.parse(text) as Record<string, unknown>);
    }
  }

  private dispatch(message: Record<string, unknown>): void {
    if (typeof message['id'] === 'number') {
      const p = this.pending.get(message['id']);
      if (p === undefined) return;
      this.pending.delete(message['id']);
      const error = message['error'] as { message?: string } | undefined;
      if (error !== undefined) p.reject(new Error(`CDP: ${error.message ?? JSON.stringify(error)}`));
      else p.resolve((message['result'] ?? {}) as Record<string, unknown>);
      return;
    }
    if (typeof message['method'] !== 'string') return;
    const sessionId = typeof message['sessionId'] === 'string' ? message['sessionId'] : undefined;
    const event: CdpEvent = {
      method: message['method'],
      params: (message['params'] ?? {}) as Record<string, unknown>,
      ...(sessionId === undefined ? {} : { sessionId }),
    };
    this.events.push(event);
    const matched = this.waiters.filter((w) => w.method === event.method && (w.sessionId === undefined || w.sessionId === sessionId));
    this.waiters = this.waiters.filter((w) => !matched.includes(w));
    for (const w of matched) w.resolve(event);
  }
}
