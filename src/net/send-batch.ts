/**
 * The sending half of a link (docs/net-framing.md §4.4): frames encoded into one batch buffer and
 * written to the socket once per turn of the event loop, or sooner when the batch is full, so
 * that a burst of small frames (9-byte symbols) costs one socket write, not one each.
 *
 * `blocked` records that the socket refused more (`write` returned false: its buffer is over
 * the high-water mark); the link stops accepting frames until the socket's 'drain'. The bytes
 * held for sending are thus at most the high-water mark, the batch being written when the socket
 * pushed back, and the batch being filled.
 *
 * Packet frames are encoded without their CRCs (encodeSerialOpen), their place and logical length
 * recorded in typed-array columns; the CRCs of all of them are computed in one call
 * (crc16PacketsOpen: the WebAssembly kernel over the batch, issue 17 "WebAssembly CRC in every
 * encoder") and written in before the batch leaves, or when the columns are full. The bytes that
 * leave are those encodeFrame writes (Part 6 §2.4.1 CRCs, §2.3 pad), proved by
 * send-batch.prop.test.ts.
 */
import { crc16PacketsOpen } from '../wire/crc16.ts';
import { FRAME_HEADER_BYTES, FRAME_KIND, encodeFrame, frameLength } from '../wire/frame.ts';
import type { Frame } from '../wire/frame.ts';
import { codecFor } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { encodeSerialOpen, putSerialCrcs, serialLength } from '../wire/serial.ts';

/** Packets whose CRCs wait for one call: a 64 KiB batch holds ~235 maximum-size packet frames. */
const PENDING_CRCS = 256;

/** What a batch writes to: a socket. */
export interface FrameSinkSocket {
  readonly destroyed: boolean;
  /** `done`, when the socket calls it, says the chunk is no longer referenced (net.Socket: written out, or failed). */
  write(chunk: Uint8Array, done?: (error?: Error | null) => void): boolean;
}

/** Written batches kept for reuse once the socket is done with them (more would only be garbage). */
const SPARE_BATCHES = 4;

