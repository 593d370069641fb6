import { z } from 'zod';
import { Segmenter } from '../../streaming/segmenter.ts';
import type { PduId, SegmenterConfig, SegmenterInput, SegmenterOutput } from '../../streaming/segmenter-types.ts';
import { WireError } from '../../wire/errors.ts';
import { parseHex } from '../../wire/hex.ts';
import { defineAdapter } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { bool, checkDeviceId, deviceId, expecting, flowId, int, maxDeviceId, mtu, tt } from './schema.ts';

/**
 * `riodp model segmenter`: src/streaming/segmenter-types.ts, defaults as documented there. The
 * MTU is the config field `mtu`, changed by `set-mtu` inputs (the types file's other source, a
 * register space, has no JSON form). Input fields are checked by their Part 10 §4.2 Table 4-1 widths here, so a bad cos or
 * streamID is a bad line; what the engine refuses for protocol reasons (an empty PDU, one longer
 * than 64 kbytes or than the destination's MaxPDU) reaches it and comes back as `refused`.
 */

/** The types file's config with every field the model fills in; `registers` has no JSON form. */
export type ModelSegmenterConfig = Required<Omit<SegmenterConfig, 'registers' | 'maxPdu'>> & { readonly maxPdu: Readonly<Record<string, number>> };

/** A PDU or MaxPDU size in bytes: Table 4-1 length "0x0001 - 1 byte" to "0x0000 - 64kbytes" (65536). */
const pduBytes = int(1, 0x10000);

const DECIMAL = /^(0|[1-9]\d*)$/;

const config = z.strictObject({
  sourceID: deviceId.default(0),
  tt: tt.default(0),
  mtu: mtu.default(256),
  maxPdu: z.record(z.string().regex(DECIMAL), pduBytes, { error: expecting('a mapping of destination IDs to MaxPDU byte counts') }).default({}),
  defaultMaxPdu: pduBytes.default(0x10000),
  crfSupported: bool.default(true),
}).superRefine((c, ctx) => {
  const max = maxDeviceId(c.tt);
  if (c.sourceID > max) ctx.addIssue({ code: 'custom', path: ['sourceID'], message: `expected a device ID 0..${max} (tt ${c.tt})` });
  for (const id of Object.keys(c.maxPdu)) {
    if (Number(id) > max) ctx.addIssue({ code: 'custom', path: ['maxPdu', id], message: `expected a device ID 0..${max} (tt ${c.tt}) as the key` });
  }
});

/** A PDU payload: hex, with whitespace, `0x`, `_` and `:` tolerated as in packets. */
const payload = z.string({ error: expecting('the PDU payload as a hex string') }).transform((s, ctx) => {
  try {
    return parseHex(s);
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    ctx.addIssue({ code: 'custom', message: `expected the PDU payload as a hex string: ${e.detail} at byte ${e.offset}` });
    return z.NEVER;
  }
});

const pduId = z.union([z.string(), z.number().int()], { error: expecting('a string or an integer') });

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('pdu'), destinationID: deviceId, cos: int(0, 0xff), streamID: int(0, 0xffff), flowID: flowId, payload, id: pduId.optional() }),
  z.strictObject({ kind: z.literal('pull'), destinationID: deviceId, flowID: flowId, max: int(1).optional() }),
  z.strictObject({ kind: z.literal('pull-any'), max: int(1).optional() }),
  z.strictObject({ kind: z.literal('abort'), destinationID: deviceId, flowID: flowId, id: pduId.optional() }),
  z.strictObject({ kind: z.literal('set-max-pdu'), destinationID: deviceId, maxPdu: pduBytes }),
  z.strictObject({ kind: z.literal('gate'), destinationID: deviceId, flowID: flowId, stopped: z.boolean({ error: expecting('true or false') }) }),
  z.strictObject({ kind: z.literal('set-mtu'), mtu }),
]);

type Line = z.infer<typeof input>;

function withId<T extends object>(o: T, id: PduId | undefined): T & { readonly id?: PduId } {
  return id === undefined ? o : { ...o, id };
}

function withMax<T extends object>(o: T, max: number | undefined): T & { readonly max?: number } {
  return max === undefined ? o : { ...o, max };
}

