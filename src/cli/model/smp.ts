import { z } from 'zod';
import { DEFAULT_UNITS_PER_MICROSECOND, SESSION_DEFAULTS, defaultPeriods } from '../../session/engine-config.ts';
import type { ResolvedSessionConfig } from '../../session/engine-config.ts';
import { SessionEngine } from '../../session/engine.ts';
import { STANDARD_SEGMENT_SIZES } from '../../session/type11-mailbox.ts';
import type { Contact, ProtocolSupport, SessionConfig, SessionInput, SessionOutput, StreamRef } from '../../session/types.ts';
import { attempt } from '../../wire/errors.ts';
import { toHex } from '../../wire/hex.ts';
import { PROTO_ID, decodeSmp } from '../../wire/smp/index.ts';
import { toJsonValue } from '../json/output.ts';
import { defineAdapter, renderOutput } from './adapter.ts';
import type { EngineAdapter, EngineOutput, ParseContext } from './adapter.ts';
import { InputError } from './input-error.ts';
import { bool, duration, expecting, int, oneOf } from './schema.ts';
import {
  attributesIn, checkNode, contact, contactOfAdvertisement, contactOfComponentTag, cos, hex, mailbox, messageOctets, nodeId, readAttributes, registerWord, streamID, streamRef,
} from './smp-schema.ts';

/**
 * `riodp model smp`: one Annex 2 session management end point, src/session/types.ts
 * (SessionEngine, src/session/engine.ts). Durations are ns: the engine converts attribute periods
 * (µs on the wire, §3.5.3.4–§3.5.3.6) at 1000 ns a microsecond. A `send` line prints the message
 * as `riodp decode --layer smp --json` prints it, and its octets; an event line is the event's
 * fields under `event`.
 */

/** The effective configuration: every field but `unitsPerMicrosecond` (ns here) given or defaulted. */
export type ModelSmpConfig = SessionConfig & Omit<ResolvedSessionConfig, 'unitsPerMicrosecond'>;

const D = SESSION_DEFAULTS;
const PERIODS = defaultPeriods(DEFAULT_UNITS_PER_MICROSECOND);
const segmentSizeError = expecting(`one of ${STANDARD_SEGMENT_SIZES.join(', ')}`);
const dataFormat = oneOf(['DATA', 'DATA1', 'DATA2', 'DATA3']);

/** types.ts ProtocolSupport; attributes as hex or decode --json objects, read under the protocol's ProtoID. */
const protocol = z.strictObject({
  // 0xFFFF is reserved: "Protocol ID 0xFFFF is reserved for special usage within messages" (§3.5.2.3).
  protoID: int(0, 0xfffe),
  attributes: z.array(z.unknown(), { error: expecting('a list of attributes') }).default([]),
  understood: z.array(int(0, 0xffffffff), { error: expecting('a list of attribute IDs') }).default([]),
  singleSession: bool.default(false),
  acceptOpen: bool.default(true),
  cos: cos.default(0),
  dataHeaderFormat: dataFormat.optional(),
  data2Octet: int(0, 0xff).default(0),
}, { error: expecting('a protocol {protoID, attributes?, understood?, singleSession?, acceptOpen?, cos?, dataHeaderFormat?, data2Octet?}') })
  .transform((p, ctx): ProtocolSupport => {
    const attributes = attributesIn(p.attributes, p.protoID, ['attributes'], ctx);
    const { protoID, understood, singleSession, acceptOpen, cos: c, dataHeaderFormat, data2Octet } = p;
    return { protoID, attributes, understood, singleSession, acceptOpen, cos: c, ...(dataHeaderFormat === undefined ? {} : { dataHeaderFormat }), data2Octet };
  });

