import { z } from 'zod';
import { TmEgress } from '../../streaming/tm-egress.ts';
import type { TmCreditPolicy, TmEgressInput, TmEgressOutput, TmOnOffPolicy, TmRatePolicy } from '../../streaming/tm-types.ts';
import type { FlowIdLabel } from '../../wire/flow-id.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { bool, checkDeviceId, deviceId, expecting, flowId, int, oneOf } from './schema.ts';
import { checkEgressPolicy, egressPolicy, filledPolicy } from '../../node/endpoint/tm-schema.ts';
import { DEFAULT_GRANULARITY, commonShape, effectiveCommon, granularity, refineCommon, renderTm, tmInputPacket, userCommands } from './tm-schema.ts';
import type { CommonConfig } from './tm-schema.ts';

/**
 * `riodp model tm-egress`: src/streaming/tm-types.ts TmEgressConfig, defaults as documented
 * there, the mode from the config. Each policy may be given in part (the other fields keep their
 * defaults) or as null (off). The egress asks for no timers (§3.4.5 rule 5 "There are no
 * requirements for timers"). TM packets print as `send` packets do.
 */

export interface ModelTmEgressConfig extends CommonConfig {
  readonly granularity: { readonly mode: 'stream' } | { readonly mode: 'class'; readonly cosBits: number };
  readonly levelBits: number;
  readonly defaultFlow: FlowIdLabel;
  readonly crfSupported: boolean;
  readonly policy: {
    readonly onOff: TmOnOffPolicy | null;
    readonly rate: Required<TmRatePolicy> | null;
    readonly credit: TmCreditPolicy | null;
  };
}

/** A level n/255 of Table 4-4 Q_Status. */
const level = int(0, 0xff);
const rateKind = oneOf(['average', 'peak']);

const config = z.strictObject({
  ...commonShape,
  granularity: granularity.default(DEFAULT_GRANULARITY),
  levelBits: int(1, 8).default(8),
  defaultFlow: flowId.default('0A'),
  crfSupported: bool.default(true),
  // The policy an end point's tm section takes (src/node/endpoint/tm-schema.ts), its defaults filled in here.
  policy: egressPolicy.optional(),
}).superRefine((c, ctx) => {
  refineCommon(c, ctx);
  if (c.policy !== undefined) checkEgressPolicy(c.policy, ctx);
}).transform((c): ModelTmEgressConfig => ({
  ...effectiveCommon(c),
  granularity: c.granularity,
  levelBits: c.levelBits,
  defaultFlow: c.defaultFlow,
  crfSupported: c.crfSupported,
  policy: filledPolicy(c.policy ?? {}),
}));

/** tm-operand-match.ts TmDesignation: the ingress, then the VSID fields with Table 4-3 wildcard (3 bits) and mask. */
const designation = z.strictObject({
  peer: deviceId,
  cos: int(0, 0xff),
  streamID: int(0, 0xffff),
  wildcard: int(0, 7),
  mask: int(0, 0xff),
}, { error: expecting('a designation {peer, cos, streamID, wildcard, mask}') });

const command = z.discriminatedUnion('message', [
  z.strictObject({ message: z.literal('XOFF') }),
  z.strictObject({ message: z.literal('XON') }),
  z.strictObject({ message: z.literal('REDUCE'), rate: rateKind, amount: int(1, 0xff) }),
  z.strictObject({ message: z.literal('INCREASE'), rate: rateKind, amount: int(1, 0xfe) }),
  z.strictObject({ message: z.literal('DOUBLE'), rate: rateKind }),
  z.strictObject({ message: z.literal('MAINTAIN'), rate: rateKind }),
  z.strictObject({ message: z.literal('ALLOCATE'), credits: int(1, 0xff) }),
  z.strictObject({ message: z.literal('RETIRE'), allocationUnit: int(0, 15) }),
  ...userCommands,
]);

/** The prio, CRF and VC bits of the PDU's packets (classifier.ts PacketFlow). */
const flow = z.strictObject({ prio: int(0, 3), crf: int(0, 1), vc: int(0, 1) }, { error: expecting('the packet bits {prio, crf, vc}') });

const vsid = { sourceID: deviceId, cos: int(0, 0xff), streamID: int(0, 0xffff) };

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tm'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('pdu'), ...vsid, flow: flow.optional() }),
  z.strictObject({ kind: z.literal('queue-level'), ...vsid, level }),
  z.strictObject({ kind: z.literal('command'), to: designation, command }),
]);

type Line = z.infer<typeof input>;

