import { WireError, WireErrorCode, checkRange, need } from '../errors.ts';
import type { DecodeOptions } from '../errors.ts';
import { CLAUSE, SMP_COMMAND, canonicalPadLength, commandName, hex2 } from './header.ts';
import { advertiseLength, decodeAdvertise, decodeRequest, encodeAdvertise, encodeRequest, requestLength } from './request-advertise.ts';
import type { SmpAdvertise, SmpRequest } from './request-advertise.ts';
import { decodeAccept, decodeOpen, decodeRefuse, encodeOpenFamily, openFamilyLength } from './open-accept-refuse.ts';
import type { SmpAccept, SmpOpen, SmpRefuse } from './open-accept-refuse.ts';
import { decodeFlowControl, encodeFlowControl, flowControlLength } from './flow-control.ts';
import type { SmpFlowControl } from './flow-control.ts';
import { closeLength, decodeClose, encodeClose } from './close.ts';
import type { SmpClose } from './close.ts';
import { STATUS_BIT, buildStatus, statusFromFlags, decodeStatus, encodeStatus, statusLength } from './status.ts';
import type { SmpStatus, SmpStatusInput } from './status.ts';
import { decodeUserDefined, encodeUserDefined, userDefinedLength } from './userdefined.ts';
import type { SmpUserDefined } from './userdefined.ts';
import { dataLength, decodeData, decodeData1, decodeData2, encodeData } from './data-codec.ts';
import type { SmpData, SmpData1, SmpData2 } from './data.ts';

/**
 * Annex 2 session management messages as carried in a Type 11 message payload or a Type 9 PDU:
 * the message's own octets, no RapidIO packet header. `decodeSmp` reads [offset, end).
 */

/**
 * A <CMD> this annex does not assign (or 0x0B, which "must never be transmitted", §4.3.4).
 * Lenient decoding keeps every octet after <CMD> so a STATUS with Command_Unknown can quote it.
 */
export interface SmpUnknown {
  readonly command: 'UNKNOWN';
  readonly cmd: number;
  /** The octets after <CMD>; a view of the input. */
  readonly data: Uint8Array;
}

/** A session management message, decoded by its <CMD>. */
export type SmpMessage =
  | SmpRequest
  | SmpAdvertise
  | SmpOpen
  | SmpAccept
  | SmpRefuse
  | SmpFlowControl
  | SmpClose
  | SmpStatus
  | SmpUserDefined
  | SmpData
  | SmpData1
  | SmpData2
  | SmpUnknown;

/**
 * Decodes the message in [offset, end) of `bytes` (its own octets, no RapidIO header); throws a `WireError`
 * on a malformed message, and with `opts.strict` on reserved values too. An unassigned <CMD> decodes as
 * `UNKNOWN`.
 *
 * @example
 * ```ts
 * import { WireError, decodeSmp, parseHex } from 'riodp/wire';
 *
 * // A Type 11 message payload received on the session management mailbox.
 * const payload = parseHex('0301000112340001f000000300000007');
 * const m = decodeSmp(payload, 0, payload.length, { strict: true });
 * if (m.command === 'OPEN') console.log(m.sourceID, m.protoID.toString(16), m.attributes[0]?.name); // 1 1234 OPEN_MESSAGE_NUMBER
 * try {
 *   decodeSmp(payload, 0, 12); // cut short inside the attribute
 * } catch (e) {
 *   if (e instanceof WireError) console.log(e.code, e.field, e.offset); // truncated attributes 8
 * }
 * ```
 */
