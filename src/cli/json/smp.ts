import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  ATTRIBUTE_ID,
  FLOW_CONTROL,
  PROTO_ID,
  SMP_COMMAND,
  SMP_VER,
  STATUS_BIT,
  attrConduitStream,
  attrConveyance,
  attrDataHeaderFormat,
  attrDataOffset,
  attrMtu,
  attributeName,
  canonicalPadLength,
  commandName,
  smpAccept,
  smpAdvertise,
  smpAttribute,
  smpBytes,
  smpClose,
  smpData,
  smpData1,
  smpData2,
  smpFlowControl,
  smpOpen,
  smpRefuse,
  smpRequest,
  smpStatus,
  smpUnknown,
  smpUserDefined,
  statusFromFlags,
  vendorValue,
} from '../../wire/smp/index.ts';
import type { AttributeLike, AttributeName, SmpAttribute, SmpCommandName, SmpMessage, SmpNamedCommand, StatusFlag } from '../../wire/smp/index.ts';
import { hexBytes, invalidJson, orInvalid, parseWith, uint } from './common.ts';

/**
 * JSON input for session management messages (docs/cli.md): exactly what
 * `toJsonValue(decodeSmp(…))` prints. Raw fields (cmd, ver, protoID, flowControl, status, id,
 * value, …) and their labels (command, version, protocol, flowControlName, statusFlags, name and
 * the decoded attribute fields, …) are each optional when the other gives the value; whatever is
 * given must agree with the message the raw fields make, or the input is rejected naming the field.
 */
export const CLAUSE_SMP_JSON = 'docs/cli.md';

const ATTRIBUTE_NAMES = [
  ...(Object.keys(ATTRIBUTE_ID) as (keyof typeof ATTRIBUTE_ID)[]),
  'VENDOR_SPECIFIC',
  'PROTOCOL_SPECIFIC',
  'RESERVED',
] as const satisfies readonly AttributeName[];
const COMMAND_NAMES = [
  ...(Object.keys(SMP_COMMAND).filter((n) => n !== 'DATA3') as SmpCommandName[]),
  'USERDEFINED',
  'UNKNOWN',
] as const satisfies readonly SmpCommandName[];
const STATUS_NAMES = [...(Object.keys(STATUS_BIT) as (keyof typeof STATUS_BIT)[]), 'RESERVED'] as const satisfies readonly StatusFlag[];

const attributeSchema = z.strictObject({
  name: z.enum(ATTRIBUTE_NAMES).optional(),
  id: uint(32).optional(),
  idBits: z.union([z.literal(8), z.literal(16), z.literal(32)]).optional(),
  value: hexBytes.optional(),
  vendorFormat: z.enum(['OUI', 'NAME', 'INVALID']).optional(),
  oui: uint(24).optional(),
  channel: uint(16).optional(),
  channelName: z.enum(['MESSAGE', 'VENDOR_SPECIFIC', 'RESERVED']).optional(),
  channelInfo: uint(32).optional(),
  mailbox: uint(8).optional(),
  rsrv: uint(32).optional(),
  mtu: uint(16).optional(),
  offset: uint(8).optional(),
  vendor: hexBytes.optional(),
  macAddress: hexBytes.optional(),
  microseconds: uint(32).optional(),
  openMessageNumber: uint(32).optional(),
  transmitStreamID: uint(16).optional(),
  receiveStreamID: uint(16).optional(),
  implementationSpecific: uint(8).optional(),
  format: uint(8).optional(),
  formatName: z.enum(['DATA', 'DATA1', 'DATA2', 'DATA3', 'UNDEFINED']).optional(),
});
type AttributeJson = z.infer<typeof attributeSchema>;

const protocolField = {
  protoID: uint(16).optional(),
  protocol: z.enum(['VENDOR_DEFINED', 'ETHERNET', 'PROTOCOL_LIST', 'OTHER']).optional(),
};
const blockSchema = z.strictObject({ ...protocolField, attributes: z.array(attributeSchema).optional(), pad: hexBytes.optional() });

