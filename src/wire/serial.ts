import { CRC16_INIT, crc16Packet, crc16Update } from './crc16.ts';
import { WireError, WireErrorCode, need } from './errors.ts';
import type { LogicalCodec } from './codec.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';

/**
 * LP-Serial packet framing (Part 6 §2.3–§2.5): CRC-16 over the packet with the ackID bits
 * taken as zero, an early CRC after the first 80 bytes of longer packets (the running CRC not
 * re-initialised), and a 0x0000 pad to a 32-bit boundary.
 */
export const EARLY_CRC_AT = 80;
/** "The maximum transmitted packet size permitted by the LP-Serial specification shall be 284 bytes" */
export const MAX_SERIAL_PACKET = 284;

const CLAUSE_CRC = 'Part 6 §2.4.1';
const CLAUSE_LEN = 'Part 6 §2.3';
const CLAUSE_MAX = 'Part 6 §2.5';

export interface SerialFields {
  /** The final CRC-16. */
  readonly crc: number;
  /** The CRC inserted after byte 80 of packets longer than 80 bytes. */
  readonly earlyCrc?: number;
}

/** Bytes on the wire for a logical packet of `n` bytes: CRC(s) plus pad to 32 bits. */
export function serialLength(n: number): number {
  const withCrc = n + 2 + (n > EARLY_CRC_AT ? 2 : 0);
  return (withCrc + 3) & ~3;
}

/**
 * Locates the logical packet inside a serial packet of `total` bytes. With `total` a multiple
 * of four there is exactly one layout per half-word parity of the logical length:
 * odd → no pad and one CRC, or pad and two CRCs; even → pad and one CRC, or no pad and two.
 */
export function logicalLength(total: number, odd: boolean): number {
  if (odd) return total - 2 <= EARLY_CRC_AT ? total - 2 : total - 6;
  return total - 4;
}

export function decodeSerial<P extends PacketHeader>(
  codec: LogicalCodec<P>,
  bytes: Uint8Array,
  offset: number,
  end: number,
  opts: PacketDecodeOptions = {},
): P & SerialFields {
  const total = end - offset;
  need(end, offset, 8, 'packet', CLAUSE_LEN);
  if (total % 4 !== 0) {
    throw new WireError(WireErrorCode.invalid, 'length', end, CLAUSE_LEN, `${total} bytes is not a multiple of 32 bits`);
  }
  if (total > MAX_SERIAL_PACKET) {
    throw new WireError(WireErrorCode.invalid, 'length', offset + MAX_SERIAL_PACKET, CLAUSE_MAX, `${total} bytes exceeds 284`);
  }
  const n = logicalLength(total, codec.oddHalfwords(bytes, offset, Math.min(total, EARLY_CRC_AT), opts));
  const hasEarly = n > EARLY_CRC_AT;
  const crcAt = offset + n + (hasEarly ? 2 : 0);
  let earlyCrc: number | undefined;
  let c: number;
  if (hasEarly) {
    const at = offset + EARLY_CRC_AT;
    c = crc16Packet(bytes, offset, at);
    earlyCrc = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
    if (c !== earlyCrc) {
      throw new WireError(WireErrorCode.crc, 'earlyCrc', at, CLAUSE_CRC, `early CRC 0x${hex4(earlyCrc)}, computed 0x${hex4(c)}`);
    }
    c = crc16Update(c, bytes, at, crcAt);
  } else {
    c = crc16Packet(bytes, offset, crcAt, CRC16_INIT);
  }
  const crc = ((bytes[crcAt] as number) << 8) | (bytes[crcAt + 1] as number);
  if (c !== crc) {
    throw new WireError(WireErrorCode.crc, 'crc', crcAt, CLAUSE_CRC, `CRC 0x${hex4(crc)}, computed 0x${hex4(c)}`);
  }
  if (crcAt + 2 < end && opts.strict && ((bytes[crcAt + 2] as number) | (bytes[crcAt + 3] as number)) !== 0) {
    throw new WireError(WireErrorCode.reserved, 'pad', crcAt + 2, CLAUSE_LEN, 'the pad shall be 0x0000');
  }
  let packet: P;
  if (!hasEarly) {
    packet = codec.decode(bytes, offset, offset + n, opts);
  } else {
    // The early CRC splits the logical fields; join them once so payloads are contiguous.
    const joined = new Uint8Array(n);
    joined.set(bytes.subarray(offset, offset + EARLY_CRC_AT), 0);
    joined.set(bytes.subarray(offset + EARLY_CRC_AT + 2, crcAt), EARLY_CRC_AT);
    try {
      packet = codec.decode(joined, 0, n, opts);
    } catch (e) {
      if (e instanceof WireError) {
        const at = e.offset >= EARLY_CRC_AT ? e.offset + 2 : e.offset;
        throw new WireError(e.code, e.field, offset + at, e.clause, e.detail);
      }
      throw e;
    }
  }
  // The codec's result is a fresh object owned by this call: extend it rather than copy it.
  const framed = packet as P & { crc: number; earlyCrc?: number };
  framed.crc = crc;
  if (earlyCrc !== undefined) framed.earlyCrc = earlyCrc;
  return framed;
}

/** Writes the packet with its CRC(s) and pad at `offset`; returns the offset after the pad. */
export function encodeSerial<P extends PacketHeader>(
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
  if (bytes.length < offset + total) {
    throw new WireError(WireErrorCode.range, 'buffer', offset, CLAUSE_LEN, `needs ${total} bytes`);
  }
  const written = codec.encode(packet, bytes, offset, ackIdBits);
  if (written !== offset + n) {
    throw new WireError(WireErrorCode.invalid, 'length', offset, CLAUSE_LEN, `codec wrote ${written - offset} bytes, expected ${n}`);
  }
  let crcAt = offset + n;
  let c: number;
  if (n > EARLY_CRC_AT) {
    const at = offset + EARLY_CRC_AT;
    bytes.copyWithin(at + 2, at, offset + n);
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
  for (let i = crcAt + 2; i < offset + total; i++) bytes[i] = 0;
  return offset + total;
}

function hex4(v: number): string {
  return v.toString(16).padStart(4, '0');
}
