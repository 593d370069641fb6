import { z } from 'zod';
import type { AppKey, StreamTarget } from '../../streaming/classifier.ts';
import { TmIngress } from '../../streaming/tm-ingress.ts';
import { DEFAULT_RATE } from '../../streaming/tm-ingress-config.ts';
import { RATE_LIMIT } from '../../streaming/tm-rate.ts';
import type {
  TmDiscardPolicy, TmIngressConfig, TmIngressInput, TmIngressOutput, TmRateConfig, TmRateTimerName, TmStreamRef,
} from '../../streaming/tm-types.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { bool, checkDeviceId, expecting, int } from './schema.ts';
import {
  DEFAULT_GRANULARITY, commonShape, effectiveCommon, granularity, refineCommon, refineTargets, renderTm, streamTarget, tmInputPacket, userCommands,
} from './tm-schema.ts';
import type { CommonConfig } from './tm-schema.ts';

/**
 * `riodp model tm-ingress`: src/streaming/tm-types.ts TmIngressConfig, defaults as documented
 * there, the mode from the config (a register space has no JSON form). Streams are named by an
 * application key (`{"app": {...}}`, classified by the rule table) or by their target
 * (`{"target": {...}}`); input fields are checked by their Part 10 widths here, so what reaches
 * the engine's `bad-command` is what the mode forbids. TM packets print as `send` packets do.
 */

/** The classifier config as the header prints it: `default` null when absent (a key no rule matches is unclassified). */
interface ModelClassifier {
  readonly rules: readonly { readonly match: AppKey; readonly target: StreamTarget }[];
  readonly default: StreamTarget | null;
  readonly granularity: { readonly mode: 'stream' } | { readonly mode: 'class'; readonly cosBits: number };
  readonly crfSupported: boolean;
}

export interface ModelTmIngressConfig extends CommonConfig {
  readonly classifier: ModelClassifier;
  readonly queues: readonly StreamTarget[];
  readonly amountBits: number;
  readonly rate: Required<TmRateConfig>;
  readonly lowCredits: number;
  readonly discard: TmDiscardPolicy;
}

const appKey = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()], { error: expecting('a string, number or boolean') }), { error: expecting('an application key: a mapping of names to strings, numbers or booleans') });

const classifier = z.strictObject({
  rules: z.array(z.strictObject({ match: appKey, target: streamTarget }, { error: expecting('a rule {match, target}') }), { error: expecting('a list of rules') }).default([]),
  default: streamTarget.nullable().default(null),
  granularity: granularity.default(DEFAULT_GRANULARITY),
  crfSupported: bool.default(true),
}, { error: expecting('a classifier {rules?, default?, granularity?, crfSupported?}') });

/** A rate in bytes per `unit`: at most 2^40 (tm-rate.ts RATE_LIMIT keeps the arithmetic exact). */
const rateValue = int(1, RATE_LIMIT);

const rate = z.strictObject({
  unit: int(1).default(DEFAULT_RATE.unit),
  average: rateValue.default(DEFAULT_RATE.average),
  peak: rateValue.default(DEFAULT_RATE.peak),
  burst: int(1).default(DEFAULT_RATE.burst),
  peakBurst: int(1).default(DEFAULT_RATE.peakBurst),
  minRate: rateValue.default(DEFAULT_RATE.minRate),
  maxRate: rateValue.default(DEFAULT_RATE.maxRate),
}, { error: expecting('a rate mapping {unit?, average?, peak?, burst?, peakBurst?, minRate?, maxRate?}') });

const discard = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  z.strictObject({ mode: z.literal('bound'), maxQueued: int(1) }),
], { error: expecting("{mode: 'none'} or {mode: 'bound', maxQueued: n >= 1}") });

