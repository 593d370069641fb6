/**
 * The receiving side of a Link: socket chunks cut into frames (by the FrameReader one at a time,
 * or by the fast lane's BatchFeeder in runs, link-batch.ts) and the pause that stops delivery at a
 * frame boundary. While paused the rest of the chunk is kept (a view, not a copy) and the socket
 * is not read, so TCP's window pushes back on the peer's sender (docs/net-framing.md §4.4,
 * issue 8 §3 "a flood does not grow memory without bound").
 *
 * Separate from link.ts: what becomes of received bytes (fed, held, dropped) is a state of its own;
 * the link decides what each frame means, opens, closes and sends.
 */
import type { Socket } from 'node:net';
import { FrameReader } from '../wire/frame-reader.ts';
import { BatchFeeder } from './link-batch.ts';
import type { BatchFeedHost } from './link-batch.ts';

export class LinkReceiver {
  readonly #socket: Socket;
  readonly #reader: FrameReader;
  /** The fast lane's reader (link-batch.ts), when the handlers take runs of frames (`onFrames`). */
  readonly #feeder: BatchFeeder | null;
  readonly #host: BatchFeedHost;
  /** The object path's sink (FrameReader.push): `host.frame`, one whole frame; returns whether to go on. */
  readonly #sink: BatchFeedHost['frame'];
  #paused = false;
  #held: Uint8Array | null = null;

  constructor(socket: Socket, maxFrameSize: number, batched: boolean, host: BatchFeedHost) {
    this.#socket = socket;
    this.#reader = new FrameReader({ maxFrameSize });
    this.#feeder = batched ? new BatchFeeder(maxFrameSize) : null;
    this.#host = host;
    this.#sink = (bytes, offset, end) => host.frame(bytes, offset, end);
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Whether received chunks are parsed into frame batches (the fast lane). */
  get batched(): boolean {
    return this.#feeder !== null;
  }

  /** Bytes of received data held while paused. */
  get held(): number {
    return this.#held?.length ?? 0;
  }

  /** Stops delivering frames after the current one and stops reading the socket. */
  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    this.#socket.pause();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    const held = this.#held;
    this.#held = null;
    if (held !== null) this.feed(held);
    // A handler may have paused the link again while the held data was delivered.
    if (!this.paused && !this.#socket.destroyed) this.#socket.resume();
  }

  feed(chunk: Uint8Array): void {
    const host = this.#host;
    // §4.3: after a CLOSE went or came nothing more is delivered, so the rest of the stream is not
    // cut into frames; cutting it from wherever the last delivered frame ended would misread it.
    if (host.ending()) return;
    if (this.#paused) {
      // Data the socket had already read when it was paused: kept, in order, for resume().
      this.#held = this.#held === null ? chunk : concat(this.#held, chunk);
      return;
    }
    if (this.#feeder !== null) {
      const rest = this.#feeder.feed(chunk, host);
      if (rest !== null && this.paused) this.#held = rest;
      return;
    }
    let rest = chunk;
    for (;;) {
      const used = this.#reader.push(rest, this.#sink);
      const err = this.#reader.error;
      if (err !== null) {
        host.fatal(err);
        return;
      }
      if (used === rest.length || host.ending()) return;
      rest = rest.subarray(used);
      // The sink stopped: a handler paused the link.
      if (this.paused) {
        this.#held = rest;
        return;
      }
    }
  }

  /**
   * A closing link reads on (and drops what it reads) so that the peer's FIN arrives; a paused
   * socket would otherwise hold the link open until the close timeout.
   */
  drainUnread(): void {
    this.#held = null;
    if (!this.#paused) return;
    this.#paused = false;
    if (!this.#socket.destroyed) this.#socket.resume();
  }

  /** The connection ended: nothing held is ever delivered. */
  drop(): void {
    this.#held = null;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
