import { WireError, WireErrorCode, checkRange, checkRoom, need } from './errors.ts';
import { PREFIX_BYTES, decodeHeader, encodeTransport, idBytes, isDev8Prefix, keepRsrvAckID, readId } from './header.ts';
import type { PacketDecodeOptions, PacketHeader } from './header.ts';
import type { LogicalCodec } from './codec.ts';
import { CLAUSE_FLOW_ID, ccpPrioCrf, flowIdCode, flowIdLabel } from './flow-id.ts';
import type { FlowIdLabel, FlowIdName } from './flow-id.ts';

/**
 * Type 7 FLOW CONTROL packet, the congestion control packet (CCP) of Part 9 §3
 * (Figure 3-1, DECISIONS §3): after the prefix, destinationID | tgtdestinationID |
 * XON/XOFF(1) | FAM(3) | rsrv(4) | flowID(7) | SOC(1). There is no sourceID: tgtdestinationID
 * sits in its slot. Logical length 4 + 2·ids: Dev8 6 bytes (8 with CRC), Dev16 8 (10 + 2 pad),
 * Dev32 12 (14 + 2 pad).
 *
 * @example
 * ```ts
 * import { FTYPE_FLOW_CONTROL, decodePacket, parseHex } from 'riodp/wire';
 *
 * // A CCP from a switch: XOFF flow 0C of traffic to 0x05, sent back to its source 0x01.
 * const bytes = parseHex('01c7 0105 0004');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === FTYPE_FLOW_CONTROL) console.log(p.command, p.flowID, p.tgtdestinationID); // XOFF 0C 5
 * ```
 */
export const FTYPE_FLOW_CONTROL = 7;

const CLAUSE = 'Part 9 §3.2 Figure 3-1';
const CLAUSE_FAM = 'Part 9 §3.3 Table 3-2';
const CLAUSE_RSRV = 'Part 9 §3.2 Table 3-1 rsrv';

/**
 * Flow arbitration commands of Table 3-2, by XON/XOFF and FAM.
 *
 * @example
 * ```ts
 * import { TYPE7_COMMAND, decodePacket, parseHex } from 'riodp/wire';
 *
 * // XOFF_ARB (FAM 01Y, Y = 1) for flow 0C.
 * const bytes = parseHex('01c7 0105 3004');
 * const p = decodePacket(bytes, 0, bytes.length);
 * if (p.ftype === 7 && p.command === TYPE7_COMMAND.xoffArb) console.log('arbitrated XOFF, Y =', p.seq); // arbitrated XOFF, Y = 1
 * ```
 */
export const TYPE7_COMMAND = {
  xoff: 'XOFF',
  xoffArb: 'XOFF_ARB',
  release: 'RELEASE',
  xon: 'XON',
  xonArb: 'XON_ARB',
  requestSinglePdu: 'REQUEST_SINGLE_PDU',
  requestMultiPdu: 'REQUEST_MULTI_PDU',
  undefined: 'UNDEFINED',
} as const;
/**
 * A Type 7 command, from its XON/XOFF and FAM bits (Part 9 Table 3-2); UNDEFINED for an undefined
 * combination.
 */
export type Type7Command = (typeof TYPE7_COMMAND)[keyof typeof TYPE7_COMMAND];
/** A Type 7 command Table 3-2 defines. */
export type Type7DefinedCommand = Exclude<Type7Command, 'UNDEFINED'>;

export interface Type7Packet extends PacketHeader {
  readonly ftype: 7;
  /** "which end point the CCP is destined for (sourceID of the packet which caused the generation of the CCP)" */
  readonly destinationID: number;
  /** "destinationID field of the packet which caused the generation of the CCP" */
  readonly tgtdestinationID: number;
  /** 0 = XOFF, 1 = XON (Table 3-1). */
  readonly xonXoff: number;
  /** Flow Arbitration Message, 3 bits raw (Table 3-2). */
  readonly fam: number;
  readonly command: Type7Command;
  /** The sequence bit Y (FAM bit 2) of the commands that have one; absent otherwise. */
  readonly seq?: number;
  readonly flowIDCode: number;
  readonly flowID: FlowIdName;
  /** Source Of Congestion: 0 switch, 1 end point. */
  readonly soc: number;
  /** The 4 reserved bits between FAM and flowID, kept so that lenient decoding round-trips. */
  readonly rsrv: number;
}

