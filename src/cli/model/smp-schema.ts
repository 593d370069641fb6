import { z } from 'zod';
import { decodeComponentTag } from '../../registers/component-tag.ts';
import { RegisterError } from '../../registers/errors.ts';
import { decodeAdvertisement } from '../../registers/session-block.ts';
import { MAILBOX_COUNT } from '../../session/type11-mailbox.ts';
import type { Contact } from '../../session/types.ts';
import { WireError } from '../../wire/errors.ts';
import { parseHex } from '../../wire/hex.ts';
import { ATTRIBUTE_BYTES, ATTRIBUTE_ID, attributeName, checkAttributeStrict, decodeAttribute } from '../../wire/smp/attributes.ts';
import type { SmpAttribute } from '../../wire/smp/attributes.ts';
import { smpBytes } from '../../wire/smp/index.ts';
import { smpFromJson } from '../json/smp.ts';
import { InputError } from './input-error.ts';
import { CLI_CLAUSES } from './wire-input.ts';
import { expecting, int, oneOf } from './schema.ts';

/**
 * zod pieces and readers of the `smp` adapter (Annex 2 session management, src/session/types.ts):
 * contacts as objects or as the register words that advertise them (§3.3, §5.2.3, §5.3),
 * attributes and messages as hex or as the objects `riodp decode --layer smp --json` prints.
 */

function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function join(base: string, field: string): string {
  if (field === '') return base;
  return base === '' ? field : `${base}.${field}`;
}

/** `inner`: the JSON path the reader's own message names, which the line's path replaces. */
function fromWire(e: WireError, base: string, field: string, inner = ''): InputError {
  const clause = CLI_CLAUSES.has(e.clause) ? '' : `, ${e.clause}`;
  const detail = (inner === '' ? e.detail : e.detail.split(inner).join('')).replace(/^Invalid input: /, '');
  return new InputError(`${detail}${clause}`, join(base, field));
}

/** Binary data: hex, whitespace, `0x`, `_` and `:` tolerated (docs/model.md "Binary data"). */
export const hex = z.string({ error: expecting('a hex string') }).transform((s, ctx) => {
  try {
    return parseHex(s);
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    ctx.addIssue({ code: 'custom', message: `${e.detail}, byte ${e.offset}` });
    return z.NEVER;
  }
});

/** Device IDs of the engine: 8 or 16 bits (§3.5.2.2 "Both <SourceID> and <DestID> are 2 octets in size"); the configured width is checked by `checkNode`. */
export const nodeId = int(0, 0xffff);

export function checkNode(id: number, deviceIdBits: 8 | 16, path: string): number {
  const max = 2 ** deviceIdBits - 1;
  if (id > max) throw new InputError(`expected a device ID 0..${max} (deviceIdBits ${deviceIdBits})`, path);
  return id;
}

/** A Part 2 mailbox, 0–63 (Table 5-3 "the mailbox ID, formatted according to the definition in Part 2"). */
export const mailbox = int(0, MAILBOX_COUNT - 1);

/** §3.5.2.5 "The <StreamID> is always two octets in size". */
export const streamID = int(0, 0xffff);
export const cos = int(0, 0xff);

/** A stream as types.ts StreamRef names it. */
export const streamRef = z.strictObject({
  remote: nodeId,
  direction: oneOf(['tx', 'rx']),
  streamID,
}, { error: expecting("a stream {remote, direction: 'tx' | 'rx', streamID}") });

/** How management messages reach a node (types.ts Contact; §3.3, Table 5-3 Conveyance_Info). */
export const contact = z.discriminatedUnion('conveyance', [
  z.strictObject({ conveyance: z.literal('type11'), mailbox }),
  z.strictObject({ conveyance: z.literal('type9'), streamID, cos }),
], { error: expecting("{conveyance: 'type11', mailbox} or {conveyance: 'type9', streamID, cos}") });

/** A 32-bit register word as read: a number, or a hex string ("0x00000002"). */
export const registerWord = z.union([
  int(0, 0xffffffff),
  z.string().regex(/^(0x)?[0-9a-f_]{1,11}$/i).transform((s) => Number.parseInt(s.replace(/^0x/i, '').replace(/_/g, ''), 16)).refine((n) => n <= 0xffffffff),
], { error: expecting('a 32-bit register word: an integer or a hex string such as "0x00000002"') });

function fromRegister(e: RegisterError, base: string): InputError {
  const dot = e.register.lastIndexOf('.');
  return new InputError(`${e.detail}, ${e.clause}`, dot < 0 ? base : `${base}.${e.register.slice(dot + 1)}`);
}

function register<T>(fn: () => T, base: string): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RegisterError) throw fromRegister(e, base);
    throw e;
  }
}

/**
 * The contact a Session Management Advertisement CSR word gives (§3.3, §5.2.3 Table 5-3):
 * Conveyance 0x0 with mailbox nn (0x000000nn), or 0x1 with COS cc and StreamID ssss (0x10ccssss).
 * Strict decoding (without --lenient) refuses a reserved conveyance and non-zero bits of the
 * zero part of Conveyance_Info. Throws InputError.
 */
export function contactOfAdvertisement(word: number, lenient: boolean, base: string): Contact {
  const adv = register(() => decodeAdvertisement(word, { strict: !lenient }), base);
  if (adv.mailbox !== null) return { conveyance: 'type11', mailbox: adv.mailbox };
  if (adv.streamId !== null) return { conveyance: 'type9', streamID: adv.streamId, cos: adv.cos ?? 0 };
  const why = adv.conveyanceName === 'NOT_SUPPORTED' ? 'Conveyance 0xF, Not Supported' : `Conveyance 0x${adv.conveyance.toString(16)} is reserved`;
  throw new InputError(`no contact: ${why}, Annex 2 §5.2.3 Table 5-3`, `${base}.conveyance`);
}

