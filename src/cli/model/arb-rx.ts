import { z } from 'zod';
import { ArbRx } from '../../flow/arb-rx.ts';
import { fifoPolicy, reserveForSingle, singleBeforeMulti } from '../../flow/grant-policy.ts';
import type { GrantPolicy } from '../../flow/arbitration-types.ts';
import type { ArbRxConfig, ArbRxInput, ArbRxOutput } from '../../flow/arbitration-types.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { ccpPacket } from './packets.ts';
import { bool, checkDeviceId, deviceId, duration, flowId, int, maxDeviceId, messageFlow, oneOf, segmentKind, tt } from './schema.ts';

/** `riodp model arb-rx`: the ArbRx half of src/flow/arbitration-types.ts, defaults as documented there, plus the grant policy. */

/** Rule 9 "to consider which REQUESTs to grant": the policies of src/flow/grant-policy.ts by name. */
type PolicyConfig = 'fifo' | 'single-before-multi' | { readonly reserveForSingle: number };
type ModelArbRxConfig = ArbRxConfig & { readonly policy: PolicyConfig };

function grantPolicy(p: PolicyConfig): GrantPolicy {
  if (p === 'fifo') return fifoPolicy;
  if (p === 'single-before-multi') return singleBeforeMulti;
  return reserveForSingle(p.reserveForSingle);
}

class ArbRxWithPolicy extends ArbRx {
  constructor(c: ModelArbRxConfig) {
    const { policy, ...config } = c;
    super(config, grantPolicy(policy));
  }
}

const config = z.strictObject({
  localID: deviceId,
  tt: tt.default(0),
  resources: int(0),
  enabled: bool.default(true),
  whenBusy: oneOf(['queue', 'reject']).default('queue'),
  maxQueued: int(0).optional(),
  idleTimeout: duration.nullable().default(1_000_000),
  responseFlow: messageFlow.default({ prio: 3, crf: 1 }),
  policy: z.union([z.enum(['fifo', 'single-before-multi']), z.strictObject({ reserveForSingle: int(0) })]).default('fifo'),
}).superRefine((c, ctx) => {
  const max = maxDeviceId(c.tt);
  if (c.localID > max) ctx.addIssue({ code: 'custom', path: ['localID'], message: `expected a device ID 0..${max} (tt ${c.tt})` });
}).transform((c): ModelArbRxConfig => {
  const { maxQueued, ...rest } = c;
  return { ...rest, ...(maxQueued === undefined ? {} : { maxQueued }) };
});

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ccp'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('segment'), sourceID: deviceId, flowID: flowId, segment: segmentKind }),
  z.strictObject({ kind: z.literal('reclaim'), sourceID: deviceId, flowID: flowId }),
]);

export const arbRxAdapter: EngineAdapter<ModelArbRxConfig, ArbRxInput, ArbRxOutput> = defineAdapter({
  name: 'arb-rx',
  fields: [
    { name: 'localID', type: 'device ID', default: 'required', meaning: 'this end point: tgtdestinationID of the XON(ARB)/XOFF(ARB) it sends' },
    { name: 'tt', type: '0 | 1 | 2', default: '0', meaning: 'transport size of the messages sent (Dev8, Dev16, Dev32)' },
    { name: 'resources', type: 'integer >= 0', default: 'required', meaning: 'size of the resource pool (e.g. reassembly contexts); rule 10 "Only a single instance of resources shall be allocated to a flow"' },
    { name: 'enabled', type: 'boolean', default: 'true', meaning: 'this end supports arbitration (PE Features bit 20 and the port\'s participant bit); false: REQUESTs are ignored' },
    { name: 'whenBusy', type: "'queue' | 'reject'", default: 'queue', meaning: 'rule 9 "may delay sending responses": hold one REQUEST per flow until a resource frees (its reissue is answered XOFF(ARB), rule 2), or XOFF(ARB) at once' },
    { name: 'maxQueued', type: 'integer >= 0', default: 'none (unbounded)', meaning: 'bound on queued REQUESTs across flows; beyond it XOFF(ARB) at once' },
    { name: 'idleTimeout', type: 'integer ns > 0 | null', default: '1000000', meaning: '§2.4.8: idle single-PDU resources are freed; multi-PDU ones asked back with XOFF(ARB), then freed asynchronously; null: off (§2.4.8 NOTE)' },
    { name: 'responseFlow', type: '{prio 0..3, crf 0..1}', default: '{"prio":3,"crf":1}', meaning: 'rule 12 "XON(ARB), and XOFF(ARB) messages may be sent in any flow"' },
    { name: 'policy', type: "'fifo' | 'single-before-multi' | {reserveForSingle: n}", default: 'fifo', meaning: 'rule 9 grant policy: oldest first; single-PDU requests first; or multi-PDU requests only while more than n resources are free' },
  ],
  kinds: [
    { kind: 'ccp', fields: 'packet (hex or decode --json object, Type 7)', meaning: 'a received REQUEST or RELEASE' },
    { kind: 'segment', fields: 'sourceID, flowID, segment (single | start | continuation | end | abort)', meaning: 'a data segment arrived on a flow (from the reassembler)' },
    { kind: 'reclaim', fields: 'sourceID, flowID', meaning: 'rule 8: ask a multi-PDU resource back with XOFF(ARB)' },
  ],
  config,
  input,
  engine: ArbRxWithPolicy,
  toInput(d, ctx) {
    if (d.kind === 'ccp') return { kind: 'ccp', packet: ccpPacket(d.packet, ctx.lenient) };
    checkDeviceId(d.sourceID, ctx.config.tt ?? 0, 'sourceID');
    return d;
  },
  timer: (name) => ({ kind: 'timer', name }),
});