const messageSchema = z.strictObject({
  command: z.enum(COMMAND_NAMES).optional(),
  cmd: uint(8).optional(),
  ver: uint(8).optional(),
  version: z.enum(['V1', 'UNKNOWN']).optional(),
  sourceID: uint(16).optional(),
  destID: uint(16).optional(),
  cos: uint(8).optional(),
  rsrv: uint(16).optional(),
  ...protocolField,
  attributes: z.array(attributeSchema).optional(),
  s: uint(1).optional(),
  e: uint(1).optional(),
  a: uint(1).optional(),
  variant: z.enum(['NOT_SUPPORTED', 'PROTOCOL_LIST', 'PROTOCOL_ATTRIBUTES', 'RESERVED']).optional(),
  protocols: z.array(blockSchema).optional(),
  ackType: uint(8).optional(),
  ackTypeName: z.enum(['NORMAL', 'RESERVED']).optional(),
  nackType: uint(8).optional(),
  nackTypeName: z.enum(['NORMAL', 'RESERVED']).optional(),
  fill: uint(24).optional(),
  streamID: uint(16).optional(),
  flowControl: uint(8).optional(),
  flowControlName: z.enum(['XON', 'XOFF', 'RTS', 'UNDEFINED']).optional(),
  mailbox: uint(8).optional(),
  cmdID: uint(8).optional(),
  cmdIDName: z.enum(COMMAND_NAMES).optional(),
  cmdVersion: uint(8).optional(),
  status: uint(32).optional(),
  statusFlags: z.array(z.enum(STATUS_NAMES)).optional(),
  contextSpecificData: hexBytes.optional(),
  quotedCommand: z.unknown().optional(),
  streamProtocol: blockSchema.optional(),
  userDefinedData: hexBytes.optional(),
  data: hexBytes.optional(),
  implementationSpecific: uint(8).optional(),
  segment: z.enum(['SINGLE', 'START', 'END', 'CONTINUATION']).optional(),
  rsrv1: uint(16).optional(),
  pduLength: uint(32).optional(),
  payload: hexBytes.optional(),
  pad: hexBytes.optional(),
});
type MessageJson = z.infer<typeof messageSchema>;

/** Reads a session management message from JSON; the result encodes with `encodeSmp`. */
export function smpFromJson(json: unknown): SmpMessage {
  const j = parseWith(messageSchema, json);
  const canon = build(j);
  compare(j, canon, '');
  return canon;
}

function build(j: MessageJson): SmpMessage {
  const named = j.command !== undefined && j.command in SMP_COMMAND ? SMP_COMMAND[j.command as SmpNamedCommand] : undefined;
  const cmd = j.cmd ?? named ?? fail('cmd', `cmd is required${j.command === undefined ? '' : ` for ${j.command}`}`);
  const ver = j.ver ?? (j.version === 'UNKNOWN' ? fail('ver', 'an UNKNOWN version needs the raw ver') : SMP_VER);
  const pad = j.pad === undefined ? {} : { pad: j.pad };
  const common = { ver, ...pad };
  switch (commandName(cmd)) {
    case 'REQUEST': {
      const protoID = protoOf(j, '');
      return smpRequest({ ...common, sourceID: need(j.sourceID, 'sourceID'), destID: need(j.destID, 'destID'), cos: j.cos ?? 0, rsrv: j.rsrv ?? 0, protoID, attributes: attrs(j.attributes, protoID, 'attributes') });
    }
    case 'ADVERTISE': {
      const [s, a] = saOf(j);
      const protocols = (j.protocols ?? []).map((p, i) => {
        const protoID = protoOf(p, `protocols.${i}.`);
        return a === 1 ? { protoID, attributes: attrs(p.attributes, protoID, `protocols.${i}.attributes`) } : { protoID };
      });
      return smpAdvertise({ ...common, sourceID: need(j.sourceID, 'sourceID'), destID: need(j.destID, 'destID'), s, a, protocols });
    }
    case 'OPEN': {
      const protoID = protoOf(j, '');
      return smpOpen({ ...common, sourceID: need(j.sourceID, 'sourceID'), protoID, attributes: attrs(j.attributes, protoID, 'attributes') });
    }
    case 'ACCEPT': {
      const protoID = protoOf(j, '');
      const ackType = j.ackType ?? typeOf(j.ackTypeName, 'ackType');
      return smpAccept({ ...common, destID: need(j.destID, 'destID'), ackType, cos: j.cos ?? 0, streamID: need(j.streamID, 'streamID'), protoID, attributes: attrs(j.attributes, protoID, 'attributes') });
    }
    case 'REFUSE': {
      const protoID = protoOf(j, '');
      const nackType = j.nackType ?? typeOf(j.nackTypeName, 'nackType');
      return smpRefuse({ ...common, destID: need(j.destID, 'destID'), nackType, fill: j.fill ?? 0xffffff, protoID, attributes: attrs(j.attributes, protoID, 'attributes') });
    }
    case 'FLOW_CONTROL': {
      const name = j.flowControlName;
      const flowControl = j.flowControl ?? (name === undefined || name === 'UNDEFINED' ? fail('flowControl', 'flowControl or XON/XOFF/RTS is required') : FLOW_CONTROL[name]);
      return smpFlowControl({ ...common, flowControl, cos: j.cos ?? 0, sourceID: need(j.sourceID, 'sourceID'), streamID: need(j.streamID, 'streamID'), protoID: protoOf(j, '') });
    }
    case 'CLOSE':
      return smpClose({ ...common, sourceID: need(j.sourceID, 'sourceID'), destID: need(j.destID, 'destID'), cos: j.cos ?? 0, rsrv: j.rsrv ?? 0, streamID: need(j.streamID, 'streamID') });
    case 'STATUS':
      return statusOf(j, common);
    case 'USERDEFINED':
      return smpUserDefined({ ver, cmd, cos: j.cos ?? 0, rsrv: j.rsrv ?? 0, sourceID: need(j.sourceID, 'sourceID'), streamID: need(j.streamID, 'streamID'), userDefinedData: j.userDefinedData ?? new Uint8Array(0) });
    case 'DATA':
    case 'DATA1': {
      const [s, e] = seOf(j);
      const f = { ...common, mailbox: j.mailbox ?? 0, cos: j.cos ?? 0, rsrv: j.rsrv ?? 0, sourceID: need(j.sourceID, 'sourceID'), s, e, rsrv1: j.rsrv1 ?? 0, payload: need(j.payload, 'payload') };
      const field = (s | e) === 1 ? { streamID: need(j.streamID, 'streamID') } : { pduLength: need(j.pduLength, 'pduLength') };
      return commandName(cmd) === 'DATA' ? smpData({ ...f, ...field }) : smpData1({ ...f, ...field });
    }
    case 'DATA2': {
      const [s, e] = seOf(j);
      return smpData2({ ...pad, implementationSpecific: j.implementationSpecific ?? 0, s, e, payload: need(j.payload, 'payload') });
    }
    case 'UNKNOWN':
      return smpUnknown(cmd, j.data ?? new Uint8Array(0));
  }
}

