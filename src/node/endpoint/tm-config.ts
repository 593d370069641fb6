/**
 * Configuration of an end point's Part 10 traffic management, for every host: the settings, checked,
 * and the configurations of the two engines they become. The simulator's end point (tm.ts) and the
 * software fabric's (src/node/endpoint/tm-streams.ts) resolve their `tm` sections here; they differ
 * only in their clock (`TmClock`) and in the fabric's own queue and outbox bounds.
 *
 * Clocks. Simulator time is integer ps, but the ingress engine's token buckets hold bytes × rate
 * unit as safe integers (tm-ingress-config.ts: "(burst + 65536) × rate.unit stays below 2^51"),
 * which a one-second unit in ps (10^12) can never meet. The engines therefore run on a
 * nanosecond clock (`tick` host time units per engine tick, time rounded down) and their timers
 * are scaled back; `rate.unit` is given in host time units and must be a whole number of ticks.
 * Over TCP the host's unit is the ns, so the tick is 1.
 */
import { integerInRange, nonNegativeInteger, orDefault, positiveInteger } from '../../engine/config-checks.ts';
import { TmEgress } from '../../streaming/tm-egress.ts';
import { TmIngress } from '../../streaming/tm-ingress.ts';
import { DEFAULT_RATE } from '../../streaming/tm-ingress-config.ts';
import { usesRate } from '../../streaming/tm-mode.ts';
import type { TmModeSetting, TmTypesSetting } from '../../streaming/tm-mode.ts';
import type { TmEgressConfig, TmEgressPolicy, TmIngressConfig, TmRateConfig } from '../../streaming/tm-types.ts';
import { defaultRateBounds } from '../../streaming/tm-rate-bounds.ts';
import { DEFAULT_QUEUE_LEVEL_BITS } from '../../streaming/tm-queue-steps.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';

/** ps per tick of the engines' clock (1 ns). */
export const TM_TICK = 1000;

/** Default `rate.unit`: 1 s in ps, so that rates read as bytes per second. */
export const SIM_TM_RATE_UNIT = 1_000_000_000_000;

/**
 * Default `levelPeriod` in the rate modes: the egress's rate policy sends a REDUCE for every
 * report at or above its high watermark, doubling the amount each time (§3.4.5 rule 6), so a
 * report at every packet would take a rate to its minimum within a few packets. XOFF and XON are
 * sent once per crossing of a watermark, and the other modes report every change. In the
 * simulator 1 µs (in ps): its receive queue is sampled; over TCP 1 ms (in ns), the pace of the
 * driver's `tm-level` reports of socket buffers.
 */
export const RATE_LEVEL_PERIOD = 1_000_000;
export const DEFAULT_TM_RATE_LEVEL_PERIOD = 1_000_000;

/** A host's time as the engines see it. */
export interface TmClock {
  /** Host time units per engine tick (1 ns). */
  readonly tick: number;
  /** Default `levelPeriod` in the rate modes, in host time units. */
  readonly rateLevelPeriod: number;
}

/** The simulator: ps. */
export const SIM_TM_CLOCK: TmClock = { tick: TM_TICK, rateLevelPeriod: RATE_LEVEL_PERIOD };
/** The software fabric: ns. */
export const NS_TM_CLOCK: TmClock = { tick: 1, rateLevelPeriod: DEFAULT_TM_RATE_LEVEL_PERIOD };

