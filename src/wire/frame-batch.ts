import type { LogicalCodec } from './codec.ts';
import { crc16Packets } from './crc16.ts';
import { WireError, WireErrorCode } from './errors.ts';
import { CLAUSE_FRAME, FRAME_HEADER_BYTES, FRAME_KIND, FRAME_LENGTH_BYTES, decodeFrame } from './frame.ts';
import { DEFAULT_MAX_FRAME_SIZE, MAX_MAX_FRAME_SIZE, MIN_MAX_FRAME_SIZE } from './frame-reader.ts';
import { DEFAULT_BATCH_CAPACITY, FRAME_DEFECT, FRAME_DEFECT_COUNT, FrameColumns, frameDefectOf } from './frame-batch-types.ts';
import type { FrameDefect } from './frame-batch-types.ts';
import { readId } from './header.ts';
import type { PacketDecodeOptions } from './header.ts';
import { SUPPORTED_FTYPES, codecFor } from './packet.ts';
import type { Packet } from './packet.ts';
import { EARLY_CRC_AT, MAX_SERIAL_PACKET, logicalLength, serialCrcsMatch, serialLength } from './serial.ts';
import { type9ParityAssumed } from './type9.ts';

export { DEFAULT_BATCH_CAPACITY, FRAME_DEFECT, FRAME_DEFECT_NAMES, T9_FLAG, frameDefectOf } from './frame-batch-types.ts';
export type { FrameDefect, T9Flag } from './frame-batch-types.ts';

/**
 * The receive-side frame batch of the fast data lane (issue 17, docs/fast-lane.md): a whole
 * socket chunk cut into riodp link frames (docs/net-framing.md §2) whose fields land in the
 * typed-array columns of FrameColumns, read in place from the chunk; no object per frame.
 *
 * Three passes over the chunk: (1) frame boundaries, kinds, the packet prefix and transport IDs
 * and the serial length checks; (2) the CRC-16s of every packet frame still good, in one call
 * (crc16Packets: the chunk staged into the WebAssembly kernel's memory once per window);
 * (3) the CRC comparisons and the logical checks, inline for Type 9, by the format's codec for
 * the other ftypes. Frames of the other kinds (symbols, HELLO, CLOSE, reserved) are checked by
 * decodeFrame: they are the control plane, a few per chunk.
 *
 * A frame is marked bad exactly when decodeFrame (lenient, 6-bit ackIDs, as a link decodes)
 * throws for it, with the defect `frameDefectOf` gives for its WireError; nothing is thrown.
 * A length of 0 or over `maxFrameSize` cannot be skipped (§2): parsing stops at that frame and
 * `error` says why, as FrameReader does. The batch holds offsets into the caller's chunk: its
 * columns describe that chunk until the next `parse`, and the chunk must not be reused before.
 */

export interface FrameBatchOptions {
  /** Most frames per parse, default 4096; parsing stops before the next frame when full. */
  readonly capacity?: number;
  /** Largest frame accepted, length field included; 287 to 65537, default 1024 (FrameReader's). */
  readonly maxFrameSize?: number;
}

const NO_OPTS: PacketDecodeOptions = Object.freeze({});
const CODECS: (LogicalCodec<Packet> | undefined)[] = Array.from({ length: 16 }, (_, f) => (SUPPORTED_FTYPES.includes(f) ? codecFor(f) : undefined));
const FTYPE_9 = 9;

/**
 * A reusable batch: `parse` a received chunk, then read the frames' fields from the columns by
 * index, `0` to `count - 1`.
 *
 * @example
 * ```ts
 * import { FRAME_DEFECT, FrameBatch, parseHex } from 'riodp/wire';
 *
 * // A chunk of two packet frames (a doorbell, then the same doorbell with a bad CRC) and 3 bytes of a third.
 * const chunk = parseHex('000d 01 000a05010007beef9f730000 000d 01 000a05010007beef9f740000 000d01');
 * const batch = new FrameBatch();
 * const used = batch.parse(chunk);
 * console.log(used, batch.count, batch.bad); // 30 2 1
 * if (batch.status[0] === FRAME_DEFECT.ok) console.log(batch.ftype[0], batch.destinationID[0], batch.sourceID[0]); // 10 5 1
 * ```
 */
