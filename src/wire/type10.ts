import { WireError, WireErrorCode, checkRange, checkRoom, need } from './errors.ts';
import { afterIds, decodeHeader, encodeTransport, idBytes, isDev8Prefix, keepRsrvAckID, readId } from './header.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';

/**
 * Type 10 DOORBELL (Part 2 §4.2.4 Figure 4-1): rsrv(8) | srcTID(8) | info(16), never a payload.
 * riodp carries it because DECISIONS §1's third-party golden packet is a doorbell.
 *
 * @example
 * ```ts
 * import { FTYPE_DOORBELL, decodePacket, parseHex } from 'riodp/wire';
 *
 * const bytes = parseHex('000a 0501 0007 beef');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === FTYPE_DOORBELL) console.log(p.sourceID, p.srcTID, p.info.toString(16)); // 1 7 beef
 * ```
 */
export const FTYPE_DOORBELL = 10;
const CLAUSE = 'Part 2 §4.2.4 Figure 4-1';

export interface Type10Packet extends PacketHeader {
  readonly ftype: 10;
  readonly destinationID: number;
  readonly sourceID: number;
  readonly rsrv: number;
  readonly srcTID: number;
  readonly info: number;
}

export function type10Length(p: Pick<Type10Packet, 'tt'>): number {
  return 2 + 2 * idBytes(p.tt) + 4;
}

export function decodeType10(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Type10Packet {
  const h = decodeHeader(bytes, offset, end, opts);
  if (h.ftype !== FTYPE_DOORBELL) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE, `ftype ${h.ftype} is not a doorbell`);
  }
  const size = idBytes(h.tt, offset + 1);
  const at = afterIds(offset, h.tt);
  need(end, offset + 2, 2 * size + 4, 'doorbell', CLAUSE);
  const rsrv = bytes[at] as number;
  if (opts.strict && rsrv !== 0) {
    throw new WireError(WireErrorCode.reserved, 'rsrv', at, CLAUSE, 'reserved bits shall be 0');
  }
  if (at + 4 !== end) {
    throw new WireError(WireErrorCode.trailing, 'packet', at + 4, CLAUSE, 'type 10 packets never have data payloads');
  }
  // A plain literal, not `...h`: V8 copies a spread object two orders of magnitude slower.
  return keepRsrvAckID({
    ackID: h.ackID,
    vc: h.vc,
    crf: h.crf,
    prio: h.prio,
    tt: h.tt,
    ftype: FTYPE_DOORBELL,
    destinationID: readId(bytes, offset + 2, size),
    sourceID: readId(bytes, offset + 2 + size, size),
    rsrv,
    srcTID: bytes[at + 1] as number,
    info: ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number),
  }, bytes[offset] as number, opts);
}

export function encodeType10(p: Type10Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  if ((p.ftype as number) !== FTYPE_DOORBELL) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE, `ftype ${String(p.ftype)} is not 10`);
  }
  const size = idBytes(p.tt);
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE);
  checkRange(p.sourceID, size * 8, 'sourceID', CLAUSE);
  checkRange(p.rsrv, 8, 'rsrv', CLAUSE);
  checkRange(p.srcTID, 8, 'srcTID', CLAUSE);
  checkRange(p.info, 16, 'info', CLAUSE);
  checkRoom(bytes, offset, type10Length(p), CLAUSE);
  const at = encodeTransport(p, p.destinationID, p.sourceID, bytes, offset, ackIdBits);
  bytes[at] = p.rsrv;
  bytes[at + 1] = p.srcTID;
  bytes[at + 2] = p.info >> 8;
  bytes[at + 3] = p.info & 0xff;
  return at + 4;
}

export const type10Codec: LogicalCodec<Type10Packet> = {
  ftype: FTYPE_DOORBELL,
  name: 'DOORBELL',
  decode: decodeType10,
  encode: encodeType10,
  encodedLength: type10Length,
  // 2 + 2·ids + 4 bytes: Dev8 → 8 (even half-words), Dev16 → 10 and Dev32 → 14 (odd).
  oddHalfwords: (bytes, offset, available) => !isDev8Prefix(bytes, offset, available, CLAUSE),
};
