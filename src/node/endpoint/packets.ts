/**
 * How many octets the packets of a PDU take on the wire, from the codecs' length functions.
 *
 * SAR traffic: the Part 10 segments the Segmenter engine makes (§3.2.5 rules 4–8: a single
 * segment when the PDU fits the MTU, else a start and continuations of MTU bytes and an end with
 * the rest), each a Type 9 packet of `type9Length` octets (Figures 4-1 to 4-4) in LP-Serial
 * framing (`serialLength`: CRC-16, the early CRC after 80 octets, pad to 32 bits, Part 6
 * §2.4–§2.5). The end point sizes the segments it sends from the packets themselves; the closed
 * form here, checked against the engine in packets.prop.test.ts, prices whole PDUs for
 * the offered load.
 *
 * Plain traffic: a PDU is cut into packets of at most `mtu` payload bytes, each framed as a Type 9
 * single segment (the smallest RapidIO data packet header riodp has a codec for), with no
 * reassembly state at the destination.
 */
import { idBytes } from '../../wire/header.ts';
import { serialLength } from '../../wire/serial.ts';

/** Prefix (ackID, VC, CRF, prio, tt, ftype), the two device IDs and the cos/S/E/xh/O/P octets. */
function headerBytes(tt: number): number {
  return 2 + 2 * idBytes(tt) + 2;
}

/** A single or end segment: 16-bit streamID or length, the payload, and a pad byte for an odd payload. */
function withTail(tt: number, payload: number): number {
  return serialLength(headerBytes(tt) + 2 + payload + (payload & 1));
}

export function plainPacketBytes(payload: number, tt: number): number {
  return withTail(tt, payload);
}

/** Octets of each packet of a PDU: `count` packets, the first, those between and the last. */
export interface PduPackets {
  readonly count: number;
  readonly first: number;
  readonly middle: number;
  readonly last: number;
}

export function sarPackets(bytes: number, mtu: number, tt: number): PduPackets {
  const count = Math.ceil(bytes / mtu);
  if (count <= 1) {
    const single = withTail(tt, bytes);
    return { count: 1, first: single, middle: 0, last: single };
  }
  return {
    count,
    first: serialLength(headerBytes(tt) + 2 + mtu),
    middle: serialLength(headerBytes(tt) + mtu),
    last: withTail(tt, bytes - (count - 1) * mtu),
  };
}

export function plainPackets(bytes: number, mtu: number, tt: number): PduPackets {
  const count = Math.max(1, Math.ceil(bytes / mtu));
  const full = plainPacketBytes(mtu, tt);
  const last = plainPacketBytes(bytes - (count - 1) * mtu, tt);
  return { count, first: count === 1 ? last : full, middle: full, last };
}

/** Wire time of all the packets of a PDU, each priced by `packetTime` (which adds its delimiter). */
export function pduWireTime(p: PduPackets, packetTime: (bytes: number) => number): number {
  if (p.count === 1) return packetTime(p.first);
  return packetTime(p.first) + (p.count - 2) * packetTime(p.middle) + packetTime(p.last);
}

/** Octets of all the packets of a PDU. */
export function pduBytes(p: PduPackets): number {
  if (p.count === 1) return p.first;
  return p.first + (p.count - 2) * p.middle + p.last;
}
