import { z } from 'zod';
import { CongestionPoint } from '../../flow/congestion-point.ts';
import type { CongestionPointConfig, CongestionPointInput, CongestionPointOutput } from '../../flow/congestion-point-types.ts';
import { ccpPrioCrf } from '../../wire/flow-id.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { bufferedPacket } from './packets.ts';
import { bool, deviceId, expecting, flowId, int, messageFlow, oneOf, vcCount } from './schema.ts';

/** `riodp model congestion-point`: src/flow/congestion-point-types.ts, defaults as documented there. */

const policy = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('histogram'), flows: int(1, 5) }),
  z.strictObject({ kind: z.literal('threshold') }),
], { error: expecting("{kind: 'histogram', flows: 1..5} or {kind: 'threshold'}") });

const port = int(0);

const routes = z.strictObject({
  table: z.record(z.string().regex(/^(0|[1-9]\d*)$/), port).optional(),
  default: port.optional(),
}, { error: expecting('an object {table?, default?}') });

const config = z.strictObject({
  role: oneOf(['switch', 'endpoint']),
  highWatermark: int(0),
  lowWatermark: int(0),
  unit: oneOf(['packets', 'bytes']).default('packets'),
  capacity: int(1).optional(),
  policy: policy.default({ kind: 'histogram', flows: 1 }),
  responses: oneOf(['fallback', 'ignore', 'equal']).default('fallback'),
  listCapacity: int(1).default(16),
  restartOrder: oneOf(['fifo', 'lifo']).default('fifo'),
  restartStagger: int(0).default(0),
  crfSupported: bool.default(true),
  vcCount: vcCount.default(0),
  ccpFlow: messageFlow.optional(),
  routes: routes.optional(),
  participants: z.array(port, { error: expecting('a list of port numbers') }).optional(),
}).superRefine((c, ctx) => {
  // A.1 a) "Provides sufficient hysteresis": the XON level sits below the XOFF level.
  if (c.lowWatermark >= c.highWatermark) ctx.addIssue({ code: 'custom', path: ['lowWatermark'], message: `expected an integer below highWatermark (${c.highWatermark})` });
  // §2.4.2 "a "CRF" bit value of 0b1, if supported": without CRF the bit cannot be 1.
  if (!c.crfSupported && c.ccpFlow?.crf === 1) ctx.addIssue({ code: 'custom', path: ['ccpFlow', 'crf'], message: 'expected 0 when crfSupported is false' });
  for (const id of Object.keys(c.routes?.table ?? {})) {
    if (Number(id) > 0xffffffff) ctx.addIssue({ code: 'custom', path: ['routes', 'table', id], message: 'expected a device ID 0..4294967295 as the key' });
  }
}).transform((c): CongestionPointConfig => {
  const { capacity, routes: r, participants, ccpFlow, ...rest } = c;
  return {
    ...rest,
    ccpFlow: ccpFlow ?? ccpPrioCrf(c.crfSupported),
    ...(capacity === undefined ? {} : { capacity }),
    ...(r === undefined ? {} : { routes: { ...(r.table === undefined ? {} : { table: r.table }), ...(r.default === undefined ? {} : { default: r.default }) } }),
    ...(participants === undefined ? {} : { participants }),
  };
});

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('enqueue'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('dequeue'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('set-restart-level'), destinationID: deviceId, tgtdestinationID: deviceId, flowID: flowId, level: int(0) }),
  z.strictObject({ kind: z.literal('set-participant'), port, enabled: bool }),
]);

