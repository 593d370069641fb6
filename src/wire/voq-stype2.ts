import { WireError, WireErrorCode, checkRange } from './errors.ts';

/**
 * The stype2 field of the Control Symbol 48 (bits 21–34, "reserved" in Part 6 Figure 3-2)
 * carrying a VoQ backpressure congestion message. Two incompatible formats exist
 * (DECISIONS §5):
 *
 * - `seed` (default, voq-backpressure.txt §3.1): `CMD(3) | port status(6) | port group(5)`.
 *   Table 3-2: "Bit 3 Port Offset 5 ... Bit 8 Port Offset 0", so with stype2 bit 0 the most
 *   significant bit of the 14-bit value, status bit k counted from the least significant end
 *   is port offset k. "Port = Port Group * 6 + Offset", 32 groups, up to 192 ports.
 * - `part12-rev4.1` (Part 12 §3.1): `CMD(1) | port status(13 - G) | port group(G)`, G the
 *   RX/TX Port Group Size in bits (0–6, Table 5-3; 7 is reserved). "The lowest numbered port
 *   in the Port Status vector occupies the least significant bit" and "Ports numbered 0 through
 *   N-1 shall occupy Port Group 0" (§4.2 d), N = 13 - G ports per group.
 *
 * Values are 14-bit integers, stype2 bit 0 worth 2^13.
 *
 * @example
 * ```ts
 * import { VOQ_FORMATS, decodeStype2 } from 'riodp/wire';
 *
 * // Checking a --voq-format option, then reading one stype2 value both ways.
 * const arg: string = 'part12-rev4.1';
 * const voqFormat = VOQ_FORMATS.find((f) => f === arg);
 * if (voqFormat === undefined) throw new Error(`--voq-format must be ${VOQ_FORMATS.join(' or ')}`);
 * console.log(decodeStype2(8258, { voqFormat, part12GroupSize: 3 }).congestedPorts); // [ 23 ]
 * ```
 */
export const VOQ_FORMATS = ['seed', 'part12-rev4.1'] as const;
/** The VoQ backpressure format: the seed document's (`seed`) or Part 12 rev 4.1's (DECISIONS §5). */
export type VoqFormat = (typeof VOQ_FORMATS)[number];

/**
 * The names of a VoQ stype2 CMD.
 *
 * @example
 * ```ts
 * import { VoqCmdName, decodeStype2 } from 'riodp/wire';
 *
 * // Only a backpressure CMD marks ports; an all-zero stype2 (Part 6's reserved bits) is NOP.
 * for (const stype2 of [0, 3105]) {
 *   const v = decodeStype2(stype2);
 *   if (v.cmdName === VoqCmdName.backpressure) console.log(v.congestedPorts); // [ 6, 11 ]
 * }
 * ```
 */
export const VoqCmdName = { nop: 'NOP', backpressure: 'VOQ_BACKPRESSURE', reserved: 'RESERVED' } as const;
export type VoqCmdName = (typeof VoqCmdName)[keyof typeof VoqCmdName];

/**
 * Bits of the CS48 stype2 field.
 *
 * @example
 * ```ts
 * import { STYPE2_BITS, decodeStype2 } from 'riodp/wire';
 *
 * // A captured CS48 as one 48-bit number: stype2 is bits 21–34, just above the 13-bit CRC.
 * const raw = 0x800fc1843af0n;
 * const stype2 = Number((raw >> 13n) & ((1n << BigInt(STYPE2_BITS)) - 1n));
 * console.log(stype2, decodeStype2(stype2).congestedPorts); // 3105 [ 6, 11 ]
 * ```
 */
export const STYPE2_BITS = 14;
/**
 * The seed format's constants (VoQ Backpressure §3.1): CMD values, 6 ports per group, 32 groups, 192 ports.
 *
 * @example
 * ```ts
 * import { SEED_VOQ, encodeStype2 } from 'riodp/wire';
 *
 * // Port 11 congests: group 11 / 6 = 1, offset 11 % 6 = 5.
 * const port = 11;
 * if (port >= SEED_VOQ.maxPorts) throw new Error('the seed format names ports 0–191');
 * const group = Math.floor(port / SEED_VOQ.portsPerGroup), offset = port % SEED_VOQ.portsPerGroup;
 * console.log(encodeStype2({ cmd: SEED_VOQ.cmdBackpressure, portGroup: group, portStatus: 1 << offset })); // 3073
 * ```
 */