const config = z.strictObject({
  ...commonShape,
  classifier: classifier.prefault({}),
  queues: z.array(streamTarget, { error: expecting('a list of stream targets') }).default([]),
  amountBits: int(1, 8).default(8),
  rate: rate.prefault({}),
  lowCredits: int(0, 0xff).default(2),
  discard: discard.default({ mode: 'none' }),
}).superRefine((c, ctx) => {
  refineCommon(c, ctx);
  refineTargets([
    ...c.classifier.rules.map((r, i) => ({ path: ['classifier', 'rules', i, 'target'], destinationID: r.target.destinationID })),
    ...(c.classifier.default === null ? [] : [{ path: ['classifier', 'default'], destinationID: c.classifier.default.destinationID }]),
    ...c.queues.map((q, i) => ({ path: ['queues', i], destinationID: q.destinationID })),
  ], c.tt, ctx);
  // Table 4-5 notes: "a decrease must never reduce the rate completely to zero"; the rates start between the bounds.
  const r = c.rate;
  if (r.minRate > r.maxRate) {
    ctx.addIssue({ code: 'custom', path: ['rate', 'minRate'], message: `expected an integer 1..${r.maxRate} (maxRate)` });
    return;
  }
  for (const k of ['average', 'peak'] as const) {
    if (r[k] < r.minRate || r[k] > r.maxRate) ctx.addIssue({ code: 'custom', path: ['rate', k], message: `expected an integer ${r.minRate}..${r.maxRate} (minRate..maxRate)` });
  }
}).transform((c): ModelTmIngressConfig => ({
  ...effectiveCommon(c),
  classifier: c.classifier,
  queues: c.queues,
  amountBits: c.amountBits,
  rate: c.rate,
  lowCredits: c.lowCredits,
  discard: c.discard,
}));

/** TmStreamRef: exactly one of `app` and `target`. */
const stream = z.strictObject({ app: appKey.optional(), target: streamTarget.optional() }, { error: expecting('a stream {app: {...}} or {target: {...}}') })
  .superRefine((s, ctx) => {
    if ((s.app === undefined) === (s.target === undefined)) ctx.addIssue({ code: 'custom', message: 'expected a stream {app: {...}} or {target: {...}}, one of the two' });
  });

/** A PDU size: Table 4-1 length "0x0001 - 1 byte" to "0x0000 - 64kbytes". */
const pduBytes = int(1, 0x10000);

const command = z.discriminatedUnion('message', [
  z.strictObject({ message: z.literal('Q_STATUS') }),
  z.strictObject({ message: z.literal('RELINQUISH') }),
  ...userCommands,
]);

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tm'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('pdu-ready'), stream, bytes: pduBytes }),
  z.strictObject({ kind: z.literal('pdu-sent'), stream, bytes: pduBytes }),
  z.strictObject({ kind: z.literal('queue-level'), stream, level: int(0, 0xff) }),
  z.strictObject({ kind: z.literal('command'), stream, command }),
]);

type Line = z.infer<typeof input>;

function streamRef(s: z.infer<typeof stream>, t: number): TmStreamRef {
  if (s.app !== undefined) return { app: s.app };
  const target = s.target as StreamTarget;
  // Part 3 §2.4: the destination must fit the tt of the TM packets the ingress sends about it.
  checkDeviceId(target.destinationID, t, 'stream.target.destinationID');
  return { target };
}

function toInput(d: Line, ctx: { readonly config: ModelTmIngressConfig; readonly lenient: boolean }): TmIngressInput {
  if (d.kind === 'tm') return { kind: 'tm', packet: tmInputPacket(d.packet, ctx.lenient) };
  const s = streamRef(d.stream, ctx.config.tt);
  switch (d.kind) {
    case 'pdu-ready':
    case 'pdu-sent':
      return { kind: d.kind, stream: s, bytes: d.bytes };
    case 'queue-level':
      return { kind: d.kind, stream: s, level: d.level };
    case 'command':
      return { kind: d.kind, stream: s, command: d.command };
  }
}

/** The types file's config from the model's: `default` null is an absent default. */
function engineConfig(c: ModelTmIngressConfig): TmIngressConfig {
  const { default: dflt, ...cls } = c.classifier;
  return { ...c, classifier: dflt === null ? cls : { ...cls, default: dflt } };
}

class ModelTmIngress extends TmIngress {
  constructor(c: ModelTmIngressConfig) {
    super(engineConfig(c));
  }
}

const RATE_TIMER = 'rate:';

