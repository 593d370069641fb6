import { z } from 'zod';
import {
  DEFAULT_ARB_RESOURCES, SIM_ARB_IDLE_TIMEOUT, SIM_ARB_REQUEST_TIMEOUT, SIM_ARB_RETRY_DELAY,
} from '../../node/endpoint/arbitration-config.ts';
import { bool, expecting, int, oneOf } from '../../config/zod-parts.ts';
import { time } from './schema-parts.ts';

/**
 * endpoints.arbitration: Part 9 flow arbitration in every end point (src/sim/fabric/
 * endpoint-arbitration.ts). The output is an EndpointArbitrationConfig with every default filled
 * in; times are ps (schema-parts.ts `time`).
 */
/** A count bound that null switches off, with one message for both (a union would word them apart). */
const boundOrNull = (() => {
  const error = expecting('a non-negative integer, or null for no bound');
  return z.number({ error }).int({ error }).min(0, { error }).max(Number.MAX_SAFE_INTEGER, { error }).nullable();
})();

export const arbitrationSettings = z.strictObject({
  mode: oneOf(['single', 'multi']).default('single'),
  resources: int(1).default(DEFAULT_ARB_RESOURCES),
  whenBusy: oneOf(['queue', 'reject']).default('queue'),
  maxQueued: boundOrNull.default(null),
  pipelining: bool.default(true),
  requestTimeout: z.union([z.null(), time(1)], { error: expecting('a time above 0, or null for no timeout') }).default(SIM_ARB_REQUEST_TIMEOUT),
  retryDelay: time().default(SIM_ARB_RETRY_DELAY),
  idleTimeout: z.union([z.null(), time(1)], { error: expecting('a time above 0, or null for no timeout') }).default(SIM_ARB_IDLE_TIMEOUT),
}, { error: expecting('arbitration settings {mode, resources, whenBusy, maxQueued, pipelining, requestTimeout, retryDelay, idleTimeout}') });
