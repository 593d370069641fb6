/**
 * The sending half of a link (docs/net-framing.md §4.4): frames encoded into one batch buffer and
 * written to the socket once per turn of the event loop, or sooner when the batch is full, so
 * that a burst of small frames (9-byte symbols) costs one socket write, not one each.
 *
 * `blocked` records that the socket refused more (`write` returned false: its buffer is over
 * the high-water mark); the link stops accepting frames until the socket's 'drain'. The bytes
 * held for sending are thus at most the high-water mark, the batch being written when the socket
 * pushed back, and the batch being filled.
 */
import { FRAME_HEADER_BYTES, FRAME_KIND, encodeFrame, frameLength } from '../wire/frame.ts';
import type { Frame } from '../wire/frame.ts';

/** What a batch writes to: a socket. */
export interface FrameSinkSocket {
  readonly destroyed: boolean;
  write(chunk: Uint8Array): boolean;
}

export class SendBatch {
  readonly #socket: FrameSinkSocket;
  readonly #batch: Uint8Array;
  #used = 0;
  #queued = false;
  #blocked = false;
  #frames = 0;
  #bytes = 0;
  readonly #task = (): void => {
    this.#queued = false;
    this.flush();
  };

  constructor(socket: FrameSinkSocket, size: number) {
    this.#socket = socket;
    this.#batch = new Uint8Array(size);
  }

  /** The socket refused more; cleared by `drained()`. */
  get blocked(): boolean {
    return this.#blocked;
  }

  /** Frames accepted and bytes handed to the socket, for the link's counters. */
  get frames(): number {
    return this.#frames;
  }

  get bytes(): number {
    return this.#bytes;
  }

  drained(): void {
    this.#blocked = false;
  }

  /** Encodes `frame` into the batch; a frame that does not encode throws its WireError and leaves the batch as it was. */
  add(frame: Frame): void {
    if (this.#used + frameLength(frame) > this.#batch.length) this.flush();
    this.#used = encodeFrame(frame, this.#batch, this.#used);
    this.#frames++;
    if (!this.#queued) {
      this.#queued = true;
      queueMicrotask(this.#task);
    }
  }

  /**
   * A packet frame around serial packet bytes[start, end) as they are (src/wire/received-bytes.ts: bytes a
   * packet was received in, which the encoder would write again): the same frame `add` writes
   * for that packet, without encoding it.
   */
  addPacketBytes(bytes: Uint8Array, start: number, end: number): void {
    const body = end - start;
    if (this.#used + FRAME_HEADER_BYTES + body > this.#batch.length) this.flush();
    const b = this.#batch;
    const at = this.#used;
    const length = 1 + body;
    b[at] = length >> 8;
    b[at + 1] = length & 0xff;
    b[at + 2] = FRAME_KIND.packet;
    // A view built directly: subarray would look up the species constructor of a Buffer.
    b.set(new Uint8Array(bytes.buffer, bytes.byteOffset + start, body), at + FRAME_HEADER_BYTES);
    this.#used = at + FRAME_HEADER_BYTES + body;
    this.#frames++;
    if (!this.#queued) {
      this.#queued = true;
      queueMicrotask(this.#task);
    }
  }

  // ---- issue 17 (branch fast-tx): frames a caller writes in place (Link.fill) ----

  /** The batch's buffer, written in place between `reserve` and `commit`. */
  get buffer(): Uint8Array {
    return this.#batch;
  }

  /** Where the batch's free room starts; the batch is flushed first when less than `room` bytes are free. */
  reserve(room: number): number {
    if (this.#batch.length - this.#used < room) this.flush();
    return this.#used;
  }

  /** `bytes` of whole frames, `frames` of them, were written at the offset `reserve` gave. */
  commit(bytes: number, frames: number): void {
    if (bytes <= 0) return;
    this.#used += bytes;
    this.#frames += frames;
    if (!this.#queued) {
      this.#queued = true;
      queueMicrotask(this.#task);
    }
  }

  // ---- end of issue 17 (fast-tx) ----

  flush(): void {
    if (this.#used === 0) return;
    if (this.#socket.destroyed) {
      this.#used = 0;
      return;
    }
    // A copy, so the batch is reused; the socket keeps what it could not write yet.
    const out = this.#batch.slice(0, this.#used);
    this.#used = 0;
    this.#bytes += out.length;
    if (!this.#socket.write(out)) this.#blocked = true;
  }

  /** Drops what is not written yet (the peer has closed: nothing more is meant for it). */
  discard(): void {
    this.#used = 0;
  }
}
