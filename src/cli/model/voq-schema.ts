import { z } from 'zod';
import { RegisterError } from '../../registers/errors.ts';
import { decodeVoqPortControl } from '../../registers/voq-block.ts';
import { parseHex, toHex } from '../../wire/hex.ts';
import { decodeSymbol, encodeSymbol, symbolLength } from '../../wire/symbol.ts';
import type { ControlSymbol } from '../../wire/symbol.ts';
import { SYMBOL64_LENGTH, decodeSymbol64, encodeSymbol64 } from '../../wire/symbol64.ts';
import type { ControlSymbol64 } from '../../wire/symbol64.ts';
import { STYPE1_64_NAMES, stype1Name64, stype1Of64 } from '../../wire/symbol64-types.ts';
import { STYPE0_NAMES } from '../../wire/symbol-types.ts';
import type { Stype0Name } from '../../wire/symbol-types.ts';
import { VOQ_SYMBOL_FORMS } from '../../wire/voq-cs64.ts';
import { VOQ_FORMATS } from '../../wire/voq-stype2.ts';
import type { VoqFormat } from '../../wire/voq-stype2.ts';
import { settingsOfControl } from '../../voq/generator-config.ts';
import type { PortSettings } from '../../voq/generator-config.ts';
import { toJsonValue } from '../json/output.ts';
import { symbolFromJson } from '../json/symbol.ts';
import { symbol64FromJson } from '../json/symbol64.ts';
import { InputError } from './input-error.ts';
import { wire } from './wire-input.ts';
import { expecting, int, oneOf } from './schema.ts';

/**
 * zod pieces and symbol readers shared by the `voq-gen` and `voq-rx` adapters (VoQ
 * Backpressure, DECISIONS §5): the stype2 format, ports and VCs, the Port n VoQ Control CSR
 * given as a register value, and control symbols in and out.
 *
 * Control symbols in input lines are a hex string of the symbol's bytes without delimiters
 * (DECISIONS §2: 6 bytes for a CS48, 3 for a CS24; 8 for a CS64, Part 6 §6.5.2), as `riodp
 * decode --layer symbol` takes it, or the JSON object `riodp decode --layer symbol --json`
 * prints (read by symbolFromJson / symbol64FromJson, so labels may stand for raw fields). Both go
 * through the same strict decoding unless `--lenient`, as packets do (docs/model.md "Packets").
 */

export const voqFormat = oneOf(VOQ_FORMATS);

/** The `symbol` config field: the control symbol VoQ messages travel in (Part 12 Chapter 3, §4.1 d). */
export const symbolForm = oneOf(VOQ_SYMBOL_FORMS);

/** Part 12 §3.2: a CS64 VoQ-backpressure symbol exists only in the Part 12 format (DECISIONS §5). */
export const CS64_FORMAT_MESSAGE = "expected 'cs48' in the seed format (the Control Symbol 64 VoQ form is Part 12 §3.2 only)";

/**
 * A CS64 stype1 (Part 6 Table 3-18) as its 8-bit value or its name; start-of-packet carries ackID
 * bits, so it is given by value.
 */
const STYPE1_64_BY_NAME = STYPE1_64_NAMES.filter((n) => n !== 'RESERVED' && !n.startsWith('start-of-packet'));
export const stype1Cs64 = z.union([int(0, 0xff), z.enum(STYPE1_64_BY_NAME as [string, ...string[]])], {
  error: expecting(`an stype1 0..255 or its name (${STYPE1_64_BY_NAME.join(', ')})`),
}).transform((v) => (typeof v === 'number' ? v : stype1Of64(v) as number));

/** A reserved stype1 is refused unless `--lenient`, as decoding a received CS64 refuses it. Throws InputError. */
export function checkStype1Cs64(stype1: number, lenient: boolean): number {
  if (!lenient && stype1Name64(stype1) === 'RESERVED') throw new InputError(`stype1 0x${stype1.toString(16).padStart(2, '0')} is reserved, Part 6 §3.5 Table 3-18`, 'stype1');
  return stype1;
}

/** A port of the device, or a link: the engine reports a port it does not have (`unknown-port`). */
export const portNumber = int(0);

/** VC0–VC8 (Part 6); the engine reports a VC its links do not run (`unknown-vc`). */
export const vcNumber = int(0, 8);

/** Part 12 Table 5-3 TX/RX Port Group Size: 0–6 bits, "0x7 = Reserved". */
export const groupSize = int(0, 6);

/** A 32-bit register value. */
export const registerValue = int(0, 0xffffffff);

/** stype0 as its Part 6 Table 3-2 value or its name (as `decode --json` prints `stype0Name`). */
export const stype0 = z.union([int(0, 7), z.enum(STYPE0_NAMES as unknown as [Stype0Name, ...Stype0Name[]])], {
  error: expecting(`an stype0 0..7 or its name (${STYPE0_NAMES.join(', ')})`),
}).transform((v) => (typeof v === 'number' ? v : STYPE0_NAMES.indexOf(v)));

