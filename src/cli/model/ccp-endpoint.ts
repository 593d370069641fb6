import { z } from 'zod';
import { CcpEndpoint } from '../../flow/ccp-endpoint.ts';
import type { CcpEndpointConfig, CcpEndpointInput, CcpEndpointOutput } from '../../flow/ccp-endpoint-types.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { ccpPacket } from './packets.ts';
import { bool, deviceId, duration, expecting, flowId, int } from './schema.ts';

/** `riodp model ccp-endpoint`: src/flow/ccp-endpoint-types.ts, defaults as documented there. */

const counters = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('per-flow') }),
  z.strictObject({ mode: z.literal('bounded'), count: int(1) }),
], { error: expecting("{mode: 'per-flow'} or {mode: 'bounded', count}") });

const critical = z.strictObject({ destinationID: deviceId.optional(), flowID: flowId }, { error: expecting('an object {destinationID?, flowID}') });

const config = z.strictObject({
  orphanPeriod: duration.default(1_000_000),
  counterBits: int(1, 31).default(8),
  counters: counters.default({ mode: 'per-flow' }),
  critical: z.array(critical, { error: expecting('a list of {destinationID?, flowID}') }).default([]),
  flowArbitration: bool.default(false),
}).transform((c): CcpEndpointConfig => ({
  ...c,
  critical: c.critical.map((f) => (f.destinationID === undefined ? { flowID: f.flowID } : { destinationID: f.destinationID, flowID: f.flowID })),
}));

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ccp'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('reset-destination'), destinationID: deviceId }),
  z.strictObject({ kind: z.literal('set-orphan-period'), period: duration }),
]);

export const ccpEndpointAdapter: EngineAdapter<CcpEndpointConfig, CcpEndpointInput, CcpEndpointOutput> = defineAdapter({
  name: 'ccp-endpoint',
  fields: [
    { name: 'orphanPeriod', type: 'integer ns > 0', default: '1000000', meaning: 'orphaned XOFF period: A.2 "The length of this count shall be programmable"; the mechanism is mandatory (§2.4.2.1)' },
    { name: 'counterBits', type: 'integer 1..31', default: '8', meaning: 'XON/XOFF counter width; counters saturate at 2^bits − 1, §2.4.2.3 "In no event shall the counter wrap"' },
    { name: 'counters', type: "{mode: 'per-flow'} | {mode: 'bounded', count}", default: '{"mode":"per-flow"}', meaning: '§2.4.2.3 "how flows are aggregated to a particular counter is implementation dependant": bounded uses counter (destinationID·14 + flow index) mod count' },
    { name: 'critical', type: 'list of {destinationID?, flowID}', default: '[]', meaning: '§2.4.3 "an end point may choose to ignore a flow control XOFF request for a transaction request flow that it regards as critical"' },
    { name: 'flowArbitration', type: 'boolean', default: 'false', meaning: 'PE Features bit 20; false: §3.3 "ignores the FAM bits"; true: arbitration commands are left to the arbitration engines' },
  ],
  kinds: [
    { kind: 'ccp', fields: 'packet (hex or decode --json object, Type 7)', meaning: 'a received CCP addressed to this end point' },
    { kind: 'reset-destination', fields: 'destinationID', meaning: '§2.4.2.3 "initialized to zero … when a new DestinationID … is initialized"' },
    { kind: 'set-orphan-period', fields: 'period (ns > 0)', meaning: 'A.2 register write; applies from the next arming' },
  ],
  config,
  input,
  engine: CcpEndpoint,
  toInput: (d, ctx) => (d.kind === 'ccp' ? { kind: 'ccp', packet: ccpPacket(d.packet, ctx.lenient) } : d),
  timer: (name) => (name === 'orphan' ? { kind: 'timer', name } : undefined),
});
