/**
 * The receiving half of a link on the fast lane (issue 17, docs/fast-lane.md §7): a socket chunk
 * parsed into one frame batch (src/wire/frame-batch.ts), its good Type 9 packet frames handed to
 * the link's owner in runs, by columns, every other frame (control symbols, other packets,
 * defects, HELLO, CLOSE) through the link's object path one at a time, all in stream order.
 *
 * The object path decodes such a frame again, so what it reports (the WireError of a bad frame,
 * the decoded symbol) is exactly what it reports without the fast lane (decision FL1).
 *
 * A chunk that ends inside a frame leaves its tail here; the frame it began is completed from the
 * next chunk into a buffer of its own (as FrameReader does), and the rest of that chunk is parsed
 * in place. The batch holds offsets into the chunk
 * it parsed, and the packets a run hands over may keep views of it, so a chunk (or joined
 * buffer) is never written again once parsed (§5).
 */
import { WireError } from '../wire/errors.ts';
import { FrameBatch } from '../wire/frame-batch.ts';
import { FRAME_DEFECT } from '../wire/frame-batch-types.ts';
import { FRAME_KIND, FRAME_LENGTH_BYTES } from '../wire/frame.ts';
import { FTYPE_DATA_STREAMING } from '../wire/type9.ts';

export interface BatchFeedHost {
  /** Whether runs of Type 9 frames may go to `run` now (the link is open). */
  fast(): boolean;
  /** One frame through the object path; false: stop (paused or ending). */
  frame(bytes: Uint8Array, offset: number, end: number): boolean;
  /** Frames [first, first + count) of `batch`, all good Type 9 packets; returns how many were taken (never 0 while going). */
  run(batch: FrameBatch, chunk: Uint8Array, first: number, count: number): number;
  /** After a run: whether to go on (not paused, not ending). */
  going(): boolean;
  /** Whether the link stopped for good (a CLOSE went or came): nothing more is kept. */
  ending(): boolean;
  /** The stream is out of step (riodp link §2): a fatal length, at its offset in the stream. */
  fatal(error: WireError): void;
}

/** What `feed` leaves: null when all was delivered (or dropped), else the bytes to hold, from the first frame not delivered. */
export type FeedRest = Uint8Array | null;

export class BatchFeeder {
  readonly batch: FrameBatch;
  /** The tail of the last chunk: the beginning of a frame. */
  #rest: Uint8Array | null = null;
  /** Stream offset of the first byte of the buffer being parsed (for a fatal length's offset, as FrameReader reports it). */
  #stream = 0;

  constructor(maxFrameSize: number, capacity = 1024) {
    this.batch = new FrameBatch({ capacity, maxFrameSize });
  }

  /** Bytes held for a frame not yet complete. */
  get buffered(): number {
    return this.#rest?.length ?? 0;
  }

  feed(data: Uint8Array, host: BatchFeedHost): FeedRest {
    // A plain view of a socket's Buffer: every subarray taken of it downstream (a payload copied
    // into its PDU, a held tail) is then the TypedArray builtin, not Buffer's constructor per call.
    const chunk = Object.getPrototypeOf(data) === Uint8Array.prototype ? data : new Uint8Array(data.buffer, data.byteOffset, data.length);
    const rest = this.#rest;
    if (rest === null) return this.#parse(chunk, 0, host);
    this.#rest = null;
    const need = frameNeed(rest, chunk, this.batch.maxFrameSize);
    // A bad length is parsed (and reported) from the joined bytes; so is a chunk too short to end the frame.
    if (need < 0 || need - rest.length > chunk.length) return this.#parse(concat(rest, chunk), 0, host);
    // Only the frame the tail began is joined: the new chunk's own frames are parsed where they are,
    // not copied (a 64 KiB chunk nearly always ends inside a frame).
    const take = need - rest.length;
    const held = this.#parse(concat(rest, chunk.subarray(0, take)), 0, host);
    if (host.ending()) return null;
    if (held !== null) return concat(held, chunk.subarray(take));
    if (!host.going()) return take < chunk.length ? chunk.subarray(take) : null;
    return this.#parse(chunk, take, host);
  }

  /** Delivers the frames of buf[from, …) (buf[from] is at stream offset #stream); keeps a trailing partial frame. */
  #parse(buf: Uint8Array, from: number, host: BatchFeedHost): FeedRest {
    const b = this.batch;
    let at = from;
    for (;;) {
      const used = b.parse(buf, at, buf.length);
      const n = b.count;
      let i = 0;
      while (i < n) {
        let j = i;
        if (host.fast()) while (j < n && b.kind[j] === FRAME_KIND.packet && b.status[j] === FRAME_DEFECT.ok && b.ftype[j] === FTYPE_DATA_STREAMING) j++;
        if (j > i) {
          // Frames not taken are offered again: now if the link still goes, else on resume.
          i += host.run(b, buf, i, j - i);
          if (!host.going()) return this.#stop(buf, from, i < n ? (b.offset[i] as number) : at + used, host);
          continue;
        }
        const o = b.offset[i] as number;
        i++;
        if (!host.frame(buf, o, o + (b.length[i - 1] as number))) return this.#stop(buf, from, i < n ? (b.offset[i] as number) : at + used, host);
      }
      at += used;
      if (b.error !== null) {
        const e = b.error;
        host.fatal(new WireError(e.code, e.field, this.#stream + e.offset - from, e.clause, e.detail));
        return null;
      }
      if (n < b.capacity || at >= buf.length) break;
    }
    this.#stream += at - from;
    if (at < buf.length) this.#rest = buf.subarray(at);
    return null;
  }

  /** Delivery stopped before `from`: a paused link holds buf[from, …); an ending one keeps nothing. */
  #stop(buf: Uint8Array, start: number, from: number, host: BatchFeedHost): FeedRest {
    this.#stream += from - start;
    // A fatal length after `from` is found again when the held bytes are parsed.
    this.batch.reset();
    if (host.ending() || from >= buf.length) return null;
    return buf.subarray(from);
  }
}

/** The whole length of the frame `rest` begins (its length field may end in `chunk`); -1 when that length is fatal or unknown. */
function frameNeed(rest: Uint8Array, chunk: Uint8Array, maxFrameSize: number): number {
  if (rest.length === 1 && chunk.length === 0) return -1;
  const length = ((rest[0] as number) << 8) | ((rest.length >= 2 ? rest[1] : chunk[0]) as number);
  return length === 0 || FRAME_LENGTH_BYTES + length > maxFrameSize ? -1 : FRAME_LENGTH_BYTES + length;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