export class FrameBatch extends FrameColumns {
  readonly maxFrameSize: number;
  /** Frames of the last parse. */
  count = 0;
  /** Bytes of the chunk taken by the last parse: whole frames only; the rest is the caller's to keep. */
  consumed = 0;
  /** Frames of the last parse by FRAME_DEFECT. */
  readonly defects = new Uint32Array(FRAME_DEFECT_COUNT);
  /** Why the stream cannot be read on (a fatal length field, at its offset in the chunk); null while in step. */
  error: WireError | null = null;
  // Pass 2's table: the packet frames whose CRCs are computed.
  readonly #crcAt: Uint32Array;
  readonly #crcN: Uint16Array;
  readonly #crcIdx: Uint32Array;
  readonly #crcOut: Uint32Array;
  /** Packets over 80 bytes decoded by a codec other than Type 9's are joined around the early CRC here. */
  readonly #joined = new Uint8Array(MAX_SERIAL_PACKET);

  constructor(opts: FrameBatchOptions = {}) {
    const capacity = opts.capacity ?? DEFAULT_BATCH_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    super(capacity);
    const max = opts.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    if (!Number.isInteger(max) || max < MIN_MAX_FRAME_SIZE || max > MAX_MAX_FRAME_SIZE) {
      throw new RangeError(`maxFrameSize must be an integer from ${MIN_MAX_FRAME_SIZE} to ${MAX_MAX_FRAME_SIZE}`);
    }
    this.maxFrameSize = max;
    this.#crcAt = new Uint32Array(capacity);
    this.#crcN = new Uint16Array(capacity);
    this.#crcIdx = new Uint32Array(capacity);
    this.#crcOut = new Uint32Array(capacity);
  }

  /** Frames of the last parse that are not ok. */
  get bad(): number {
    return this.count - (this.defects[FRAME_DEFECT.ok] as number);
  }

  /**
   * Parses the whole frames of chunk[offset, end) into the columns; returns the bytes consumed
   * (also in `consumed`). Less than `end - offset` when the chunk ends inside a frame, when the
   * batch is full, or at a fatal length (`error`); after a fatal length every parse returns 0.
   */
  parse(chunk: Uint8Array, offset = 0, end: number = chunk.length): number {
    if (!Number.isInteger(offset) || !Number.isInteger(end) || offset < 0 || end > chunk.length || offset > end) {
      throw new RangeError(`[${String(offset)}, ${String(end)}) is not inside ${chunk.length} bytes`);
    }
    this.defects.fill(0);
    this.count = 0;
    this.consumed = 0;
    if (this.error !== null) return 0;
    let i = offset;
    let m = 0;
    while (end - i >= FRAME_LENGTH_BYTES && this.count < this.capacity) {
      const len = ((chunk[i] as number) << 8) | (chunk[i + 1] as number);
      if (!this.#accept(len, i)) break;
      const fe = i + FRAME_LENGTH_BYTES + len;
      if (fe > end) break;
      const idx = this.count++;
      const kind = chunk[i + 2] as number;
      this.offset[idx] = i;
      this.length[idx] = fe - i;
      this.kind[idx] = kind;
      if (kind === FRAME_KIND.packet) {
        if (this.#packet(chunk, idx, i + FRAME_HEADER_BYTES, fe)) {
          this.#crcAt[m] = i + FRAME_HEADER_BYTES;
          this.#crcN[m] = this.logical[idx] as number;
          this.#crcIdx[m++] = idx;
        }
      } else {
        this.status[idx] = otherFrame(chunk, i, fe);
      }
      i = fe;
    }
    if (m > 0) {
      crc16Packets(chunk, this.#crcAt, this.#crcN, m, this.#crcOut);
      for (let j = 0; j < m; j++) this.#verify(chunk, this.#crcIdx[j] as number, this.#crcAt[j] as number, this.#crcOut[j] as number);
    }
    for (let k = 0; k < this.count; k++) (this.defects[this.status[k] as number] as number)++;
    this.consumed = i - offset;
    return this.consumed;
  }

  /** Clears a fatal error: the caller has resynchronised the stream (a new connection). */
  reset(): void {
    this.error = null;
  }

  #accept(length: number, at: number): boolean {
    if (length === 0) {
      this.error = new WireError(WireErrorCode.invalid, 'length', at, CLAUSE_FRAME.length, 'a frame length of 0 leaves no kind byte');
    } else if (FRAME_LENGTH_BYTES + length > this.maxFrameSize) {
      this.error = new WireError(WireErrorCode.range, 'length', at, CLAUSE_FRAME.length, `a frame of ${FRAME_LENGTH_BYTES + length} bytes exceeds the limit of ${this.maxFrameSize}`);
    } else {
      return true;
    }
    return false;
  }

  /**
   * Pass 1 for a packet frame with the serial packet at b[o, e): prefix and IDs in place, then
   * decodeSerialPacket's checks up to the CRC, in its order. True when the CRC is to be checked.
   */
  #packet(b: Uint8Array, idx: number, o: number, e: number): boolean {
    const total = e - o;
    if (total < 2) return this.#mark(idx, FRAME_DEFECT.truncated);
    const b0 = b[o] as number;
    const b1 = b[o + 1] as number;
    const tt = (b1 >> 4) & 3;
    const ftype = b1 & 0xf;
    this.ackID[idx] = b0 >> 2;
    this.vc[idx] = (b0 >> 1) & 1;
    this.crf[idx] = b0 & 1;
    this.prio[idx] = b1 >> 6;
    this.tt[idx] = tt;
    this.ftype[idx] = ftype;
    const codec = CODECS[ftype];
    if (codec === undefined) return this.#mark(idx, FRAME_DEFECT.unsupported);
    // Part 6 §2.3: 8 to 284 bytes, a multiple of 32 bits.
    if (total < 8) return this.#mark(idx, FRAME_DEFECT.truncated);
    if (total % 4 !== 0 || total > MAX_SERIAL_PACKET) return this.#mark(idx, FRAME_DEFECT.length);
    let odd: boolean;
    if (ftype === FTYPE_9 && tt !== 3) {
      // type9OddHalfwords inline (its checks: tt, then the header up to the flags byte).
      const size = tt === 0 ? 1 : tt === 1 ? 2 : 4;
      if (2 + 2 * size + 2 > total) return this.#mark(idx, FRAME_DEFECT.truncated);
      const flags = b[o + 2 + 2 * size + 1] as number;
      const header = 3 + size;
      odd = ((flags & 0x04 ? header + 2 : !(flags & 0xc0) ? header - 1 : !(flags & 0x40) ? header : header + ((flags >> 1) & 1)) & 1) === 1;
    } else {
      try {
        odd = codec.oddHalfwords(b, o, total < EARLY_CRC_AT ? total : EARLY_CRC_AT, NO_OPTS);
      } catch (err) {
        return this.#mark(idx, defect(err));
      }
    }
    let n = logicalLength(total, odd);
    if (serialLength(n) !== total) {
      // decodeSerial's other layout (LogicalCodec.parityAssumed), its CRC checked here.
      const other = logicalLength(total, !odd);
      if (ftype !== FTYPE_9 || !type9ParityAssumed(b, o, total < EARLY_CRC_AT ? total : EARLY_CRC_AT) || serialLength(other) !== total || !serialCrcsMatch(b, o, other)) {
        return this.#mark(idx, FRAME_DEFECT.length);
      }
      n = other;
    }
    this.logical[idx] = n;
    // Reached only with tt 0–2: oddHalfwords refuses 0b11.
    const size: 1 | 2 | 4 = tt === 0 ? 1 : tt === 1 ? 2 : 4;
    this.destinationID[idx] = 2 + 2 * size <= n ? readId(b, o + 2, size) : 0;
    this.sourceID[idx] = 2 + 2 * size <= n ? readId(b, o + 2 + size, size) : 0;
    this.status[idx] = FRAME_DEFECT.ok;
    return true;
  }

