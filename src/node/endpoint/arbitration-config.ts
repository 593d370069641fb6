/**
 * Settings of Part 9 flow arbitration in a simulated end point (arbitration.ts). Every
 * end point of a scenario runs both halves: the transmitter (ArbTx) for the flows it sources and
 * the receiver (ArbRx) for the flows that end at it. Durations are picoseconds, the simulator's
 * unit; the engines' own defaults are nanoseconds (the model CLI) and are scaled here.
 */
import {
  booleanFlag, nonNegativeInteger, oneOf, orDefault, positiveIntegerOrNull,
} from '../../engine/config-checks.ts';
import { DEFAULT_IDLE_TIMEOUT } from '../../flow/arb-rx-config.ts';
import { DEFAULT_REQUEST_TIMEOUT, DEFAULT_RETRY_DELAY } from '../../flow/arb-tx-config.ts';
import type { ArbMode } from '../../flow/arbitration-types.ts';

/** ps per ns: the engines' defaults are written for the model CLI's nanoseconds. */
const PS_PER_NS = 1000;

/** 100 µs: the ArbTx response timeout before a REQUEST is re-sent (rule 3 1). */
export const SIM_ARB_REQUEST_TIMEOUT = DEFAULT_REQUEST_TIMEOUT * PS_PER_NS;
/** 10 µs: the back-off before asking again after XOFF(ARB) (§2.4.2.1). */
export const SIM_ARB_RETRY_DELAY = DEFAULT_RETRY_DELAY * PS_PER_NS;
/** 1 ms: the ArbRx idle timeout of §2.4.8. */
export const SIM_ARB_IDLE_TIMEOUT = DEFAULT_IDLE_TIMEOUT * PS_PER_NS;
/** Resources (PDUs received at once) of each destination when the scenario does not say. */
export const DEFAULT_ARB_RESOURCES = 4;

export interface EndpointArbitrationConfig {
  /**
   * `single` (default): one REQUEST single-PDU per PDU (§2.2.1 Figure 2-1), the next one
   * pipelined while the current grant is in use (Figure 2-4). `multi`: a REQUEST multi-PDU when a
   * PDU waits and no grant is held; the grant is kept while the flow is backlogged and given back
   * with RELEASE when its queue empties (Figure 2-2).
   */
  readonly mode?: ArbMode;
  /** The destination's pool: PDUs it accepts at once (e.g. reassembly contexts), >= 0. Default 4. */
  readonly resources?: number;
  /** A REQUEST the destination cannot grant now: held until a resource frees (`queue`, default) or answered XOFF(ARB) (`reject`). */
  readonly whenBusy?: 'queue' | 'reject';
  /** Bound on queued REQUESTs at a destination; beyond it XOFF(ARB) at once. null (default): unbounded. */
  readonly maxQueued?: number | null;
  /** One REQUEST pipelined ahead of the current PDU's end (§2.2.2). Default true. */
  readonly pipelining?: boolean;
  /** ps without an answer before a REQUEST is re-sent with the same sequence bit; null: never. Default 100 µs. */
  readonly requestTimeout?: number | null;
  /** ps after XOFF(ARB) before the flow asks again. Default 10 µs. */
  readonly retryDelay?: number;
  /** ps a destination's resource may stay silent before §2.4.8 takes it back; null: never. Default 1 ms. */
  readonly idleTimeout?: number | null;
}

export interface ResolvedArbitrationConfig {
  readonly mode: ArbMode;
  readonly resources: number;
  readonly whenBusy: 'queue' | 'reject';
  readonly maxQueued: number | null;
  readonly pipelining: boolean;
  readonly requestTimeout: number | null;
  readonly retryDelay: number;
  readonly idleTimeout: number | null;
}

/** Checks the settings (RangeError naming `arbitration.<field>`) and fills in the defaults. */
export function resolveArbitrationConfig(c: EndpointArbitrationConfig): ResolvedArbitrationConfig {
  const maxQueued = orDefault(c.maxQueued, null);
  return {
    mode: oneOf(orDefault(c.mode, 'single'), ['single', 'multi'], 'arbitration.mode', 'or'),
    resources: nonNegativeInteger(orDefault(c.resources, DEFAULT_ARB_RESOURCES), 'arbitration.resources'),
    whenBusy: oneOf(orDefault(c.whenBusy, 'queue'), ['queue', 'reject'], 'arbitration.whenBusy', 'or'),
    maxQueued: maxQueued === null ? null : nonNegativeInteger(maxQueued, 'arbitration.maxQueued'),
    pipelining: booleanFlag(orDefault(c.pipelining, true), 'arbitration.pipelining'),
    requestTimeout: positiveIntegerOrNull(orDefault(c.requestTimeout, SIM_ARB_REQUEST_TIMEOUT), 'arbitration.requestTimeout'),
    // The end point is the application here, and it always asks again: a null retry delay (the
    // engine's "the application must ask again") would only mean asking again at once.
    retryDelay: nonNegativeInteger(orDefault(c.retryDelay, SIM_ARB_RETRY_DELAY), 'arbitration.retryDelay'),
    idleTimeout: positiveIntegerOrNull(orDefault(c.idleTimeout, SIM_ARB_IDLE_TIMEOUT), 'arbitration.idleTimeout'),
  };
}