function statusOf(j: MessageJson, common: { ver: number; pad?: Uint8Array }): SmpMessage {
  const flags = j.statusFlags;
  if (j.status === undefined && flags?.includes('RESERVED') === true) fail('status', 'reserved status bits need the raw status');
  const status = j.status ?? statusFromFlags((flags ?? []).filter((f) => f !== 'RESERVED'));
  const cmdIDName = j.cmdIDName;
  // Without cmdID the STATUS defaults apply: 0x10, or the quoted command's first octet.
  const cmdID =
    j.cmdID ??
    (cmdIDName === undefined ? undefined : cmdIDName in SMP_COMMAND ? SMP_COMMAND[cmdIDName as SmpNamedCommand] : fail('cmdID', `cmdID is required for ${cmdIDName}`));
  const f = {
    ...common,
    cos: j.cos ?? 0,
    sourceID: need(j.sourceID, 'sourceID'),
    streamID: need(j.streamID, 'streamID'),
    mailbox: j.mailbox ?? 0,
    rsrv: j.rsrv ?? 0,
    ...(cmdID === undefined ? {} : { cmdID }),
    ...(j.cmdVersion === undefined ? {} : { cmdVersion: j.cmdVersion }),
    status,
  };
  if (j.contextSpecificData !== undefined) return smpStatus({ ...f, contextSpecificData: j.contextSpecificData });
  if (j.quotedCommand !== undefined) return smpStatus({ ...f, quote: smpFromJson(j.quotedCommand) });
  const sp = j.streamProtocol;
  if (sp !== undefined) {
    const protoID = protoOf(sp, 'streamProtocol.');
    return smpStatus({ ...f, streamProtocol: { protoID, attributes: attrs(sp.attributes, protoID, 'streamProtocol.attributes') } });
  }
  return smpStatus(f);
}

function attrs(list: readonly AttributeJson[] | undefined, protoID: number, path: string): SmpAttribute[] {
  return (list ?? []).map((a, i) => attributeFromJson(a, protoID, `${path}.${i}`));
}

/** One attribute: `id` and `value`, or `name`/`id` and the fields that make the value. */
export function attributeFromJson(j: AttributeJson, protoID: number, path = 'attribute'): SmpAttribute {
  const byName = j.name !== undefined && j.name in ATTRIBUTE_ID ? ATTRIBUTE_ID[j.name as keyof typeof ATTRIBUTE_ID] : undefined;
  const id = j.id ?? byName ?? fail(`${path}.id`, `id is required${j.name === undefined ? '' : ` for ${j.name}`}`);
  const value = j.value ?? valueOf(j, attributeName(id, protoID), path).value;
  const canon = smpAttribute(id, value, protoID);
  compare(j, canon, `${path}.`);
  return canon;
}