export function decodeSmp(bytes: Uint8Array, offset: number, end: number, opts: DecodeOptions = {}): SmpMessage {
  const strict = opts.strict === true;
  if (!Number.isInteger(offset) || !Number.isInteger(end) || offset < 0 || end > bytes.length || offset > end) {
    throw new WireError(WireErrorCode.range, 'message', offset, CLAUSE.cmdVer, 'offset and end must lie within the buffer');
  }
  need(end, offset, 1, 'cmd', CLAUSE.cmdVer);
  const cmd = bytes[offset] as number;
  switch (commandName(cmd)) {
    case 'REQUEST':
      return decodeRequest(bytes, offset, end, strict);
    case 'ADVERTISE':
      return decodeAdvertise(bytes, offset, end, strict);
    case 'OPEN':
      return decodeOpen(bytes, offset, end, strict);
    case 'ACCEPT':
      return decodeAccept(bytes, offset, end, strict);
    case 'REFUSE':
      return decodeRefuse(bytes, offset, end, strict);
    case 'FLOW_CONTROL':
      return decodeFlowControl(bytes, offset, end, strict);
    case 'CLOSE':
      return decodeClose(bytes, offset, end, strict);
    case 'STATUS':
      return decodeStatus(bytes, offset, end, strict, quotedCommand);
    case 'USERDEFINED':
      return decodeUserDefined(bytes, offset, end, strict);
    case 'DATA':
      return decodeData(bytes, offset, end, strict);
    case 'DATA1':
      return decodeData1(bytes, offset, end, strict);
    case 'DATA2':
      return decodeData2(bytes, offset, end, strict);
    case 'UNKNOWN':
      if (strict) {
        const dataThree = cmd === SMP_COMMAND.DATA3;
        throw new WireError(
          dataThree ? WireErrorCode.invalid : WireErrorCode.undefined,
          'cmd',
          offset,
          dataThree ? CLAUSE.data3 : CLAUSE.cmdVer,
          dataThree ? 'CMD 0x0B (DATA3) must never be transmitted' : `CMD 0x${hex2(cmd)} is not a session management command`,
        );
      }
      return { command: 'UNKNOWN', cmd, data: bytes.subarray(offset + 1, end) };
  }
}

