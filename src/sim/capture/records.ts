import { plainPacketBytes } from '../../node/endpoint/packets.ts';
import { cs48Frame, cs64Frame, packetFrame } from '../../wire/frame.ts';
import type { Frame } from '../../wire/frame.ts';
import type { Packet } from '../../wire/packet.ts';
import { Stype0, Stype1 } from '../../wire/symbol-types.ts';
import { Stype0_64, Stype1_64 } from '../../wire/symbol64-types.ts';
import type { ControlSymbol64 } from '../../wire/symbol64.ts';
import type { Type9StartPacket } from '../../wire/type9-types.ts';
import { captureRecordLength, encodeCaptureRecord } from '../../wire/pcapng/record.ts';
import type { SimPacket, SimSymbol } from '../fabric/types.ts';

/**
 * What the simulator's captures write for the packets and control symbols its channels carry
 * (docs/pcapng.md §2, "The simulator's records"): real LP-Serial bytes that `riodp decode` and the
 * Wireshark dissector read. The simulator moves light descriptors, so some of what a link would
 * carry is made up here, always the same way:
 *
 * - A packet with a decoded form (`wire`: CCPs, Part 10 segments, TM, flow arbitration, session
 *   management, maintenance) is that packet. A data packet of plain traffic (no `wire`) is the
 *   Type 9 single segment the model prices it as (src/node/endpoint/packets.ts): its source,
 *   destination, priority, CRF and VC bit, cos 0, streamID the flow number modulo 65536, and a
 *   payload of zeros as long as the packet's share of its PDU (so its size is the modelled one).
 * - ackID: the simulator does not model ackIDs; a packet gets its link direction's packet count
 *   modulo 64, as a link numbers its packets (Part 6 §5.6).
 * - A credit (the receiver freed buffers) is a Status symbol, a VoQ backpressure message of a CS48
 *   link is a Status symbol with the message in stype2 (VoQ Backpressure §4.2 b): both say the
 *   sender's ackID_status (the ackID it expects next on the other direction) and buf_status (its
 *   free receive buffers, at most "62 or more" for CS48 and "4094 or more" for CS64, Part 6 §3.4.5).
 *   A CS64 VoQ symbol is the symbol the switch made.
 * - The start-of-packet delimiter the model prices before every packet (decision L3) is not
 *   written: it carries nothing the packet record does not.
 */

/** What the records need of the variant: the transport size and the plain traffic MTU. */
export interface RecordContext {
  readonly tt: 0 | 1;
  readonly mtu: number;
}

let zeros = new Uint8Array(256);

function zeroPayload(n: number): Uint8Array {
  if (n > zeros.length) zeros = new Uint8Array(n);
  return zeros.subarray(0, n);
}

/** Payload bytes of a plain data packet: its share of the PDU, else the longest payload of its size. */
export function plainPayload(p: SimPacket, ctx: RecordContext): number {
  if (p.pdu !== undefined) {
    const share = Math.min(ctx.mtu, p.pdu.bytes - p.pdu.index * ctx.mtu);
    if (share >= 0 && plainPacketBytes(share, ctx.tt) === p.bytes) return share;
  }
  for (let n = p.bytes; n > 0; n--) if (plainPacketBytes(n, ctx.tt) === p.bytes) return n;
  return 0;
}

function isPacket(w: unknown): w is Packet {
  return typeof w === 'object' && w !== null && typeof (w as { ftype?: unknown }).ftype === 'number';
}

/** The packet a descriptor stands for, with `ackID`. */
export function packetOf(p: SimPacket, ackID: number, ctx: RecordContext): Packet {
  if (isPacket(p.wire)) return { ...p.wire, ackID };
  const single: Type9StartPacket = {
    ackID, vc: p.vc === 0 ? 0 : 1, crf: p.crf, prio: p.prio, tt: ctx.tt, ftype: 9, destinationID: p.dst, sourceID: p.src,
    cos: 0, start: 1, end: 1, xh: 0, segment: 'single', rsrv: 0, streamID: p.flow < 0 ? 0 : p.flow & 0xffff,
    payload: zeroPayload(plainPayload(p, ctx)),
  };
  return single;
}

/** The receive state a Status symbol reports: the ackID expected next and the free buffers. */
export interface ReceiveState {
  readonly ackIDStatus: number;
  readonly freeBuffers: number;
}

/** The record of a control symbol on a link whose symbols are `form`. */
export function symbolFrame(s: SimSymbol, form: 'cs48' | 'cs64', state: ReceiveState): Frame {
  if (s.kind === 'voq' && s.cs64 !== undefined) return cs64Frame(s.cs64 as ControlSymbol64);
  const stype2 = s.kind === 'voq' ? (s.stype2 ?? 0) : 0;
  if (form === 'cs64' && stype2 === 0) {
    return cs64Frame({ link: 'cs64', stype0: Stype0_64.status, parameter0: state.ackIDStatus, parameter1: Math.min(state.freeBuffers, 4094), stype1: Stype1_64.nop });
  }
  return cs48Frame({ link: 'cs48', stype0: Stype0.status, parameter0: state.ackIDStatus & 63, parameter1: Math.min(state.freeBuffers, 62), stype1: Stype1.nop, cmd: 0, stype2 });
}

/** A record's bytes (docs/pcapng.md §2). */
export function recordBytes(f: Frame): Uint8Array {
  const out = new Uint8Array(captureRecordLength(f));
  encodeCaptureRecord(f, out, 0);
  return out;
}

/** The record of a packet. */
export function packetRecord(p: SimPacket, ackID: number, ctx: RecordContext): Uint8Array {
  return recordBytes(packetFrame(packetOf(p, ackID, ctx)));
}
