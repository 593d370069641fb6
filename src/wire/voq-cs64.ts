import { WireError, WireErrorCode, checkRange } from './errors.ts';
import { part12Layouts, pickPart12Layout, portInLayout, portsInGroup } from './voq-stype2.ts';
import type { VoqLayout } from './voq-stype2.ts';

/**
 * The Part 12 §3.2 VoQ backpressure message carried by a Control Symbol 64: "VoQ Backpressure
 * messages are encoded as Control Symbol 64 Stype 0 control symbols using an stype0[0:3] field
 * value of 0b1101. The parameter0 and parameter1 fields are combined into one contiguous format
 * that includes the VC_IND, Port Status, and Port Group fields" (Figure 3-4):
 *
 *   parameter0 ‖ parameter1 = VC_IND(4) ‖ port status(20 − G) ‖ port group(G)
 *
 * "The combined size of the Port Group and Port Status Bits is 20 bits", G the TX/RX Port Group
 * Size (0–6, Table 5-3; 0x7 is reserved). As in the CS48 form, "The lowest numbered port in the
 * Port Status vector occupies the least significant bit" (§2.1; Table 3-4 with G = 4: status
 * bit 15 is port 0 of group 0), and port = group × (20 − G) + offset (§4.2 d).
 *
 * This form exists only in the `part12-rev4.1` format (DECISIONS §5).
 *
 * @example
 * ```ts
 * import { VOQ_CS64, decodeSymbol64, decodeVoqCs64, parseHex } from 'riodp/wire';
 *
 * // Picking the VoQ messages out of captured CS64s and reading them (RX Port Group Size 4).
 * const s = decodeSymbol64(parseHex('df000210e0e69790'), 0, 8);
 * if (s.stype0 === VOQ_CS64.stype0) {
 *   const v = decodeVoqCs64(s.parameter0, s.parameter1, { part12GroupSize: 4 });
 *   console.log(v.vcInd === VOQ_CS64.allVcs, v.congestedPorts); // true [ 17 ]
 * }
 * ```
 */
export const VOQ_CS64 = { stype0: 0b1101, parameterBits: 20, vcIndBits: 4, vc0: 0b1000, allVcs: 0b1111 } as const;

/**
 * The control symbol a VoQ message travels in (Part 12 Chapter 3): the CS48 stype2 field (§3.1,
 * either format) or its own CS64 stype0 symbol (§3.2, `part12-rev4.1` only). §4.1 d "Devices
 * using VoQ backpressure shall support Control Symbol 48 and/or Control Symbol 64."
 *
 * @example
 * ```ts
 * import { VOQ_SYMBOL_FORMS } from 'riodp/wire';
 * import type { VoqFormat } from 'riodp/wire';
 *
 * // The CS64 form exists only in Part 12's format (DECISIONS §5).
 * const formsFor = (f: VoqFormat) => VOQ_SYMBOL_FORMS.filter((s) => s === 'cs48' || f === 'part12-rev4.1');
 * console.log(formsFor('seed'), formsFor('part12-rev4.1')); // [ 'cs48' ] [ 'cs48', 'cs64' ]
 * ```
 */
export const VOQ_SYMBOL_FORMS = ['cs48', 'cs64'] as const;
/**
 * The control symbol a VoQ backpressure message rides in: the CS48 stype2 field, or a CS64 symbol (Part 12).
 */
export type VoqSymbolForm = (typeof VOQ_SYMBOL_FORMS)[number];

export const CLAUSE_CS64_VOQ = 'Part 12 §3.2 Figure 3-4';
export const CLAUSE_VC_IND = 'Part 12 §3.2 Table 3-3';
const CLAUSE_CS64_PORTS = 'Part 12 §3.2 Table 3-4, §4.2 d';

/**
 * Table 3-3: 0b0000–0b0111 VC1–VC8, 0b1000 VC0, 0b1001–0b1110 reserved, and "All VCs", printed
 * 0b11111 for the 4-bit field and read as 0b1111 (DECISIONS §5).
 *
 * @example
 * ```ts
 * import { VC_IND_NAMES } from 'riodp/wire';
 *
 * // VC_Ind is the top 4 bits of parameter0.
 * const parameter0 = 0x800;
 * console.log(VC_IND_NAMES[parameter0 >>> 8], VC_IND_NAMES.indexOf('VC3')); // VC0 2
 * ```
 */
export const VC_IND_NAMES = [
  'VC1', 'VC2', 'VC3', 'VC4', 'VC5', 'VC6', 'VC7', 'VC8', 'VC0',
  'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'ALL_VCS',
] as const;
/** The name of a VC_Ind value. */
export type VcIndName = (typeof VC_IND_NAMES)[number];

