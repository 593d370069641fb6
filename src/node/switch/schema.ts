import { z } from 'zod';
import { bool, dispatch, expecting, int, oneOf, withoutUndefined } from '../../config/zod-parts.ts';
import { VOQ_SYMBOL_FORMS } from '../../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../../wire/voq-stype2.ts';
import { ARBITRATIONS } from './arbiters.ts';
import type { Arbitration } from './arbiters.ts';
import { QUEUEINGS } from './config-types.ts';
import type { Queueing, SwitchConfig } from './config-types.ts';
import { MATCHERS, matcherProblem } from './voq-matching.ts';
import type { VoqMatcher } from './voq-matching.ts';

/**
 * The switch element's behaviour settings as configuration files write them (issue 15 "one
 * configuration schema"): the same fields, names and checks in a simulator scenario's `switch`
 * section and in `riodp switch`'s file, each host adding its own (the simulator its crossbar
 * timing; the software fabric its device ID, routes and listeners). Every field is optional: the
 * element's defaults (config.ts) apply. Durations are in the host's unit, parsed by the schema
 * the host gives (`duration`).
 */

type Choices<T extends string> = readonly [T, ...T[]];

const buffer = (what: string, minPackets: number) => z.strictObject({
  packets: int(minPackets, 1 << 20),
  reservePerPriority: int(0).optional(),
}, { error: expecting(`${what} {packets, reservePerPriority?}`) }).refine((b) => (b.reservePerPriority ?? 0) === 0 || 3 * (b.reservePerPriority ?? 0) < b.packets, {
  path: ['reservePerPriority'],
  error: 'expected fewer than packets / 3 (Part 6 §6.12 rule 4: priority 0 keeps a place after the three higher priorities\' reserves)',
});

const arbitrationPolicy = oneOf(ARBITRATIONS as Choices<Arbitration>);

const arbitration = dispatch<Arbitration | { policy?: Arbitration | undefined; weights?: number[] | undefined; byClass?: boolean | undefined; seed?: number | undefined }>((v) => (typeof v === 'string' || v === undefined
  ? arbitrationPolicy
  : z.strictObject({
    policy: arbitrationPolicy.optional(),
    weights: z.array(int(1), { error: expecting('a list of positive integers, one per port') }).optional(),
    byClass: bool.optional(),
    seed: int(0, 0xffffffff).optional(),
  }, { error: expecting(`a policy (${ARBITRATIONS.join(', ')}) or {policy, weights?, byClass?, seed?}`) }).refine((a) => a.weights === undefined || a.policy === 'weighted', {
    path: ['weights'],
    error: 'expected only with policy weighted',
  }).refine((a) => a.seed === undefined || a.policy === 'random', {
    path: ['seed'],
    error: 'expected only with policy random',
  })));

const policy = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('histogram'), flows: int(1, 5).optional() }),
  z.strictObject({ kind: z.literal('threshold') }),
], { error: expecting('a policy {kind: histogram, flows} or {kind: threshold}') });

/** Part 9 congestion point settings (src/flow/congestion-point-types.ts); role and routes come from the switch. */
function congestionSettings(duration: z.ZodType<number>) {
  return z.strictObject({
    highWatermark: int(1),
    lowWatermark: int(0),
    unit: oneOf(['packets', 'bytes']).optional(),
    capacity: int(1).optional(),
    policy: policy.optional(),
    responses: oneOf(['fallback', 'ignore', 'equal']).optional(),
    listCapacity: int(1).optional(),
    restartOrder: oneOf(['fifo', 'lifo']).optional(),
    restartStagger: duration.optional(),
    crfSupported: bool.optional(),
    vcCount: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(4), z.literal(8)], { error: expecting('one of 0, 1, 2, 4, 8') }).optional(),
    ccpFlow: z.strictObject({ prio: int(0, 3), crf: int(0, 1) }, { error: expecting('a mapping {prio, crf}') }).optional(),
  }, { error: expecting('Part 9 congestion point settings {highWatermark, lowWatermark, …}') }).refine((c) => c.lowWatermark < c.highWatermark, {
    path: ['lowWatermark'],
    error: 'expected less than highWatermark (Annex A.1 hysteresis)',
  });
}

