import { crc5 } from './crc5.ts';
import { crc13 } from './crc13.ts';
import { WireError, WireErrorCode, checkRange, need } from './errors.ts';
import type { DecodeOptions } from './errors.ts';
import { writeMeanings } from './symbol-parameters.ts';
import type { ParameterMeanings, Writable } from './symbol-parameters.ts';
import { CLAUSE_STYPE0, CLAUSE_STYPE1, STYPE0_NAMES, STYPE1_NAMES, Stype1, cmdName, parameterBits } from './symbol-types.ts';
import type { CmdName, Link, Stype0Name, Stype1Name } from './symbol-types.ts';
import { STYPE2_BITS, decodeStype2 } from './voq-stype2.ts';
import type { VoqFormat, VoqStype2 } from './voq-stype2.ts';

/**
 * LP-Serial control symbols (Part 6 §3.3, DECISIONS §2), without their delimiters:
 *
 *   CS24 (Figure 3-1): stype0(3) | parameter0(5) | parameter1(5) | stype1(3) | cmd(3) | CRC-5(5)
 *   CS48 (Figure 3-2): stype0(3) | parameter0(6) | parameter1(6) | stype1(3) | cmd(3) | stype2(14) | CRC-13(13)
 *
 * Bit 0 is the most significant bit of byte 0. Part 6 calls CS48 bits 21–34 reserved; the VoQ
 * documents name them stype2 and riodp decodes them with the chosen VoQ format.
 */
export type { Link } from './symbol-types.ts';

export interface SymbolOptions extends DecodeOptions {
  readonly link: Link;
  /** stype2 format (DECISIONS §5); default 'seed'. */
  readonly voqFormat?: VoqFormat;
  /** Part 12 RX Port Group Size in bits, 0–6; default 0 (its reset value). */
  readonly part12GroupSize?: number;
}

/** The raw fields, which alone determine the bytes. */
export interface SymbolFields {
  readonly link: Link;
  readonly stype0: number;
  readonly parameter0: number;
  readonly parameter1: number;
  readonly stype1: number;
  readonly cmd: number;
  /** CS48 only; written as 0 when absent ("Set to logic 0s on transmission", Table 3-1). */
  readonly stype2?: number;
}

export interface ControlSymbol extends SymbolFields, ParameterMeanings {
  readonly stype0Name: Stype0Name;
  readonly stype1Name: Stype1Name;
  readonly cmdName: CmdName;
  /** The stype2 field read in the chosen VoQ format (CS48 only). */
  readonly voq?: VoqStype2;
  /** The CRC-5 (CS24) or CRC-13 (CS48) carried by the symbol. */
  readonly crc: number;
}

const CLAUSE_CS24 = 'Part 6 §3.3 Figure 3-1';
const CLAUSE_CS48 = 'Part 6 §3.3 Figure 3-2';
const CLAUSE_CRC5 = 'Part 6 §3.6.1';
const CLAUSE_CRC13 = 'Part 6 §3.6.3';

/**
 * Bytes of a control symbol: 3 for CS24, 6 for CS48.
 *
 * @example
 * ```ts
 * import { decodeSymbol, parseHex, symbolLength } from 'riodp/wire';
 *
 * // Walking a capture of back-to-back CS48 symbols (delimiters already stripped).
 * const capture = parseHex('80040000098d8005c0000643');
 * const n = symbolLength('cs48');
 * const names: string[] = [];
 * for (let at = 0; at < capture.length; at += n) names.push(decodeSymbol(capture, at, at + n, { link: 'cs48' }).stype1Name);
 * console.log(names.join(', ')); // start-of-packet, NOP
 * ```
 */
export function symbolLength(link: Link): 3 | 6 {
  return link === 'cs24' ? 3 : 6;
}

/**
 * Decodes the symbol in bytes[offset, end), which must be exactly `symbolLength(opts.link)`
 * bytes. Verifies the CRC first; a mismatch throws WireError code 'crc' on field 'crc'.
 *
 * @example
 * ```ts
 * import { WireError, decodeSymbol, parseHex } from 'riodp/wire';
 *
 * // A captured CS48: status (ackID 0, 7 buffers) with a seed-format VoQ backpressure stype2.
 * const s = decodeSymbol(parseHex('800fc1843af0'), 0, 6, { link: 'cs48' });
 * console.log(s.stype0Name, s.bufStatus, s.voq?.cmdName, s.voq?.congestedPorts.join()); // status 7 VOQ_BACKPRESSURE 6,11
 * try {
 *   decodeSymbol(parseHex('800fc1843af1'), 0, 6, { link: 'cs48' }); // last CRC bit flipped
 * } catch (e) {
 *   if (e instanceof WireError) console.log(e.code, e.offset, e.detail); // crc 4 CRC-13 0x1af1, computed 0x1af0
 * }
 * ```
 */
