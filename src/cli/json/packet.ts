import { z } from 'zod';
import { WireError, WireErrorCode } from '../../wire/errors.ts';
import type { Packet } from '../../wire/packet.ts';
import { CLAUSE_JSON, parseWith, uint } from './common.ts';
import { type7FromJson } from './type7.ts';
import { type8FromJson } from './type8.ts';
import { type9FromJson } from './type9.ts';
import { type10FromJson } from './type10.ts';
import { type11FromJson } from './type11.ts';
import { type13FromJson } from './type13.ts';

const withFtype = z.object({ ftype: z.number().int() });

/**
 * Reserved bits every packet format may carry, outside its logical fields (docs/cli.md): ackID[5]
 * on CS24 links (header.ts) and a non-zero pad (serial.ts), as lenient decoding prints them.
 */
const framing = z.object({ rsrvAckID: uint(1).optional(), rsrvPad: uint(16).optional() });

/** A packet with the reserved framing bits a lenient decode printed, for the encoders to write back. */
export type FramedPacket = Packet & { readonly rsrvPad?: number };

/** Picks the packet format by the `ftype` field of the JSON object. */
export function packetFromJson(json: unknown): FramedPacket {
  const { ftype } = parseWith(withFtype, json);
  const { rsrvAckID, rsrvPad } = parseWith(framing, json);
  if (rsrvAckID === undefined && rsrvPad === undefined) return formatFromJson(ftype, json);
  // The formats' readers refuse fields they do not know: they get the object without these.
  const rest = Object.fromEntries(Object.entries(json as object).filter(([k]) => k !== 'rsrvAckID' && k !== 'rsrvPad'));
  const p = formatFromJson(ftype, rest);
  return { ...p, ...(rsrvAckID === undefined || rsrvAckID === 0 ? {} : { rsrvAckID }), ...(rsrvPad === undefined || rsrvPad === 0 ? {} : { rsrvPad }) };
}

function formatFromJson(ftype: number, json: unknown): Packet {
  switch (ftype) {
    case 7:
      return type7FromJson(json);
    case 8:
      return type8FromJson(json);
    case 9:
      return type9FromJson(json);
    case 10:
      return type10FromJson(json);
    case 11:
      return type11FromJson(json);
    case 13:
      return type13FromJson(json);
    default:
      throw new WireError(WireErrorCode.unsupported, 'ftype', 0, CLAUSE_JSON, `ftype ${ftype} is not a format riodp encodes`);
  }
}
