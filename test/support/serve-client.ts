import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { RIODP_ARGS } from './riodp-entry.ts';

/**
 * A JSON Lines client of `riodp serve` for tests and the serve benchmark: requests written to
 * `output`, responses read from `input` in order.
 */
export type Json = Record<string, unknown>;

export class LineClient {
  readonly #output: Writable;
  readonly #lines: string[] = [];
  readonly #waiters: ((line: string | null) => void)[] = [];
  #partial = '';
  #ended = false;

  constructor(input: Readable, output: Writable) {
    this.#output = output;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      const parts = (this.#partial + chunk).split('\n');
      this.#partial = parts.pop() ?? '';
      for (const p of parts) this.#deliver(p);
    });
    input.on('end', () => {
      this.#ended = true;
      for (const w of this.#waiters.splice(0)) w(null);
    });
  }

  /** Writes request lines (objects as JSON, strings as they are) in one write. */
  send(...reqs: readonly unknown[]): void {
    this.#output.write(reqs.map((r) => `${typeof r === 'string' ? r : JSON.stringify(r)}\n`).join(''));
  }

  /** The next response line, parsed; null at the end of the stream. */
  next(): Promise<Json | null> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line) as Json);
    if (this.#ended) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiters.push((l) => { resolve(l === null ? null : JSON.parse(l) as Json); }));
  }

  /** One request, and its response. */
  async ask(req: unknown): Promise<Json> {
    this.send(req);
    const r = await this.next();
    if (r === null) throw new Error('the server closed the stream');
    return r;
  }

  #deliver(line: string): void {
    const w = this.#waiters.shift();
    if (w === undefined) this.#lines.push(line);
    else w(line);
  }
}

export interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The stdin/stdout client. */
  readonly stdio: LineClient;
  /** stderr so far. */
  stderr(): string;
  /** The exit code once it exits. */
  readonly exited: Promise<number | null>;
}

/** Spawns `riodp serve ARGS` (riodp-entry.ts). */
export function startServe(args: readonly string[] = []): ServeProcess {
  const child = spawn(process.execPath, [...RIODP_ARGS, 'serve', ...args], { stdio: 'pipe' });
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => { err += c; });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdio: new LineClient(child.stdout, child.stdin), stderr: () => err, exited };
}

/** Waits until `riodp serve --listen` printed its bound address; returns it. */
export async function listening(p: ServeProcess): Promise<string> {
  for (;;) {
    const m = /^riodp serve: listening on (.+)$/m.exec(p.stderr());
    if (m !== null) return m[1] as string;
    if (p.child.exitCode !== null) throw new Error(`riodp serve exited: ${p.stderr()}`);
    await once(p.child.stderr, 'data');
  }
}

/** A client on a `--listen` address as printed (HOST:PORT or a socket path). */
export async function connect(address: string): Promise<{ client: LineClient; close: () => void }> {
  const m = /^(?:\[(.+)\]|([^:]+)):(\d+)$/.exec(address);
  const socket = m === null ? createConnection(address) : createConnection({ host: m[1] ?? m[2] ?? '', port: Number(m[3]) });
  await once(socket, 'connect');
  return { client: new LineClient(socket, socket), close: () => socket.end() };
}