export function decodeSymbol(bytes: Uint8Array, offset: number, end: number, opts: SymbolOptions): ControlSymbol {
  const link = checkLink(opts.link);
  const n = symbolLength(link);
  const layout = link === 'cs24' ? CLAUSE_CS24 : CLAUSE_CS48;
  need(Math.min(end, bytes.length), offset, n, 'symbol', layout);
  if (end > offset + n) {
    throw new WireError(WireErrorCode.trailing, 'symbol', offset + n, layout, `a ${link.toUpperCase()} symbol is ${n} bytes, ${end - offset} given`);
  }
  const hi = ((bytes[offset] as number) << 16) | ((bytes[offset + 1] as number) << 8) | (bytes[offset + 2] as number);
  if (link === 'cs24') {
    const crc = hi & 0x1f;
    const computed = crc5(hi >>> 5);
    if (crc !== computed) throw crcError(crc, computed, 5, offset + 2, CLAUSE_CRC5);
    return assemble(link, hi >>> 21, (hi >>> 16) & 0x1f, (hi >>> 11) & 0x1f, (hi >>> 8) & 7, (hi >>> 5) & 7, 0, crc, opts, offset);
  }
  const lo = ((bytes[offset + 3] as number) << 16) | ((bytes[offset + 4] as number) << 8) | (bytes[offset + 5] as number);
  const crc = lo & 0x1fff;
  const computed = crc13(hi, lo >>> 13);
  if (crc !== computed) throw crcError(crc, computed, 13, offset + 4, CLAUSE_CRC13);
  const stype2 = ((hi & 7) << 11) | (lo >>> 13);
  return assemble(link, hi >>> 21, (hi >>> 15) & 0x3f, (hi >>> 9) & 0x3f, (hi >>> 6) & 7, (hi >>> 3) & 7, stype2, crc, opts, offset);
}

/**
 * Writes the symbol's raw fields and a freshly computed CRC ("The CRC shall be generated by
 * each transmitter"); returns the offset after its last byte. Label fields are not read.
 *
 * @example
 * ```ts
 * import { Stype0, Stype1, encodeSymbol, toHex } from 'riodp/wire';
 *
 * // packet-accepted for ackID 3 with 5 buffers free, no stype1 function: CRC-5 0b10100 appended.
 * const bytes = new Uint8Array(3);
 * const end = encodeSymbol({ link: 'cs24', stype0: Stype0.packetAccepted, parameter0: 3, parameter1: 5, stype1: Stype1.nop, cmd: 0 }, bytes, 0);
 * console.log(end, toHex(bytes)); // 3 032f14
 * ```
 */
export function encodeSymbol(sym: SymbolFields, bytes: Uint8Array, offset: number, opts?: Partial<SymbolOptions>): number {
  const link = checkLink(sym.link);
  if (opts?.link !== undefined && opts.link !== link) {
    throw new WireError(WireErrorCode.invalid, 'link', offset, link === 'cs24' ? CLAUSE_CS24 : CLAUSE_CS48, `symbol is ${link}, options say ${opts.link}`);
  }
  const stype2 = checkFields(sym, offset);
  const n = symbolLength(link);
  if (!Number.isInteger(offset) || offset < 0 || offset + n > bytes.length) {
    throw new WireError(WireErrorCode.range, 'buffer', offset, link === 'cs24' ? CLAUSE_CS24 : CLAUSE_CS48, `needs ${n} bytes`);
  }
  if (link === 'cs24') {
    const data = (sym.stype0 << 16) | (sym.parameter0 << 11) | (sym.parameter1 << 6) | (sym.stype1 << 3) | sym.cmd;
    const w = (data << 5) | crc5(data);
    bytes[offset] = w >>> 16;
    bytes[offset + 1] = (w >>> 8) & 0xff;
    bytes[offset + 2] = w & 0xff;
    return offset + n;
  }
  const hi = (sym.stype0 << 21) | (sym.parameter0 << 15) | (sym.parameter1 << 9) | (sym.stype1 << 6) | (sym.cmd << 3) | (stype2 >>> 11);
  const low = stype2 & 0x7ff;
  const lo = (low << 13) | crc13(hi, low);
  bytes[offset] = hi >>> 16;
  bytes[offset + 1] = (hi >>> 8) & 0xff;
  bytes[offset + 2] = hi & 0xff;
  bytes[offset + 3] = lo >>> 16;
  bytes[offset + 4] = (lo >>> 8) & 0xff;
  bytes[offset + 5] = lo & 0xff;
  return offset + n;
}

