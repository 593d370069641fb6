import { crc16PacketsOpen } from '../wire/crc16.ts';
import { FRAME_HEADER_BYTES, FRAME_KIND } from '../wire/frame.ts';
import { EARLY_CRC_AT, serialLength } from '../wire/serial.ts';
import type { Pdu } from './segmenter-queues.ts';

/**
 * The transmit side of the fast data lane (issue 17, docs/fast-lane.md §6): the next segment of
 * an active PDU written straight into a caller's buffer as a riodp link PACKET frame
 * (docs/net-framing.md §3.1: length(16) | kind 0x01 | LP-Serial packet), with no packet object
 * and no payload view: the header fields are the ones `segmentOf`/`abortSegment` give the object
 * path (ackID 0), the payload is copied once from the PDU, and the CRC-16 (and early CRC after
 * 80 bytes, Part 6 §2.4.1) is computed over the written bytes in place.
 *
 * The bytes equal `encodeFrame(packetFrame(segment))` for the segment the object path would
 * send (segmenter-pull-into.prop.test.ts holds them to it).
 */

/** Bytes of the PDU the next segment carries: rules 4, 7, 8 (filled to the MTU, the end ≤ MTU); 0 for the abort segment (rule 9). */
function dataBytes(p: Pdu, mtu: number): number {
  if (p.aborting) return 0;
  const rest = p.payload.length - p.offset;
  return rest < mtu ? rest : mtu;
}

/** Logical bytes: prefix, IDs, cos and flags, streamID/length unless a continuation, payload, P pad byte. */
function logicalBytes(p: Pdu, mtu: number): number {
  const ids = p.tt === 0 ? 2 : p.tt === 1 ? 4 : 8;
  if (p.aborting) return 6 + ids;
  const rest = p.payload.length - p.offset;
  if (rest > mtu) return (p.offset === 0 ? 6 : 4) + ids + mtu;
  return 6 + ids + rest + (rest & 1);
}

/**
 * The whole frame the PDU's next segment takes (3 + serialLength), `mtu` being the MTU it is cut
 * with (the PDU's own once started; the one it would start with otherwise).
 */
export function segmentFrameLength(p: Pdu, mtu: number): number {
  return FRAME_HEADER_BYTES + serialLength(logicalBytes(p, mtu));
}

/**
 * Writes the next segment of the started PDU `p` (its `offset`, `mtu`, `aborting`) as a PACKET
 * frame at buf[at …]; returns the offset after it. Changes nothing in `p`: the caller advances it.
 * The caller has checked that segmentFrameLength(p, p.mtu) bytes fit. The CRC fields are left to
 * `crcs` (written at the latest by its `flush`, which the caller calls before handing buf on).
 */
export function writeSegmentFrame(p: Pdu, buf: Uint8Array, at: number, crcs: SegmentCrcs): number {
  const mtu = p.mtu;
  const n = logicalBytes(p, mtu);
  const serial = serialLength(n);
  const length = 1 + serial;
  buf[at] = length >> 8;
  buf[at + 1] = length & 0xff;
  buf[at + 2] = FRAME_KIND.packet;
  const q = at + FRAME_HEADER_BYTES;
  // Part 6 §2.3 Figure 2-2 with ackID 0: ackID(6) VC CRF | prio(2) tt(2) ftype(4).
  buf[q] = (p.vc << 1) | p.crf;
  buf[q + 1] = (p.prio << 6) | (p.tt << 4) | 9;
  let h = q + 2;
  h = writeId(p.destinationID, p.tt, buf, h);
  h = writeId(p.sourceID, p.tt, buf, h);
  buf[h] = p.cos;
  const total = p.payload.length;
  const from = p.offset;
  const data = dataBytes(p, mtu);
  const last = p.aborting || total - from <= mtu;
  // Table 4-1/4-2 flags S E rsrv(3) xh O P; O/P for single and end segments only.
  const s = p.aborting ? 0 : from === 0 ? 1 : 0;
  const e = last ? 1 : 0;
  const odd = last ? ((data + 1) >> 1) & 1 : 0;
  const pad = last ? data & 1 : 0;
  buf[h + 1] = (s << 7) | (e << 6) | (odd << 1) | pad;
  h += 2;
  if (s === 1) {
    buf[h] = p.streamID >> 8;
    buf[h + 1] = p.streamID & 0xff;
    h += 2;
  } else if (e === 1) {
    // "0x0000 - 64kbytes"; an abort's length is 0 (rule 9).
    const field = p.aborting ? 0 : total & 0xffff;
    buf[h] = field >> 8;
    buf[h + 1] = field & 0xff;
    h += 2;
  }
  // The payload, copied once; logical bytes from 80 on sit after the early CRC's two bytes.
  const split = n > EARLY_CRC_AT ? q + EARLY_CRC_AT : -1;
  const src = p.payload;
  let d = h;
  if (split < 0) {
    copy(src, from, from + data, buf, d);
    d += data;
  } else {
    const first = Math.min(data, split - h);
    copy(src, from, from + first, buf, d);
    copy(src, from + first, from + data, buf, split + 2);
    d = data > first ? split + 2 + data - first : d + first;
  }
  if (pad === 1) {
    if (d === split) d += 2;
    buf[d++] = 0;
  }
  // Part 6 §2.4.1/§2.4.2: the CRC fields are written by crcs.flush, all packets in one pass.
  const crcAt = split < 0 ? q + n : q + n + 2;
  crcs.add(q, n, buf);
  const stop = q + serial;
  // Part 6 §2.3: a 0x0000 pad to a 32-bit boundary.
  if (crcAt + 2 < stop) {
    buf[crcAt + 2] = 0;
    buf[crcAt + 3] = 0;
  }
  return stop;
}