  #mark(idx: number, d: FrameDefect): false {
    this.status[idx] = d;
    return false;
  }

  /** Pass 3: the computed CRCs against the packet's (early CRC first), then the logical checks. */
  #verify(b: Uint8Array, idx: number, o: number, crcs: number): boolean {
    let n = this.logical[idx] as number;
    let crcAt = o + n;
    const ftype = this.ftype[idx] as number;
    let bad: FrameDefect = FRAME_DEFECT.ok;
    if (n > EARLY_CRC_AT) {
      const early = ((b[o + EARLY_CRC_AT] as number) << 8) | (b[o + EARLY_CRC_AT + 1] as number);
      if (crcs >>> 16 !== early) bad = FRAME_DEFECT.earlyCrc;
      crcAt += 2;
    }
    if (bad === FRAME_DEFECT.ok) {
      const crc = ((b[crcAt] as number) << 8) | (b[crcAt + 1] as number);
      if ((crcs & 0xffff) !== crc) bad = FRAME_DEFECT.crc;
    }
    if (bad !== FRAME_DEFECT.ok) {
      // decodeSerial's other layout (LogicalCodec.parityAssumed): a start or continuation of 4k + 2 bytes.
      const other = ftype === FTYPE_9 ? this.#otherLayout(b, o, n) : -1;
      if (other < 0) return this.#mark(idx, bad);
      n = other;
      this.logical[idx] = n;
    }
    if (ftype === FTYPE_9) return this.#type9(b, idx, o, n);
    const codec = CODECS[ftype] as LogicalCodec<Packet>;
    try {
      if (n <= EARLY_CRC_AT) {
        codec.decode(b, o, o + n, NO_OPTS);
      } else {
        const j = this.#joined;
        j.set(b.subarray(o, o + EARLY_CRC_AT), 0);
        j.set(b.subarray(o + EARLY_CRC_AT + 2, o + n + 2), EARLY_CRC_AT);
        codec.decode(j, 0, n, NO_OPTS);
      }
    } catch (err) {
      return this.#mark(idx, defect(err));
    }
    return true;
  }

  /** The logical length at the half-word parity `n` does not have, when it frames the same bytes with matching CRCs; else -1. */
  #otherLayout(b: Uint8Array, o: number, n: number): number {
    const total = serialLength(n);
    if (!type9ParityAssumed(b, o, total < EARLY_CRC_AT ? total : EARLY_CRC_AT)) return -1;
    const other = logicalLength(total, ((n >> 1) & 1) === 0);
    return serialLength(other) === total && serialCrcsMatch(b, o, other) ? other : -1;
  }

  /**
   * decodeType9's lenient checks (Part 10 §4.2 Table 4-1, Figures 4-1 to 4-5), in its order, on
   * the n logical bytes at b[o, …); the header fields all sit before the early CRC.
   */
  #type9(b: Uint8Array, idx: number, o: number, n: number): boolean {
    const tt = this.tt[idx] as number;
    const h = 2 + 2 * (tt === 0 ? 1 : tt === 1 ? 2 : 4);
    this.streamID[idx] = 0;
    this.t9Length[idx] = 0;
    this.payloadOffset[idx] = 0;
    this.payloadLength[idx] = 0;
    if (n < h + 2) return this.#mark(idx, FRAME_DEFECT.truncated);
    const flags = b[o + h + 1] as number;
    this.cos[idx] = b[o + h] as number;
    this.t9Flags[idx] = flags;
    if (flags & 0x04) {
      if (n < h + 4) return this.#mark(idx, FRAME_DEFECT.truncated);
      this.streamID[idx] = ((b[o + h + 2] as number) << 8) | (b[o + h + 3] as number);
      if (flags & 0x38) {
        if ((n - h - 4) & 1) return this.#mark(idx, FRAME_DEFECT.malformed);
        return this.#payload(idx, o, h + 4, n - h - 4);
      }
      // Figure 4-5: "The TM packet adds a fixed 4 bytes"; no payload.
      if (n < h + 8) return this.#mark(idx, FRAME_DEFECT.truncated);
      if (n !== h + 8) return this.#mark(idx, FRAME_DEFECT.malformed);
      return true;
    }
    const s = flags & 0x80;
    const e = flags & 0x40;
    if (!s && !e) {
      const raw = n - h - 2;
      if (raw & 1) return this.#mark(idx, FRAME_DEFECT.malformed);
      return this.#payload(idx, o, h + 2, raw);
    }
    if (n < h + 4) return this.#mark(idx, FRAME_DEFECT.truncated);
    const field = ((b[o + h + 2] as number) << 8) | (b[o + h + 3] as number);
    const raw = n - h - 4;
    if (raw & 1) return this.#mark(idx, FRAME_DEFECT.malformed);
    if (s) this.streamID[idx] = field;
    else this.t9Length[idx] = field;
    // Start segments and aborts run to the end; single and end segments drop the P pad byte.
    return this.#payload(idx, o, h + 4, e && flags & 0x01 && raw > 0 ? raw - 1 : raw);
  }

  #payload(idx: number, o: number, at: number, length: number): true {
    this.payloadOffset[idx] = o + at;
    this.payloadLength[idx] = length;
    return true;
  }
}

/**
 * Parses chunk[offset, end) into `batch` (FrameBatch.parse); returns the bytes consumed.
 *
 * @example
 * ```ts
 * import { FrameBatch, parseFrameBatch, parseHex } from 'riodp/wire';
 *
 * // The frames after a 4-byte application header of the buffer.
 * const buf = parseHex('cafe f00d 000d 01 000a05010007beef9f730000');
 * const batch = new FrameBatch({ capacity: 64 });
 * console.log(parseFrameBatch(buf, 4, buf.length, batch), batch.count, batch.offset[0]); // 15 1 4
 * ```
 */
export function parseFrameBatch(chunk: Uint8Array, offset: number, end: number, batch: FrameBatch): number {
  return batch.parse(chunk, offset, end);
}

/** A frame of a kind other than PACKET: decodeFrame's verdict. */
function otherFrame(b: Uint8Array, at: number, end: number): FrameDefect {
  try {
    decodeFrame(b, at, end);
    return FRAME_DEFECT.ok;
  } catch (err) {
    return defect(err);
  }
}

function defect(err: unknown): FrameDefect {
  if (err instanceof WireError) return frameDefectOf(err);
  throw err;
}