/**
 * The decoded form of a symbol given by its raw fields (what decoding its encoding returns),
 * for engines building symbols and for JSON input.
 *
 * @example
 * ```ts
 * import { Stype0, Stype1, buildSymbol, voqSymbol } from 'riodp/wire';
 *
 * // The CS48 an engine sends: packet-accepted for ackID 3, carrying VoQ backpressure for port 8.
 * const s = buildSymbol({
 *   link: 'cs48', stype0: Stype0.packetAccepted, parameter0: 3, parameter1: 5, stype1: Stype1.nop, cmd: 0,
 *   stype2: voqSymbol({ group: 1, congestedOffsets: [2] }),
 * });
 * console.log(s.stype0Name, s.packetAckID, s.voq?.congestedPorts, s.crc.toString(16)); // packet-accepted 3 [ 8 ] 1d66
 * ```
 */
export function buildSymbol(fields: SymbolFields, opts: Omit<SymbolOptions, 'link'> = {}): ControlSymbol {
  const link = checkLink(fields.link);
  const stype2 = checkFields(fields, 0);
  const bytes = new Uint8Array(6);
  encodeSymbol(fields, bytes, 0);
  const crc = link === 'cs24' ? (bytes[2] as number) & 0x1f : (((bytes[4] as number) << 8) | (bytes[5] as number)) & 0x1fff;
  return assemble(link, fields.stype0, fields.parameter0, fields.parameter1, fields.stype1, fields.cmd, stype2, crc, { ...opts, link }, 0);
}

function assemble(
  link: Link,
  stype0: number,
  p0: number,
  p1: number,
  stype1: number,
  cmd: number,
  stype2: number,
  crc: number,
  opts: SymbolOptions,
  at: number,
): ControlSymbol {
  const strict = opts.strict === true;
  // Built in place (one object) so that the JSON key order follows the bit order.
  const s = { link, stype0, stype0Name: STYPE0_NAMES[stype0] as Stype0Name, parameter0: p0, parameter1: p1 } as Writable<ControlSymbol>;
  writeMeanings(s, link, stype0, p0, p1, strict, at);
  s.stype1 = stype1;
  s.stype1Name = STYPE1_NAMES[stype1] as Stype1Name;
  // CS24 stype1 is bits 13–15 and CS48 bits 15–17: byte 1 in both; cmd starts in byte 2.
  if (strict && stype1 === Stype1.reserved) {
    throw new WireError(WireErrorCode.reserved, 'stype1', at + 1, CLAUSE_STYPE1, 'stype1 0b110 is reserved');
  }
  s.cmd = cmd;
  const name = cmdName(stype1, cmd);
  s.cmdName = name;
  if (strict && name === 'RESERVED') {
    throw new WireError(WireErrorCode.reserved, 'cmd', at + 2, CLAUSE_STYPE1, `cmd 0b${cmd.toString(2).padStart(3, '0')} is reserved for stype1 0b${stype1.toString(2).padStart(3, '0')}`);
  }
  if (link === 'cs48') {
    s.stype2 = stype2;
    s.voq = decodeStype2(stype2, opts, at + 2);
  }
  s.crc = crc;
  return s;
}

/** Range-checks the raw fields (bytes offsets as in the layout); returns stype2 (0 if absent). */
function checkFields(f: SymbolFields, at: number): number {
  const w = parameterBits(f.link);
  const layout = f.link === 'cs24' ? CLAUSE_CS24 : CLAUSE_CS48;
  checkRange(f.stype0, 3, 'stype0', CLAUSE_STYPE0, at);
  checkRange(f.parameter0, w, 'parameter0', layout, at);
  checkRange(f.parameter1, w, 'parameter1', layout, at + 1);
  checkRange(f.stype1, 3, 'stype1', CLAUSE_STYPE1, at + 1);
  checkRange(f.cmd, 3, 'cmd', CLAUSE_STYPE1, at + 2);
  if (f.stype2 === undefined) return 0;
  if (f.link === 'cs24') {
    throw new WireError(WireErrorCode.invalid, 'stype2', at, CLAUSE_CS24, 'a Control Symbol 24 has no stype2 field');
  }
  checkRange(f.stype2, STYPE2_BITS, 'stype2', CLAUSE_CS48, at + 2);
  return f.stype2;
}

function checkLink(link: unknown): Link {
  if (link === 'cs24' || link === 'cs48') return link;
  throw new WireError(WireErrorCode.invalid, 'link', 0, 'Part 6 §3.1', `link must be 'cs24' or 'cs48', got ${typeof link === 'string' ? `'${link}'` : typeof link}`);
}

function crcError(crc: number, computed: number, bits: number, at: number, clause: string): WireError {
  const digits = Math.ceil(bits / 4);
  return new WireError(
    WireErrorCode.crc,
    'crc',
    at,
    clause,
    `CRC-${bits} 0x${crc.toString(16).padStart(digits, '0')}, computed 0x${computed.toString(16).padStart(digits, '0')}`,
  );
}
