import { z } from 'zod';
import { uint } from './common.ts';

/** JSON fields of the 16-bit prefix shared by every packet format. */
export const headerShape = {
  ackID: uint(6),
  vc: uint(1),
  crf: uint(1),
  prio: uint(2),
  tt: z.number().int().min(0).max(2),
} as const;

/** destinationID/sourceID sized by tt are checked by the encoder; JSON only bounds them. */
export const deviceId = uint(32);