export interface SymbolReading {
  readonly format: VoqFormat;
  /** Part 12 only: the group size the `voq` view of a JSON symbol is read with unless it gives `voq.portGroupSize`. */
  readonly groupSize: number;
  readonly lenient: boolean;
}

function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A control symbol of an input line. Hex: 3 bytes are a CS24, 6 a CS48 (Part 6 Figures 3-1,
 * 3-2); the CRC is checked. An object without `link` is a CS48, the symbol that carries stype2.
 */
export function readSymbol(value: unknown, base: string, r: SymbolReading): ControlSymbol {
  if (typeof value === 'string') {
    const bytes = wire(() => parseHex(value), base, true);
    const link = bytes.length === symbolLength('cs24') ? 'cs24' : bytes.length === symbolLength('cs48') ? 'cs48' : undefined;
    if (link === undefined) throw new InputError(`expected a control symbol of 6 bytes (CS48) or 3 bytes (CS24), got ${bytes.length}`, base);
    return wire(() => decodeSymbol(bytes, 0, bytes.length, { link, voqFormat: r.format, part12GroupSize: r.groupSize, strict: !r.lenient }), base, true);
  }
  if (!isRecord(value)) throw new InputError('expected a hex string or a control symbol object as riodp decode --layer symbol --json prints it', base);
  const voq = value['voq'];
  const ownSize = isRecord(voq) && voq['portGroupSize'] !== undefined;
  return wire(() => symbolFromJson(value, {
    ...(value['link'] === undefined ? { link: 'cs48' } : {}),
    voqFormat: r.format,
    ...(ownSize || r.format === 'seed' ? {} : { part12GroupSize: r.groupSize }),
    strict: !r.lenient,
  }), base, false);
}

/**
 * A Control Symbol 64 of an input line: 8 bytes of hex (Part 6 Figure 3-3, CRC-24 checked) or the
 * `decode --layer symbol --link cs64 --json` object (`link` may be left out). A VoQ-backpressure
 * symbol's `voq` view is read with `groupSize` unless the object gives `voq.portGroupSize`.
 */
export function readSymbol64(value: unknown, base: string, r: Omit<SymbolReading, 'format'>): ControlSymbol64 {
  if (typeof value === 'string') {
    const bytes = wire(() => parseHex(value), base, true);
    if (bytes.length !== SYMBOL64_LENGTH) throw new InputError(`expected a Control Symbol 64 of ${SYMBOL64_LENGTH} bytes, got ${bytes.length}`, base);
    return wire(() => decodeSymbol64(bytes, 0, bytes.length, { part12GroupSize: r.groupSize, strict: !r.lenient }), base, true);
  }
  if (!isRecord(value)) throw new InputError('expected a hex string or a control symbol object as riodp decode --layer symbol --link cs64 --json prints it', base);
  const voq = value['voq'];
  const ownSize = isRecord(voq) && voq['portGroupSize'] !== undefined;
  return wire(() => symbol64FromJson(value, { ...(ownSize ? {} : { part12GroupSize: r.groupSize }), strict: !r.lenient }), base, false);
}

/** A CS64 an engine built: its `decode --layer symbol --link cs64 --json` object and the hex of its 8 bytes. */
export function renderSymbol64(s: ControlSymbol64): { readonly symbol: unknown; readonly hex: string } {
  const bytes = new Uint8Array(SYMBOL64_LENGTH);
  encodeSymbol64(s, bytes, 0);
  return { symbol: toJsonValue(s), hex: toHex(bytes) };
}

/** A symbol an engine built: the `decode --layer symbol --json` object and the hex of its bytes. */
export function renderSymbol(s: ControlSymbol): { readonly symbol: unknown; readonly hex: string } {
  const bytes = new Uint8Array(symbolLength(s.link));
  encodeSymbol(s, bytes, 0);
  return { symbol: toJsonValue(s), hex: toHex(bytes) };
}

/**
 * A Port n VoQ Control CSR value (Table 5-3, either layout) as the generator's port settings;
 * strict decoding refuses non-zero reserved bits and a reserved group size. Throws InputError.
 */
export function settingsOfCsr(word: number, format: VoqFormat, strict: boolean, base: string): PortSettings {
  try {
    return settingsOfControl(decodeVoqPortControl(word, format, { strict }));
  } catch (e) {
    if (!(e instanceof RegisterError)) throw e;
    const dot = e.register.lastIndexOf('.');
    throw new InputError(`${e.detail}, ${e.clause}`, dot < 0 ? base : `${base}.${e.register.slice(dot + 1)}`);
  }
}