/** Traffic management of an end point: its ingress and egress engines' settings. */
export interface EndpointTmConfig {
  /** TM Mode of both engines (Part 10 §5.5.1 Table 5-6). Default 'BASIC'. */
  readonly mode?: TmModeSetting;
  /** TM Types Supported; default the fewest that support `mode`. */
  readonly types?: TmTypesSetting;
  /**
   * Ingress rate modes: rates are bytes per `unit` host time units (default 1 s: bytes per second);
   * `minRate` and `maxRate` default to `defaultRateBounds`, the other fields and their defaults
   * are the engine's (TmRateConfig).
   */
  readonly rate?: TmRateConfig;
  /** Ingress precision of received REDUCE/INCREASE amounts in bits, 1..8. Default 8. */
  readonly amountBits?: number;
  /** Ingress credit modes: CREDIT STATUS when the credits left fall to this, 0..255. Default 2. */
  readonly lowCredits?: number;
  /**
   * Precision in bits (0..8) of the source queue level the ingress reports with Q_STATUS: the
   * fill of the flow's queue (PDUs / queuePdus) rounded down to 1/2^bits steps; 0 reports none.
   * Default 2.
   */
  readonly queueLevelBits?: number;
  /** Egress precision of received Q_STATUS levels in bits, 1..8. Default 8. */
  readonly levelBits?: number;
  /**
   * Host time units between the levels given to the egress (the simulator samples its receive
   * queue, the fabric its driver's `tm-level` inputs); 0: each change goes to the egress at once.
   * Default 0 in BASIC and CREDIT, the clock's `rateLevelPeriod` in RATE and CREDIT_RATE.
   */
  readonly levelPeriod?: number;
  /** The egress's policy (TmEgressPolicy): on/off and rate watermarks, credit allocations. */
  readonly policy?: TmEgressPolicy;
}

/** The two engines and the end point's own settings. */
export interface EndpointTmEngines {
  readonly ingress: TmIngress;
  readonly egress: TmEgress;
  readonly queueLevelBits: number;
  /**
   * Host time units between the levels given to the egress while the engines run `mode`
   * (decision R3): the configured `levelPeriod` in every mode; without one, the mode's default
   * (the clock's `rateLevelPeriod` in RATE and CREDIT_RATE, 0 otherwise), so that it follows a TM
   * Mode MAINTENANCE write as the engines do.
   */
  readonly levelPeriod: (mode: TmModeSetting) => number;
}

/** What the end point tells the configuration: its ID, transport type and CRF setting. */
export interface TmEndpointFacts {
  readonly id: number;
  readonly tt: number;
  readonly crfSupported: boolean;
  /**
   * The flow of the end point's Type 9 data, the flow of every stream's TM messages too (Part 10
   * §3.4.5 protocol rule 1 "all TM transactions occur in the same flows as the data"); default 0A.
   */
  readonly dataFlow?: FlowIdLabel;
}

/** Configurations also arrive from YAML and JSON: the value is checked, not its static type. */
function isMapping(v: unknown): boolean {
  return typeof v === 'object' && v !== null;
}

function rateInTicks(r: TmRateConfig | undefined, tick: number): TmRateConfig {
  const c = orDefault(r, {});
  if (!isMapping(c)) throw new RangeError('rate must be a mapping');
  const unit = positiveInteger(orDefault(c.unit, DEFAULT_RATE.unit * tick), 'rate.unit');
  if (unit % tick !== 0) throw new RangeError(`rate.unit must be a whole number of ns (a multiple of ${tick} time units)`);
  const average = orDefault(c.average, DEFAULT_RATE.average);
  const peak = orDefault(c.peak, DEFAULT_RATE.peak);
  // A rate that is not an integer is left for the engine to name.
  const bounds = Number.isSafeInteger(average) && Number.isSafeInteger(peak) ? defaultRateBounds(average, peak) : {};
  return { ...bounds, ...c, unit: unit / tick };
}

/**
 * Checks the settings and builds the engines; a RangeError names the field (`tm.<field> must be
 * …`), the engines' own checks included.
 */