const base = defineAdapter({
  name: 'tm-ingress',
  fields: [
    { name: 'localID', type: 'device ID (fits tt)', default: '0', meaning: 'this end point, the data\'s source: the sourceID of the Q_STATUS and CREDIT STATUS it sends' },
    { name: 'tt', type: '0 | 1 | 2', default: '0', meaning: 'transport size of the TM packets sent (Dev8, Dev16, Dev32)' },
    { name: 'mode', type: "'DISABLED' | 'BASIC' | 'RATE' | 'CREDIT' | 'CREDIT_RATE'", default: 'BASIC', meaning: '§5.5.1 Table 5-6 TM Mode; DISABLED: every TM packet is ignored (event tm-disabled)' },
    { name: 'types', type: "'NONE' | 'BASIC' | 'BASIC_RATE' | 'BASIC_CREDIT' | 'BASIC_RATE_CREDIT'", default: 'the fewest that support mode', meaning: '§5.5.1 TM Types Supported; §3.4.5 rule 4 "Any supported modes shall be supported fully"' },
    { name: 'classifier', type: '{rules?, default?, granularity?, crfSupported?}', default: '{"rules":[],"default":null,"granularity":{"mode":"class","cosBits":8},"crfSupported":true}', meaning: '§2.5 "The relationship between the ingress/egress cos and the end to end flowID … is implementation specific": application keys to targets, first match wins; §3.3 "Ingress queuing should be based on: destination ID+cos"' },
    { name: 'queues', type: 'list of stream targets', default: '[]', meaning: 'queues that exist before their first PDU, so that TM messages can address them (§3.4.5 protocol rule 2)' },
    { name: 'amountBits', type: 'integer 1..8', default: '8', meaning: '§3.4.5 rule 3 "Receiving endpoints shall support the full range of values by rounding to the desired precision": REDUCE rounds up, INCREASE down' },
    { name: 'rate', type: '{unit?, average?, peak?, burst?, peakBurst?, minRate?, maxRate?}', default: '{"unit":1000000000,"average":125000000,"peak":250000000,"burst":65536,"peakBurst":4096,"minRate":1,"maxRate":1099511627776}', meaning: '§3.4.3 "The ingress is pre-configured with a specific traffic scheduling algorithm": token buckets, bytes per unit ns; "a decrease must never reduce the rate completely to zero" (minRate)' },
    { name: 'lowCredits', type: 'integer 0..255', default: '2', meaning: '§3.4.4 CREDIT STATUS <AU> <xx> "to indicate a low level of credit allocation as a trigger to request more credits", once per AU; 0 never' },
    { name: 'discard', type: "{mode: 'none'} | {mode: 'bound', maxQueued}", default: '{"mode":"none"}', meaning: '§3.4.5 rule 4 "The ingress may discard traffic should the egress not adequately permit that traffic onto the fabric"' },
  ],
  kinds: [
    { kind: 'tm', fields: 'packet (hex or decode --json object, Type 9 xh = 1)', meaning: 'a TM packet from the egress: XOFF, XON, rate messages, ALLOCATE' },
    { kind: 'pdu-ready', fields: 'stream ({app} or {target}), bytes (1..65536)', meaning: 'a PDU joined the stream\'s queue' },
    { kind: 'pdu-sent', fields: 'stream, bytes (1..65536)', meaning: 'the application sent the queue\'s oldest ready PDU (one credit, bytes tokens)' },
    { kind: 'queue-level', fields: 'stream, level (0..255)', meaning: 'the queue is level/255 full; a change is reported with Q_STATUS' },
    { kind: 'command', fields: 'stream, command ({message: Q_STATUS | RELINQUISH | USER_DEFINED | APPLICATION_DEFINED, …})', meaning: '§3.4.5 rule 5 "An ingress may "insist""; §3.4.4 "relinquish credits"; user and application messages' },
  ],
  config,
  input,
  engine: ModelTmIngress,
  toInput,
  timer: (name): TmIngressInput | undefined => (name.startsWith(RATE_TIMER) ? { kind: 'timer', name: name as TmRateTimerName } : undefined),
});

export const tmIngressAdapter: EngineAdapter<ModelTmIngressConfig, TmIngressInput, TmIngressOutput> = { ...base, render: renderTm };