/**
 * Table 3-2 indexed by XON/XOFF·8 + FAM. "XOFF with FAM 001 or 11Y, and XON with FAM 001, are
 * undefined: decode them as such, never guess" (DECISIONS §3).
 */
const COMMANDS: readonly (readonly [Type7Command, boolean])[] = [
  ['XOFF', false], ['UNDEFINED', false], ['XOFF_ARB', true], ['XOFF_ARB', true],
  ['RELEASE', true], ['RELEASE', true], ['UNDEFINED', false], ['UNDEFINED', false],
  ['XON', false], ['UNDEFINED', false], ['XON_ARB', true], ['XON_ARB', true],
  ['REQUEST_SINGLE_PDU', true], ['REQUEST_SINGLE_PDU', true], ['REQUEST_MULTI_PDU', true], ['REQUEST_MULTI_PDU', true],
];

/** XON/XOFF bit and FAM with Y = 0 for each defined command, and whether it has the Y bit. */
const ENCODING: Readonly<Record<Type7DefinedCommand, readonly [number, number, boolean]>> = {
  XOFF: [0, 0b000, false],
  XOFF_ARB: [0, 0b010, true],
  RELEASE: [0, 0b100, true],
  XON: [1, 0b000, false],
  XON_ARB: [1, 0b010, true],
  REQUEST_SINGLE_PDU: [1, 0b100, true],
  REQUEST_MULTI_PDU: [1, 0b110, true],
};

/**
 * Whether a command carries the sequence bit Y in FAM bit 2 (Table 3-2 "01Y", "10Y", "11Y").
 *
 * @example
 * ```ts
 * import { commandHasSeq } from 'riodp/wire';
 *
 * console.log(commandHasSeq('XOFF'), commandHasSeq('REQUEST_MULTI_PDU')); // false true
 * ```
 */
export function commandHasSeq(command: Type7DefinedCommand): boolean {
  return ENCODING[command][2];
}

/**
 * The Table 3-2 command of an XON/XOFF bit and FAM, and its sequence bit Y where it has one.
 *
 * @example
 * ```ts
 * import { type7Command } from 'riodp/wire';
 *
 * console.log(type7Command(1, 0b101)); // { command: 'REQUEST_SINGLE_PDU', seq: 1 }
 * console.log(type7Command(0, 0b110)); // { command: 'UNDEFINED' }
 * ```
 */
export function type7Command(xonXoff: number, fam: number): { readonly command: Type7Command; readonly seq?: number } {
  const entry = COMMANDS[((xonXoff & 1) << 3) | (fam & 7)] ?? (['UNDEFINED', false] as const);
  return entry[1] ? { command: entry[0], seq: fam & 1 } : { command: entry[0] };
}

/**
 * XON/XOFF and FAM for a defined command; `seq` is required exactly for commands with a Y bit.
 *
 * @example
 * ```ts
 * import { type7Fam } from 'riodp/wire';
 *
 * console.log(type7Fam('RELEASE', 1)); // { xonXoff: 0, fam: 5 }
 * console.log(type7Fam('XON')); // { xonXoff: 1, fam: 0 }
 * ```
 */
export function type7Fam(command: Type7DefinedCommand, seq?: number): { readonly xonXoff: number; readonly fam: number } {
  const [xonXoff, fam, hasSeq] = ENCODING[command];
  if (hasSeq) {
    checkRange(seq ?? -1, 1, 'seq', CLAUSE_FAM);
    return { xonXoff, fam: fam | (seq ?? 0) };
  }
  if (seq !== undefined) {
    throw new WireError(WireErrorCode.invalid, 'seq', 0, CLAUSE_FAM, `${command} has no sequence bit`);
  }
  return { xonXoff, fam };
}

export function type7Length(p: Pick<Type7Packet, 'tt'>): number {
  return PREFIX_BYTES + 2 * idBytes(p.tt) + 2;
}