/**
 * The name of a VC_Ind value (Table 3-3).
 *
 * @example
 * ```ts
 * import { vcIndName } from 'riodp/wire';
 *
 * console.log(vcIndName(0b0000), vcIndName(0b1000), vcIndName(0b1111), vcIndName(0b1010)); // VC1 VC0 ALL_VCS RESERVED
 * ```
 */
export function vcIndName(vcInd: number): VcIndName {
  return VC_IND_NAMES[vcInd & 0xf] as VcIndName;
}

/**
 * The VC a VC_IND names (0–8), 'all', or undefined for a reserved value.
 *
 * @example
 * ```ts
 * import { vcOfVcInd } from 'riodp/wire';
 *
 * // A receiver maps the VC_IND to its VC queues, and ignores a reserved one (§3.2).
 * console.log(vcOfVcInd(0b0010), vcOfVcInd(0b1000), vcOfVcInd(0b1111), vcOfVcInd(0b1001)); // 3 0 all undefined
 * ```
 */
export function vcOfVcInd(vcInd: number): number | 'all' | undefined {
  if (vcInd === VOQ_CS64.allVcs) return 'all';
  if (vcInd === VOQ_CS64.vc0) return 0;
  if (Number.isInteger(vcInd) && vcInd >= 0 && vcInd < VOQ_CS64.vc0) return vcInd + 1;
  return undefined;
}

/**
 * The VC_IND of VC0–VC8 or of all VCs.
 *
 * @example
 * ```ts
 * import { encodeVoqCs64, vcIndOfVc } from 'riodp/wire';
 *
 * // Backpressure for VC0 only on port 5 (group 0, group size 0).
 * const { parameter0, parameter1 } = encodeVoqCs64({ vcInd: vcIndOfVc(0), portGroup: 0, portStatus: 1 << 5 });
 * console.log(vcIndOfVc(0), vcIndOfVc(8), vcIndOfVc('all'), parameter0.toString(16), parameter1.toString(16)); // 8 7 15 800 20
 * ```
 */
export function vcIndOfVc(vc: number | 'all'): number {
  if (vc === 'all') return VOQ_CS64.allVcs;
  if (!Number.isInteger(vc) || vc < 0 || vc > 8) throw new WireError(WireErrorCode.range, 'vc', 0, CLAUSE_VC_IND, `VC ${String(vc)} is not 0–8`);
  return vc === 0 ? VOQ_CS64.vc0 : vc - 1;
}

/** A decoded CS64 VoQ backpressure symbol's parameters (Part 12 §3.2). */
export interface VoqCs64 {
  readonly format: 'part12-rev4.1';
  /** Bits devoted to the port group (the RX Port Group Size used to split the 20 bits). */
  readonly portGroupSize: number;
  readonly vcInd: number;
  readonly vcIndName: VcIndName;
  readonly portGroup: number;
  /** Raw port status bits; bit k (from the least significant end) is port offset k. */
  readonly portStatus: number;
  /**
   * Ports marked congested, ascending, whatever the VC_IND: a reserved VC_IND makes the receiver
   * ignore the message (§3.2), but the bits still read as these ports.
   */
  readonly congestedPorts: readonly number[];
}

/** Fields that determine the message; `portGroupSize` selects the layout (default 0). */
export interface VoqCs64Fields {
  readonly portGroupSize?: number;
  readonly vcInd: number;
  readonly portGroup: number;
  readonly portStatus: number;
}

/** Options of `decodeVoqCs64`. */
export interface VoqCs64Options {
  /** RX Port Group Size in bits, 0–6; default 0 (its reset value). */
  readonly part12GroupSize?: number;
}

const CS64_LAYOUTS = part12Layouts(VOQ_CS64.parameterBits);

/**
 * The 20-bit layout for a group size (default 0, the reset value).
 *
 * @example
 * ```ts
 * import { voqCs64Layout } from 'riodp/wire';
 *
 * // Group size 4 (Table 3-4's example): 16 port status bits, 16 groups, ports 0–255.
 * const l = voqCs64Layout(4);
 * console.log(l.statusBits, l.groups, l.portsPerGroup * l.groups); // 16 16 256
 * ```
 */
export function voqCs64Layout(groupSize = 0): VoqLayout {
  return pickPart12Layout(CS64_LAYOUTS, groupSize);
}

/**
 * Reads the message from a CS64's parameter0 and parameter1 (12 bits each). A reserved VC_IND is
 * labelled `RESERVED` and never an error, strict decoding included: §3.2 "Reception of a reserved
 * value in the VC_IND field shall cause the receiving endpoint to ignore the VoQ Backpressure
 * control symbol without error" (the receiver, src/voq/receiver-cs64.ts, ignores it).
 *
 * @example
 * ```ts
 * import { decodeVoqCs64 } from 'riodp/wire';
 *
 * // parameter0 ‖ parameter1 = VC_IND 0b1111 | status 0x0002 | group 0x1, RX Port Group Size 4.
 * const v = decodeVoqCs64(0xf00, 0x021, { part12GroupSize: 4 });
 * console.log(v.vcIndName, v.portGroup, v.portStatus, v.congestedPorts); // ALL_VCS 1 2 [ 17 ]
 * ```
 */
