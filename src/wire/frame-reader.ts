import { WireError, WireErrorCode } from './errors.ts';
import { CLAUSE_FRAME, FRAME_LENGTH_BYTES, MAX_FRAME_LENGTH_FIELD, MAX_SENT_FRAME } from './frame.ts';

/**
 * Cuts a TCP byte stream into riodp link frames (docs/net-framing.md §2), whatever the chunking:
 * a chunk may hold many frames, a part of one, or the end of one and the start of the next.
 *
 * Copies only what it must: a frame that lies inside one chunk is handed over as a view of that
 * chunk; a frame split across chunks is gathered into a buffer of exactly its size, allocated
 * once its length is known and never reused (so views a decoder took of it stay valid). The
 * reader holds at most one incomplete frame, so at most `maxFrameSize` bytes (issue 8 §3 "a
 * flood does not grow memory without bound").
 *
 * A length of 0 or one that makes the frame larger than `maxFrameSize` cannot be skipped safely
 * (§2: the stream can no longer be trusted to be in step): the reader stops for good and
 * `error` says why, with `offset` counted in bytes from the start of the stream.
 */

/**
 * Frames a receiver accepts unless told otherwise: room for every frame riodp sends, and more.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_FRAME_SIZE, FrameReader } from 'riodp/wire';
 *
 * console.log(new FrameReader().maxFrameSize === DEFAULT_MAX_FRAME_SIZE, DEFAULT_MAX_FRAME_SIZE); // true 1024
 * ```
 */
export const DEFAULT_MAX_FRAME_SIZE = 1024;
/**
 * The limit cannot be set below the largest frame riodp sends, nor above what 16 bits can state.
 *
 * @example
 * ```ts
 * import { FrameReader, MIN_MAX_FRAME_SIZE, parseHex } from 'riodp/wire';
 *
 * // The tightest reader: a length field announcing a 1026-byte frame stops it for good.
 * const reader = new FrameReader({ maxFrameSize: MIN_MAX_FRAME_SIZE });
 * reader.push(parseHex('0400 01'), () => true);
 * console.log(MIN_MAX_FRAME_SIZE, reader.error?.detail); // 287 a frame of 1026 bytes exceeds the limit of 287
 * ```
 */
export const MIN_MAX_FRAME_SIZE = MAX_SENT_FRAME;
/**
 * The largest `maxFrameSize`: the whole 16-bit length field's reach.
 *
 * @example
 * ```ts
 * import { FrameReader, MAX_MAX_FRAME_SIZE } from 'riodp/wire';
 *
 * // A reader that accepts any frame the length field can describe.
 * const reader = new FrameReader({ maxFrameSize: MAX_MAX_FRAME_SIZE });
 * console.log(reader.maxFrameSize); // 65537
 * ```
 */
export const MAX_MAX_FRAME_SIZE = FRAME_LENGTH_BYTES + MAX_FRAME_LENGTH_FIELD;

/**
 * Receives one whole frame at bytes[offset, end), length field included. Returning false stops
 * the reader after this frame: `push` then returns how much of the chunk it consumed, and the
 * caller pushes the rest when it wants more (the link's receive backpressure).
 */
export type FrameSink = (bytes: Uint8Array, offset: number, end: number) => unknown;

/** Options of a `FrameReader`. */
export interface FrameReaderOptions {
  /** Largest frame accepted, length field included; 287 to 65537, default 1024. */
  readonly maxFrameSize?: number;
}

/**
 * Cuts a TCP byte stream into link frames (docs/net-framing.md): `push` each chunk as it arrives; the sink
 * gets every complete frame, length field included, and a frame split over chunks is put together.
 *
 * @example
 * ```ts
 * import { FrameReader, decodeFrame, parseHex } from 'riodp/wire';
 *
 * // A HELLO and a packet frame, arriving in two TCP chunks that split the packet frame.
 * const stream = parseHex('0006 10 52494f4401 000d 01 000a05010007beef9f730000');
 * const reader = new FrameReader();
 * const kinds: string[] = [];
 * const sink = (bytes: Uint8Array, start: number, end: number): void => void kinds.push(decodeFrame(bytes, start, end).kindName);
 * reader.push(stream.subarray(0, 12), sink);
 * console.log(kinds.join(' '), reader.buffered); // hello 4
 * reader.push(stream.subarray(12), sink);
 * console.log(kinds.join(' '), reader.position); // hello packet 23
 * ```
 */