export function decodeType7(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions = {}): Type7Packet {
  const h = decodeHeader(bytes, offset, end, opts);
  if (h.ftype !== FTYPE_FLOW_CONTROL) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE, `ftype ${h.ftype} is not a flow control packet`);
  }
  const size = idBytes(h.tt, offset + 1);
  const at = offset + PREFIX_BYTES + 2 * size;
  need(end, offset + PREFIX_BYTES, 2 * size + 2, 'flowControl', CLAUSE);
  if (at + 2 !== end) {
    throw new WireError(WireErrorCode.trailing, 'packet', at + 2, CLAUSE, 'type 7 packets do not have a data payload');
  }
  const b0 = bytes[at] as number;
  const b1 = bytes[at + 1] as number;
  const xonXoff = b0 >> 7;
  const fam = (b0 >> 4) & 7;
  const rsrv = b0 & 0xf;
  const flowIDCode = b1 >> 1;
  const flowID = flowIdLabel(flowIDCode);
  const entry = COMMANDS[(xonXoff << 3) | fam] ?? (['UNDEFINED', false] as const);
  if (opts.strict) {
    if (entry[0] === 'UNDEFINED') {
      throw new WireError(WireErrorCode.undefined, 'fam', at, CLAUSE_FAM, `${xonXoff ? 'XON' : 'XOFF'} with FAM 0b${fam.toString(2).padStart(3, '0')} is undefined`);
    }
    if (rsrv !== 0) throw new WireError(WireErrorCode.reserved, 'rsrv', at, CLAUSE_RSRV, 'reserved bits shall be 0b0000');
    if (flowID === 'RESERVED') {
      throw new WireError(WireErrorCode.reserved, 'flowID', at + 1, CLAUSE_FLOW_ID, `flowID 0b${flowIDCode.toString(2).padStart(7, '0')} is reserved`);
    }
  }
  const destinationID = readId(bytes, offset + PREFIX_BYTES, size);
  const tgtdestinationID = readId(bytes, offset + PREFIX_BYTES + size, size);
  const { ackID, vc, crf, prio, tt } = h;
  const command = entry[0];
  const soc = b1 & 1;
  // Two literals rather than a spread: one allocation, and `seq` only where Table 3-2 has a Y.
  const p: Type7Packet = entry[1]
    ? { ackID, vc, crf, prio, tt, ftype: FTYPE_FLOW_CONTROL, destinationID, tgtdestinationID, xonXoff, fam, command, seq: fam & 1, flowIDCode, flowID, soc, rsrv }
    : { ackID, vc, crf, prio, tt, ftype: FTYPE_FLOW_CONTROL, destinationID, tgtdestinationID, xonXoff, fam, command, flowIDCode, flowID, soc, rsrv };
  return keepRsrvAckID(p, bytes[offset] as number, opts);
}

/** Checks the labels (command, seq, flowID) against the raw fields the encoder writes. */
function checkLabels(p: Type7Packet): void {
  const derived = type7Command(p.xonXoff, p.fam);
  if (derived.command !== p.command || derived.seq !== p.seq) {
    const want = derived.seq === undefined ? derived.command : `${derived.command} seq ${derived.seq}`;
    throw new WireError(WireErrorCode.invalid, 'command', 0, CLAUSE_FAM, `XON/XOFF ${p.xonXoff} FAM ${p.fam} is ${want}`);
  }
  if (flowIdLabel(p.flowIDCode) !== p.flowID) {
    throw new WireError(WireErrorCode.invalid, 'flowID', 0, CLAUSE_FLOW_ID, `flowIDCode ${p.flowIDCode} is ${flowIdLabel(p.flowIDCode)}, not ${p.flowID}`);
  }
}