export const SEED_VOQ = { cmdNop: 0, cmdBackpressure: 1, portsPerGroup: 6, groups: 32, maxPorts: 192 } as const;
/**
 * Part 12's stype2 constants (§3.1): the CMD value, 13 parameter bits, port group size up to 6 bits.
 *
 * @example
 * ```ts
 * import { PART12_VOQ } from 'riodp/wire';
 *
 * // The smallest RX/TX Port Group Size that names every port of a 48-port switch:
 * // 13 - G ports per group, 2^G groups.
 * let g = 0;
 * while (g < PART12_VOQ.maxGroupSize && (PART12_VOQ.parameterBits - g) * (1 << g) < 48) g++;
 * console.log(g, (PART12_VOQ.parameterBits - g) * (1 << g)); // 3 80
 * ```
 */
export const PART12_VOQ = { cmdBackpressure: 1, parameterBits: 13, maxGroupSize: 6 } as const;

export const CLAUSE_SEED = 'VoQ Backpressure §3.1 Table 3-1';
export const CLAUSE_SEED_PORTS = 'VoQ Backpressure §3.1 Table 3-2/3-3';
export const CLAUSE_PART12 = 'Part 12 §3.1 Table 3-1';
export const CLAUSE_PART12_SIZE = 'Part 12 §5.1.2.2 Table 5-3';

interface VoqCommon {
  readonly cmd: number;
  readonly cmdName: VoqCmdName;
  readonly portGroup: number;
  /** Raw port status bits; bit k (from the least significant end) is port offset k. */
  readonly portStatus: number;
  /** Ports marked congested, ascending; empty unless cmdName is VOQ_BACKPRESSURE. */
  readonly congestedPorts: readonly number[];
}
/** A VoQ backpressure message in the seed format. */
export interface SeedVoq extends VoqCommon {
  readonly format: 'seed';
}
/** A VoQ backpressure message in Part 12's format. */
export interface Part12Voq extends VoqCommon {
  readonly format: 'part12-rev4.1';
  /** Bits devoted to the port group (the RX Port Group Size used to split the 13 bits). */
  readonly portGroupSize: number;
}
/** A decoded VoQ stype2 field. */
export type VoqStype2 = SeedVoq | Part12Voq;

/** Options of `decodeStype2`: the format, and Part 12's RX Port Group Size. */
export interface VoqOptions {
  readonly voqFormat?: VoqFormat;
  readonly part12GroupSize?: number;
  readonly strict?: boolean;
}

/** How the parameter bits split for one format and group size. */
export interface VoqLayout {
  readonly format: VoqFormat;
  readonly groupBits: number;
  readonly statusBits: number;
  /** Ports per group (= status bits). */
  readonly portsPerGroup: number;
  readonly groups: number;
}

const SEED_LAYOUT: VoqLayout = { format: 'seed', groupBits: 5, statusBits: 6, portsPerGroup: 6, groups: 32 };

/**
 * The Part 12 layouts of a `bits`-bit status‖group parameter, indexed by group size 0–6: 13 bits
 * in the CS48 stype2 (§3.1), 20 in the CS64 parameter0‖parameter1 (§3.2, voq-cs64.ts).
 */
export function part12Layouts(bits: number): readonly VoqLayout[] {
  return [0, 1, 2, 3, 4, 5, 6].map((g) => ({ format: 'part12-rev4.1', groupBits: g, statusBits: bits - g, portsPerGroup: bits - g, groups: 1 << g }));
}
const PART12_LAYOUTS = part12Layouts(PART12_VOQ.parameterBits);

/**
 * The layout for a format; the Part 12 group size defaults to its reset value 0 (Table 5-3).
 *
 * @example
 * ```ts
 * import { voqLayout } from 'riodp/wire';
 *
 * console.log(voqLayout('seed').portsPerGroup); // 6
 * const l = voqLayout('part12-rev4.1', 3); // RX Port Group Size 3 bits
 * console.log(l.statusBits, l.groups, l.portsPerGroup * l.groups); // 10 8 80
 * ```
 */
export function voqLayout(format: VoqFormat = 'seed', part12GroupSize = 0): VoqLayout {
  if (format === 'seed') return SEED_LAYOUT;
  if ((format as string) !== 'part12-rev4.1') {
    throw new WireError(WireErrorCode.invalid, 'voqFormat', 0, 'DECISIONS §5', `unknown VoQ format '${format as string}'`);
  }
  return pickPart12Layout(PART12_LAYOUTS, part12GroupSize);
}

/** One of `part12Layouts(…)` by group size; 0x7 ("Reserved") and non-integers are refused. */
export function pickPart12Layout(layouts: readonly VoqLayout[], part12GroupSize: number): VoqLayout {
  const layout = Number.isInteger(part12GroupSize) ? layouts[part12GroupSize] : undefined;
  if (layout === undefined) {
    throw new WireError(
      WireErrorCode.invalid,
      'part12GroupSize',
      0,
      CLAUSE_PART12_SIZE,
      `port group size ${String(part12GroupSize)} is not 0–6 bits (0x7 is reserved)`,
    );
  }
  return layout;
}