export function makeTmEngines(facts: TmEndpointFacts, c: EndpointTmConfig, clock: TmClock): EndpointTmEngines {
  if (!isMapping(c)) throw new RangeError('tm must be a mapping');
  try {
    const common = {
      localID: facts.id,
      tt: facts.tt,
      ...(c.mode === undefined ? {} : { mode: c.mode }),
      ...(c.types === undefined ? {} : { types: c.types }),
    };
    const rate = rateInTicks(c.rate, clock.tick);
    const ingress: TmIngressConfig = {
      ...common,
      // Part 10 §3.2.2 "From the source's viewpoint: destination ID+cos+streamID represents a
      // unique stream": one queue per source flow, each flow being its own stream.
      classifier: { granularity: { mode: 'stream' }, crfSupported: facts.crfSupported },
      rate,
      ...(c.amountBits === undefined ? {} : { amountBits: c.amountBits }),
      ...(c.lowCredits === undefined ? {} : { lowCredits: c.lowCredits }),
    };
    const egress: TmEgressConfig = {
      ...common,
      crfSupported: facts.crfSupported,
      ...(facts.dataFlow === undefined ? {} : { defaultFlow: facts.dataFlow }),
      ...(c.levelBits === undefined ? {} : { levelBits: c.levelBits }),
      ...(c.policy === undefined ? {} : { policy: c.policy }),
    };
    const e = { ingress: new TmIngress(ingress), egress: new TmEgress(egress) };
    const levelPeriod = c.levelPeriod === undefined ? undefined : nonNegativeInteger(c.levelPeriod, 'levelPeriod');
    return {
      ...e,
      queueLevelBits: integerInRange(orDefault(c.queueLevelBits, DEFAULT_QUEUE_LEVEL_BITS), 0, 8, 'queueLevelBits'),
      levelPeriod: (mode) => levelPeriod ?? (usesRate(mode) ? clock.rateLevelPeriod : 0),
    };
  } catch (e) {
    throw e instanceof RangeError ? new RangeError(`tm.${e.message}`) : e;
  }
}

/** Default `queuePdus` of the software fabric: PDUs held per transmit stream. */
export const DEFAULT_TM_QUEUE_PDUS = 16;

/** Default `outboxLimit` of the software fabric: TM packets waiting to be sent, all destinations together. */
export const DEFAULT_TM_OUTBOX = 256;

/**
 * The software fabric end point's settings: the common ones, in ns, and the bounds of what its TM
 * holds (src/node/endpoint/tm-streams.ts). The simulator's flow queues have their own bound.
 */
export interface FabricTmConfig extends EndpointTmConfig {
  /**
   * PDUs held per Type 9 transmit stream while its gate is closed (the stream's TM queue). A `send`
   * beyond it is refused with event `tm` `queue-full` and the PDU dropped. Default 16.
   */
  readonly queuePdus?: number;
  /** TM packets waiting to be sent, at most; one beyond is dropped (event `tm` `outbox-full`). Default 256. */
  readonly outboxLimit?: number;
}

/** The fabric end point's facts: its data flow is known (its Type 9 conveyance's `normalFlow`). */
export interface FabricTmFacts extends TmEndpointFacts {
  readonly dataFlow: FlowIdLabel;
}

export interface ResolvedFabricTm extends EndpointTmEngines {
  readonly queuePdus: number;
  readonly outboxLimit: number;
}

/** `makeTmEngines` on the ns clock, and the fabric's own bounds; a RangeError names the field (`tm.<field> must be …`). */
export function resolveFabricTm(facts: FabricTmFacts, c: FabricTmConfig): ResolvedFabricTm {
  const e = makeTmEngines(facts, c, NS_TM_CLOCK);
  try {
    return {
      ...e,
      queuePdus: positiveInteger(orDefault<unknown>(c.queuePdus, DEFAULT_TM_QUEUE_PDUS), 'queuePdus'),
      outboxLimit: positiveInteger(orDefault<unknown>(c.outboxLimit, DEFAULT_TM_OUTBOX), 'outboxLimit'),
    };
  } catch (err) {
    throw err instanceof RangeError ? new RangeError(`tm.${err.message}`) : err;
  }
}
