import { z } from 'zod';
import { parseHex, toHex } from '../../wire/hex.ts';
import { decodeSerialPacket, encodePacket, encodeSerialPacket, packetLength, serialPacketLength } from '../../wire/packet.ts';
import type { Packet, SerialPacket } from '../../wire/packet.ts';
import { decodeType7, type7Length } from '../../wire/type7.ts';
import type { Type7Packet } from '../../wire/type7.ts';
import { decodeType9 } from '../../wire/type9.ts';
import type { Type9Packet } from '../../wire/type9.ts';
import type { BufferedPacket } from '../../flow/congestion-point-types.ts';
import { toJsonValue } from '../json/output.ts';
import { packetFromJson } from '../json/packet.ts';
import { type7FromJson } from '../json/type7.ts';
import { type9FromJson } from '../json/type9.ts';
import { InputError } from './input-error.ts';
import { wire } from './wire-input.ts';
import { bool, deviceId, firstIssue, int, tt } from './schema.ts';

/**
 * Packets in model input lines: a hex string of the whole serial packet with its CRC (what
 * `riodp decode` takes) or the JSON object `riodp decode --json` prints. Both forms go through
 * the same strict serial decoding, so they reach the engine as the same object and fail on the
 * same reserved bits (docs/model.md "Packets").
 */

function serialBytes(p: Parameters<typeof serialPacketLength>[0]): Uint8Array {
  const bytes = new Uint8Array(serialPacketLength(p));
  encodeSerialPacket(p, bytes, 0);
  return bytes;
}

/** The JSON readers of the formats an input field may be restricted to (`ccp`: Type 7; Part 10 engines: Type 9). */
const FROM_JSON: Readonly<Record<7 | 9, (json: unknown) => Packet>> = { 7: type7FromJson, 9: type9FromJson };

/** The serial packet of a hex string or decode --json object, strictly decoded unless lenient; `ftype` restricts the JSON form. */
function serialPacket(value: unknown, base: string, lenient: boolean, ftype?: 7 | 9): { packet: SerialPacket; bytes: Uint8Array } {
  if (typeof value === 'string') {
    const bytes = wire(() => parseHex(value), base, true);
    const packet = wire(() => decodeSerialPacket(bytes, 0, bytes.length, { strict: !lenient }), base, true);
    return { packet, bytes };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError('expected a hex string or a packet object as riodp decode --json prints it', base);
  }
  if (ftype !== undefined && (value as { ftype?: unknown }).ftype !== ftype) {
    throw new InputError(`expected a Type ${ftype} packet (ftype ${ftype})`, `${base}.ftype`);
  }
  const bytes = wire(() => serialBytes(ftype === undefined ? packetFromJson(value) : FROM_JSON[ftype](value)), base, false);
  const packet = wire(() => decodeSerialPacket(bytes, 0, bytes.length, { strict: !lenient }), base, false);
  return { packet, bytes };
}

/** The `packet` of a `ccp` input: a Type 7 packet, CRC and (unless lenient) reserved bits checked. */
export function ccpPacket(value: unknown, lenient: boolean, base = 'packet'): Type7Packet {
  const { packet, bytes } = serialPacket(value, base, lenient, 7);
  if (packet.ftype !== 7) throw new InputError(`expected a Type 7 packet, not ftype ${packet.ftype}`, `${base}.ftype`);
  // The logical fields without crc/earlyCrc: the engine gets exactly a Type7Packet.
  return decodeType7(bytes, 0, type7Length(packet), { strict: !lenient });
}

const bufferedObject = z.strictObject({
  sourceID: deviceId,
  destinationID: deviceId,
  tt,
  prio: int(0, 3),
  crf: int(0, 1),
  vc: int(0, 1).optional(),
  ftype: int(0, 15),
  response: bool.optional(),
  size: int(1).optional(),
});

/**
 * The `packet` of an enqueue/dequeue: the BufferedPacket fields (an object without `ackID`), or
 * a serial packet of any supported type (hex, or a decode --json object) whose header gives them. Type 7 has no sourceID: 0. A Type 8 packet says
 * itself whether it is a response (Part 1 Table 4-7 transactions 2 and 3).
 */
export function bufferedPacket(value: unknown, lenient: boolean, needSize: boolean, base = 'packet'): BufferedPacket {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('ackID' in value)) {
    const r = bufferedObject.safeParse(value);
    if (!r.success) throw firstIssue(r.error, base);
    const d = r.data;
    if (needSize && d.size === undefined) throw new InputError('missing, expected the packet size in bytes (unit is bytes)', `${base}.size`);
    return {
      sourceID: d.sourceID, destinationID: d.destinationID, tt: d.tt, prio: d.prio, crf: d.crf, ftype: d.ftype,
      ...(d.vc === undefined ? {} : { vc: d.vc }),
      ...(d.response === undefined ? {} : { response: d.response }),
      ...(d.size === undefined ? {} : { size: d.size }),
    };
  }
  const { packet: p, bytes } = serialPacket(value, base, lenient);
  const response = p.ftype === 8 ? { response: p.transaction === 2 || p.transaction === 3 } : {};
  return {
    sourceID: 'sourceID' in p ? p.sourceID : 0,
    destinationID: p.destinationID,
    tt: p.tt,
    prio: p.prio,
    crf: p.crf,
    vc: p.vc,
    ftype: p.ftype,
    ...response,
    size: bytes.length,
  };
}

/**
 * The `packet` of a Part 10 engine's input: a Type 9 packet, CRC and (unless lenient) reserved
 * bits, O/P and segment sizes checked. As for `ccpPacket`, the engine gets the logical fields
 * without crc/earlyCrc: the packet is read again from its logical bytes (which, past 80 bytes,
 * the input splits around the early CRC).
 */
export function type9Packet(value: unknown, lenient: boolean, base = 'packet'): Type9Packet {
  const { packet } = serialPacket(value, base, lenient, 9);
  if (packet.ftype !== 9) throw new InputError(`expected a Type 9 packet, not ftype ${packet.ftype}`, `${base}.ftype`);
  const bytes = new Uint8Array(packetLength(packet));
  encodePacket(packet, bytes, 0);
  return wire(() => decodeType9(bytes, 0, bytes.length, { strict: !lenient }), base, false);
}

/** A `send` output's packet: the decode --json object (with its CRC) and the serial hex. */
export function renderPacket(packet: Packet): { readonly packet: unknown; readonly hex: string } {
  const bytes = serialBytes(packet);
  return { packet: toJsonValue(decodeSerialPacket(bytes, 0, bytes.length)), hex: toHex(bytes) };
}