export const congestionPointAdapter: EngineAdapter<CongestionPointConfig, CongestionPointInput, CongestionPointOutput> = defineAdapter({
  name: 'congestion-point',
  fields: [
    { name: 'role', type: "'switch' | 'endpoint'", default: 'required', meaning: 'SOC of the CCPs sent: 0 switch, 1 end point (§3.2); only a switch drops CCPs (§2.4.6 rule 2)' },
    { name: 'highWatermark', type: 'integer >= 0', default: 'required', meaning: 'an XOFF goes out when an arriving packet leaves occupancy > highWatermark (A.1 "comparing them on a packet by packet basis")' },
    { name: 'lowWatermark', type: 'integer < highWatermark', default: 'required', meaning: 'default restart level of controlled flows (A.1 a "sufficient hysteresis")' },
    { name: 'unit', type: "'packets' | 'bytes'", default: 'packets', meaning: 'occupancy unit; bytes counts each packet\'s size' },
    { name: 'capacity', type: 'integer > 0', default: 'none (unlimited)', meaning: 'buffer size; when full a switch drops the CCPs it would send (§2.4.6 rule 2)' },
    { name: 'policy', type: "{kind: 'histogram', flows: 1..5} | {kind: 'threshold'}", default: '{"kind":"histogram","flows":1}', meaning: 'A.1 method 1 "selects the 1 to 5 transaction request flows with the most packets" or method 2 "every new transaction flow"' },
    { name: 'responses', type: "'fallback' | 'ignore' | 'equal'", default: 'fallback', meaning: '§2.4.3 "the choice of which flow to XOFF is preferably made using request packets, not response packets"' },
    { name: 'listCapacity', type: 'integer >= 1', default: '16', meaning: 'controlled flow list entries (§2.4.2.2); when full a more important flow XONs a less important one early' },
    { name: 'restartOrder', type: "'fifo' | 'lifo'", default: 'fifo', meaning: 'order of entries whose restart level is reached together (§2.4.2.2 "relative shut off order")' },
    { name: 'restartStagger', type: 'integer >= 0', default: '0', meaning: 'k-th entry restarts at lowWatermark − k·restartStagger (A.2 "burstyness due to uncontrolled simultaneous multi-flow restart")' },
    { name: 'crfSupported', type: 'boolean', default: 'true', meaning: 'DECISIONS §3 system setting: flows by {prio, CRF} (Part 6 Table 6-7) or prio alone (Table 6-6)' },
    { name: 'vcCount', type: '0 | 1 | 2 | 4 | 8', default: '0', meaning: 'VC1–VC8 channels on the link (Part 6 Table 2-2); 0 is single VC mode' },
    { name: 'ccpFlow', type: '{prio 0..3, crf 0..1}', default: '{"prio":3,"crf":1} (crf 0 without CRF support)', meaning: '§2.4.2 "a "prio" field value of 0b11, and a "CRF" bit value of 0b1, if supported"' },
    { name: 'routes', type: '{table?: {destinationID: port}, default?: port}', default: 'none', meaning: 'switch: the port a CCP to each destinationID leaves by; no route → event no-route' },
    { name: 'participants', type: 'list of ports', default: 'none (every port)', meaning: '§4.3 Flow Control Participant bit: "Do not route or issue flow control transactions to this port" when clear' },
  ],
  kinds: [
    { kind: 'enqueue', fields: 'packet (BufferedPacket fields, or any packet as hex / decode --json)', meaning: 'a packet entered the buffer' },
    { kind: 'dequeue', fields: 'packet (as when it entered)', meaning: 'a packet left the buffer' },
    { kind: 'set-restart-level', fields: 'destinationID, tgtdestinationID, flowID, level', meaning: '§2.4.2.2 "re-evaluate system resources and modify … expected XON watermark level"' },
    { kind: 'set-participant', fields: 'port, enabled', meaning: '§4.3 Port n Control CSR Flow Control Participant bit written' },
  ],
  config,
  input,
  engine: CongestionPoint,
  toInput(d, ctx) {
    if (d.kind === 'enqueue' || d.kind === 'dequeue') return { kind: d.kind, packet: bufferedPacket(d.packet, ctx.lenient, ctx.config.unit === 'bytes') };
    return d;
  },
  // The congestion point asks for no timers (its restarts follow occupancy, A.1).
  timer: () => undefined,
});