/**
 * Decodes a 14-bit stype2 value. `at` is the byte offset reported in errors (the byte holding
 * stype2 bit 21). Strict mode rejects reserved CMD values and non-zero parameter bits under a
 * CMD whose parameter is "0b000 0000 0000" (seed) or "Reserved" (Part 12).
 *
 * @example
 * ```ts
 * import { decodeStype2 } from 'riodp/wire';
 *
 * // 0b1 | 0b0000001000 | 0b010: Part 12 CMD backpressure, port status offset 3, group 2 (G = 3).
 * const v = decodeStype2(0b1_0000001000_010, { voqFormat: 'part12-rev4.1', part12GroupSize: 3 });
 * console.log(v.cmdName, v.portGroup, v.congestedPorts); // VOQ_BACKPRESSURE 2 [ 23 ]
 * ```
 */
export function decodeStype2(stype2: number, opts: VoqOptions = {}, at = 0): VoqStype2 {
  const layout = voqLayout(opts.voqFormat, opts.part12GroupSize);
  const seed = layout.format === 'seed';
  const cmd = seed ? stype2 >>> 11 : stype2 >>> 13;
  const parameter = seed ? stype2 & 0x7ff : stype2 & 0x1fff;
  const portGroup = parameter & ((1 << layout.groupBits) - 1);
  const portStatus = parameter >>> layout.groupBits;
  let cmdName: VoqCmdName;
  if (cmd === (seed ? SEED_VOQ.cmdBackpressure : PART12_VOQ.cmdBackpressure)) cmdName = VoqCmdName.backpressure;
  // Part 12 defines no NOP: CMD 0b0 is "Reserved", but an all-zero stype2 is Part 6's reserved
  // field "set to logic 0s on transmission" and means no VoQ message, as the seed's NOP does.
  else if (seed ? cmd === SEED_VOQ.cmdNop : stype2 === 0) cmdName = VoqCmdName.nop;
  else cmdName = VoqCmdName.reserved;
  if (opts.strict && cmdName !== VoqCmdName.backpressure) {
    const clause = seed ? CLAUSE_SEED : CLAUSE_PART12;
    if (cmdName === VoqCmdName.reserved && seed) {
      throw new WireError(WireErrorCode.reserved, 'stype2', at, clause, `CMD 0b${bin(cmd, 3)} is reserved`);
    }
    if (parameter !== 0) {
      throw new WireError(WireErrorCode.reserved, 'stype2', at, clause, `CMD 0b${bin(cmd, seed ? 3 : 1)} takes a zero parameter, got 0b${bin(parameter, seed ? 11 : 13)}`);
    }
  }
  const congestedPorts = cmdName === VoqCmdName.backpressure ? portsInGroup(portGroup, portStatus, layout) : [];
  return seed
    ? { format: 'seed', cmd, cmdName, portGroup, portStatus, congestedPorts }
    : { format: 'part12-rev4.1', portGroupSize: layout.groupBits, cmd, cmdName, portGroup, portStatus, congestedPorts };
}

/** Fields that determine a stype2 value; `format` and `portGroupSize` select the layout. */
export interface Stype2Fields {
  readonly format?: VoqFormat;
  readonly portGroupSize?: number;
  readonly cmd: number;
  readonly portGroup: number;
  readonly portStatus: number;
}

/**
 * Assembles the 14-bit stype2 value, checking every field against its width.
 *
 * @example
 * ```ts
 * import { encodeStype2 } from 'riodp/wire';
 *
 * // Seed format: CMD 0b001 | status 0b100001 (offsets 5 and 0) | group 0b00001.
 * const stype2 = encodeStype2({ cmd: 1, portGroup: 1, portStatus: 0b100001 });
 * console.log(stype2.toString(2).padStart(14, '0')); // 00110000100001
 * ```
 */
export function encodeStype2(v: Stype2Fields, at = 0): number {
  const layout = voqLayout(v.format, v.portGroupSize);
  const seed = layout.format === 'seed';
  const clause = seed ? CLAUSE_SEED : CLAUSE_PART12;
  checkRange(v.cmd, seed ? 3 : 1, 'voq.cmd', clause, at);
  checkRange(v.portStatus, layout.statusBits, 'voq.portStatus', clause, at);
  if (!Number.isInteger(v.portGroup) || v.portGroup < 0 || v.portGroup >= layout.groups) {
    throw new WireError(WireErrorCode.range, 'voq.portGroup', at, clause, `port group ${String(v.portGroup)} is not 0–${layout.groups - 1}`);
  }
  const parameter = (v.portStatus << layout.groupBits) | v.portGroup;
  return seed ? (v.cmd << 11) | parameter : (v.cmd << 13) | parameter;
}