/** Part 3 §2.4: 1, 2 or 4 bytes, big-endian. */
function writeId(v: number, tt: number, buf: Uint8Array, at: number): number {
  if (tt === 0) {
    buf[at] = v & 0xff;
    return at + 1;
  }
  if (tt === 1) {
    buf[at] = (v >>> 8) & 0xff;
    buf[at + 1] = v & 0xff;
    return at + 2;
  }
  buf[at] = v >>> 24;
  buf[at + 1] = (v >>> 16) & 0xff;
  buf[at + 2] = (v >>> 8) & 0xff;
  buf[at + 3] = v & 0xff;
  return at + 4;
}

/*
 * DataViews of the last PDU payload and the last buffer, made once per PDU and per buffer (not per
 * segment): the copy goes four bytes at a time through them. `set` would need a view per segment.
 * The cache holds on to one payload and one buffer until the next ones replace them.
 */
let srcArray: Uint8Array | null = null;
let srcView: DataView = new DataView(new ArrayBuffer(0));
let dstArray: Uint8Array | null = null;
let dstView = srcView;

/** src[from, to) to dst[at …]. */
function copy(src: Uint8Array, from: number, to: number, dst: Uint8Array, at: number): void {
  if (src !== srcArray) {
    srcArray = src;
    srcView = new DataView(src.buffer, src.byteOffset, src.byteLength);
  }
  if (dst !== dstArray) {
    dstArray = dst;
    dstView = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  }
  const s = srcView;
  const d = dstView;
  let i = from;
  let j = at;
  for (const stop = to - 3; i < stop; i += 4, j += 4) d.setUint32(j, s.getUint32(i));
  for (; i < to; i++, j++) dst[j] = src[i] as number;
}

/**
 * The CRC-16s of the packets written since the last flush, computed in one pass over the buffer
 * (crc16PacketsOpen: the WebAssembly kernel on the buffer staged once per window, not per packet)
 * and written into their fields (Part 6 §2.4.1: early CRC after byte 80, final CRC after the last
 * logical byte). Scratch columns are allocated once; a full batch flushes itself.
 */
export class SegmentCrcs {
  readonly #at: Uint32Array;
  readonly #n: Uint16Array;
  readonly #out: Uint32Array;
  #count = 0;
  #end = 0;

  constructor(capacity = 256) {
    this.#at = new Uint32Array(capacity);
    this.#n = new Uint16Array(capacity);
    this.#out = new Uint32Array(capacity);
  }

  /** The packet of n logical bytes at buf[q …], its early CRC gap open when n > 80. */
  add(q: number, n: number, buf: Uint8Array): void {
    const i = this.#count;
    this.#at[i] = q;
    this.#n[i] = n;
    this.#count = i + 1;
    this.#end = q + n + (n > EARLY_CRC_AT ? 4 : 2);
    if (this.#count === this.#at.length) this.flush(buf);
  }

  flush(buf: Uint8Array): void {
    const count = this.#count;
    if (count === 0) return;
    const at = this.#at;
    const n = this.#n;
    const out = this.#out;
    crc16PacketsOpen(buf, at, n, count, out, this.#end);
    for (let i = 0; i < count; i++) {
      const q = at[i] as number;
      const len = n[i] as number;
      const c = out[i] as number;
      if (len > EARLY_CRC_AT) {
        buf[q + EARLY_CRC_AT] = c >>> 24;
        buf[q + EARLY_CRC_AT + 1] = (c >>> 16) & 0xff;
        buf[q + len + 2] = (c >>> 8) & 0xff;
        buf[q + len + 3] = c & 0xff;
      } else {
        buf[q + len] = (c >>> 8) & 0xff;
        buf[q + len + 1] = c & 0xff;
      }
    }
    this.#count = 0;
  }
}
