import { WireError, WireErrorCode } from './errors.ts';
import { Stype0, parameterBits } from './symbol-types.ts';
import type { Link } from './symbol-types.ts';

// The meaning of a Control Symbol 24/48's parameter0/parameter1 for each stype0 (Part 6 §3.4):
// the cause and port_status tables, VCID and buf_status, and the decoded views a symbol carries.
// The stype0/stype1/cmd encodings are in symbol-types.ts.

const R = 'RESERVED';
/**
 * Table 3-8; identifiers abbreviate the definitions (docs/cli.md lists them).
 *
 * @example
 * ```ts
 * import { CAUSES } from 'riodp/wire';
 *
 * // A counter report keyed by the cause a link partner gave in packet-not-accepted.
 * const seen = [4, 4, 6];
 * const report = seen.map((c) => (c in CAUSES ? CAUSES[c as keyof typeof CAUSES] : `cause ${c}`));
 * console.log(report.join(' ')); // packet-bad-crc packet-bad-crc lack-of-resources
 * ```
 */
export const CAUSES = {
  1: 'unexpected-ackID', // Received a packet with an unexpected ackID
  2: 'control-symbol-bad-crc', // Received a control symbol with bad CRC
  3: 'non-maintenance-stopped', // Non-maintenance packet reception is stopped
  4: 'packet-bad-crc', // Received a packet with bad CRC
  5: 'invalid-character', // Received an invalid character or codeword, or valid but illegal character
  6: 'lack-of-resources', // Packet not accepted due to lack of resources
  7: 'loss-of-descrambler-sync', // Loss of descrambler sync
  31: 'general-error', // General error
} as const;
/** The name of a packet-not-accepted cause (Table 3-8); RESERVED for another value. */
export type CauseName = (typeof CAUSES)[keyof typeof CAUSES] | 'RESERVED';
/**
 * Every cause name.
 *
 * @example
 * ```ts
 * import { CAUSE_NAMES, causeOf } from 'riodp/wire';
 *
 * // Validating a --cause option; RESERVED is a name but names no single value.
 * const arg = 'lack-of-resources';
 * if (!(CAUSE_NAMES as readonly string[]).includes(arg)) throw new Error(`unknown cause ${arg}`);
 * console.log(causeOf(arg)); // 6
 * ```
 */
export const CAUSE_NAMES: readonly CauseName[] = [...Object.values(CAUSES), R];

/**
 * Table 3-14 (Control Symbol 24 and 48 port_status).
 *
 * @example
 * ```ts
 * import { PORT_STATUSES } from 'riodp/wire';
 *
 * // port_status is the low 5 bits of a link-response's parameter1.
 * const parameter1 = 0b10000;
 * console.log(PORT_STATUSES[parameter1 as keyof typeof PORT_STATUSES]); // OK
 * ```
 */
export const PORT_STATUSES = { 2: 'Error', 4: 'Retry-stopped', 5: 'Error-stopped', 16: 'OK' } as const;
/** The name of a port_status value (Table 3-14); RESERVED for another value. */
export type PortStatusName = (typeof PORT_STATUSES)[keyof typeof PORT_STATUSES] | 'RESERVED';
/**
 * Every port_status name.
 *
 * @example
 * ```ts
 * import { PORT_STATUS_NAMES } from 'riodp/wire';
 *
 * console.log(PORT_STATUS_NAMES.join(' | ')); // Error | Retry-stopped | Error-stopped | OK | RESERVED
 * ```
 */
export const PORT_STATUS_NAMES: readonly PortStatusName[] = [...Object.values(PORT_STATUSES), R];

/**
 * The name of a cause value.
 *
 * @example
 * ```ts
 * import { causeName } from 'riodp/wire';
 *
 * console.log(causeName(0b00010)); // control-symbol-bad-crc
 * console.log(causeName(0b01000)); // RESERVED
 * ```
 */
export function causeName(cause: number): CauseName {
  return (CAUSES as Partial<Record<number, CauseName>>)[cause] ?? R;
}
/**
 * The name of a port_status value.
 *
 * @example
 * ```ts
 * import { portStatusName } from 'riodp/wire';
 *
 * console.log(portStatusName(0b00101)); // Error-stopped
 * ```
 */
