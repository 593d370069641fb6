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
 */
export const VOQ_CS64 = { stype0: 0b1101, parameterBits: 20, vcIndBits: 4, vc0: 0b1000, allVcs: 0b1111 } as const;

/**
 * The control symbol a VoQ message travels in (Part 12 Chapter 3): the CS48 stype2 field (§3.1,
 * either format) or its own CS64 stype0 symbol (§3.2, `part12-rev4.1` only). §4.1 d "Devices
 * using VoQ backpressure shall support Control Symbol 48 and/or Control Symbol 64."
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
 */
export const VC_IND_NAMES = [
  'VC1', 'VC2', 'VC3', 'VC4', 'VC5', 'VC6', 'VC7', 'VC8', 'VC0',
  'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'RESERVED', 'ALL_VCS',
] as const;
/** The name of a VC_Ind value. */
export type VcIndName = (typeof VC_IND_NAMES)[number];

/** The name of a VC_Ind value (Table 3-3). */
export function vcIndName(vcInd: number): VcIndName {
  return VC_IND_NAMES[vcInd & 0xf] as VcIndName;
}

/** The VC a VC_IND names (0–8), 'all', or undefined for a reserved value. */
export function vcOfVcInd(vcInd: number): number | 'all' | undefined {
  if (vcInd === VOQ_CS64.allVcs) return 'all';
  if (vcInd === VOQ_CS64.vc0) return 0;
  if (Number.isInteger(vcInd) && vcInd >= 0 && vcInd < VOQ_CS64.vc0) return vcInd + 1;
  return undefined;
}

/** The VC_IND of VC0–VC8 or of all VCs. */
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

/** The 20-bit layout for a group size (default 0, the reset value). */
export function voqCs64Layout(groupSize = 0): VoqLayout {
  return pickPart12Layout(CS64_LAYOUTS, groupSize);
}

/**
 * Reads the message from a CS64's parameter0 and parameter1 (12 bits each). A reserved VC_IND is
 * labelled `RESERVED` and never an error, strict decoding included: §3.2 "Reception of a reserved
 * value in the VC_IND field shall cause the receiving endpoint to ignore the VoQ Backpressure
 * control symbol without error" (the receiver, src/voq/receiver-cs64.ts, ignores it).
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

/** parameter0 and parameter1 of the message, checking every field against its width. */
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

/** parameter0/parameter1 of a message for one port group with the given offsets congested. */
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

/** The port group and the offset inside it of a port number, CS64 layout. */
export function groupOfPortCs64(port: number, groupSize = 0): { group: number; offset: number } {
  return portInLayout(port, voqCs64Layout(groupSize), CLAUSE_CS64_PORTS);
}
