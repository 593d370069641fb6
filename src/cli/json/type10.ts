import { z } from 'zod';
import type { Type10Packet } from '../../wire/type10.ts';
import { parseWith, uint } from './common.ts';
import { deviceId, headerShape } from './header.ts';

const schema = z.object({
  ...headerShape,
  ftype: z.literal(10),
  destinationID: deviceId,
  sourceID: deviceId,
  rsrv: uint(8).default(0),
  srcTID: uint(8),
  info: uint(16),
});

export function type10FromJson(json: unknown): Type10Packet {
  return parseWith(schema, json);
}