/** With Command_Unknown, the context-specific data is "the original command" (§4.2.8): decoded leniently when it can be. */
function quotedCommand(d: Uint8Array): SmpMessage | undefined {
  try {
    return decodeSmp(d, 0, d.length);
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}

/**
 * Octets `encodeSmp` writes for `m`, padding included.
 *
 * @example
 * ```ts
 * import { MESSAGE_MAX_SEGMENT, smp, smpLength } from 'riodp/wire';
 *
 * // Will the ADVERTISE fit in a single-segment Type 11 message?
 * const m = smp.smpAdvertiseProtocols({ sourceID: 2, destID: 1, protoIDs: [0x0101, 0x0102] });
 * console.log(smpLength(m), smpLength(m) <= MESSAGE_MAX_SEGMENT); // 16 true
 * ```
 */
export function smpLength(m: SmpMessage): number {
  switch (m.command) {
    case 'REQUEST':
      return requestLength(m);
    case 'ADVERTISE':
      return advertiseLength(m);
    case 'OPEN':
    case 'ACCEPT':
    case 'REFUSE':
      return openFamilyLength(m);
    case 'FLOW_CONTROL':
      return flowControlLength(m);
    case 'CLOSE':
      return closeLength(m);
    case 'STATUS':
      return statusLength(m);
    case 'USERDEFINED':
      return userDefinedLength(m);
    case 'DATA':
    case 'DATA1':
    case 'DATA2':
      return dataLength(m);
    case 'UNKNOWN':
      return 1 + m.data.length;
  }
}

/**
 * Writes `m` at `offset` and returns the offset after its last octet (pad included).
 *
 * @example
 * ```ts
 * import { encodeSmp, smp, smpLength, toHex } from 'riodp/wire';
 *
 * // Writing an XOFF and a CLOSE back to back into one buffer.
 * const xoff = smp.smpFlowControl({ flowControl: 'XOFF', sourceID: 1, streamID: 0x0010, protoID: 0x1234 });
 * const close = smp.smpClose({ sourceID: 2, destID: 1, streamID: 0x0010 });
 * const buf = new Uint8Array(smpLength(xoff) + smpLength(close));
 * const end = encodeSmp(close, buf, encodeSmp(xoff, buf, 0));
 * console.log(end, toHex(buf.subarray(16))); // 32 08010002000100000010000000000000
 * ```
 */
export function encodeSmp(m: SmpMessage, bytes: Uint8Array, offset: number): number {
  const n = smpLength(m);
  if (!Number.isInteger(offset) || offset < 0 || offset + n > bytes.length) {
    throw new WireError(WireErrorCode.range, 'bytes', offset, CLAUSE.cmdVer, `${n} octets do not fit at offset ${offset} of ${bytes.length}`);
  }
  switch (m.command) {
    case 'REQUEST':
      return encodeRequest(m, bytes, offset);
    case 'ADVERTISE':
      return encodeAdvertise(m, bytes, offset);
    case 'OPEN':
    case 'ACCEPT':
    case 'REFUSE':
      return encodeOpenFamily(m, bytes, offset);
    case 'FLOW_CONTROL':
      return encodeFlowControl(m, bytes, offset);
    case 'CLOSE':
      return encodeClose(m, bytes, offset);
    case 'STATUS':
      return encodeStatus(m, bytes, offset);
    case 'USERDEFINED':
      return encodeUserDefined(m, bytes, offset);
    case 'DATA':
    case 'DATA1':
    case 'DATA2':
      return encodeData(m, bytes, offset);
    case 'UNKNOWN':
      checkRange(m.cmd, 8, 'cmd', CLAUSE.cmdVer);
      if (commandName(m.cmd) !== 'UNKNOWN' && m.cmd !== SMP_COMMAND.DATA3) {
        throw new WireError(WireErrorCode.invalid, 'cmd', offset, CLAUSE.cmdVer, `CMD 0x${hex2(m.cmd)} is ${commandName(m.cmd)}, not UNKNOWN`);
      }
      bytes[offset] = m.cmd;
      bytes.set(m.data, offset + 1);
      return offset + 1 + m.data.length;
  }
}

/**
 * The encoded octets of a message in a new array.
 *
 * @example
 * ```ts
 * import { smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // The octets to put in a Type 11 message payload: REQUEST for node 2's list of protocols.
 * const bytes = smpBytes(smp.smpRequest({ sourceID: 1, destID: 2, protoID: 0xffff }));
 * console.log(bytes.length, toHex(bytes)); // 16 0101000100020000ffff000000000000
 * ```
 */
export function smpBytes(m: SmpMessage): Uint8Array {
  const out = new Uint8Array(smpLength(m));
  encodeSmp(m, out, 0);
  return out;
}

/**
 * An UNKNOWN message (lenient decoding's form of an unassigned <CMD>).
 *
 * @example
 * ```ts
 * import { decodeSmp, smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // A conformance test sends an unassigned <CMD> 0x0C to see the peer answer Command_Unknown.
 * const probe = smp.smpUnknown(0x0c, Uint8Array.of(0x01, 0x00, 0x01));
 * const bytes = smpBytes(probe);
 * console.log(toHex(bytes), decodeSmp(bytes, 0, bytes.length).command); // 0c010001 UNKNOWN
 * ```
 */
export function smpUnknown(cmd: number, data: Uint8Array = new Uint8Array(0)): SmpUnknown {
  return { command: 'UNKNOWN', cmd, data };
}

/**
 * A STATUS message. `quote` answers an unrecognised, unknown or malformed command: "the original
 * command is sent in the <ContextSpecificData> fields and the Command_Unknown flag bit is set"
 * (§4.2.8). Received octets are quoted as they are, zero-padded to a multiple of 8 octets;
 * `cmdID`/`cmdVersion` default to the quoted command's first two octets.
 *
 * @example
 * ```ts
 * import { decodeSmp, parseHex, smp, smpBytes, toHex } from 'riodp/wire';
 *
 * // Node 2 answers a message with the unassigned <CMD> 0x0C by quoting it back.
 * const received = parseHex('0c01000100020000');
 * const reply = smp.smpStatus({ sourceID: 2, streamID: 0, status: [], quote: received });
 * console.log(reply.statusFlags, reply.cmdID); // [ 'COMMAND_UNKNOWN' ] 12
 * const bytes = smpBytes(reply);
 * console.log(toHex(bytes.subarray(0, 16)), decodeSmp(bytes, 0, bytes.length, { strict: true }).command); // 100100010002000000000c0140000000 STATUS
 * ```
 */
export function smpStatus(f: SmpStatusInput & { readonly quote?: SmpMessage | Uint8Array }): SmpStatus {
  if (f.quote === undefined) return buildStatus(f, quotedCommand);
  const raw = f.quote instanceof Uint8Array ? f.quote : smpBytes(f.quote);
  const data = new Uint8Array(raw.length + canonicalPadLength(raw.length));
  data.set(raw);
  const status = (typeof f.status === 'number' ? f.status : statusFromFlags(f.status)) | STATUS_BIT.COMMAND_UNKNOWN;
  return buildStatus(
    {
      ...f,
      status: status >>> 0,
      contextSpecificData: data,
      cmdID: f.cmdID ?? raw[0] ?? 0,
      cmdVersion: f.cmdVersion ?? raw[1] ?? 0,
    },
    quotedCommand,
  );
}

export * from './header.ts';
export * from './attributes.ts';
export * from './attribute-build.ts';
export * from './attribute-order.ts';
export * from './request-advertise.ts';
export * from './open-accept-refuse.ts';
export * from './flow-control.ts';
export * from './close.ts';
export * from './status.ts';
export * from './userdefined.ts';
export * from './data.ts';
export * from './data-codec.ts';
