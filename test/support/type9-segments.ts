/**
 * Test-only builders of Type 9 data segments (Part 10 §4.2 Figures 4-1 to 4-4) with any payload,
 * well-formed or not, for the reassembler tests. Packets are built as the decoder returns them;
 * `viaWire` runs one through encodeType9/decodeType9 so that its payload is a view of real packet
 * bytes.
 */
import { decodeType9, encodeType9, type9Length } from '../../src/wire/type9.ts';
import { tmMessage, tmOpName, tmOperand } from '../../src/wire/type9-tm.ts';
import type {
  Type9AbortPacket, Type9ContinuationPacket, Type9EndPacket, Type9ExtendedPacket, Type9Packet, Type9StartPacket, Type9TmPacket,
} from '../../src/wire/type9-types.ts';

/** Header fields of a segment; everything defaults to 0 (Dev8, VC0, prio 0, CRF 0). */
export interface SegHeader {
  readonly tt?: number;
  readonly destinationID?: number;
  readonly sourceID?: number;
  readonly cos?: number;
  readonly vc?: number;
  readonly prio?: number;
  readonly crf?: number;
}

function base(h: SegHeader): {
  ackID: number; vc: number; crf: number; prio: number; tt: number; ftype: 9; destinationID: number; sourceID: number; cos: number; xh: number;
} {
  return {
    ackID: 0, vc: h.vc ?? 0, crf: h.crf ?? 0, prio: h.prio ?? 0, tt: h.tt ?? 0, ftype: 9,
    destinationID: h.destinationID ?? 0, sourceID: h.sourceID ?? 0, cos: h.cos ?? 0, xh: 0,
  };
}

/** O and P of a single or end segment payload (Table 4-2). */
function oddPad(n: number): { odd: number; pad: number } {
  return { odd: ((n + 1) >> 1) & 1, pad: n & 1 };
}

/** `n` bytes counting up from `seed`, so that two PDUs of a test differ. */
export function bytes(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (seed + i * 7) & 0xff;
  return b;
}

export function single(payload: Uint8Array, streamID = 0, h: SegHeader = {}): Type9StartPacket {
  return { ...base(h), start: 1, end: 1, rsrv: 0, ...oddPad(payload.length), segment: 'single', streamID, payload };
}

export function start(payload: Uint8Array, streamID = 0, h: SegHeader = {}): Type9StartPacket {
  return { ...base(h), start: 1, end: 0, rsrv: 0, odd: 0, pad: 0, segment: 'start', streamID, payload };
}

export function cont(payload: Uint8Array, h: SegHeader = {}): Type9ContinuationPacket {
  return { ...base(h), start: 0, end: 0, rsrv: 0, odd: 0, pad: 0, segment: 'continuation', payload };
}

/** An end segment carrying PDU length `pduLength` (65536 is written as 0, "0x0000 - 64kbytes"). */
export function end(payload: Uint8Array, pduLength: number, h: SegHeader = {}): Type9EndPacket {
  return { ...base(h), start: 0, end: 1, rsrv: 0, ...oddPad(payload.length), segment: 'end', length: pduLength & 0xffff, pduLength, payload };
}

/** "an end segment with no data payload and with the length field set to zero" (§3.2.5 segmentation rule 9). */
export function abort(h: SegHeader = {}): Type9AbortPacket {
  return { ...base(h), start: 0, end: 1, rsrv: 0, odd: 0, pad: 0, segment: 'abort', length: 0, payload: new Uint8Array(0) };
}

/** A basic XOFF TM packet (Figure 4-5, TM OP 0, parameter 1 = 0, parameter 2 = 0). */
export function tmXoff(streamID = 0, h: SegHeader = {}): Type9TmPacket {
  return {
    ...base(h), xh: 1, start: 0, end: 0, odd: 0, pad: 0, segment: 'tm', xtype: 0, streamID, tmOp: 0, tmOpName: tmOpName(0), rsrv: 0,
    wildcard: 0, mask: 0, parameter1: 0, parameter2: 0, tm: tmMessage(0, 0, 0), operand: tmOperand(0, 0),
  };
}

/** xh = 1 with reserved xtype 0b001. */
export function extended(streamID = 0, h: SegHeader = {}): Type9ExtendedPacket {
  return { ...base(h), xh: 1, start: 0, end: 0, odd: 0, pad: 0, segment: 'extended', xtype: 1, streamID, payload: new Uint8Array(4) };
}

/**
 * Every segment of a PDU cut at `mtu` as §3.2.5 segmentation rules 2–8 say: start and
 * continuations of exactly `mtu` bytes, then an end segment with the rest and the PDU length; a
 * PDU of at most `mtu` bytes is one single segment.
 */
export function segmentsOf(pdu: Uint8Array, mtu: number, streamID = 0, h: SegHeader = {}): Type9Packet[] {
  if (pdu.length <= mtu) return [single(pdu, streamID, h)];
  const out: Type9Packet[] = [start(pdu.subarray(0, mtu), streamID, h)];
  let at = mtu;
  for (; pdu.length - at > mtu; at += mtu) out.push(cont(pdu.subarray(at, at + mtu), h));
  out.push(end(pdu.subarray(at), pdu.length, h));
  return out;
}

/** The packet as a receiver gets it: encoded into bytes and decoded, its payload a view of those bytes. */
export function viaWire<P extends Type9Packet>(p: P): { packet: P; wire: Uint8Array } {
  const wire = new Uint8Array(type9Length(p));
  encodeType9(p, wire, 0);
  return { packet: decodeType9(wire, 0, wire.length) as P, wire };
}
