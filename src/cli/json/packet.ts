import { z } from 'zod';
import { WireError, WireErrorCode } from '../../wire/errors.ts';
import type { Packet } from '../../wire/packet.ts';
import { CLAUSE_JSON, parseWith } from './common.ts';
import { type7FromJson } from './type7.ts';
import { type8FromJson } from './type8.ts';
import { type9FromJson } from './type9.ts';
import { type10FromJson } from './type10.ts';
import { type11FromJson } from './type11.ts';
import { type13FromJson } from './type13.ts';

const withFtype = z.object({ ftype: z.number().int() });

/** Picks the packet format by the `ftype` field of the JSON object. */
export function packetFromJson(json: unknown): Packet {
  const { ftype } = parseWith(withFtype, json);
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