const config = z.strictObject({
  nodeId,
  deviceIdBits: z.union([z.literal(8), z.literal(16)], { error: expecting('8 or 16') }).default(D.deviceIdBits),
  contact,
  protocols: z.array(protocol, { error: expecting('a list of protocols') }).default([]),
  requestAdvertise: bool.default(D.requestAdvertise),
  validation: bool.default(D.validation),
  retryPeriod: duration.default(PERIODS.retryPeriod),
  timeoutPeriod: duration.default(PERIODS.timeoutPeriod),
  xonTimeout: duration.default(PERIODS.xonTimeout),
  rtsRetry: duration.default(PERIODS.rtsRetry),
  rtsLimit: duration.default(PERIODS.rtsLimit),
  conduitRole: oneOf(['peers', 'master', 'slave']).default(D.conduitRole),
  userDefined: z.array(int(0xf0, 0xff), { error: expecting('a list of USERDEFINED command values') }).default([]),
  reverifyOnStreamUnknown: bool.default(D.reverifyOnStreamUnknown),
  maxPendingPdus: int(1).default(D.maxPendingPdus),
  dataMailboxes: z.array(mailbox, { error: expecting('a list of mailboxes') }).default([]),
  multicast: bool.default(D.multicast),
  type11SegmentSize: z.number({ error: segmentSizeError }).refine((v) => STANDARD_SEGMENT_SIZES.includes(v), { error: segmentSizeError }).default(D.type11SegmentSize),
}).superRefine((c, ctx) => {
  // Also run when other fields are bad (`when` below), so each of these checks reads defensively.
  const bits = c.deviceIdBits as unknown;
  const max = bits === 8 ? 0xff : 0xffff;
  if (typeof c.nodeId === 'number' && c.nodeId > max) ctx.addIssue({ code: 'custom', path: ['nodeId'], message: `expected a device ID 0..${max} (deviceIdBits 8)` });
  const seen = new Map<number, number>();
  (Array.isArray(c.protocols) ? c.protocols : []).forEach((p: Partial<ProtocolSupport> | undefined, i) => {
    if (typeof p?.protoID !== 'number') return;
    const first = seen.get(p.protoID);
    // Vendor-defined protocols share 0x0101, told apart by VENDOR and PROTOCOL_NAME (§6.2): the engine checks those.
    if (first !== undefined && p.protoID !== PROTO_ID.VENDOR_DEFINED) ctx.addIssue({ code: 'custom', path: ['protocols', i, 'protoID'], message: `expected a protocol not listed already (protocols.${first})` });
    else seen.set(p.protoID, i);
  });
}, { when: (payload) => typeof payload.value === 'object' && payload.value !== null }) satisfies z.ZodType<ModelSmpConfig>;

const attributeList = z.array(z.unknown(), { error: expecting('a list of attributes (16 hex digits or decode --layer smp --json objects)') });
const ref = z.string({ error: expecting('a string') });

const input = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), from: nodeId, bytes: hex.optional(), message: z.unknown().optional(), mailbox: mailbox.optional() }),
  z.strictObject({ kind: z.literal('pdu'), from: nodeId, streamID, cos, pdu: hex }),
  z.strictObject({ kind: z.literal('contact'), node: nodeId, contact: contact.optional(), advertisement: registerWord.optional(), componentTag: registerWord.optional(), cos: cos.optional() }),
  z.strictObject({ kind: z.literal('request'), to: nodeId, protoID: int(0, 0xffff).optional(), attributes: attributeList.optional() }),
  z.strictObject({ kind: z.literal('open'), to: nodeId, protoID: int(0, 0xffff), ref, attributes: attributeList.optional(), conduit: bool.optional() }),
  z.strictObject({ kind: z.literal('close'), stream: streamRef }),
  z.strictObject({ kind: z.literal('status-query'), stream: streamRef }),
  z.strictObject({ kind: z.literal('verify'), node: nodeId }),
  z.strictObject({ kind: z.literal('send'), stream: streamRef, pdu: hex }),
  z.strictObject({ kind: z.literal('broadcast'), frame: hex, members: z.array(nodeId, { error: expecting('a list of device IDs') }).optional() }),
  z.strictObject({ kind: z.literal('xoff'), stream: streamRef }),
  z.strictObject({ kind: z.literal('xon'), stream: streamRef }),
  z.strictObject({ kind: z.literal('userdefined'), to: nodeId, cmd: int(0xf0, 0xff), streamID, data: hex }),
]);