export class FrameReader {
  readonly maxFrameSize: number;
  /** A frame begun in an earlier chunk, sized to it. */
  #pending: Uint8Array | null = null;
  #filled = 0;
  /** The first length byte, when a chunk ended right after it; -1 otherwise. */
  #head = -1;
  /** Stream offset of the next byte pushed. */
  #stream = 0;
  #error: WireError | null = null;

  constructor(opts: FrameReaderOptions = {}) {
    const max = opts.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < MIN_MAX_FRAME_SIZE || max > MAX_MAX_FRAME_SIZE) {
      throw new RangeError(`maxFrameSize must be an integer from ${MIN_MAX_FRAME_SIZE} to ${MAX_MAX_FRAME_SIZE}`);
    }
    this.maxFrameSize = max;
  }

  /** Why the reader stopped for good, or null while it is in step with the stream. */
  get error(): WireError | null {
    return this.#error;
  }

  /** Bytes held for a frame not yet complete. */
  get buffered(): number {
    return this.#pending !== null ? this.#filled : this.#head >= 0 ? 1 : 0;
  }

  /** Bytes of the stream consumed so far. */
  get position(): number {
    return this.#stream;
  }

  /**
   * Feeds a chunk; `sink` gets each complete frame in order. Returns the number of bytes of
   * `chunk` consumed: all of it, unless the sink returned false or the reader met a fatal length
   * (then `error` is set and nothing more is read).
   */
  push(chunk: Uint8Array, sink: FrameSink): number {
    if (this.#error !== null) return 0;
    const n = chunk.length;
    let i = 0;
    if (this.#head >= 0 && n > 0) {
      const length = (this.#head << 8) | (chunk[0] as number);
      if (!this.#accept(length, this.#stream - 1)) return 0;
      this.#pending = new Uint8Array(FRAME_LENGTH_BYTES + length);
      this.#pending[0] = this.#head;
      this.#pending[1] = chunk[0] as number;
      this.#filled = FRAME_LENGTH_BYTES;
      this.#head = -1;
      i = 1;
    }
    const pending = this.#pending;
    if (pending !== null) {
      const take = Math.min(pending.length - this.#filled, n - i);
      pending.set(chunk.subarray(i, i + take), this.#filled);
      this.#filled += take;
      i += take;
      if (this.#filled < pending.length) return this.#consumed(i);
      this.#pending = null;
      if (sink(pending, 0, pending.length) === false) return this.#consumed(i);
    }
    while (n - i >= FRAME_LENGTH_BYTES) {
      const length = ((chunk[i] as number) << 8) | (chunk[i + 1] as number);
      if (!this.#accept(length, this.#stream + i)) return this.#consumed(i);
      const end = i + FRAME_LENGTH_BYTES + length;
      if (end > n) {
        const frame = new Uint8Array(FRAME_LENGTH_BYTES + length);
        frame.set(chunk.subarray(i), 0);
        this.#pending = frame;
        this.#filled = n - i;
        return this.#consumed(n);
      }
      const at = i;
      i = end;
      if (sink(chunk, at, end) === false) return this.#consumed(i);
    }
    if (i < n) {
      this.#head = chunk[i] as number;
      i = n;
    }
    return this.#consumed(i);
  }

  #consumed(i: number): number {
    this.#stream += i;
    return i;
  }

  #accept(length: number, at: number): boolean {
    if (length === 0) {
      this.#error = new WireError(WireErrorCode.invalid, 'length', at, CLAUSE_FRAME.length, 'a frame length of 0 leaves no kind byte');
    } else if (FRAME_LENGTH_BYTES + length > this.maxFrameSize) {
      this.#error = new WireError(
        WireErrorCode.range,
        'length',
        at,
        CLAUSE_FRAME.length,
        `a frame of ${FRAME_LENGTH_BYTES + length} bytes exceeds the limit of ${this.maxFrameSize}`,
      );
    } else {
      return true;
    }
    this.#pending = null;
    this.#head = -1;
    return false;
  }
}
