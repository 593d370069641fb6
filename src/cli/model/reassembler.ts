import { z } from 'zod';
import { Reassembler } from '../../streaming/reassembler.ts';
import type { IdleTimerName, ReassemblerConfig, ReassemblerInput, ReassemblerOutput } from '../../streaming/reassembler-types.ts';
import { toHex } from '../../wire/hex.ts';
import { toJsonValue } from '../json/output.ts';
import { defineAdapter, renderOutput } from './adapter.ts';
import type { EngineAdapter } from './adapter.ts';
import { type9Packet } from './packets.ts';
import { bool, duration, int, mtu, vcCount } from './schema.ts';

/**
 * `riodp model reassembler`: src/streaming/reassembler-types.ts, defaults as documented there.
 * Received segments are Type 9 packets, hex or `decode --json` objects, decoded strictly (so a
 * start or continuation whose payload is not an MTU of Table 5-6 is a bad line unless
 * `--lenient`); a delivered PDU prints its length and its payload in hex.
 */

/** Without `bufferPool`: a JSON line cannot be the payload object the engine delivered, so `recycle` has no model. */
export type ModelReassemblerConfig = Required<Omit<ReassemblerConfig, 'bufferPool'>>;

const IDLE_PREFIX = 'idle:';

const config = z.strictObject({
  mtu: mtu.default(256),
  segSupport: int(0, 0x10000).default(0),
  destinationInContext: bool.default(false),
  idleTimeout: duration.nullable().default(null),
  vcCount: vcCount.default(0),
  crfSupported: bool.default(true),
});

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('packet'), packet: z.unknown() }),
  z.strictObject({ kind: z.literal('set-mtu'), mtu }),
]);

const base = defineAdapter({
  name: 'reassembler',
  fields: [
    { name: 'mtu', type: 'integer 32..256, multiple of 4', default: '256', meaning: '§5.5.1 Table 5-6 MTU: rules 3–6 judge segment sizes against it; an open PDU keeps the MTU of its start' },
    { name: 'segSupport', type: 'integer 0..65536', default: '0', meaning: '§5.4.3 Table 5-5 SegSupport, the number of segmentation contexts ("0x0000 - 64k segmentation contexts")' },
    { name: 'destinationInContext', type: 'boolean', default: 'false', meaning: '§3.2.5 rule 1 "The destination ID is only required for devices supporting multicast and/or multiple destination IDs"' },
    { name: 'idleTimeout', type: 'integer ns > 0 | null', default: 'null', meaning: '§3.2.5 "It may be desirable for a destination to have a time-out as part of the lost packet detection mechanism"; null: off' },
    { name: 'vcCount', type: '0 | 1 | 2 | 4 | 8', default: '0', meaning: 'VC1–VC8 channels on the link (Part 6 Table 2-2), for the delivered flowID only' },
    { name: 'crfSupported', type: 'boolean', default: 'true', meaning: 'flows by {prio, CRF} (Part 6 Table 6-7) or prio alone (Table 6-6), for the delivered flowID only' },
  ],
  kinds: [
    { kind: 'packet', fields: 'packet (hex or decode --json object, Type 9)', meaning: 'a received Type 9 packet; TM and other extended packets are not data (event not-data)' },
    { kind: 'set-mtu', fields: 'mtu (32..256, multiple of 4)', meaning: '§5.5.1 MTU field written; applies to single segments and PDUs that start afterwards' },
  ],
  config,
  input,
  engine: Reassembler,
  toInput: (d, ctx): ReassemblerInput => (d.kind === 'packet' ? { kind: 'packet', packet: type9Packet(d.packet, ctx.lenient) } : d),
  timer: (name): ReassemblerInput | undefined => (name.startsWith(IDLE_PREFIX) ? { kind: 'timer', name: name as IdleTimerName } : undefined),
});

/** A delivered PDU prints its payload's length before the payload hex; every other output as the types file has it. */
function render(o: ReassemblerOutput): Record<string, unknown> {
  if (o.kind !== 'pdu') return renderOutput(o);
  const { payload, ...rest } = o;
  return { ...(toJsonValue(rest) as Record<string, unknown>), length: payload.length, payload: toHex(payload) };
}

export const reassemblerAdapter: EngineAdapter<ModelReassemblerConfig, ReassemblerInput, ReassemblerOutput> = { ...base, render };
