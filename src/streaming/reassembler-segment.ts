import { EARLY_CRC_AT } from '../wire/serial.ts';
import { FRAME_HEADER_BYTES } from '../wire/frame.ts';
import type { FrameColumns } from '../wire/frame-batch-types.ts';
import type { Type9Packet } from '../wire/type9-types.ts';

/**
 * One received Type 9 segment as the reassembler's rules read it (Part 10 §3.2.5 reassembly rules
 * 1–9), filled either from a decoded packet (the object path) or from a frame batch's columns and
 * the chunk it was parsed from (the fast lane, issue 17, docs/fast-lane.md §8). The reassembler
 * keeps one and refills it per segment, so both paths run the very same rule code: what they
 * deliver and report can differ only in where the payload bytes are copied from.
 *
 * The payload is `src[from, from + length)`, except that for a frame the payload bytes at logical
 * positions ≥ 80 sit two bytes further on, after the early CRC (Part 6 §2.4.1 "the CRC shall be
 * inserted after the first 80 bytes"): `gap` is how many payload bytes come before that field
 * (`length` when the payload does not reach it). No view of `src` is kept past the call that
 * copies it (`copyTo`): a chunk's bytes are copied once into the PDU's buffer.
 */

export type SegmentKind = 'single' | 'start' | 'continuation' | 'end' | 'abort' | 'tm' | 'extended';

const EMPTY = new Uint8Array(0);
const FLAG_S = 0x80;
const FLAG_E = 0x40;
const FLAG_XH = 0x04;
const FLAG_XTYPE = 0x38;

export class SegmentIn {
  segment: SegmentKind = 'single';
  sourceID = 0;
  destinationID = 0;
  tt = 0;
  vc = 0;
  prio = 0;
  crf = 0;
  cos = 0;
  /** Start and single segments (and xh = 1 packets). */
  streamID = 0;
  /** End segments: the length field, 0 meaning 64 KiB (Part 10 §4.2 Table 4-1). */
  pduLength = 0;
  src: Uint8Array = EMPTY;
  from = 0;
  length = 0;
  gap = 0;
  /** The decoded packet on the object path (a single segment's PDU is delivered as a view of its payload there); null for a frame. */
  packet: Type9Packet | null = null;

  /** The object path: the segment is `p`. */
  fromPacket(p: Type9Packet): this {
    this.segment = p.segment;
    this.sourceID = p.sourceID;
    this.destinationID = p.destinationID;
    this.tt = p.tt;
    this.vc = p.vc;
    this.prio = p.prio;
    this.crf = p.crf;
    this.cos = p.cos;
    this.streamID = p.segment === 'start' || p.segment === 'single' || p.segment === 'tm' || p.segment === 'extended' ? p.streamID : 0;
    this.pduLength = p.segment === 'end' ? p.pduLength : 0;
    // JSON input (`riodp model`) may lack a payload: a segment of none, as the rules then read it.
    const payload = p.segment === 'tm' ? EMPTY : ((p as { payload?: Uint8Array }).payload ?? EMPTY);
    this.src = payload;
    this.from = 0;
    this.length = payload.length;
    this.gap = payload.length;
    this.packet = p;
    return this;
  }

  /**
   * The fast lane: frame `i` of `frames`, a good Type 9 packet frame (status ok) parsed from
   * `chunk`. Its segment type follows decodeType9 from the flags byte: xh = 1 is a TM packet
   * (xtype 0) or another extended one; S and E give single, start, continuation, end, and an end
   * with length field 0 and no payload is an abort (§4.2 "length 0 and no payload").
   */
  fromFrame(frames: FrameColumns, i: number, chunk: Uint8Array): this {
    const flags = frames.t9Flags[i] as number;
    const n = frames.payloadLength[i] as number;
    const field = frames.t9Length[i] as number;
    this.segment = flags & FLAG_XH ? (flags & FLAG_XTYPE ? 'extended' : 'tm')
      : flags & FLAG_S ? (flags & FLAG_E ? 'single' : 'start')
        : !(flags & FLAG_E) ? 'continuation' : field === 0 && n === 0 ? 'abort' : 'end';
    this.sourceID = frames.sourceID[i] as number;
    this.destinationID = frames.destinationID[i] as number;
    this.tt = frames.tt[i] as number;
    this.vc = frames.vc[i] as number;
    this.prio = frames.prio[i] as number;
    this.crf = frames.crf[i] as number;
    this.cos = frames.cos[i] as number;
    this.streamID = frames.streamID[i] as number;
    this.pduLength = field === 0 ? 0x10000 : field;
    const from = frames.payloadOffset[i] as number;
    // Logical byte 0 of the packet is the byte after the frame header.
    const before = (frames.offset[i] as number) + FRAME_HEADER_BYTES + EARLY_CRC_AT - from;
    this.src = chunk;
    this.from = from;
    this.length = n;
    this.gap = before > 0 && before < n ? before : n;
    this.packet = null;
    return this;
  }

  /** Copies the payload to dst[at, at + length). */
  copyTo(dst: Uint8Array, at: number): void {
    const { src, from, length, gap } = this;
    if (gap === length) {
      dst.set(src.subarray(from, from + length), at);
      return;
    }
    dst.set(src.subarray(from, from + gap), at);
    dst.set(src.subarray(from + gap + 2, from + length + 2), at + gap);
  }

  /** A single segment's PDU: the packet's payload itself on the object path, a new buffer holding a copy for a frame. */
  own(): Uint8Array {
    const p = this.packet;
    if (p !== null && p.segment !== 'tm') return p.payload;
    const b = new Uint8Array(this.length);
    this.copyTo(b, 0);
    return b;
  }

  /** Drops the references to the packet and the chunk (so that neither stays reachable from the reassembler). */
  clear(): void {
    this.src = EMPTY;
    this.packet = null;
  }
}