function toInput(d: Line, ctx: { readonly config: ModelSegmenterConfig }): SegmenterInput {
  if (d.kind === 'pull-any') return withMax({ kind: 'pull-any' }, d.max);
  if (d.kind === 'set-mtu') return { kind: 'set-mtu', mtu: d.mtu };
  // Part 3 §2.4: a device ID must fit the tt of the segments the engine sends.
  const destinationID = checkDeviceId(d.destinationID, ctx.config.tt, 'destinationID');
  switch (d.kind) {
    case 'pdu':
      return withId({ kind: 'pdu', destinationID, cos: d.cos, streamID: d.streamID, flowID: d.flowID, payload: d.payload }, d.id);
    case 'pull':
      return withMax({ kind: 'pull', destinationID, flowID: d.flowID }, d.max);
    case 'abort':
      return withId({ kind: 'abort', destinationID, flowID: d.flowID }, d.id);
    case 'set-max-pdu':
      return { kind: 'set-max-pdu', destinationID, maxPdu: d.maxPdu };
    case 'gate':
      return { kind: 'gate', destinationID, flowID: d.flowID, stopped: d.stopped };
  }
}

export const segmenterAdapter: EngineAdapter<ModelSegmenterConfig, SegmenterInput, SegmenterOutput> = defineAdapter({
  name: 'segmenter',
  fields: [
    { name: 'sourceID', type: 'device ID (fits tt)', default: '0', meaning: 'this end point: the sourceID of every segment' },
    { name: 'tt', type: '0 | 1 | 2', default: '0', meaning: 'transport size of the segments sent (Dev8, Dev16, Dev32)' },
    { name: 'mtu', type: 'integer 32..256, multiple of 4', default: '256', meaning: '§5.5.1 Table 5-6 MTU, "a system-wide parameter" (§3.2.4): start and continuation segments are "filled to MTU size" (§3.2.5 rules 4, 7)' },
    { name: 'maxPdu', type: '{destinationID: 1..65536}', default: '{}', meaning: '§3.2.4 "The maximum size of a PDU that a particular destination can accept is specified in a CAR" (§5.4.3 Table 5-5 MaxPDU); larger PDUs are refused' },
    { name: 'defaultMaxPdu', type: 'integer 1..65536', default: '65536', meaning: 'MaxPDU of destinations maxPdu does not list ("0x0000 - 64kbytes" is 65536)' },
    { name: 'crfSupported', type: 'boolean', default: 'true', meaning: 'DECISIONS §3 system setting: the prio/CRF of VC0 flows 0A–0F by Part 6 Table 6-7, or Table 6-6 without CRF' },
  ],
  kinds: [
    { kind: 'pdu', fields: 'destinationID, cos, streamID, flowID, payload (hex), id?', meaning: 'queue a PDU for the stream destination ID+cos+streamID (§3.2.2) on the flow' },
    { kind: 'pull', fields: 'destinationID, flowID, max?', meaning: 'the flow may send its next segment (up to max)' },
    { kind: 'pull-any', fields: 'max?', meaning: 'any flow may send its next segment; flows take turns' },
    { kind: 'abort', fields: 'destinationID, flowID, id?', meaning: '§3.2.5 rule 9 "If the source wishes to abort a PDU transmission"' },
    { kind: 'set-max-pdu', fields: 'destinationID, maxPdu (1..65536)', meaning: 'the destination\'s MaxPDU CAR field was read (§5.4.3); applies to PDUs queued afterwards' },
    { kind: 'gate', fields: 'destinationID, flowID, stopped (boolean)', meaning: 'Part 9 §2.4.5 rule 1: a stopped flow sends no segment (a started PDU pauses mid-PDU) until a gate with stopped false' },
    { kind: 'set-mtu', fields: 'mtu (32..256, multiple of 4)', meaning: '§5.5.1 MTU field written; PDUs that start afterwards are cut with it, a started PDU keeps its MTU' },
  ],
  config,
  input,
  engine: Segmenter,
  toInput,
  // The segmenter asks for no timers: it sends a segment only when pulled.
  timer: () => undefined,
});
