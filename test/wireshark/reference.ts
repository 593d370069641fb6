/**
 * What riodp says about a capture record, for the dissector comparison: the JSON `riodp decode
 * --json` prints for the record's packet or symbol (the same functions, called in-process:
 * src/cli/layers.ts `decodeItem`, src/cli/smp-inside.ts `smpInside`, src/cli/json/output.ts
 * `toJsonValue`), flattened into dissector field names by the naming rule of docs/pcapng.md
 * "Wireshark dissector".
 */
import { decodeItem } from '../../src/cli/layers.ts';
import { smpInside } from '../../src/cli/smp-inside.ts';
import { toJsonValue } from '../../src/cli/json/output.ts';
import type { CodecFlags, CliLink } from '../../src/cli/codec-flags.ts';
import { WireError } from '../../src/wire/errors.ts';
import type { Packet } from '../../src/wire/packet.ts';
import { decodeFrame, frameKindName } from '../../src/wire/frame.ts';
import type { VoqFormat } from '../../src/wire/voq-stype2.ts';

/** The dissector's VoQ preferences, as `riodp decode --voq-format/--voq-group-size` take them. */
export interface VoqPrefs {
  readonly voqFormat: VoqFormat;
  readonly voqGroupSize: number;
}

/** Fields of the packet prefix, transport header and serial framing: `riodp.<key>` (docs/pcapng.md). */
export const PACKET_COMMON: ReadonlySet<string> = new Set(['ackID', 'vc', 'crf', 'prio', 'tt', 'ftype', 'destinationID', 'sourceID', 'crc', 'earlyCrc', 'rsrvAckID', 'rsrvPad']);

/** The kinds of docs/pcapng.md §2 and the names riodp gives them. */
const KIND_NAMES: Readonly<Record<number, string>> = { 0x04: 'cs24', 0x05: 'packetCs24' };

/** What riodp makes of one record. */
export interface Reference {
  /** The record's JSON: kind, kindName, and the packet, symbol or frame fields. */
  readonly json: Record<string, unknown>;
  /** Dissector field name → values, in document order (the naming rule). */
  readonly fields: Map<string, unknown[]>;
  /** The WireError lenient decoding threw (the record's fields are then only kind and kindName). */
  readonly error?: WireError;
  /** The WireError strict decoding threw (`riodp decode` without --lenient), if any. */
  readonly strictError?: WireError;
  /** The WireError strict decoding of the session management message threw, when there is one. */
  readonly smpStrictError?: WireError;
}

function flags(link: CliLink, layer: 'serial' | 'symbol', lenient: boolean, prefs: VoqPrefs): CodecFlags {
  return { layer, link, voqFormat: prefs.voqFormat, voqGroupSize: prefs.voqGroupSize, lenient };
}

function attempt<T>(fn: () => T): { value?: T; error?: WireError } {
  try {
    return { value: fn() };
  } catch (e) {
    if (e instanceof WireError) return { error: e };
    throw e;
  }
}

/** The record's item as `riodp decode --json [--smp]` decodes it (strictly unless `lenient`). */
function decodeRecord(rec: Uint8Array, lenient: boolean, prefs: VoqPrefs): object {
  const kind = rec[2] as number;
  const body = rec.subarray(3);
  switch (kind) {
    case 0x01:
    case 0x05: {
      const p = decodeItem(body, flags(kind === 0x05 ? 'cs24' : 'cs48', 'serial', lenient, prefs)) as Packet;
      // `--smp` (Annex 2 §3.3): a message is decoded where a single segment carries one.
      const single = (p.ftype === 11 && p.msglen === 0) || (p.ftype === 9 && p.segment === 'single');
      const smp = single ? attempt(() => smpInside(p, !lenient, true)) : {};
      // The dissector reads a payload as a message only when its <CMD> is one Annex 2 assigns.
      return smp.value === undefined || smp.value.command === 'UNKNOWN' ? p : { ...p, smp: smp.value };
    }
    case 0x02:
      return decodeItem(body, flags('cs48', 'symbol', lenient, prefs));
    case 0x03:
      return decodeItem(body, flags('cs64', 'symbol', lenient, prefs));
    case 0x04:
      return decodeItem(body, flags('cs24', 'symbol', lenient, prefs));
    default: {
      const frame: Record<string, unknown> = { ...decodeFrame(rec, 0, rec.length, { strict: !lenient }) };
      delete frame['kind'];
      delete frame['kindName'];
      return frame;
    }
  }
}

/** riodp's view of a record: lenient JSON, its fields by the naming rule, and the strict verdict. */
export function reference(rec: Uint8Array, prefs: VoqPrefs): Reference {
  const kind = rec[2] as number;
  const kindName = KIND_NAMES[kind] ?? frameKindName(kind);
  const head = { kind, kindName };
  const lenient = attempt(() => decodeRecord(rec, true, prefs));
  const strict = attempt(() => decodeRecord(rec, false, prefs));
  const json = { ...head, ...(lenient.value === undefined ? {} : (toJsonValue(lenient.value) as object)) };
  const smp = lenient.value !== undefined && 'smp' in lenient.value ? attempt(() => smpInside(lenient.value as Packet, true, true)) : {};
  return {
    json,
    fields: fieldsOf(json),
    ...(lenient.error === undefined ? {} : { error: lenient.error }),
    ...(strict.error === undefined ? {} : { strictError: strict.error }),
    ...(smp.error === undefined ? {} : { smpStrictError: smp.error }),
  };
}

/**
 * The naming rule (docs/pcapng.md "Wireshark dissector"): a value at JSON path `a.b.c` of a
 * record is the field `riodp.<group>.a.b.c`, lowercased; array elements take their array's
 * name; a quotedCommand inside a quotedCommand is named as the outer one. Groups: the record's
 * kind and kindName and a packet's prefix, transport and framing fields (PACKET_COMMON) have
 * none (`riodp.ackid`); other packet fields `type<ftype>`, the session management message `smp`,
 * symbols `cs24`/`cs48`/`cs64`, link frames their kind name (`hello`, `close`, `reserved`).
 */
export function fieldsOf(json: Record<string, unknown>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const kindName = String(json['kindName']);
  const packet = kindName === 'packet' || kindName === 'packetCs24';
  const symbol = kindName === 'cs24' || kindName === 'cs48' || kindName === 'cs64';
  for (const [key, value] of Object.entries(json)) {
    let name: string;
    if (key === 'kind' || key === 'kindName') name = `riodp.${key}`;
    else if (packet && PACKET_COMMON.has(key)) name = `riodp.${key}`;
    else if (packet && key === 'smp') name = 'riodp.smp';
    else if (packet) name = `riodp.type${String(json['ftype'])}.${key}`;
    else if (symbol) name = `riodp.${kindName}.${key}`;
    else name = `riodp.${kindName.toLowerCase()}.${key}`;
    walk(name.toLowerCase(), value, out);
  }
  return out;
}

function walk(name: string, value: unknown, out: Map<string, unknown[]>): void {
  if (Array.isArray(value)) {
    for (const v of value) walk(name, v, out);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const key = k.toLowerCase();
      walk(key === 'quotedcommand' && name.endsWith('.quotedcommand') ? name : `${name}.${key}`, v, out);
    }
    return;
  }
  const list = out.get(name);
  if (list === undefined) out.set(name, [value]);
  else list.push(value);
}
