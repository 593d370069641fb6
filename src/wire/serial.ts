import { crc16Packet, crc16Split, crc16Update } from './crc16.ts';
import { WireError, WireErrorCode, checkRange, need } from './errors.ts';
import type { LogicalCodec } from './codec.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';

/**
 * LP-Serial packet framing (Part 6 §2.3–§2.5): CRC-16 over the packet with the ackID bits
 * taken as zero, an early CRC after the first 80 bytes of longer packets (the running CRC not
 * re-initialised), and a 0x0000 pad to a 32-bit boundary.
 */
export const EARLY_CRC_AT = 80;
/**
 * "The maximum transmitted packet size permitted by the LP-Serial specification shall be 284 bytes"
 *
 * @example
 * ```ts
 * import { MAX_SERIAL_PACKET, MESSAGE_MAX_SEGMENT, TT, messageSegment, serialPacketLength } from 'riodp/wire';
 *
 * // The largest message segment with 32-bit device IDs still fits on an LP-Serial link.
 * const payload = new Uint8Array(MESSAGE_MAX_SEGMENT);
 * const p = messageSegment({ tt: TT.dev32, destinationID: 0x10000, sourceID: 1, letter: 0, mailbox: 0, payload });
 * console.log(serialPacketLength(p), serialPacketLength(p) <= MAX_SERIAL_PACKET); // 272 true
 * ```
 */
export const MAX_SERIAL_PACKET = 284;

const CLAUSE_CRC = 'Part 6 §2.4.1';
const CLAUSE_LEN = 'Part 6 §2.3';
const CLAUSE_MAX = 'Part 6 §2.5';

/** The fields of a packet's serial framing (Part 6 §2.4–§2.5). */
export interface SerialFields {
  /** The final CRC-16. */
  readonly crc: number;
  /** The CRC inserted after byte 80 of packets longer than 80 bytes. */
  readonly earlyCrc?: number;
  /**
   * The pad's value when it is not 0x0000 (Part 6 §2.3 "a two byte pad of all logic 0s"): kept by
   * lenient decoding, absent otherwise, so that the packet re-encodes bit for bit; strict
   * decoding refuses it. The pad is outside both CRCs, so nothing else tells it.
   */
  readonly rsrvPad?: number;
}

/** Bytes on the wire for a logical packet of `n` bytes: CRC(s) plus pad to 32 bits. */
export function serialLength(n: number): number {
  const withCrc = n + 2 + (n > EARLY_CRC_AT ? 2 : 0);
  return (withCrc + 3) & ~3;
}

/**
 * Locates the logical packet inside a serial packet of `total` bytes. With `total` a multiple
 * of four there is at most one layout per half-word parity of the logical length:
 * odd → no pad and one CRC, or pad and two CRCs; even → pad and one CRC, or no pad and two.
 * An odd packet is never framed in 84 bytes (78 logical bytes take 80, 82 take 88): callers
 * check the result with `serialLength`.
 */
export function logicalLength(total: number, odd: boolean): number {
  if (odd) return total - 2 <= EARLY_CRC_AT ? total - 2 : total - 6;
  return total - 4;
}

/** The default options, shared so that a call without options allocates nothing. */
const NO_OPTS: PacketDecodeOptions = Object.freeze({});

/**
 * A whole LP-Serial packet at bytes[offset, end): CRC(s) verified, pad removed. Packets of 80
 * logical bytes or less are decoded in place, so payloads are views of `bytes`; longer ones are
 * decoded from a copy joined around the early CRC, so payloads are views of that copy, which
 * belongs to the result alone (nothing writes to it again).
 */
export function decodeSerial<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  bytes: Uint8Array,
  offset: number,
  end: number,
  opts: PacketDecodeOptions = NO_OPTS,
): P & SerialFields {
  const total = end - offset;
  need(end, offset, 8, 'packet', CLAUSE_LEN);
  if (total % 4 !== 0) {
    throw new WireError(WireErrorCode.invalid, 'length', end, CLAUSE_LEN, `${total} bytes is not a multiple of 32 bits`);
  }
  if (total > MAX_SERIAL_PACKET) {
    throw new WireError(WireErrorCode.invalid, 'length', offset + MAX_SERIAL_PACKET, CLAUSE_MAX, `${total} bytes exceeds 284`);
  }
  const available = total < EARLY_CRC_AT ? total : EARLY_CRC_AT;
  const odd = codec.oddHalfwords(bytes, offset, available, opts);
  const n = logicalLength(total, odd);
  // Otherwise bytes past the pad would go unread: a packet of 78 logical bytes framed in 84.
  const fits = serialLength(n) === total;
  try {
    if (!fits) throw new WireError(WireErrorCode.invalid, 'length', end, CLAUSE_LEN, `${total} bytes cannot frame a packet of an odd number of half-words`);
    return decodeLayout(codec, bytes, offset, end, n, opts);
  } catch (e) {
    // Only the assumed layout's CRC or length failing sends a packet to the other layout.
    if (!(e instanceof WireError) || (fits && e.code !== WireErrorCode.crc) || codec.parityAssumed?.(bytes, offset, available) !== true) throw e;
    const other = logicalLength(total, !odd);
    if (serialLength(other) !== total || !serialCrcsMatch(bytes, offset, other)) throw e;
    return decodeLayout(codec, bytes, offset, end, other, opts);
  }
}