type Line = z.infer<typeof input>;

function stream(s: StreamRef, bits: 8 | 16, path: string): StreamRef {
  return { remote: checkNode(s.remote, bits, `${path}.remote`), direction: s.direction, streamID: s.streamID };
}

/** One of `contact`, `advertisement` (Table 5-3 word) or `componentTag` (Table 5-6 word; `cos` for Type 9). */
function contactOf(d: Extract<Line, { kind: 'contact' }>, lenient: boolean): Contact {
  const given = (['contact', 'advertisement', 'componentTag'] as const).filter((k) => d[k] !== undefined);
  if (given.length !== 1) throw new InputError('expected exactly one of contact, advertisement (Session Management Advertisement CSR) or componentTag (Component Tag CSR)', given[1] ?? 'contact');
  if (d.cos !== undefined && d.componentTag === undefined) throw new InputError('cos goes with a componentTag word only (the other forms carry their own)', 'cos');
  if (d.contact !== undefined) return d.contact;
  if (d.advertisement !== undefined) return contactOfAdvertisement(d.advertisement, lenient, 'advertisement');
  return contactOfComponentTag(d.componentTag ?? 0, d.cos ?? 0, lenient, 'componentTag');
}

function toInput(d: Line, ctx: ParseContext<ModelSmpConfig>): SessionInput {
  const bits = ctx.config.deviceIdBits;
  const strict = !ctx.lenient;
  switch (d.kind) {
    case 'message': {
      const m = { kind: 'message', from: checkNode(d.from, bits, 'from'), bytes: messageOctets(d) } as const;
      return d.mailbox === undefined ? m : { ...m, mailbox: d.mailbox };
    }
    case 'pdu':
      return { kind: 'pdu', from: checkNode(d.from, bits, 'from'), streamID: d.streamID, cos: d.cos, pdu: d.pdu };
    case 'contact':
      return { kind: 'contact', node: checkNode(d.node, bits, 'node'), contact: contactOf(d, ctx.lenient) };
    case 'request': {
      const protoID = d.protoID ?? 0xffff;
      const r = { kind: 'request', to: checkNode(d.to, bits, 'to'), protoID } as const;
      return d.attributes === undefined ? r : { ...r, attributes: readAttributes(d.attributes, protoID, strict, 'attributes') };
    }
    case 'open': {
      const o = { kind: 'open', to: checkNode(d.to, bits, 'to'), protoID: d.protoID, ref: d.ref } as const;
      return {
        ...o,
        ...(d.attributes === undefined ? {} : { attributes: readAttributes(d.attributes, d.protoID, strict, 'attributes') }),
        ...(d.conduit === undefined ? {} : { conduit: d.conduit }),
      };
    }
    case 'close':
    case 'status-query':
    case 'xoff':
    case 'xon':
      return { kind: d.kind, stream: stream(d.stream, bits, 'stream') };
    case 'verify':
      return { kind: 'verify', node: checkNode(d.node, bits, 'node') };
    case 'send':
      return { kind: 'send', stream: stream(d.stream, bits, 'stream'), pdu: d.pdu };
    case 'broadcast':
      return d.members === undefined ? { kind: 'broadcast', frame: d.frame } : { kind: 'broadcast', frame: d.frame, members: d.members.map((m, i) => checkNode(m, bits, `members.${i}`)) };
    case 'userdefined':
      return { kind: 'userdefined', to: checkNode(d.to, bits, 'to'), cmd: d.cmd, streamID: d.streamID, data: d.data };
  }
}

/**
 * A `send` line: where it goes, its §3.7.2 priority, the message as `riodp decode --layer smp
 * --json` prints its octets, and the octets (`hex`). An event line: `event` and the event's
 * fields (the engine's `at` is the line's `t`).
 */
