import { z } from 'zod';
import type { Type10Packet } from '../../wire/type10.ts';
import { parseWith, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

const schema = z.strictObject({
  ...headerShape,
  ftype: z.literal(10),
  destinationID: deviceId,
  sourceID: deviceId,
  rsrv: uint(8).default(0),
  srcTID: uint(8),
  info: uint(16),
  // Printed by serial decoding; encode computes the CRCs.
  crc: uint(16).optional(),
  earlyCrc: uint(16).optional(),
});

export function type10FromJson(json: unknown): Type10Packet {
  const j = parseWith(schema, json);
  return {
    ackID: j.ackID, vc: j.vc, crf: j.crf, prio: j.prio, tt: j.tt, ftype: j.ftype,
    destinationID: j.destinationID, sourceID: j.sourceID, rsrv: j.rsrv, srcTID: j.srcTID, info: j.info,
  };
}