export function portStatusName(status: number): PortStatusName {
  return (PORT_STATUSES as Partial<Record<number, PortStatusName>>)[status] ?? R;
}
/**
 * Inverse look-ups; undefined for RESERVED (it names many values) and unknown names.
 *
 * @example
 * ```ts
 * import { Stype0, Stype1, buildSymbol, causeOf } from 'riodp/wire';
 *
 * // A packet-not-accepted for ackID 9 because the packet's CRC was bad.
 * const cause = causeOf('packet-bad-crc') ?? 31;
 * const s = buildSymbol({ link: 'cs24', stype0: Stype0.packetNotAccepted, parameter0: 9, parameter1: cause, stype1: Stype1.nop, cmd: 0 });
 * console.log(s.ackIDStatus, s.cause, s.causeName); // 9 4 packet-bad-crc
 * ```
 */
export function causeOf(name: string): number | undefined {
  return valueOf(CAUSES, name);
}
/**
 * The port_status value of a name; undefined for an unknown name.
 *
 * @example
 * ```ts
 * import { Stype0, Stype1, buildSymbol, portStatusOf } from 'riodp/wire';
 *
 * // The link-response a port in the OK state sends with ackID_status 4.
 * const status = portStatusOf('OK') ?? 0;
 * const s = buildSymbol({ link: 'cs24', stype0: Stype0.linkResponse, parameter0: 4, parameter1: status, stype1: Stype1.nop, cmd: 0 });
 * console.log(status, s.portStatusName); // 16 OK
 * ```
 */
export function portStatusOf(name: string): number | undefined {
  return valueOf(PORT_STATUSES, name);
}
function valueOf(table: Readonly<Record<number, string>>, name: string): number | undefined {
  for (const [k, v] of Object.entries(table)) if (v === name) return Number(k);
  return undefined;
}

/**
 * Table 3-12: the VC a VCID designates. "When using fewer than 8 VCs, bits in the VCID are
 * ignored starting from the LSB" — with 4 active VCs 0b01x is VC3, with 1 every VCID is VC1.
 *
 * @example
 * ```ts
 * import { decodeSymbol, parseHex, vcOfVcid } from 'riodp/wire';
 *
 * // A captured VC_status for VCID 0b011 (buf_status 31): VC4 with 8 optional VCs, VC3 with 4.
 * const s = decodeSymbol(parseHex('a3ff08'), 0, 3, { link: 'cs24' });
 * console.log(s.vcid, vcOfVcid(s.vcid ?? 0, 8), vcOfVcid(s.vcid ?? 0, 4)); // 3 4 3
 * ```
 */
export function vcOfVcid(vcid: number, activeVcs: 1 | 2 | 4 | 8): number {
  const ignored = activeVcs === 8 ? 0 : activeVcs === 4 ? 1 : activeVcs === 2 ? 2 : 3;
  return (((vcid & 7) >> ignored) << ignored) + 1;
}

/**
 * buf_status (Table 3-4): 0–29 (CS24) / 0–61 (CS48) buffers; 30 / 62 "at least" that many;
 * 31 / 63 an undefined number, the port "relies on retry for flow control".
 */
export function bufStatusMeaning(bufStatus: number, link: Link): { readonly buffers: number; readonly atLeast: boolean } | 'retry' {
  const top = (1 << parameterBits(link)) - 1;
  if (bufStatus === top) return 'retry';
  return { buffers: bufStatus, atLeast: bufStatus === top - 1 };
}

/**
 * Decoded parameter0/parameter1 views per stype0 (Table 3-2). `rsrv0`/`rsrv1` keep reserved
 * leading bits of parameter0/parameter1 when they are not zero.
 */
export interface ParameterMeanings {
  /** packet-accepted, packet-retry: packet_ackID. */
  readonly packetAckID?: number;
  /** packet-not-accepted ("arbitrary/ackID_status"), status, link-response: ackID_status. */
  readonly ackIDStatus?: number;
  /** packet-accepted, packet-retry, status, VC_status. */
  readonly bufStatus?: number;
  /** VC_status: "VCID is a 3-bit field that is right justified in the Parameter0 field". */
  readonly vcid?: number;
  readonly cause?: number;
  readonly causeName?: CauseName;
  readonly portStatus?: number;
  readonly portStatusName?: PortStatusName;
  /** timestamp (Table 3-9, Table 6-3/6-4): start and end flags and the 8 timestamp bits. */
  readonly startFlag?: number;
  readonly endFlag?: number;
  readonly timestamp?: number;
  /** timestamp sent as a loop-response: Delay[0:4]||Delay[5:9] (CS24), Delay[0:5]||Delay[6:11] (CS48). */
  readonly delay?: number;
  readonly rsrv0?: number;
  readonly rsrv1?: number;
}
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Writes the meanings of parameter0/parameter1 onto `out`. `at` is the byte offset of the
 * symbol's first byte; parameter0 starts in its byte 0, parameter1 in byte 1.
 */