export class SendBatch {
  readonly #socket: FrameSinkSocket;
  #batch: Uint8Array;
  /** Batch buffers the socket has finished writing, ready to be filled again. */
  readonly #spare: Uint8Array[] = [];
  #used = 0;
  #queued = false;
  #blocked = false;
  #frames = 0;
  #bytes = 0;
  /** Packets encoded without CRCs: serial packet offset in the batch and logical bytes. */
  readonly #crcAt = new Uint32Array(PENDING_CRCS);
  readonly #crcN = new Uint16Array(PENDING_CRCS);
  readonly #crcOut = new Uint32Array(PENDING_CRCS);
  #pending = 0;
  readonly #task = (): void => {
    this.#queued = false;
    this.flush();
  };

  /** Sees the whole frames of each batch as it leaves (LinkOptions.tap). */
  readonly #sent: ((bytes: Uint8Array, start: number, end: number) => void) | null;

  constructor(socket: FrameSinkSocket, size: number, sent: ((bytes: Uint8Array, start: number, end: number) => void) | null = null) {
    this.#socket = socket;
    this.#batch = new Uint8Array(size);
    this.#sent = sent;
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
    const length = frameLength(frame);
    if (this.#used + length > this.#batch.length) this.flush();
    // A batch too small for the frame, or a kind that does not match its name: encodeFrame throws
    // (frame.ts checkKind: "Frames also arrive as JSON, so the pair is checked at run time").
    if (frame.kindName === 'packet' && (frame as { readonly kind: number }).kind === FRAME_KIND.packet && length <= this.#batch.length) {
      this.#addPacket(frame.packet);
    } else {
      this.#used = encodeFrame(frame, this.#batch, this.#used);
    }
    this.#frames++;
    this.#queue();
  }

  /** What encodeFrame writes for a packet frame, its CRCs left for #finishCrcs. */
  #addPacket(packet: Packet): void {
    const b = this.#batch;
    const at = this.#used;
    const bodyAt = at + FRAME_HEADER_BYTES;
    // encodeFrame's order: the codec's errors first (offsets into the batch, as encodeFrame's).
    const n = encodeSerialOpen(codecFor(packet.ftype, 0), packet, b, bodyAt, 6);
    const end = bodyAt + serialLength(n);
    const length = end - at - 2;
    b[at] = length >> 8;
    b[at + 1] = length & 0xff;
    b[at + 2] = FRAME_KIND.packet;
    const i = this.#pending;
    this.#crcAt[i] = bodyAt;
    this.#crcN[i] = n;
    this.#pending = i + 1;
    this.#used = end;
    if (i + 1 === PENDING_CRCS) this.#finishCrcs();
  }

  /** The CRCs of the packets added since the last call, in one pass over the batch. */
  #finishCrcs(): void {
    const count = this.#pending;
    if (count === 0) return;
    const b = this.#batch;
    const at = this.#crcAt;
    const n = this.#crcN;
    const out = this.#crcOut;
    crc16PacketsOpen(b, at, n, count, out, this.#used);
    for (let i = 0; i < count; i++) putSerialCrcs(b, at[i] as number, n[i] as number, out[i] as number);
    this.#pending = 0;
  }

  #queue(): void {
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
    this.#queue();
  }

  /**
   * Room for a writer of whole frames (issue 17: `Segmenter.pullInto` writing straight into the
   * batch): flushes first when fewer than `budget` bytes are free (`budget` clamped to the batch's
   * size), then calls `write(batch, offset, free)`, which writes whole frames, their CRCs in place,
   * into batch[offset, offset + free) and returns the bytes written. Returns that count. The
   * frames are counted in `frames` by walking their length fields (docs/net-framing.md §2), so the
   * writer need not report them; a count outside [0, free], or frames that do not end exactly at
   * it, throw a RangeError and leave the batch as it was, as does a writer that throws.
   */
  fill(budget: number, write: (buf: Uint8Array, offset: number, budget: number) => number): number {
    const size = this.#batch.length;
    if (size - this.#used < Math.min(Math.max(budget, 0), size)) this.flush();
    const at = this.#used;
    const free = size - at;
    const written = write(this.#batch, at, free);
    if (!Number.isInteger(written) || written < 0 || written > free) {
      throw new RangeError(`fill: the writer returned ${String(written)}, not a byte count in [0, ${free}]`);
    }
    if (written === 0) return 0;
    const b = this.#batch;
    const end = at + written;
    let frames = 0;
    let i = at;
    while (i + 2 <= end) {
      i += 2 + (((b[i] as number) << 8) | (b[i + 1] as number));
      frames++;
    }
    if (i !== end) throw new RangeError(`fill: the frames written end at ${i - at}, not at ${written}`);
    this.#used = end;
    this.#frames += frames;
    this.#queue();
    return written;
  }

  flush(): void {
    if (this.#used === 0) return;
    if (this.#socket.destroyed) {
      this.#used = 0;
      this.#pending = 0;
      return;
    }
    this.#finishCrcs();
    // The batch itself goes to the socket, which keeps it until it is written out; the next frames
    // go to a buffer the socket is done with, or a new one. Copying each batch out instead (slice)
    // cost a sending end point ~10 % of its time (issue 17 profile): a fresh ArrayBuffer
    // per flush and its copy.
    const buf = this.#batch;
    const out = new Uint8Array(buf.buffer, buf.byteOffset, this.#used);
    this.#sent?.(out, 0, out.length);
    this.#batch = this.#spare.pop() ?? new Uint8Array(buf.length);
    this.#used = 0;
    this.#bytes += out.length;
    if (!this.#socket.write(out, this.#recycle(buf))) this.#blocked = true;
  }

  /** The socket's write callback for `buf`: back to the spares, never while the socket may still read it. */
  #recycle(buf: Uint8Array): (error?: Error | null) => void {
    return () => {
      if (this.#spare.length < SPARE_BATCHES) this.#spare.push(buf);
    };
  }

  /** Drops what is not written yet (the peer has closed: nothing more is meant for it). */
  discard(): void {
    this.#used = 0;
    this.#pending = 0;
  }
}