function renderSmp(o: EngineOutput): Record<string, unknown> {
  const out = o as SessionOutput;
  if (out.kind === 'send') {
    const decoded = attempt(() => decodeSmp(out.bytes, 0, out.bytes.length));
    const message = toJsonValue(decoded.ok ? decoded.value : out.message);
    return { kind: 'send', to: out.to, priority: out.priority, contact: toJsonValue(out.contact), message, hex: toHex(out.bytes) };
  }
  if (out.kind === 'event') {
    const { event, ...fields } = out.detail;
    return { kind: 'event', event, ...(toJsonValue(fields) as Record<string, unknown>) };
  }
  return renderOutput(o);
}

const streamFields = 'stream ({remote, direction: tx | rx, streamID})';

const base = defineAdapter({
  name: 'smp',
  fields: [
    { name: 'nodeId', type: 'device ID (fits deviceIdBits)', default: 'required', meaning: 'this end point: the SourceID/DestID of its messages (§3.5.2.2)' },
    { name: 'deviceIdBits', type: '8 | 16', default: String(D.deviceIdBits), meaning: 'device ID width; Ethernet multicast broadcast goes to 0xFE or 0xFFFE (§7.3.2.1)' },
    { name: 'contact', type: "{conveyance: 'type11', mailbox (0..63)} | {conveyance: 'type9', streamID, cos}", default: 'required', meaning: 'where this end point receives management messages, as its own advertisement says (§3.3, Table 5-3)' },
    { name: 'protocols', type: 'list of {protoID (0..0xFFFE), attributes?, understood?, singleSession?, acceptOpen?, cos?, dataHeaderFormat?, data2Octet?}', default: '[] (each protocol: attributes [], understood [], singleSession false, acceptOpen true, cos 0, no dataHeaderFormat (DATA), data2Octet 0)', meaning: 'protocols this end point receives (§3.5.1.2): attributes advertised in order (16 hex digits or decode --layer smp --json objects, two copies of an ID a range, §3.8.2); understood: optional/vendor IDs it knows besides the standard ones (§3.5.3); singleSession: one stream per protocol and source (§3.5.1.4); acceptOpen false: every OPEN refused; cos, dataHeaderFormat, data2Octet: what ACCEPT gives (§3.5.2.4, §3.5.3.9, §4.3.3)' },
    { name: 'requestAdvertise', type: 'boolean', default: String(D.requestAdvertise), meaning: 'REQUEST/ADVERTISE supported; false answers REQUEST with STATUS Command_Unknown (§3.8.1, §3.9.2)' },
    { name: 'validation', type: 'boolean', default: String(D.validation), meaning: 'validation mode (§3.8.5): reserved fields checked, a violating message rejected and its sender suspect' },
    { name: 'retryPeriod', type: 'integer ns > 0', default: String(PERIODS.retryPeriod), meaning: 'REQUEST_RETRY_PERIOD default, "250 milliseconds" (§3.5.3.4): REQUEST, OPEN, CLOSE, STATUS resent after it' },
    { name: 'timeoutPeriod', type: 'integer ns > 0', default: String(PERIODS.timeoutPeriod), meaning: 'REQUEST_TIMEOUT_PERIOD default, "1 second" (§3.5.3.5): then the request failed and its target is suspect (§3.7.1)' },
    { name: 'xonTimeout', type: 'integer ns > 0', default: String(PERIODS.xonTimeout), meaning: 'FLOW_CONTROL_XON_TIMEOUT_PERIOD default, "1 second" (§3.5.3.6): an XOFF\'d stream resumes after it' },
    { name: 'rtsRetry', type: 'integer ns > 0', default: String(PERIODS.rtsRetry), meaning: 'RTS resent "at 250 msec intervals" (§4.2.6)' },
    { name: 'rtsLimit', type: 'integer ns > 0', default: String(PERIODS.rtsLimit), meaning: 'RTS retried "until 1 second has elapsed" (§4.2.6)' },
    { name: 'conduitRole', type: "'peers' | 'master' | 'slave'", default: D.conduitRole, meaning: 'conduit configuration (§3.4.1, §3.4.2)' },
    { name: 'userDefined', type: 'list of 0xF0..0xFF', default: '[]', meaning: 'USERDEFINED commands understood; any other is answered with STATUS Command_Unknown (§3.8.4)' },
    { name: 'reverifyOnStreamUnknown', type: 'boolean', default: String(D.reverifyOnStreamUnknown), meaning: 'after a Stream_Unknown STATUS, query the other streams to that node (§3.8.3)' },
    { name: 'maxPendingPdus', type: 'integer > 0', default: String(D.maxPendingPdus), meaning: 'PDUs held per transmit stream while XOFF\'d (Ethernet keeps the newest, §7.3.1)' },
    { name: 'dataMailboxes', type: 'list of mailboxes 0..63', default: '[]', meaning: 'mailboxes dedicated to one DATA2 stream each, named by CONVEYANCE in ACCEPT (§3.5.3.10, §4.3.3); none: DATA2 not offered' },
    { name: 'multicast', type: 'boolean', default: String(D.multicast), meaning: 'Ethernet broadcast by multicast ID (§7.3.2.1), with a Type 9 contact only; false: unicast to every member on StreamID 0xF000 (§7.3.2.2)' },
    { name: 'type11SegmentSize', type: `one of ${STANDARD_SEGMENT_SIZES.join(', ')}`, default: String(D.type11SegmentSize), meaning: 'Part 2 segment size of the Type 11 conveyance: sizes DATA messages and bounds management messages (16 segments for mailboxes 0-3, one for 4-63)' },
  ],
  kinds: [
    { kind: 'message', fields: 'from, bytes (hex) or message (decode --layer smp --json object), mailbox?', meaning: 'a management or DATA message received from node from (the mailbox it came in over Type 11); its octets reach the engine as they are' },
    { kind: 'pdu', fields: 'from, streamID, cos, pdu (hex)', meaning: 'a Type 9 PDU received: on the management stream a message, else data (DATA3, §4.3.4)' },
    { kind: 'contact', fields: 'node, contact ({conveyance, …}) or advertisement (Advertisement CSR word) or componentTag (Component Tag CSR word) with cos?', meaning: 'how to reach node (§3.3): what discovery read (§5.2.3 Table 5-3, §5.3 Table 5-6)' },
    { kind: 'request', fields: 'to, protoID? (default 0xFFFF, the protocol list), attributes?', meaning: 'send a REQUEST (§4.2.1)' },
    { kind: 'open', fields: 'to, protoID, ref, attributes?, conduit?', meaning: 'open a transmit stream (§4.2.3; conduit: the transmit stream of a conduit, §3.4.3); ref comes back with opened, refused, timeout' },
    { kind: 'close', fields: streamFields, meaning: 'close a stream (§4.2.7)' },
    { kind: 'status-query', fields: streamFields, meaning: 'STATUS with Request_Status_of_Remote (§3.6.4)' },
    { kind: 'verify', fields: 'node', meaning: 'query every open stream to node (§3.8.3)' },
    { kind: 'send', fields: `${streamFields}, pdu (hex)`, meaning: 'send a PDU on a transmit stream' },
    { kind: 'broadcast', fields: 'frame (hex), members?', meaning: 'Ethernet broadcast (§7.3.2)' },
    { kind: 'xoff', fields: streamFields, meaning: 'stop the sender of a receive stream (§4.2.6)' },
    { kind: 'xon', fields: streamFields, meaning: 'restart it' },
    { kind: 'userdefined', fields: 'to, cmd (0xF0..0xFF), streamID, data (hex)', meaning: 'send a USERDEFINED command (§4.2.9)' },
  ],
  config,
  input,
  engine: SessionEngine,
  toInput,
  // The engine names its timers after what they guard (pending requests, XON timeouts, RTS retries).
  timer: (name): SessionInput => ({ kind: 'timer', name }),
});

export const smpAdapter: EngineAdapter<ModelSmpConfig, SessionInput, SessionOutput> = { ...base, render: renderSmp };