/**
 * The contact a Component Tag CSR word gives (§5.3 Table 5-6, DECISIONS §7): Sess_Mgmt_Chan 0b00
 * with the mailbox, or 0b01 with the StreamID; the tag has no COS ("should be the highest priority
 * COS supported by the interface"), so the line gives it. Throws InputError.
 */
export function contactOfComponentTag(word: number, tagCos: number, lenient: boolean, base: string): Contact {
  const tag = register(() => decodeComponentTag(word, { strict: !lenient }), base);
  if (tag.mailbox !== null) return { conveyance: 'type11', mailbox: tag.mailbox };
  if (tag.streamId !== null) return { conveyance: 'type9', streamID: tag.streamId, cos: tagCos };
  if (tag.sessMgmtChanName === null) throw new InputError('no contact: Sess_Mgmt_Sup is 0, "the node does not conform to this specification", Annex 2 §5.3', `${base}.sessMgmtSup`);
  throw new InputError(`no contact: Sess_Mgmt_Chan ${tag.sessMgmtChanName} is reserved, Annex 2 §5.3 Table 5-6`, `${base}.sessMgmtChan`);
}

/**
 * One attribute of a list read under `protoID` (DECISIONS §7: the ID means what the protocol
 * says): 16 hex digits (its 8 octets, §3.5.3 "the attribute field always consists of a 64-bit
 * (8-octet) value"), or the object `decode --layer smp --json` prints in `attributes`. Both are
 * checked the same way; `strict` refuses what strict decoding refuses (a reserved ID, a VENDOR
 * value of neither format, …). Throws InputError.
 */
export function readAttribute(value: unknown, protoID: number, strict: boolean, base: string): SmpAttribute {
  if (typeof value === 'string') {
    let bytes: Uint8Array;
    try {
      bytes = parseHex(value);
    } catch (e) {
      if (e instanceof WireError) throw new InputError(`${e.detail}, byte ${e.offset}`, base);
      throw e;
    }
    if (bytes.length !== ATTRIBUTE_BYTES) throw new InputError(`expected an attribute of ${ATTRIBUTE_BYTES} octets (§3.5.3), got ${bytes.length}`, base);
    try {
      return decodeAttribute(bytes, 0, bytes.length, protoID, strict, '');
    } catch (e) {
      if (e instanceof WireError) throw fromWire(e, base, '');
      throw e;
    }
  }
  if (!isRecord(value)) throw new InputError('expected an attribute: 16 hex digits or an object as riodp decode --layer smp --json prints it', base);
  const name = value['name'];
  if (typeof name === 'string' && name in ATTRIBUTE_ID) {
    const id = ATTRIBUTE_ID[name as keyof typeof ATTRIBUTE_ID];
    const here = attributeName(id, protoID);
    if (here !== name) throw new InputError(`${name} is not an attribute of ProtoID 0x${protoID.toString(16).padStart(4, '0')}: ID 0x${id.toString(16)} is ${here} there (DECISIONS §7)`, join(base, 'name'));
  }
  // The JSON reader of `riodp encode --layer smp`, given the attribute inside a list of this ProtoID.
  try {
    const m = smpFromJson({ command: 'REQUEST', sourceID: 0, destID: 0, protoID, attributes: [value] });
    const a = m.command === 'REQUEST' ? m.attributes[0] : undefined;
    if (a === undefined) throw new InputError('expected an attribute', base);
    if (strict) checkAttributeStrict(a, 0, '');
    return a;
  } catch (e) {
    if (e instanceof WireError) throw fromWire(e, base, e.field.replace(/^attributes\.0\.?/, ''), 'attributes.0.');
    throw e;
  }
}

export function readAttributes(list: readonly unknown[], protoID: number, strict: boolean, base: string): SmpAttribute[] {
  return list.map((a, i) => readAttribute(a, protoID, strict, join(base, String(i))));
}

/** zod form of `readAttributes` for config files, which are always read strictly: issues at the attribute's path. */
export function attributesIn(list: readonly unknown[], protoID: number, path: readonly (string | number)[], ctx: z.core.$RefinementCtx): SmpAttribute[] {
  const out: SmpAttribute[] = [];
  list.forEach((a, i) => {
    try {
      out.push(readAttribute(a, protoID, true, ''));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      ctx.addIssue({ code: 'custom', path: [...path, i, ...e.path.split('.').filter((p) => p !== '')], message: e.message });
    }
  });
  return out;
}

/**
 * The octets of a received message: `bytes` as they are (the engine judges them: a malformed or
 * unknown command is protocol input, §3.7, Figure 3-4), or `message`, the object `riodp decode
 * --layer smp --json` prints, encoded as `riodp encode --layer smp` encodes it. Throws InputError.
 */
export function messageOctets(line: { readonly bytes?: Uint8Array | undefined; readonly message?: unknown }): Uint8Array {
  if (line.bytes !== undefined && line.message !== undefined) throw new InputError('expected bytes or message, not both', 'message');
  if (line.bytes !== undefined) return line.bytes;
  if (line.message === undefined) throw new InputError('missing, expected bytes (hex) or message (an object as riodp decode --layer smp --json prints it)', 'bytes');
  if (!isRecord(line.message)) throw new InputError('expected an object as riodp decode --layer smp --json prints it (hex goes in bytes)', 'message');
  try {
    return smpBytes(smpFromJson(line.message));
  } catch (e) {
    if (e instanceof WireError) throw fromWire(e, 'message', e.field === 'json' || e.field === 'bytes' ? '' : e.field);
    throw e;
  }
}
