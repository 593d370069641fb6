import { z } from 'zod';
import { ArbTx } from '../../flow/arb-tx.ts';
import type { ArbTxConfig, ArbTxInput, ArbTxOutput } from '../../flow/arbitration-types.ts';
import { ccpPrioCrf } from '../../wire/flow-id.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { ccpPacket } from './packets.ts';
import { arbMode, bool, checkDeviceId, deviceId, duration, expecting, flowId, int, maxDeviceId, messageFlow, segmentKind, tt } from './schema.ts';

/** `riodp model arb-tx`: the ArbTx half of src/flow/arbitration-types.ts, defaults as documented there. */

const config = z.strictObject({
  localID: deviceId,
  tt: tt.default(0),
  enabled: bool.default(true),
  unsupportedPeers: z.array(deviceId, { error: expecting('a list of device IDs') }).default([]),
  requestTimeout: duration.nullable().default(100_000),
  retryDelay: int(0).nullable().default(10_000),
  pipelining: bool.default(true),
  requestFlow: messageFlow.optional(),
  crfSupported: bool.default(true),
}).superRefine((c, ctx) => {
  const max = maxDeviceId(c.tt);
  if (c.localID > max) ctx.addIssue({ code: 'custom', path: ['localID'], message: `expected a device ID 0..${max} (tt ${c.tt})` });
  c.unsupportedPeers.forEach((id, i) => {
    if (id > max) ctx.addIssue({ code: 'custom', path: ['unsupportedPeers', i], message: `expected a device ID 0..${max} (tt ${c.tt})` });
  });
}).transform((c): ArbTxConfig => {
  const { crfSupported, requestFlow, ...rest } = c;
  return { ...rest, requestFlow: requestFlow ?? ccpPrioCrf(crfSupported), crfSupported };
});

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('request'), destinationID: deviceId, flowID: flowId, mode: arbMode }),
  z.strictObject({ kind: z.literal('segment'), destinationID: deviceId, flowID: flowId, segment: segmentKind }),
  z.strictObject({ kind: z.literal('release'), destinationID: deviceId, flowID: flowId }),
  z.strictObject({ kind: z.literal('ccp'), packet: z.unknown() }),
]);

export const arbTxAdapter: EngineAdapter<ArbTxConfig, ArbTxInput, ArbTxOutput> = defineAdapter({
  name: 'arb-tx',
  fields: [
    { name: 'localID', type: 'device ID', default: 'required', meaning: 'this end point: tgtdestinationID of the REQUEST and RELEASE it sends' },
    { name: 'tt', type: '0 | 1 | 2', default: '0', meaning: 'transport size of the messages sent (Dev8, Dev16, Dev32)' },
    { name: 'enabled', type: 'boolean', default: 'true', meaning: 'this end supports arbitration (PE Features bit 20, §3.3 "The CAR bits define whether the device supports the flow arbitration protocol")' },
    { name: 'unsupportedPeers', type: 'list of device IDs', default: '[]', meaning: 'receivers without arbitration: §3.3 "should default to the congestion management (XON/XOFF) functionality and not send other messages"' },
    { name: 'requestTimeout', type: 'integer ns > 0 | null', default: '100000', meaning: '§2.4.7 rule 3 "did not receive a response … and timed out": re-send the REQUEST with the same sequence bit (rule 4); null: off (§2.4.8 NOTE)' },
    { name: 'retryDelay', type: 'integer ns >= 0 | null', default: '10000', meaning: 'after XOFF(ARB), a new REQUEST (next sequence bit); §2.4.2.1 "Timeouts at source end points should result in retrying requests"; null: the application asks again' },
    { name: 'pipelining', type: 'boolean', default: 'true', meaning: '§2.4.7 rule 11 "a single additional REQUEST in advance of completion of the current PDU"' },
    { name: 'requestFlow', type: '{prio 0..3, crf 0..1}', default: '{"prio":3,"crf":1} (crf 0 without CRF support)', meaning: 'rule 12 "REQUEST … may be sent in any flow (such as a high priority channel)"' },
    { name: 'crfSupported', type: 'boolean', default: 'true', meaning: 'DECISIONS §3 system setting: the prio/CRF of RELEASE, sent "in the same flow that the context is allocated for" (rule 12)' },
  ],
  kinds: [
    { kind: 'request', fields: 'destinationID, flowID, mode (single | multi)', meaning: 'rule 1: the application wants a resource for the flow' },
    { kind: 'segment', fields: 'destinationID, flowID, segment (single | start | continuation | end | abort)', meaning: 'the application wants to transmit one segment: answered transmit or refused' },
    { kind: 'release', fields: 'destinationID, flowID', meaning: 'rule 7: relinquish a multi-PDU grant after the current PDU' },
    { kind: 'ccp', fields: 'packet (hex or decode --json object, Type 7)', meaning: 'a received XON(ARB) or XOFF(ARB)' },
  ],
  config,
  input,
  engine: ArbTx,
  toInput(d, ctx) {
    if (d.kind === 'ccp') return { kind: 'ccp', packet: ccpPacket(d.packet, ctx.lenient) };
    checkDeviceId(d.destinationID, ctx.config.tt ?? 0, 'destinationID');
    return d;
  },
  timer: (name) => ({ kind: 'timer', name }),
});
