/**
 * Configuration of a `FabricEndpoint`'s Part 10 traffic management (fabric-endpoint-tm.ts): the
 * settings an end point is given, checked, and the two engines they become. Durations and rates
 * are in the driver's time unit (ns over TCP).
 */
import { integerInRange, nonNegativeInteger, orDefault, positiveInteger } from '../engine/config-checks.ts';
import { TmEgress } from '../streaming/tm-egress.ts';
import { TmIngress } from '../streaming/tm-ingress.ts';
import { DEFAULT_RATE } from '../streaming/tm-ingress-config.ts';
import { usesRate } from '../streaming/tm-mode.ts';
import type { TmModeSetting, TmTypesSetting } from '../streaming/tm-mode.ts';
import type { TmEgressConfig, TmEgressPolicy, TmIngressConfig, TmRateConfig } from '../streaming/tm-types.ts';
import type { FlowIdLabel } from '../wire/flow-id.ts';
import { defaultRateBounds } from '../streaming/tm-rate-bounds.ts';
import { DEFAULT_QUEUE_LEVEL_BITS } from '../streaming/tm-queue-steps.ts';

/** Default `queuePdus`: PDUs held per transmit stream. */
export const DEFAULT_TM_QUEUE_PDUS = 16;

/** Default `outboxLimit`: TM packets waiting to be sent, all destinations together. */
export const DEFAULT_TM_OUTBOX = 256;

/**
 * Default `levelPeriod` in the rate modes: 1 ms in ns. The egress's rate policy sends a REDUCE for
 * every report at or above its high watermark, doubling the amount each time (§3.4.5 rule 6), so
 * levels given at every change of a busy receive buffer would take a rate to its minimum at once.
 * XOFF and XON go once per crossing of a watermark, so the other modes report every change.
 */
export const DEFAULT_TM_RATE_LEVEL_PERIOD = 1_000_000;

export interface FabricTmConfig {
  /** TM Mode of both engines (Part 10 §5.5.1 Table 5-6). Default 'BASIC'. */
  readonly mode?: TmModeSetting;
  /** TM Types Supported; default the fewest that support `mode`. */
  readonly types?: TmTypesSetting;
  /**
   * Ingress rate modes: bytes per `unit` time units (default 10^9: bytes per second in ns);
   * `minRate` and `maxRate` default as src/streaming/tm-rate-bounds.ts says, the rest as the engine's TmRateConfig.
   */
  readonly rate?: TmRateConfig;
  /** Ingress precision of received REDUCE/INCREASE amounts in bits, 1..8. Default 8. */
  readonly amountBits?: number;
  /** Ingress credit modes: CREDIT STATUS when the credits left fall to this, 0..255. Default 2. */
  readonly lowCredits?: number;
  /**
   * PDUs held per Type 9 transmit stream while its gate is closed (the stream's TM queue). A `send`
   * beyond it is refused with event `tm` `queue-full` and the PDU dropped. Default 16.
   */
  readonly queuePdus?: number;
  /** Bits (0..8) of the queue level reported with Q_STATUS: held PDUs / `queuePdus` in 1/2^bits steps; 0 reports none. Default 2. */
  readonly queueLevelBits?: number;
  /** Egress precision of received Q_STATUS levels in bits, 1..8. Default 8. */
  readonly levelBits?: number;
  /**
   * Time units between the levels given to the egress (the driver's `tm-level` inputs, sampled);
   * 0: each change goes to the egress at once. Default 0 in BASIC and CREDIT, 1 ms in RATE and
   * CREDIT_RATE (`DEFAULT_TM_RATE_LEVEL_PERIOD`).
   */
  readonly levelPeriod?: number;
  /** TM packets waiting to be sent, at most; one beyond is dropped (event `tm` `outbox-full`). Default 256. */
  readonly outboxLimit?: number;
  /** The egress's policy (TmEgressPolicy): on/off and rate watermarks, credit allocations. */
  readonly policy?: TmEgressPolicy;
}

/** What the end point tells the configuration. */
export interface TmEndpointFacts {
  readonly nodeId: number;
  readonly tt: number;
  readonly crfSupported: boolean;
  /** The flow of the Type 9 conveyance's data PDUs (its `normalFlow`): the flow of every stream's TM messages too. */
  readonly dataFlow: FlowIdLabel;
}

/** The engines and the end point's own settings. */
export interface ResolvedFabricTm {
  readonly ingress: TmIngress;
  readonly egress: TmEgress;
  readonly queuePdus: number;
  readonly queueLevelBits: number;
  readonly levelPeriod: number;
  readonly outboxLimit: number;
}

function isMapping(v: unknown): boolean {
  return typeof v === 'object' && v !== null;
}

function rateWithBounds(r: TmRateConfig | undefined): TmRateConfig {
  const c = orDefault(r, {});
  if (!isMapping(c)) throw new RangeError('rate must be a mapping');
  const average = orDefault(c.average, DEFAULT_RATE.average);
  const peak = orDefault(c.peak, DEFAULT_RATE.peak);
  // A rate that is not an integer is left for the engine to name.
  if (!Number.isSafeInteger(average) || !Number.isSafeInteger(peak)) return c;
  return { ...defaultRateBounds(average, peak), ...c };
}

function only<K extends string, V>(key: K, v: V | undefined): { readonly [P in K]?: V } {
  return (v === undefined ? {} : { [key]: v }) as { readonly [P in K]?: V };
}

/** Checks the settings and builds the engines; a RangeError names the field (`tm.<field> must be …`). */
export function resolveFabricTm(facts: TmEndpointFacts, c: FabricTmConfig): ResolvedFabricTm {
  if (!isMapping(c)) throw new RangeError('tm must be a mapping');
  try {
    const common = { localID: facts.nodeId, tt: facts.tt, ...only('mode', c.mode), ...only('types', c.types) };
    const ingress: TmIngressConfig = {
      ...common,
      // Part 10 §3.2.2 "From the source's viewpoint: destination ID+cos+streamID represents a
      // unique stream": one queue per Type 9 transmit stream.
      classifier: { granularity: { mode: 'stream' }, crfSupported: facts.crfSupported },
      rate: rateWithBounds(c.rate),
      ...only('amountBits', c.amountBits),
      ...only('lowCredits', c.lowCredits),
    };
    const egress: TmEgressConfig = {
      ...common,
      crfSupported: facts.crfSupported,
      defaultFlow: facts.dataFlow,
      ...only('levelBits', c.levelBits),
      ...only('policy', c.policy),
    };
    const e = { ingress: new TmIngress(ingress), egress: new TmEgress(egress) };
    return {
      ...e,
      queuePdus: positiveInteger(orDefault<unknown>(c.queuePdus, DEFAULT_TM_QUEUE_PDUS), 'queuePdus'),
      queueLevelBits: integerInRange(orDefault<unknown>(c.queueLevelBits, DEFAULT_QUEUE_LEVEL_BITS), 0, 8, 'queueLevelBits'),
      levelPeriod: nonNegativeInteger(orDefault<unknown>(c.levelPeriod, usesRate(e.ingress.mode()) ? DEFAULT_TM_RATE_LEVEL_PERIOD : 0), 'levelPeriod'),
      outboxLimit: positiveInteger(orDefault<unknown>(c.outboxLimit, DEFAULT_TM_OUTBOX), 'outboxLimit'),
    };
  } catch (e) {
    throw e instanceof RangeError ? new RangeError(`tm.${e.message}`) : e;
  }
}
