/**
 * What an end point process's configuration may say (`riodp endpoint --config endpoint.yaml`,
 * docs/fabric-api.md §3): the zod schema of the YAML file (or the same object in TypeScript), each
 * field's expectation worded for the "path: expectation" lines (src/config/issues.ts). What the
 * checked value becomes, with its defaults, is endpoint-config.ts.
 */
import { z } from 'zod';
import { DEFAULT_RATE } from '../streaming/tm-ingress-config.ts';
import { NS_TM_CLOCK } from '../node/endpoint/tm-config.ts';
import { checkTm, tmShape } from '../node/endpoint/tm-schema.ts';
import type { TmSchemaUnits } from '../node/endpoint/tm-schema.ts';
import { ccpShape } from '../node/endpoint/ccp-schema.ts';
import { MANAGEMENT_WHAT, managementContactShape, sessionTimersShape } from '../node/endpoint/session-schema.ts';
import { arbitrationShape } from '../node/endpoint/arbitration-schema.ts';
import { FLOW_ID_LABELS } from '../wire/flow-id.ts';
import { LOG_LEVELS } from './log.ts';

function expecting(what: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? `missing, expected ${what}` : `expected ${what}`);
}

function int(min: number, max = Number.MAX_SAFE_INTEGER): z.ZodNumber {
  const error = expecting(max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer ${min}..${max}`);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

const text = z.string({ error: expecting('a non-empty string') }).min(1, { error: expecting('a non-empty string') });
const bool = z.boolean({ error: expecting('true or false') });
const ns = int(1);
const nsOrNull = z.union([ns, z.null()], { error: expecting('a positive integer (ns) or null') });
const hexKey = z
  .string({ error: expecting('16 to 64 bytes in hex') })
  .regex(/^(?:[0-9a-fA-F]{2}){16,64}$/, { error: expecting('16 to 64 bytes in hex') })
  .transform((h) => Uint8Array.from(Buffer.from(h, 'hex')));


/**
 * `tm`: Part 10 traffic management of the end point (src/node/endpoint/tm-config.ts
 * FabricTmConfig, docs/fabric-api.md §3): the fields and checks of every host's `tm` section
 * (src/node/endpoint/tm-schema.ts), times in ns, rates in bytes per `rate.unit` ns, and the
 * fabric end point's own bounds (queuePdus, outboxLimit). Defaults are the end point's.
 */
const TM_UNITS: TmSchemaUnits = { rateUnit: ns, rate: int(1), bytes: int(1), duration: int(0), tick: NS_TM_CLOCK.tick, defaultRateUnit: DEFAULT_RATE.unit };

function tmSchema() {
  return z.strictObject({ ...tmShape(TM_UNITS), queuePdus: int(1).optional(), outboxLimit: int(1).optional() })
    .superRefine((c, ctx) => { checkTm(c, ctx, TM_UNITS); });
}

const tlsSchema = z.union(
  [
    z.strictObject({ psk: z.strictObject({ identity: text, key: hexKey }) }),
    z.strictObject({ cert: z.strictObject({ cert: text, key: text, ca: text, serverName: text.optional() }) }),
  ],
  { error: expecting('{psk: {identity, key}} or {cert: {cert, key, ca}} (files)') },
);

/** §6.2.2: 56 bits, so 1 to 7 Latin-1 characters (NUL pads the rest). */
const protocolName = z
  .string({ error: expecting('1 to 7 Latin-1 characters') })
  .refine((s) => /^.{1,7}$/su.test(s) && Array.from({ length: s.length }, (_, i) => s.charCodeAt(i)).every((c) => c >= 1 && c <= 0xff), { error: expecting('1 to 7 Latin-1 characters') });

const protocolSchema = z.strictObject({
  protoID: int(0, 0xfffe),
  vendor: int(0, 0xffffff).optional(),
  name: protocolName.optional(),
  dataHeaderFormat: z.enum(['DATA', 'DATA1', 'DATA2', 'DATA3'], { error: expecting('one of DATA, DATA1, DATA2, DATA3') }).optional(),
  cos: int(0, 0xff).optional(),
  acceptOpen: bool.optional(),
  singleSession: bool.optional(),
});

const conveyance = z.enum(['type9', 'type11'], { error: expecting('type9 or type11') });

export const endpointConfigSchema = z.strictObject({
  nodeId: int(0, 0xffff),
  tt: z.union([z.literal(0), z.literal(1)], { error: expecting('0 (Dev8) or 1 (Dev16)') }).optional(),
  switch: z.strictObject({ host: text.optional(), port: int(1, 65535), tls: tlsSchema.optional() }),
  connect: z.strictObject({ timeoutMs: int(1).optional(), retryMs: int(1).optional(), maxRetryMs: int(1).optional() }).optional(),
  link: z
    .strictObject({
      maxFrameSize: int(287, 65537).optional(),
      sendBatchBytes: int(287, 1 << 20).optional(),
      helloTimeoutMs: int(1).optional(),
      closeTimeoutMs: int(1).optional(),
      keepaliveMs: int(0, 60_000).optional(),
      silenceMs: z.union([int(1), z.null()], { error: expecting('a positive integer (ms) or null') }).optional(),
      fastLane: z.boolean({ error: expecting('true or false') }).optional(),
    })
    .optional(),
  control: text.optional(),
  log: z.enum(LOG_LEVELS, { error: expecting(`one of ${LOG_LEVELS.join(', ')}`) }).optional(),
  management: z.strictObject(managementContactShape(), { error: MANAGEMENT_WHAT }).optional(),
  conveyances: z.array(conveyance, { error: expecting('a list of type9, type11') }).min(1).optional(),
  protocols: z.array(protocolSchema, { error: expecting('a list of protocols') }).optional(),
  fileTransfer: bool.optional(),
  discovery: z
    .strictObject({
      targets: z.array(z.strictObject({ node: int(0, 0xffff), hop: int(0, 0xff).optional() })).optional(),
      scan: z.strictObject({ first: int(0, 0xffff), last: int(0, 0xffff), hop: int(0, 0xff).optional() }).optional(),
      readTimeout: ns.optional(),
      pollPeriod: ns.optional(),
      pollLimit: int(0).optional(),
      parallel: int(1).optional(),
      validation: bool.optional(),
    })
    .optional(),
  session: z
    .strictObject({
      ...sessionTimersShape(ns),
      xonTimeout: ns.optional(),
      rtsRetry: ns.optional(),
      rtsLimit: ns.optional(),
      conduitRole: z.enum(['peers', 'master', 'slave'], { error: expecting('peers, master or slave') }).optional(),
      maxPendingPdus: int(1).optional(),
      validation: bool.optional(),
      requestAdvertise: bool.optional(),
    })
    .optional(),
  type9: z.strictObject({ mtu: int(32, 256).optional(), idleTimeout: nsOrNull.optional(), crfSupported: bool.optional(), bufferPool: int(0, 1024).optional() }).optional(),
  type11: z
    .strictObject({ segmentSize: int(8, 256).optional(), responseTimeout: ns.optional(), maxRetries: int(0).optional(), reassemblyTimeout: nsOrNull.optional() })
    .optional(),
  ccp: z.strictObject(ccpShape(ns), { error: expecting('CCP settings {orphanPeriod, counterBits}') }).optional(),
  heldLimit: int(1).optional(),
  tm: tmSchema().optional(),
  // Part 9 flow arbitration (src/node/endpoint/session-features.ts): the settings every host shares, ns, and the Type 9 flows it arbitrates.
  arbitration: z.strictObject({
    ...arbitrationShape({ duration: int(0), period: ns }),
    flows: z.array(z.enum(FLOW_ID_LABELS, { error: expecting(`a flowID (${FLOW_ID_LABELS.join(', ')})`) }), { error: expecting('a list of flowIDs') }).min(1, { error: expecting('at least one flowID') }).optional(),
  }, { error: expecting('arbitration settings {mode, resources, whenBusy, maxQueued, pipelining, requestTimeout, retryDelay, idleTimeout, flows}') }).nullable().optional(),
  api: z
    .strictObject({ sendWindow: int(1).optional(), rxHigh: int(1).optional(), rxLow: int(0).optional(), rxLimit: int(1).optional(), rxStallMs: int(1).optional(), verifyIdleMs: z.union([int(1), z.null()], { error: expecting('a positive integer (ms) or null') }).optional(), peerCheckMs: z.union([int(1), z.null()], { error: expecting('a positive integer (ms) or null') }).optional(), readTimeoutMs: int(1).optional() })
    .optional(),
});

/** The configuration as written (YAML, or an object in TypeScript). */
export type EndpointConfigInput = z.input<typeof endpointConfigSchema>;
