import { z } from 'zod';
import { bool, expecting, int, oneOf } from '../../config/zod-parts.ts';
import { DEFAULT_ARB_RESOURCES } from './arbitration-config.ts';
import type { ArbitrationTimes } from './arbitration-config.ts';

/**
 * The `arbitration` section of an end point's configuration (arbitration-config.ts
 * EndpointArbitrationConfig), the same fields and checks in a simulator scenario
 * (`endpoints.arbitration`) and in `riodp endpoint`'s file (issue 15 "one configuration schema").
 * Durations are in the host's unit, parsed by the schemas the host gives; with `times` the output
 * has every default filled in (the simulator reports them), without it the end point fills them.
 */

/** A count bound that null switches off, with one message for both (a union would word them apart). */
const boundOrNull = (() => {
  const error = expecting('a non-negative integer, or null for no bound');
  return z.number({ error }).int({ error }).min(0, { error }).max(Number.MAX_SAFE_INTEGER, { error }).nullable();
})();

export interface ArbitrationSchemaUnits {
  /** A duration from 0. */
  readonly duration: z.ZodType<number>;
  /** A duration above 0. */
  readonly period: z.ZodType<number>;
}

export function arbitrationShape(u: ArbitrationSchemaUnits) {
  const timeout = z.union([z.null(), u.period], { error: expecting('a time above 0, or null for no timeout') });
  return {
    mode: oneOf(['single', 'multi']).optional(),
    resources: int(1).optional(),
    whenBusy: oneOf(['queue', 'reject']).optional(),
    maxQueued: boundOrNull.optional(),
    pipelining: bool.optional(),
    requestTimeout: timeout.optional(),
    retryDelay: u.duration.optional(),
    idleTimeout: timeout.optional(),
  };
}

const WHAT = 'arbitration settings {mode, resources, whenBusy, maxQueued, pipelining, requestTimeout, retryDelay, idleTimeout}';

/** The section with every default filled in from `times` (the host's), as the simulator's scenarios have it. */
export function arbitrationSettings(u: ArbitrationSchemaUnits, times: ArbitrationTimes) {
  return z.strictObject(arbitrationShape(u), { error: expecting(WHAT) }).transform((a) => ({
    mode: a.mode ?? 'single',
    resources: a.resources ?? DEFAULT_ARB_RESOURCES,
    whenBusy: a.whenBusy ?? 'queue',
    maxQueued: a.maxQueued ?? null,
    pipelining: a.pipelining ?? true,
    requestTimeout: a.requestTimeout === undefined ? times.requestTimeout : a.requestTimeout,
    retryDelay: a.retryDelay ?? times.retryDelay,
    idleTimeout: a.idleTimeout === undefined ? times.idleTimeout : a.idleTimeout,
  }));
}
