import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import {
  CLAUSE,
  SMP_COMMAND,
  checkCmdVer,
  checkProtoID,
  checkStreamID,
  padLength,
  protocolName,
  put16,
  readPad,
  readVer,
  versionName,
  u16,
  versionFields,
  withPad,
  writePad,
} from './header.ts';
import type { ProtocolName, SmpCommonInput, SmpPadded, SmpVersioned } from './header.ts';

/**
 * FLOW_CONTROL (Annex 2 §4.2.6 Table 4-7): <CMD=0x07><VER><COS><Flow_Control> |
 * <SourceID><StreamID> | <ProtoID>, then reserved octets to 16 (the pad to 8 octets).
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp } from 'riodp/wire';
 *
 * // A sender pausing its stream on a received FLOW_CONTROL XOFF.
 * const b = parseHex('07010000000100100102000000000000');
 * const m = decodeSmp(b, 0, b.length);
 * const paused = m.command === 'FLOW_CONTROL' && m.flowControl === smp.FLOW_CONTROL.XOFF;
 * console.log(paused); // true
 * ```
 */
export const FLOW_CONTROL = { XOFF: 0x00, XON: 0x01, RTS: 0xff } as const;
/** The name of a FLOW_CONTROL <Type> (§4.2.6), UNDEFINED for another value. */
export type FlowControlName = keyof typeof FLOW_CONTROL | 'UNDEFINED';
/**
 * The name of a FLOW_CONTROL <Type>.
 *
 * @example
 * ```ts
 * import { smp } from 'riodp/wire';
 *
 * console.log(smp.flowControlName(0x00), smp.flowControlName(0x01), smp.flowControlName(0xff)); // XOFF XON RTS
 * console.log(smp.flowControlName(0x02)); // UNDEFINED
 * ```
 */
export function flowControlName(v: number): FlowControlName {
  if (v === FLOW_CONTROL.XOFF) return 'XOFF';
  if (v === FLOW_CONTROL.XON) return 'XON';
  if (v === FLOW_CONTROL.RTS) return 'RTS';
  return 'UNDEFINED';
}

export interface SmpFlowControl extends SmpVersioned, SmpPadded {
  readonly command: 'FLOW_CONTROL';
  readonly cos: number;
  readonly flowControl: number;
  readonly flowControlName: FlowControlName;
  readonly sourceID: number;
  readonly streamID: number;
  readonly protoID: number;
  readonly protocol: ProtocolName;
}

const FIELDS = 10;

export function decodeFlowControl(bytes: Uint8Array, offset: number, end: number, strict: boolean): SmpFlowControl {
  need(end, offset, FIELDS, 'FLOW_CONTROL', CLAUSE.flowControl);
  const ver = readVer(bytes, offset + 1, strict);
  const version = versionName(ver);
  const flowControl = bytes[offset + 3] as number;
  const name = flowControlName(flowControl);
  if (strict && name === 'UNDEFINED') {
    throw new WireError(WireErrorCode.undefined, 'flowControl', offset + 3, 'Annex 2 §4.2.6', `Flow_Control 0x${flowControl.toString(16)} is not XON, XOFF or RTS`);
  }
  const streamID = u16(bytes, offset + 6);
  checkStreamID(streamID, strict, offset + 6);
  const protoID = u16(bytes, offset + 8);
  checkProtoID(protoID, strict, offset + 8, CLAUSE.flowControl);
  const pad = readPad(bytes, offset, offset + FIELDS, end, strict, CLAUSE.flowControl);
  return withPad({
    command: 'FLOW_CONTROL',
    cmd: SMP_COMMAND.FLOW_CONTROL,
    ver,
    version,
    cos: bytes[offset + 2] as number,
    flowControl,
    flowControlName: name,
    sourceID: u16(bytes, offset + 4),
    streamID,
    protoID,
    protocol: protocolName(protoID),
  }, pad);
}

export function flowControlLength(m: SmpFlowControl): number {
  return FIELDS + padLength(FIELDS, m.pad);
}

export function encodeFlowControl(m: SmpFlowControl, bytes: Uint8Array, offset: number): number {
  const clause = CLAUSE.flowControl;
  checkCmdVer('FLOW_CONTROL', m.cmd, m.ver, clause);
  checkRange(m.cos, 8, 'cos', clause);
  checkRange(m.flowControl, 8, 'flowControl', clause);
  checkRange(m.sourceID, 16, 'sourceID', clause);
  checkRange(m.streamID, 16, 'streamID', clause);
  checkRange(m.protoID, 16, 'protoID', clause);
  bytes[offset] = m.cmd;
  bytes[offset + 1] = m.ver;
  bytes[offset + 2] = m.cos;
  bytes[offset + 3] = m.flowControl;
  put16(bytes, offset + 4, m.sourceID);
  put16(bytes, offset + 6, m.streamID);
  put16(bytes, offset + 8, m.protoID);
  return writePad(bytes, offset + FIELDS, FIELDS, m.pad);
}

/**
 * `flowControl` takes XON, XOFF, RTS or a raw octet.
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 1, the receiver of StreamID 0x0010, tells its sender to stop.
 * const m = smp.smpFlowControl({ flowControl: 'XOFF', sourceID: 1, streamID: 0x0010, protoID: smp.PROTO_ID.ETHERNET });
 * console.log(toHex(smpBytes(m))); // 07010000000100100102000000000000
 * ```
 */
export function smpFlowControl(f: SmpCommonInput & {
  readonly flowControl: number | keyof typeof FLOW_CONTROL;
  readonly cos?: number;
  readonly sourceID: number;
  readonly streamID: number;
  readonly protoID: number;
}): SmpFlowControl {
  const flowControl = typeof f.flowControl === 'number' ? f.flowControl : FLOW_CONTROL[f.flowControl];
  return {
    command: 'FLOW_CONTROL',
    cmd: SMP_COMMAND.FLOW_CONTROL,
    ...versionFields(f.ver),
    cos: f.cos ?? 0,
    flowControl,
    flowControlName: flowControlName(flowControl),
    sourceID: f.sourceID,
    streamID: f.streamID,
    protoID: f.protoID,
    protocol: protocolName(f.protoID),
    ...(f.pad && { pad: f.pad }),
  };
}