export function writeMeanings(
  out: Writable<ParameterMeanings>,
  link: Link,
  stype0: number,
  p0: number,
  p1: number,
  strict: boolean,
  at: number,
): void {
  const w = parameterBits(link);
  switch (stype0) {
    case Stype0.packetAccepted:
    case Stype0.packetRetry:
      out.packetAckID = p0;
      out.bufStatus = p1;
      return;
    case Stype0.packetNotAccepted:
      out.ackIDStatus = p0;
      // "Control Symbol 48 ... 0b0, cause" (Table 3-7).
      reservedBits(out, 'rsrv1', p1 >> 5, strict, 'parameter1', at + 1, 'Part 6 §3.4.3 Table 3-7');
      writeCause(out, p1 & 0x1f, strict, at + 1);
      return;
    case Stype0.timestamp:
      // A timestamp symbol is either one of a timestamp sequence or a loop-response; only the
      // link's state (a loop-timing request outstanding, §6.5.3.5.2) tells which, so both
      // readings are given. The CS48 leading 0b0 bits of the sequence form are Delay bits of
      // a loop-response, so they are not reserved here.
      out.startFlag = (p0 >> 4) & 1;
      out.endFlag = (p0 >> 3) & 1;
      out.timestamp = ((p0 & 7) << 5) | (p1 & 0x1f);
      out.delay = p0 * (1 << w) + p1;
      return;
    case Stype0.status:
      out.ackIDStatus = p0;
      out.bufStatus = p1;
      return;
    case Stype0.vcStatus:
      // "The remaining bits of the parameter0 field are reserved" (§3.4.6, Table 3-11).
      reservedBits(out, 'rsrv0', p0 >> 3, strict, 'parameter0', at, 'Part 6 §3.4.6 Table 3-11');
      out.vcid = p0 & 7;
      out.bufStatus = p1;
      return;
    case Stype0.linkResponse: {
      out.ackIDStatus = p0;
      // "Control Symbol 48 ... 0b0, port_status" (Table 3-13).
      reservedBits(out, 'rsrv1', p1 >> 5, strict, 'parameter1', at + 1, 'Part 6 §3.4.7 Table 3-13');
      const status = p1 & 0x1f;
      out.portStatus = status;
      const name = portStatusName(status);
      out.portStatusName = name;
      if (strict && name === R) reservedValue('portStatus', status, at + 1, 'Part 6 §3.4.7 Table 3-14');
      return;
    }
    default:
      // implementation-defined: no meaning riodp can give.
      return;
  }
}

/**
 * The cause field of packet-not-accepted (Table 3-8), the low 5 bits of parameter1 in every
 * control symbol; `at` is the byte that holds it.
 */
export function writeCause(out: { cause?: number; causeName?: CauseName }, cause: number, strict: boolean, at: number): void {
  out.cause = cause;
  const name = causeName(cause);
  out.causeName = name;
  if (strict && name === R) reservedValue('cause', cause, at, 'Part 6 §3.4.3 Table 3-8');
}

/** Reserved bits of a parameter: kept under `key` when not zero (lenient), a WireError when strict. */
export function reservedBits<K extends 'rsrv0' | 'rsrv1'>(
  out: { [P in K]?: number },
  key: K,
  bits: number,
  strict: boolean,
  field: string,
  at: number,
  clause: string,
): void {
  if (bits === 0) return;
  if (strict) throw new WireError(WireErrorCode.reserved, field, at, clause, `reserved bits 0b${bits.toString(2)} are not zero`);
  out[key] = bits;
}

function reservedValue(field: string, value: number, at: number, clause: string): never {
  throw new WireError(WireErrorCode.reserved, field, at, clause, `${field} 0b${value.toString(2).padStart(5, '0')} is reserved`);
}