function toInput(d: Line, ctx: { readonly config: ModelTmEgressConfig; readonly lenient: boolean }): TmEgressInput {
  // Part 3 §2.4: device IDs fit the tt of the TM packets the egress sends.
  const t = ctx.config.tt;
  switch (d.kind) {
    case 'tm':
      return { kind: 'tm', packet: tmInputPacket(d.packet, ctx.lenient) };
    case 'pdu': {
      const p = { kind: 'pdu', sourceID: checkDeviceId(d.sourceID, t, 'sourceID'), cos: d.cos, streamID: d.streamID } as const;
      return d.flow === undefined ? p : { ...p, flow: d.flow };
    }
    case 'queue-level':
      return { kind: 'queue-level', sourceID: checkDeviceId(d.sourceID, t, 'sourceID'), cos: d.cos, streamID: d.streamID, level: d.level };
    case 'command':
      checkDeviceId(d.to.peer, t, 'to.peer');
      return { kind: 'command', to: d.to, command: d.command };
  }
}

const base = defineAdapter({
  name: 'tm-egress',
  fields: [
    { name: 'localID', type: 'device ID (fits tt)', default: '0', meaning: 'this end point, the data\'s destination: the sourceID of the XOFF, XON, rate messages and ALLOCATEs it sends' },
    { name: 'tt', type: '0 | 1 | 2', default: '0', meaning: 'transport size of the TM packets sent (Dev8, Dev16, Dev32)' },
    { name: 'mode', type: "'DISABLED' | 'BASIC' | 'RATE' | 'CREDIT' | 'CREDIT_RATE'", default: 'BASIC', meaning: '§5.5.1 Table 5-6 TM Mode; DISABLED: every TM packet is ignored (event tm-disabled)' },
    { name: 'types', type: "'NONE' | 'BASIC' | 'BASIC_RATE' | 'BASIC_CREDIT' | 'BASIC_RATE_CREDIT'", default: 'the fewest that support mode', meaning: '§5.5.1 TM Types Supported; §3.4.5 rule 4 "Any supported modes shall be supported fully"' },
    { name: 'granularity', type: "{mode: 'stream'} | {mode: 'class', cosBits: 0..8}", default: '{"mode":"class","cosBits":8}', meaning: 'the egress\'s own queues: §3.3 "Egress queuing should be based on: source ID+cos"' },
    { name: 'levelBits', type: 'integer 1..8', default: '8', meaning: 'precision of received Q_STATUS levels: "Q_STATUS values should be rounded UP to the nearest precision" (§4.3.3 notes)' },
    { name: 'defaultFlow', type: 'flowID', default: '0A', meaning: 'flow of TM messages about traffic whose flow is not known yet (§3.4.5 protocol rule 1 "all TM transactions occur in the same flows as the data")' },
    { name: 'crfSupported', type: 'boolean', default: 'true', meaning: 'DECISIONS §3 system setting: the prio/CRF of defaultFlow (Part 6 Table 6-7, or Table 6-6 without CRF)' },
    { name: 'policy', type: '{onOff?, rate?, credit?}, each a mapping or null', default: '{"onOff":{"high":240,"low":128},"rate":{"high":160,"low":64,"reduce":32,"increase":16,"rate":"average"},"credit":{"credits":16,"auCount":16,"maxOutstanding":2,"lowCredits":2}}', meaning: 'XOFF at or above onOff.high, XON at or below onOff.low; REDUCE at or above rate.high ("a second DECREASE with a larger requested decrease amount", §3.4.5 rule 6), INCREASE at or below rate.low; ALLOCATE credits on Q_STATUS or a low CREDIT STATUS (§3.4.4)' },
  ],
  kinds: [
    { kind: 'tm', fields: 'packet (hex or decode --json object, Type 9 xh = 1)', meaning: 'a TM packet from the ingress: Q_STATUS, CREDIT STATUS' },
    { kind: 'pdu', fields: 'sourceID, cos, streamID, flow? ({prio, crf, vc})', meaning: 'a PDU arrived (its first segment\'s VSID and flow); counted against its AU in the credit modes' },
    { kind: 'queue-level', fields: 'sourceID, cos, streamID, level (0..255)', meaning: 'the egress\'s own queue for this traffic is level/255 full: the onOff and rate policies act on it' },
    { kind: 'command', fields: 'to ({peer, cos, streamID, wildcard, mask}), command ({message: XOFF | XON | REDUCE | INCREASE | DOUBLE | MAINTAIN | ALLOCATE | RETIRE | USER_DEFINED | APPLICATION_DEFINED, …})', meaning: 'send a directive to the designated queues (§3.4.2–§3.4.4)' },
  ],
  config,
  input,
  engine: TmEgress,
  toInput,
  // §3.4.5 rule 5 "There are no requirements for timers": the egress asks for none.
  timer: () => undefined,
});

export const tmEgressAdapter: EngineAdapter<ModelTmEgressConfig, TmEgressInput, TmEgressOutput> = { ...base, render: renderTm };