/**
 * Whether the CRC(s) of a serial packet of `n` logical bytes at bytes[offset, …) match: the one at
 * its end, and past 80 bytes the early CRC too (Part 6 §2.4.1). For the layout a format only
 * assumes (`LogicalCodec.parityAssumed`), when the CRC at the assumed one failed.
 */
export function serialCrcsMatch(bytes: Uint8Array, offset: number, n: number): boolean {
  let crcAt = offset + n;
  let c: number;
  if (n > EARLY_CRC_AT) {
    const at = offset + EARLY_CRC_AT;
    c = crc16Packet(bytes, offset, at);
    if (c !== (((bytes[at] as number) << 8) | (bytes[at + 1] as number))) return false;
    crcAt += 2;
    c = crc16Update(c, bytes, at, crcAt);
  } else {
    c = crc16Packet(bytes, offset, crcAt);
  }
  return c === (((bytes[crcAt] as number) << 8) | (bytes[crcAt + 1] as number));
}

/** The serial packet at bytes[offset, end) laid out as `n` logical bytes, CRC(s) and pad. */
function decodeLayout<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  bytes: Uint8Array,
  offset: number,
  end: number,
  n: number,
  opts: PacketDecodeOptions,
): P & SerialFields {
  if (n > EARLY_CRC_AT) return decodeSplit(codec, bytes, offset, end, n, opts);
  const crcAt = offset + n;
  const c = crc16Packet(bytes, offset, crcAt);
  const crc = ((bytes[crcAt] as number) << 8) | (bytes[crcAt + 1] as number);
  if (c !== crc) throw crcError('crc', crcAt, crc, c);
  const pad = padOf(bytes, crcAt + 2, end, opts);
  // The codec's result is a fresh object owned by this call: extend it rather than copy it.
  const framed = codec.decode(bytes, offset, crcAt, opts) as P & { crc: number; rsrvPad?: number };
  framed.crc = crc;
  if (pad !== 0) framed.rsrvPad = pad;
  return framed;
}

/**
 * Joined copies of split packets are carved from shared slabs, never reused: a payload view
 * stays valid for as long as it is referenced, and one slab allocation (zeroed, so no stale
 * memory is reachable through `payload.buffer`) serves dozens of packets instead of one
 * ArrayBuffer each. A retained payload keeps its whole slab alive, as a pooled Buffer does.
 */
const SLAB_BYTES = 16 * 1024;
let slab = new Uint8Array(0);
let slabUsed = 0;

/** A packet longer than 80 bytes: early CRC after byte 80, logical fields joined around it. */
function decodeSplit<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  bytes: Uint8Array,
  offset: number,
  end: number,
  n: number,
  opts: PacketDecodeOptions,
): P & SerialFields {
  if (slabUsed + MAX_SERIAL_PACKET > slab.length) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  const pos = slabUsed;
  const s = slab;
  // Both CRCs and the join in one call, which may write up to 284 bytes from pos.
  const crcs = crc16Split(bytes, offset, n, s, pos);
  const at = offset + EARLY_CRC_AT;
  const earlyCrc = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
  if (crcs >>> 16 !== earlyCrc) throw crcError('earlyCrc', at, earlyCrc, crcs >>> 16);
  const crcAt = offset + n + 2;
  const crc = ((bytes[crcAt] as number) << 8) | (bytes[crcAt + 1] as number);
  if ((crcs & 0xffff) !== crc) throw crcError('crc', crcAt, crc, crcs & 0xffff);
  const pad = padOf(bytes, crcAt + 2, end, opts);
  let packet: P;
  try {
    packet = codec.decode(s, pos, pos + n, opts);
  } catch (e) {
    if (e instanceof WireError) {
      // Back to the caller's bytes: fields past the early CRC sit two bytes further on.
      const rel = e.offset - pos;
      throw new WireError(e.code, e.field, offset + (rel >= EARLY_CRC_AT ? rel + 2 : rel), e.clause, e.detail);
    }
    throw e;
  }
  // Claimed only now: a failed decode leaves no view behind, so its bytes can be reused.
  slabUsed = pos + n;
  const framed = packet as P & { crc: number; earlyCrc: number; rsrvPad?: number };
  framed.crc = crc;
  framed.earlyCrc = earlyCrc;
  if (pad !== 0) framed.rsrvPad = pad;
  return framed;
}

/** The pad's value (0 without a pad); strict decoding refuses any but 0x0000. */
function padOf(bytes: Uint8Array, padAt: number, end: number, opts: PacketDecodeOptions): number {
  if (padAt >= end) return 0;
  const pad = ((bytes[padAt] as number) << 8) | (bytes[padAt + 1] as number);
  if (pad !== 0 && opts.strict) throw new WireError(WireErrorCode.reserved, 'pad', padAt, CLAUSE_LEN, 'the pad shall be 0x0000');
  return pad;
}