/**
 * A VoQ backpressure stype2 value for one port group (default: the seed format).
 *
 * @example
 * ```ts
 * import { buildSymbol, congestedPortsOf, voqSymbol } from 'riodp/wire';
 *
 * // Ports 18 and 19 (group 3, offsets 0 and 1) congest: the stype2 to put in the next CS48.
 * const stype2 = voqSymbol({ group: 3, congestedOffsets: [0, 1] });
 * const s = buildSymbol({ link: 'cs48', stype0: 4, parameter0: 0, parameter1: 7, stype1: 7, cmd: 0, stype2 });
 * console.log(congestedPortsOf(stype2), s.voq?.cmdName); // [ 18, 19 ] VOQ_BACKPRESSURE
 * ```
 */
export function voqSymbol(args: {
  readonly group: number;
  readonly congestedOffsets: readonly number[];
  readonly format?: VoqFormat;
  readonly groupSize?: number;
}): number {
  const layout = voqLayout(args.format, args.groupSize);
  let portStatus = 0;
  for (const o of args.congestedOffsets) {
    if (!Number.isInteger(o) || o < 0 || o >= layout.portsPerGroup) {
      throw new WireError(WireErrorCode.range, 'congestedOffsets', 0, portsClause(layout), `offset ${String(o)} is not 0–${layout.portsPerGroup - 1}`);
    }
    portStatus |= 1 << o;
  }
  return encodeStype2({
    format: layout.format,
    portGroupSize: layout.groupBits,
    cmd: layout.format === 'seed' ? SEED_VOQ.cmdBackpressure : PART12_VOQ.cmdBackpressure,
    portGroup: args.group,
    portStatus,
  });
}

/**
 * Ports a stype2 value marks congested (ascending); none unless its CMD is VoQ backpressure.
 *
 * @example
 * ```ts
 * import { congestedPortsOf } from 'riodp/wire';
 *
 * console.log(congestedPortsOf(3105)); // [ 6, 11 ]
 * console.log(congestedPortsOf(8258, 'part12-rev4.1', 3)); // [ 23 ]
 * ```
 */
export function congestedPortsOf(stype2: number, format: VoqFormat = 'seed', part12GroupSize = 0): number[] {
  checkRange(stype2, STYPE2_BITS, 'stype2', format === 'seed' ? CLAUSE_SEED : CLAUSE_PART12);
  const v = decodeStype2(stype2, { voqFormat: format, part12GroupSize });
  return v.congestedPorts.slice();
}

/**
 * The port group and the offset inside it of a port number.
 *
 * @example
 * ```ts
 * import { groupOfPort, voqSymbol } from 'riodp/wire';
 *
 * // Where port 23 sits, and the stype2 that reports it congested, in each format.
 * console.log(groupOfPort(23)); // { group: 3, offset: 5 }
 * const { group, offset } = groupOfPort(23, 'part12-rev4.1', 3);
 * console.log(group, offset, voqSymbol({ group, congestedOffsets: [offset], format: 'part12-rev4.1', groupSize: 3 })); // 2 3 8258
 * ```
 */
export function groupOfPort(port: number, format: VoqFormat = 'seed', part12GroupSize = 0): { group: number; offset: number } {
  const layout = voqLayout(format, part12GroupSize);
  return portInLayout(port, layout, portsClause(layout));
}

/** The group and offset of a port in a layout; a port the layout cannot name throws `range`. */
export function portInLayout(port: number, layout: VoqLayout, clause: string): { group: number; offset: number } {
  const max = layout.portsPerGroup * layout.groups;
  if (!Number.isInteger(port) || port < 0 || port >= max) {
    throw new WireError(WireErrorCode.range, 'port', 0, clause, `port ${String(port)} is not 0–${max - 1}`);
  }
  return { group: Math.floor(port / layout.portsPerGroup), offset: port % layout.portsPerGroup };
}

/**
 * Ports whose status bit is set, ascending: status bit k is port group × ports-per-group + k.
 *
 * @example
 * ```ts
 * import { portsInGroup, voqLayout } from 'riodp/wire';
 *
 * console.log(portsInGroup(1, 0b100001, voqLayout('seed'))); // [ 6, 11 ]
 * console.log(portsInGroup(2, 0b1000, voqLayout('part12-rev4.1', 3))); // [ 23 ]
 * ```
 */
export function portsInGroup(group: number, status: number, layout: VoqLayout): number[] {
  const ports: number[] = [];
  const base = group * layout.portsPerGroup;
  for (let o = 0; o < layout.statusBits; o++) if ((status >>> o) & 1) ports.push(base + o);
  return ports;
}

function portsClause(layout: VoqLayout): string {
  return layout.format === 'seed' ? CLAUSE_SEED_PORTS : 'Part 12 §2.1, §4.2 d';
}

function bin(v: number, bits: number): string {
  return v.toString(2).padStart(bits, '0');
}
