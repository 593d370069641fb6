/**
 * A stand-in for the `net.Socket` a Link runs on, for tests that feed it chosen chunks: what the
 * link writes is recorded, `pause`/`resume` are flags, `emit('data', chunk)` delivers.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

export class FakeSocket extends EventEmitter {
  readonly written: Uint8Array[] = [];
  destroyed = false;
  isPaused = false;
  ended = false;
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 1;

  setNoDelay(): this {
    return this;
  }

  write(chunk: Uint8Array): boolean {
    this.written.push(chunk);
    return true;
  }

  pause(): this {
    this.isPaused = true;
    return this;
  }

  resume(): this {
    this.isPaused = false;
    return this;
  }

  end(): this {
    this.ended = true;
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    queueMicrotask(() => this.emit('close'));
    return this;
  }

  /** Typed as the socket a Link takes. */
  get socket(): Socket {
    return this as unknown as Socket;
  }
}