export function encodeType7(p: Type7Packet, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6 = 6): number {
  if ((p.ftype as number) !== FTYPE_FLOW_CONTROL) {
    throw new WireError(WireErrorCode.invalid, 'ftype', offset + 1, CLAUSE, `ftype ${String(p.ftype)} is not 7`);
  }
  const size = idBytes(p.tt);
  checkRange(p.destinationID, size * 8, 'destinationID', CLAUSE);
  checkRange(p.tgtdestinationID, size * 8, 'tgtdestinationID', CLAUSE);
  checkRange(p.xonXoff, 1, 'xonXoff', CLAUSE);
  checkRange(p.fam, 3, 'fam', CLAUSE_FAM);
  checkRange(p.rsrv, 4, 'rsrv', CLAUSE_RSRV);
  checkRange(p.flowIDCode, 7, 'flowIDCode', CLAUSE_FLOW_ID);
  checkRange(p.soc, 1, 'soc', CLAUSE);
  checkLabels(p);
  checkRoom(bytes, offset, type7Length(p), CLAUSE);
  const at = encodeTransport(p, p.destinationID, p.tgtdestinationID, bytes, offset, ackIdBits);
  bytes[at] = (p.xonXoff << 7) | (p.fam << 4) | p.rsrv;
  bytes[at + 1] = (p.flowIDCode << 1) | p.soc;
  return at + 2;
}

export const type7Codec: LogicalCodec<Type7Packet> = {
  ftype: FTYPE_FLOW_CONTROL,
  name: 'FLOW CONTROL',
  decode: decodeType7,
  encode: encodeType7,
  encodedLength: type7Length,
  // 4 + 2·ids bytes: Dev8 → 6 (3 half-words, odd), Dev16 → 8 and Dev32 → 12 (even).
  oddHalfwords: (bytes, offset, available) => isDev8Prefix(bytes, offset, available, CLAUSE),
};

/** What `makeCcp` builds a Type 7 packet from. */
export interface CcpFields {
  readonly destinationID: number;
  readonly tgtdestinationID: number;
  readonly tt: number;
  readonly command: Type7DefinedCommand;
  /** The sequence bit Y, for XOFF_ARB, RELEASE, XON_ARB and the REQUESTs. */
  readonly seq?: number;
  readonly flowID: FlowIdLabel;
  /** 0 when sent by a switch, 1 by an end point (§3.2). */
  readonly soc: number;
  /** System setting of DECISIONS §3; default true. */
  readonly crfSupported?: boolean;
  readonly ackID?: number;
  readonly vc?: number;
  /** Flow arbitration messages may travel "in the same flow as the data packets" (§2.4.2): override prio/CRF. */
  readonly prio?: number;
  readonly crf?: number;
}

/**
 * Builds a CCP with the defaults of §2.4.2: "marking flow control packets with a "prio" field
 * value of 0b11, and a "CRF" bit value of 0b1, if supported"; reserved bits 0.
 *
 * @example
 * ```ts
 * import { encodePacket, makeCcp, packetLength, toHex } from 'riodp/wire';
 *
 * // A switch congested on traffic 0x01 → 0x05 in flow 0C tells the source to stop.
 * const ccp = makeCcp({ tt: 0, destinationID: 0x01, tgtdestinationID: 0x05, command: 'XOFF', flowID: '0C', soc: 0 });
 * console.log(ccp.prio, ccp.crf); // 3 1
 * const bytes = new Uint8Array(packetLength(ccp));
 * encodePacket(ccp, bytes, 0);
 * console.log(toHex(bytes)); // 01c701050004
 * ```
 */
export function makeCcp(f: CcpFields): Type7Packet {
  const { xonXoff, fam } = type7Fam(f.command, f.seq);
  const flowIDCode = flowIdCode(f.flowID);
  const dflt = ccpPrioCrf(f.crfSupported ?? true);
  const ackID = f.ackID ?? 0;
  const vc = f.vc ?? 0;
  const crf = f.crf ?? dflt.crf;
  const prio = f.prio ?? dflt.prio;
  const { tt, destinationID, tgtdestinationID, command, seq, flowID, soc } = f;
  // Engines build CCPs at packet rate: two literals, as in decodeType7, rather than a spread.
  return seq === undefined
    ? { ackID, vc, crf, prio, tt, ftype: FTYPE_FLOW_CONTROL, destinationID, tgtdestinationID, xonXoff, fam, command, flowIDCode, flowID, soc, rsrv: 0 }
    : { ackID, vc, crf, prio, tt, ftype: FTYPE_FLOW_CONTROL, destinationID, tgtdestinationID, xonXoff, fam, command, seq, flowIDCode, flowID, soc, rsrv: 0 };
}