export function decodeVoqCs64(parameter0: number, parameter1: number, opts: VoqCs64Options = {}): VoqCs64 {
  const layout = voqCs64Layout(opts.part12GroupSize);
  const vcInd = parameter0 >>> 8;
  const parameter = ((parameter0 & 0xff) << 12) | parameter1;
  const portGroup = parameter & ((1 << layout.groupBits) - 1);
  const portStatus = parameter >>> layout.groupBits;
  const name = vcIndName(vcInd);
  return {
    format: 'part12-rev4.1',
    portGroupSize: layout.groupBits,
    vcInd,
    vcIndName: name,
    portGroup,
    portStatus,
    congestedPorts: portsInGroup(portGroup, portStatus, layout),
  };
}

/**
 * parameter0 and parameter1 of the message, checking every field against its width.
 *
 * @example
 * ```ts
 * import { encodeVoqCs64 } from 'riodp/wire';
 *
 * // All VCs, group 1, offset 1 congested (port 17 with group size 4).
 * const p = encodeVoqCs64({ portGroupSize: 4, vcInd: 0b1111, portGroup: 1, portStatus: 0b10 });
 * console.log(p.parameter0.toString(16), p.parameter1.toString(16).padStart(3, '0')); // f00 021
 * ```
 */
export function encodeVoqCs64(v: VoqCs64Fields, at = 0): { parameter0: number; parameter1: number } {
  const layout = voqCs64Layout(v.portGroupSize);
  checkRange(v.vcInd, VOQ_CS64.vcIndBits, 'voq.vcInd', CLAUSE_VC_IND, at);
  checkRange(v.portStatus, layout.statusBits, 'voq.portStatus', CLAUSE_CS64_VOQ, at);
  if (!Number.isInteger(v.portGroup) || v.portGroup < 0 || v.portGroup >= layout.groups) {
    throw new WireError(WireErrorCode.range, 'voq.portGroup', at, CLAUSE_CS64_VOQ, `port group ${String(v.portGroup)} is not 0–${layout.groups - 1}`);
  }
  const parameter = (v.portStatus << layout.groupBits) | v.portGroup;
  return { parameter0: (v.vcInd << 8) | (parameter >>> 12), parameter1: parameter & 0xfff };
}

/**
 * parameter0/parameter1 of a message for one port group with the given offsets congested.
 *
 * @example
 * ```ts
 * import { Stype0_64, Stype1_64, encodeSymbol64, groupOfPortCs64, toHex, voqCs64Parameters } from 'riodp/wire';
 *
 * // Port 17 congests on every VC; RX/TX Port Group Size 4.
 * const { group, offset } = groupOfPortCs64(17, 4);
 * const p = voqCs64Parameters({ group, congestedOffsets: [offset], groupSize: 4 });
 * const bytes = new Uint8Array(8);
 * encodeSymbol64({ link: 'cs64', stype0: Stype0_64.voqBackpressure, ...p, stype1: Stype1_64.nop }, bytes, 0);
 * console.log(toHex(bytes)); // df000210e0e69790
 * ```
 */
export function voqCs64Parameters(args: {
  readonly group: number;
  readonly congestedOffsets: readonly number[];
  readonly vc?: number | 'all';
  readonly groupSize?: number;
}): { parameter0: number; parameter1: number } {
  const layout = voqCs64Layout(args.groupSize);
  let portStatus = 0;
  for (const o of args.congestedOffsets) {
    if (!Number.isInteger(o) || o < 0 || o >= layout.portsPerGroup) {
      throw new WireError(WireErrorCode.range, 'congestedOffsets', 0, CLAUSE_CS64_PORTS, `offset ${String(o)} is not 0–${layout.portsPerGroup - 1}`);
    }
    portStatus |= 1 << o;
  }
  return encodeVoqCs64({ portGroupSize: layout.groupBits, vcInd: vcIndOfVc(args.vc ?? 'all'), portGroup: args.group, portStatus });
}

/**
 * The port group and the offset inside it of a port number, CS64 layout.
 *
 * @example
 * ```ts
 * import { groupOfPortCs64 } from 'riodp/wire';
 *
 * // Table 3-4 (group size 4, 16 ports a group): port 17 is status bit 14 of group 1, offset 1.
 * console.log(groupOfPortCs64(17, 4)); // { group: 1, offset: 1 }
 * console.log(groupOfPortCs64(19)); // { group: 0, offset: 19 }
 * ```
 */
export function groupOfPortCs64(port: number, groupSize = 0): { group: number; offset: number } {
  return portInLayout(port, voqCs64Layout(groupSize), CLAUSE_CS64_PORTS);
}
