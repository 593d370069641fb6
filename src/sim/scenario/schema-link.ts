import { z } from 'zod';
import { expecting, oneOf, real } from '../../config/zod-parts.ts';
import { BAUD_MAX, BAUD_MIN } from '../fabric/link-rate.ts';
import { time } from './schema-parts.ts';

/** The fields of a link's settings (`link`, `linkOverrides`, a switch port's `link`): lanes, baud rate, encoding, control symbol form. */

export const lanes = z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8), z.literal(16)], { error: expecting('one of 1, 2, 4, 8, 16') });

const baudWhat = `a baud rate in Gbaud from ${BAUD_MIN} to ${BAUD_MAX}, a multiple of 1/1024 (1.25, 2.5, 3.125, 5, 6.25, 10.3125, 12.5, 25.78125)`;
export const baud = real(BAUD_MIN, BAUD_MAX, baudWhat).refine((v) => Number.isInteger(v * 1024), { error: expecting(baudWhat) });

export const encoding = oneOf(['8b10b', '64b67b']);
export const symbolForm = oneOf(['cs48', 'cs64']);

/** The fields a link override or a switch port's `link` may change, each optional (the rest comes from `link`). */
export const linkChanges = {
  lanes: lanes.optional(),
  baud: baud.optional(),
  encoding: encoding.optional(),
  propagation: time().optional(),
  symbol: symbolForm.optional(),
};
