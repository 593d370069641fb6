/**
 * Settings of Part 9 flow arbitration in an end point (arbitration.ts). Every end point that runs
 * it runs both halves: the transmitter (ArbTx) for the flows it sources and the receiver (ArbRx)
 * for the flows that end at it. Durations are in the host's unit, and so are the defaults each host
 * gives: the simulator's picoseconds (the engines' own defaults, written for the model CLI's
 * nanoseconds, scaled), the software fabric's nanoseconds on a real clock (`FABRIC_ARB_TIMES`).
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
/** The time settings' defaults of one host, in its unit. */
export interface ArbitrationTimes {
  readonly requestTimeout: number;
  readonly retryDelay: number;
  readonly idleTimeout: number;
}

export const SIM_ARB_TIMES: ArbitrationTimes = { requestTimeout: SIM_ARB_REQUEST_TIMEOUT, retryDelay: SIM_ARB_RETRY_DELAY, idleTimeout: SIM_ARB_IDLE_TIMEOUT };

/**
 * The software fabric's defaults, ns on the real clock (decision FE17): a REQUEST re-sent after
 * 1 s, asked again 1 ms after XOFF(ARB), a silent resource taken back after 1 s. The engines'
 * defaults (100 µs, 10 µs, 1 ms) are fabric round trips of hardware. Over TCP nothing is lost
 * between live processes, a REQUEST the destination queues (its resources busy, `whenBusy: queue`)
 * is answered only when a PDU in reception ends, which for a 64 KiB PDU between processes takes
 * tens of milliseconds, and a resource taken back from a sender that is only slow costs a PDU
 * (§2.4.8 "possible loss"); 1 s is also how long the end point waits for a silent reassembly.
 */
export const FABRIC_ARB_TIMES: ArbitrationTimes = { requestTimeout: 1_000_000_000, retryDelay: 1_000_000, idleTimeout: 1_000_000_000 };

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
  /** Time without an answer before a REQUEST is re-sent with the same sequence bit; null: never. Default 100 µs (simulator), 1 s (software fabric, FABRIC_ARB_TIMES). */
  readonly requestTimeout?: number | null;
  /** Time after XOFF(ARB) before the flow asks again. Default 10 µs (simulator), 1 ms (software fabric). */
  readonly retryDelay?: number;
  /** Time a destination's resource may stay silent before §2.4.8 takes it back; null: never. Default 1 ms (simulator), 1 s (software fabric). */
  readonly idleTimeout?: number | null;
}

/** Flow arbitration settings of an end point with defaults applied, as its snapshot shows them. */
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

/** Checks the settings (RangeError naming `arbitration.<field>`) and fills in the defaults (`times`: the host's). */
export function resolveArbitrationConfig(c: EndpointArbitrationConfig, times: ArbitrationTimes = SIM_ARB_TIMES): ResolvedArbitrationConfig {
  const maxQueued = orDefault(c.maxQueued, null);
  return {
    mode: oneOf(orDefault(c.mode, 'single'), ['single', 'multi'], 'arbitration.mode', 'or'),
    resources: nonNegativeInteger(orDefault(c.resources, DEFAULT_ARB_RESOURCES), 'arbitration.resources'),
    whenBusy: oneOf(orDefault(c.whenBusy, 'queue'), ['queue', 'reject'], 'arbitration.whenBusy', 'or'),
    maxQueued: maxQueued === null ? null : nonNegativeInteger(maxQueued, 'arbitration.maxQueued'),
    pipelining: booleanFlag(orDefault(c.pipelining, true), 'arbitration.pipelining'),
    requestTimeout: positiveIntegerOrNull(orDefault(c.requestTimeout, times.requestTimeout), 'arbitration.requestTimeout'),
    // The end point is the application here, and it always asks again: a null retry delay (the
    // engine's "the application must ask again") would only mean asking again at once.
    retryDelay: nonNegativeInteger(orDefault(c.retryDelay, times.retryDelay), 'arbitration.retryDelay'),
    idleTimeout: positiveIntegerOrNull(orDefault(c.idleTimeout, times.idleTimeout), 'arbitration.idleTimeout'),
  };
}

