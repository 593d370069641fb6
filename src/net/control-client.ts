/**
 * The client side of the control channel (control-protocol.ts), used by `riodp send`, `recv`,
 * `status` and `read-reg`: one connection, requests numbered from 1, each answered by the line
 * naming its id; `recv` events go to the subscriber's callback.
 */
import { createConnection } from 'node:net';
import type { Socket } from 'node:net';
import type { EndpointStatus } from './api-types.ts';
import { LineSplitter } from './control-protocol.ts';

/**
 * The control connection failed: it could not connect, the socket errored, or the end point closed it.
 *
 * @example
 * ```ts
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { ControlClient, ControlError } from 'riodp/net';
 *
 * try {
 *   await ControlClient.connect(join(tmpdir(), 'riodp-no-such-endpoint.sock'));
 * } catch (e) {
 *   if (!(e instanceof ControlError)) throw e;
 *   console.log(e.message); // cannot connect to the control socket /tmp/riodp-no-such-endpoint.sock (ENOENT): is riodp endpoint running?
 * }
 * ```
 */
export class ControlError extends Error {}
Object.defineProperty(ControlError.prototype, 'name', { value: 'ControlError', writable: true, configurable: true });

interface Waiting {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * A client of the control socket of a running `riodp endpoint` (the channel `riodp send`, `recv`, `status`
 * and `read-reg` use).
 *
 * @example
 * ```ts
 * // example: not run (it needs a `riodp endpoint --config endpoint-1.yaml --control /tmp/riodp-endpoint-1.sock` process)
 * import { ControlClient } from 'riodp/net';
 *
 * const c = await ControlClient.connect('/tmp/riodp-endpoint-1.sock');
 * console.log(await c.request({ op: 'read-reg', to: 2, hop: 255, offset: 0x60 })); // { value: 16711682 }: node 2's Base Device ID CSR, 0x00FF0002 (Part 3 §3.5.1)
 * // Files peers send go into /tmp/in, one event each, until the connection ends:
 * await c.request({ op: 'recv', dir: '/tmp/in' }, (e) => { console.log(e['file']); });
 * await c.ended();
 * ```
 */
export class ControlClient {
  readonly #socket: Socket;
  readonly #waiting = new Map<number, Waiting>();
  readonly #subscribers = new Map<number, (e: Record<string, unknown>) => void>();
  #next = 1;
  #closed: Error | null = null;
  readonly #ended: Promise<void>;

  private constructor(socket: Socket) {
    this.#socket = socket;
    const lines = new LineSplitter();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      for (const line of lines.push(chunk)) this.#line(line);
    });
    this.#ended = new Promise((resolve) => {
      socket.on('close', () => {
        this.#closed ??= new ControlError('the end point closed the control connection');
        for (const [, w] of this.#waiting) w.reject(this.#closed);
        this.#waiting.clear();
        resolve();
      });
    });
    socket.on('error', (e) => {
      this.#closed = new ControlError(`control socket: ${e.message}`);
    });
  }

  /** Connects to the control socket of a running `riodp endpoint`. */
  static connect(path: string): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      const s = createConnection(path);
      s.once('connect', () => {
        s.off('error', reject);
        resolve(new ControlClient(s));
      });
      s.once('error', (e: NodeJS.ErrnoException) => {
        reject(new ControlError(`cannot connect to the control socket ${path}${e.code === undefined ? '' : ` (${e.code})`}: is riodp endpoint running?`));
      });
    });
  }

  #line(line: string): void {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const id = r['id'];
    if (typeof id !== 'number') return;
    if (r['event'] !== undefined) {
      this.#subscribers.get(id)?.(r);
      return;
    }
    const w = this.#waiting.get(id);
    if (w === undefined) return;
    this.#waiting.delete(id);
    if (r['ok'] === true) w.resolve(r['result']);
    else w.reject(new ControlError(String(r['error'])));
  }

  /** Sends a request (without id) and resolves with its result; rejects with the end point's error. */
  request(req: Record<string, unknown>, onEvent?: (e: Record<string, unknown>) => void): Promise<unknown> {
    if (this.#closed !== null) return Promise.reject(this.#closed);
    const id = this.#next++;
    if (onEvent !== undefined) this.#subscribers.set(id, onEvent);
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#socket.write(`${JSON.stringify({ ...req, id })}\n`);
    });
  }

  /** The end point's status (`RiodpEndpoint.status()`), as the `status` operation answers it. */
  async status(): Promise<EndpointStatus> {
    return (await this.request({ op: 'status' })) as EndpointStatus;
  }

  /** Resolves when the connection has ended. */
  ended(): Promise<void> {
    return this.#ended;
  }

  /** Ends the connection. */
  close(): void {
    this.#socket.end();
  }
}
