import { WireError, WireErrorCode } from '../wire/errors.ts';
import { packetLength } from '../wire/packet.ts';
import type { Packet } from '../wire/packet.ts';
import { EARLY_CRC_AT } from '../wire/serial.ts';
import { decodeSmp } from '../wire/smp/index.ts';
import type { SmpMessage } from '../wire/smp/index.ts';

/**
 * `riodp decode --smp`: the Annex 2 session management message a packet carries, decoded in the
 * same step as the packet. Annex 2 §3.3: management messages travel as Type 11 messages ("If the
 * conveyance is Type 11 (messaging)") or as PDUs on a Type 9 stream "dedicated for the reception of
 * management messages". A packet holds a whole message only when the message is one segment: a
 * single-packet Type 11 message (msglen 0, Part 2 §3.3.2) or a single Type 9 segment (S = E = 1,
 * Part 10 §4.2); any other segment holds a part of one, which `riodp messages` (Type 11) or
 * `riodp reassemble` (Type 9) puts together first.
 */
export function smpInside(p: Packet, strict: boolean, serial: boolean): SmpMessage {
  const payload = messageOf(p);
  try {
    return decodeSmp(payload, 0, payload.length, { strict });
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    throw new WireError(e.code, `smp.${e.field}`, itemOffset(p, payload, e.offset, serial), e.clause, e.detail);
  }
}

/**
 * Where byte `at` of the message sits in the item: after the packet's fields before the payload
 * (the payload ends the logical packet, but for a Type 9 pad byte), and past the early CRC of a
 * serial packet longer than 80 bytes (Part 6 §2.4.1), which sits after logical byte 80.
 */
function itemOffset(p: Packet, payload: Uint8Array, at: number, serial: boolean): number {
  // Part 10 §4.2 "P=1": one pad byte follows the payload.
  const padByte = p.ftype === 9 && p.pad === 1 ? 1 : 0;
  const logicalLength = packetLength(p);
  const i = logicalLength - padByte - payload.length + at;
  return serial && logicalLength > EARLY_CRC_AT && i >= EARLY_CRC_AT ? i + 2 : i;
}

function messageOf(p: Packet): Uint8Array {
  if (p.ftype === 11) {
    if (p.msglen === 0) return p.payload;
    throw new WireError(
      WireErrorCode.unsupported, 'msglen', 1, 'Part 2 §3.3.2',
      `segment ${p.msgseg ?? 0} of a ${p.msglen + 1}-segment message holds part of it: reassemble the message first (riodp messages --smp)`,
    );
  }
  if (p.ftype === 9) {
    if (p.segment === 'single') return p.payload;
    throw new WireError(
      WireErrorCode.unsupported, 'segment', 1, 'Part 10 §4.2',
      `a ${p.segment} segment holds ${p.segment === 'tm' || p.segment === 'abort' ? 'no PDU data' : 'part of a PDU'}: only a single segment carries a whole message (riodp reassemble puts PDUs together)`,
    );
  }
  throw new WireError(WireErrorCode.unsupported, 'ftype', 1, 'Annex 2 §3.3', `ftype ${p.ftype} carries no session management message (Type 11 or Type 9 do)`);
}