function valueOf(j: AttributeJson, name: ReturnType<typeof attributeName>, path: string): AttributeLike {
  const missing = (what: string): never => fail(`${path}.value`, `value or ${what} is required for ${name}`);
  switch (name) {
    case 'VENDOR':
    case 'DATA_OFFSET_VENDOR':
      return { id: 0, value: vendorValue({ oui: j.oui ?? missing('oui') }) };
    case 'CONVEYANCE': {
      const channel = j.channel ?? (j.channelName === 'MESSAGE' ? 1 : missing('channel'));
      return attrConveyance(channel, j.channelInfo ?? j.mailbox ?? missing('channelInfo'));
    }
    case 'MTU':
      return attrMtu(j.mtu ?? missing('mtu'), j.rsrv ?? 0);
    case 'DATA_OFFSET':
      return attrDataOffset(j.offset ?? missing('offset'), j.vendor ?? new Uint8Array(5));
    case 'MAC_ADDRESS':
      return { id: 0, value: j.macAddress ?? missing('macAddress') };
    case 'REQUEST_RETRY_PERIOD':
    case 'REQUEST_TIMEOUT_PERIOD':
    case 'FLOW_CONTROL_XON_TIMEOUT_PERIOD':
    case 'OPEN_MESSAGE_NUMBER': {
      const n = (name === 'OPEN_MESSAGE_NUMBER' ? j.openMessageNumber : j.microseconds) ?? missing(name === 'OPEN_MESSAGE_NUMBER' ? 'openMessageNumber' : 'microseconds');
      return { id: 0, value: Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff) };
    }
    case 'CONDUIT_STREAM':
      return attrConduitStream(j.transmitStreamID ?? missing('transmitStreamID'), j.receiveStreamID ?? missing('receiveStreamID'));
    case 'DATA_HEADER_FORMAT': {
      const fname = j.formatName;
      const format = j.format ?? (fname === undefined || fname === 'UNDEFINED' ? missing('format') : SMP_COMMAND[fname]);
      return attrDataHeaderFormat(format, j.implementationSpecific ?? 0, j.rsrv ?? 0);
    }
    default:
      return missing('value');
  }
}

function protoOf(j: { readonly protoID?: number | undefined; readonly protocol?: string | undefined }, path: string): number {
  if (j.protoID !== undefined) return j.protoID;
  if (j.protocol !== undefined && j.protocol in PROTO_ID) return PROTO_ID[j.protocol as keyof typeof PROTO_ID];
  return fail(`${path}protoID`, 'protoID (or a protocol other than OTHER) is required');
}

function saOf(j: MessageJson): [number, number] {
  const byVariant = { NOT_SUPPORTED: [0, 0], PROTOCOL_LIST: [1, 0], PROTOCOL_ATTRIBUTES: [1, 1], RESERVED: [0, 1] } as const;
  const v = j.variant === undefined ? undefined : byVariant[j.variant];
  return [j.s ?? v?.[0] ?? fail('s', 's or variant is required'), j.a ?? v?.[1] ?? fail('a', 'a or variant is required')];
}

function seOf(j: MessageJson): [number, number] {
  const bySegment = { SINGLE: [1, 1], START: [1, 0], END: [0, 1], CONTINUATION: [0, 0] } as const;
  const v = j.segment === undefined ? [1, 1] : bySegment[j.segment];
  return [j.s ?? v[0], j.e ?? v[1]];
}

function typeOf(name: 'NORMAL' | 'RESERVED' | undefined, field: string): number {
  if (name === 'RESERVED') fail(field, `a RESERVED ${field} needs the raw value`);
  return 0;
}

function need<T>(v: T | undefined, field: string): T {
  return orInvalid(v, field, `${field} is required`, CLAUSE_SMP_JSON);
}

/** Every field given in the JSON must equal the canonical message's (statusFlags as a set). */
function compare(given: object, canon: object, prefix: string): void {
  const c = canon as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const path = prefix + key;
    const want = c[key];
    if (want === undefined) fail(path, `${path} does not apply to this message`);
    if (key === 'quotedCommand') {
      // The quote is the original command zero-padded to 8 octets (§4.2.8), so compare octets.
      const q = smpBytes(smpFromJson(value));
      const padded = new Uint8Array(q.length + canonicalPadLength(q.length));
      padded.set(q);
      if (!isDeepStrictEqual(padded, c['contextSpecificData'])) fail(path, `${path} disagrees with contextSpecificData`);
    } else if (Array.isArray(value) && Array.isArray(want) && value.length === want.length && value.every(isObject)) {
      value.forEach((v: object, i) => {
        compare(v, want[i] as object, `${path}.${i}.`);
      });
    } else if (isObject(value) && isObject(want) && !Array.isArray(value) && !(value instanceof Uint8Array)) {
      compare(value, want, `${path}.`);
    } else {
      const same = key === 'statusFlags' ? isDeepStrictEqual(new Set(value as string[]), new Set(want as string[])) : isDeepStrictEqual(value, want);
      if (!same) fail(path, `${path} ${show(value)} disagrees with the raw fields, which give ${show(want)}`);
    }
  }
}

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

function show(v: unknown): string {
  return v instanceof Uint8Array ? Buffer.from(v).toString('hex') : JSON.stringify(v);
}

function fail(field: string, detail: string): never {
  return invalidJson(field, detail, CLAUSE_SMP_JSON);
}