function voqSettings(period: z.ZodType<number>) {
  return z.strictObject({
    high: int(1),
    low: int(0),
    format: oneOf(VOQ_FORMATS).optional(),
    symbol: oneOf(VOQ_SYMBOL_FORMS).optional(),
    refreshPeriod: z.union([period, z.null()]).optional(),
    generate: z.array(int(0, 254), { error: expecting('a list of ports') }).optional(),
    stagingQueues: int(1, 256).optional(),
  }, { error: expecting('VoQ settings {high, low, …}') }).refine((v) => v.low < v.high, { path: ['low'], error: 'expected less than high' });
}

/** Requests for the switch each port may have performed (maintenance-budget.ts): `burst` at once, one more every `interval`. */
function maintenanceBudget(period: z.ZodType<number>) {
  return z.strictObject({
    burst: int(1, 1 << 20),
    interval: period,
  }, { error: expecting('a maintenance budget {burst, interval} or null') });
}

/** A host's durations: any (from 0), and strictly positive ones (periods). */
export interface DurationSchemas {
  readonly duration: z.ZodType<number>;
  readonly period: z.ZodType<number>;
}

type CongestionIn = z.infer<ReturnType<typeof congestionSettings>>;

/** The fields (for a host's `z.strictObject`) and their parsed types. */
export function switchSettingsShape(t: DurationSchemas) {
  const congestion = congestionSettings(t.duration);
  return {
    queueing: oneOf(QUEUEINGS as Choices<Queueing>).optional(),
    arbitration: arbitration.optional(),
    iterations: int(1, 64).optional(),
    matcher: oneOf(MATCHERS as Choices<VoqMatcher>).optional(),
    inputBuffer: buffer('an input buffer', 1).optional(),
    outputBuffer: buffer('an output buffer', 0).optional(),
    ccpQueue: int(0).optional(),
    congestion: dispatch<CongestionIn | (CongestionIn | null)[] | null>((v) => (v === null ? z.null() : Array.isArray(v) ? z.array(congestion.nullable()) : congestion)).optional(),
    voq: voqSettings(t.period).nullable().optional(),
    maintenanceBudget: maintenanceBudget(t.period).nullable().optional(),
  };
}

type Shape = ReturnType<typeof switchSettingsShape>;
export type SwitchSettingsIn = { readonly [K in keyof Shape]?: z.infer<Shape[K]> };

/**
 * Checks across the fields, for the host's `superRefine`: what the queueing architecture asks of
 * the buffers and of `voq`, and that the matcher's settings act (voq-matching.ts).
 */
export function checkSwitchSettings(s: Pick<SwitchSettingsIn, 'queueing' | 'outputBuffer' | 'voq' | 'arbitration' | 'iterations' | 'matcher'>, ctx: z.RefinementCtx): void {
  const queueing = s.queueing ?? 'output-queued';
  const a = s.arbitration;
  const problem = matcherProblem({
    queueing, matcher: s.matcher, iterations: s.iterations,
    policy: typeof a === 'object' ? a.policy : a, policyPath: typeof a === 'object' ? ['arbitration', 'policy'] : ['arbitration'],
    byClass: typeof a === 'object' ? a.byClass : undefined,
  });
  if (problem !== null) ctx.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
  if (queueing === 'cioq-voq-backpressure' && (s.voq === undefined || s.voq === null)) {
    ctx.addIssue({ code: 'custom', path: ['voq'], message: 'missing, expected VoQ settings {high, low} with queueing cioq-voq-backpressure' });
  }
  const inputQueued = queueing === 'input-fifo' || queueing === 'input-voq';
  if (inputQueued && s.voq != null) ctx.addIssue({ code: 'custom', path: ['voq'], message: 'expected no VoQ settings with an input-queued switch (the generator watches output queues)' });
  const packets = s.outputBuffer?.packets;
  if (packets !== undefined && (inputQueued ? packets > 1 : packets < 1)) {
    ctx.addIssue({ code: 'custom', path: ['outputBuffer', 'packets'], message: inputQueued ? 'expected 0 or 1 with an input-queued switch' : 'expected an integer >= 1' });
  }
}

/** The element's configuration fields of parsed settings, without the fields a file left out. */
export function switchSettingsConfig(s: SwitchSettingsIn): Omit<SwitchConfig, 'ports' | 'routes'> {
  const keys = ['queueing', 'arbitration', 'iterations', 'matcher', 'inputBuffer', 'outputBuffer', 'ccpQueue', 'congestion', 'voq', 'maintenanceBudget'] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (s[k] !== undefined) out[k] = withoutUndefined(s[k]);
  return out;
}