function crcError(field: 'crc' | 'earlyCrc', at: number, found: number, computed: number): WireError {
  const what = field === 'crc' ? 'CRC' : 'early CRC';
  return new WireError(WireErrorCode.crc, field, at, CLAUSE_CRC, `${what} 0x${hex4(found)}, computed 0x${hex4(computed)}`);
}

/**
 * Writes the packet with its CRC(s) and pad at `offset`; returns the offset after the pad. The
 * pad is 0x0000 unless the packet carries `rsrvPad` (SerialFields: a lenient decode's), which
 * only a packet with a pad can.
 */
export function encodeSerial<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  packet: P,
  bytes: Uint8Array,
  offset: number,
  ackIdBits: 5 | 6 = 6,
): number {
  const n = encodeSerialOpen(codec, packet, bytes, offset, ackIdBits);
  let crcAt = offset + n;
  let c: number;
  if (n > EARLY_CRC_AT) {
    const at = offset + EARLY_CRC_AT;
    c = crc16Packet(bytes, offset, at);
    bytes[at] = c >> 8;
    bytes[at + 1] = c & 0xff;
    crcAt += 2;
    c = crc16Update(c, bytes, at, crcAt);
  } else {
    c = crc16Packet(bytes, offset, crcAt);
  }
  bytes[crcAt] = c >> 8;
  bytes[crcAt + 1] = c & 0xff;
  return offset + serialLength(n);
}

/**
 * encodeSerial without the CRCs, for an encoder that computes those of many packets in one call
 * (issue 17: crc16PacketsOpen, then putSerialCrcs): the same checks and the same WireErrors, the
 * logical bytes written with the gap for the early CRC already open (logical byte 80 and on two
 * bytes further), the pad written; the CRC fields are left as they were. Returns n, the logical
 * bytes: the packet occupies bytes[offset, offset + serialLength(n)).
 */
export function encodeSerialOpen<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  packet: P,
  bytes: Uint8Array,
  offset: number,
  ackIdBits: 5 | 6 = 6,
): number {
  const n = codec.encodedLength(packet);
  const total = serialLength(n);
  if (total > MAX_SERIAL_PACKET) {
    throw new WireError(WireErrorCode.invalid, 'length', offset, CLAUSE_MAX, `${total} bytes exceeds 284`);
  }
  // Decoded packets carry it whatever their static type (SerialPacket is a Packet).
  const pad = (packet as { readonly rsrvPad?: number }).rsrvPad ?? 0;
  if (pad !== 0) {
    checkRange(pad, 16, 'rsrvPad', CLAUSE_LEN, offset);
    if (total === n + 2 + (n > EARLY_CRC_AT ? 2 : 0)) throw new WireError(WireErrorCode.invalid, 'rsrvPad', offset + total, CLAUSE_LEN, 'this packet has no pad: its CRC ends on a 32-bit boundary');
  }
  if (bytes.length < offset + total) {
    throw new WireError(WireErrorCode.range, 'buffer', offset, CLAUSE_LEN, `needs ${total} bytes`);
  }
  const written = codec.encode(packet, bytes, offset, ackIdBits);
  if (written !== offset + n) {
    throw new WireError(WireErrorCode.invalid, 'length', offset, CLAUSE_LEN, `codec wrote ${written - offset} bytes, expected ${n}`);
  }
  let crcAt = offset + n;
  if (n > EARLY_CRC_AT) {
    // Part 6 §2.4.1: the early CRC "is inserted after the first 80 bytes".
    const at = offset + EARLY_CRC_AT;
    bytes.copyWithin(at + 2, at, offset + n);
    crcAt += 2;
  }
  if (crcAt + 2 < offset + total) {
    bytes[crcAt + 2] = pad >> 8;
    bytes[crcAt + 3] = pad & 0xff;
  }
  return n;
}

/**
 * Writes the CRCs of the packet of n logical bytes at `offset` (encodeSerialOpen's), given as
 * crc16PacketCrcs returns them, (early << 16) | final: the early CRC after logical byte 80 when
 * n > 80 (Part 6 §2.4.1), the final CRC after the last logical byte (and after the early CRC).
 */
export function putSerialCrcs(bytes: Uint8Array, offset: number, n: number, crcs: number): void {
  let crcAt = offset + n;
  if (n > EARLY_CRC_AT) {
    bytes[offset + EARLY_CRC_AT] = crcs >>> 24;
    bytes[offset + EARLY_CRC_AT + 1] = (crcs >>> 16) & 0xff;
    crcAt += 2;
  }
  bytes[crcAt] = (crcs >>> 8) & 0xff;
  bytes[crcAt + 1] = crcs & 0xff;
}

function hex4(v: number): string {
  return v.toString(16).padStart(4, '0');
}
