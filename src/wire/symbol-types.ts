/**
 * Encodings of the Control Symbol 24/48 fields (Part 6 §3.4–§3.5, DECISIONS §2) and the
 * meaning of parameter0/parameter1 for each stype0. Names are the spec's function names.
 *
 * @example
 * ```ts
 * import { LINKS, symbolLength } from 'riodp/wire';
 *
 * // Checking a user's --link option before decoding with it.
 * const arg: string = 'cs48';
 * const link = LINKS.find((l) => l === arg);
 * if (link === undefined) throw new Error(`--link must be one of ${LINKS.join(', ')}`);
 * console.log(link, symbolLength(link)); // cs48 6
 * ```
 */
export const LINKS = ['cs24', 'cs48'] as const;
/** A control symbol form of Part 6: Control Symbol 24 or 48. */
export type Link = (typeof LINKS)[number];

/** parameter0/parameter1 width: "5-bit fields in the Control Symbol 24 and 6-bit fields in the Control Symbol 48" (§3.3). */
export function parameterBits(link: Link): 5 | 6 {
  return link === 'cs24' ? 5 : 6;
}

export const CLAUSE_STYPE0 = 'Part 6 §3.4 Table 3-2';
export const CLAUSE_STYPE1 = 'Part 6 §3.5 Table 3-17';

/**
 * Table 3-2.
 *
 * @example
 * ```ts
 * import { Stype0, decodeSymbol, parseHex } from 'riodp/wire';
 *
 * // A captured CS24: packet-not-accepted for ackID 9, cause 0b00100.
 * const s = decodeSymbol(parseHex('492703'), 0, 3, { link: 'cs24' });
 * if (s.stype0 === Stype0.packetNotAccepted) console.log(s.ackIDStatus, s.causeName); // 9 packet-bad-crc
 * ```
 */
export const Stype0 = {
  packetAccepted: 0,
  packetRetry: 1,
  packetNotAccepted: 2,
  timestamp: 3,
  status: 4,
  vcStatus: 5,
  linkResponse: 6,
  implementationDefined: 7,
} as const;
export type Stype0 = (typeof Stype0)[keyof typeof Stype0];
/**
 * The name of each stype0 value (Table 3-2), indexed by it.
 *
 * @example
 * ```ts
 * import { STYPE0_NAMES } from 'riodp/wire';
 *
 * // stype0 is the top 3 bits of a CS24 or CS48's first byte.
 * const firstByte = 0xc4;
 * console.log(STYPE0_NAMES[firstByte >> 5]); // link-response
 * ```
 */
export const STYPE0_NAMES = [
  'packet-accepted',
  'packet-retry',
  'packet-not-accepted',
  'timestamp',
  'status',
  'VC_status',
  'link-response',
  'implementation-defined',
] as const;
/** The name of an stype0 function. */
export type Stype0Name = (typeof STYPE0_NAMES)[number];

/**
 * Table 3-17; 0b110 is reserved.
 *
 * @example
 * ```ts
 * import { Stype0, Stype1, cmdOf, encodeSymbol, toHex } from 'riodp/wire';
 *
 * // A link-request/port-status riding on a status symbol (ackID 0, 2 buffers).
 * const cmd = cmdOf(Stype1.linkRequest, 'port-status') ?? 0;
 * const bytes = new Uint8Array(3);
 * const fields = { link: 'cs24', stype0: Stype0.status, parameter0: 0, parameter1: 2, stype1: Stype1.linkRequest, cmd } as const;
 * encodeSymbol(fields, bytes, 0);
 * console.log(cmd, toHex(bytes)); // 4 801482
 * ```
 */
export const Stype1 = {
  startOfPacket: 0,
  stomp: 1,
  endOfPacket: 2,
  restartFromRetry: 3,
  linkRequest: 4,
  timing: 5,
  reserved: 6,
  nop: 7,
} as const;
export type Stype1 = (typeof Stype1)[keyof typeof Stype1];
/**
 * The name of each stype1 value (Table 3-17), indexed by it.
 *
 * @example
 * ```ts
 * import { STYPE1_NAMES } from 'riodp/wire';
 *
 * // A CS24's stype1 is bits 13–15: the low 3 bits of byte 1.
 * const bytes = Uint8Array.from([0x80, 0x14, 0x82]);
 * console.log(STYPE1_NAMES[(bytes[1] ?? 0) & 7]); // link-request
 * ```
 */
export const STYPE1_NAMES = [
  'start-of-packet',
  'stomp',
  'end-of-packet',
  'restart-from-retry',
  'link-request',
  'timing',
  'RESERVED',
  'NOP',
] as const;
/** The name of an stype1 function. */
export type Stype1Name = (typeof STYPE1_NAMES)[number];

/**
 * Every cmd function name of Table 3-17 and its sub-tables.
 *
 * @example
 * ```ts
 * import { CMD_NAMES, Stype1, cmdOf } from 'riodp/wire';
 *
 * // The functions a link-request symbol can carry, as a tool would list them.
 * const linkRequests = CMD_NAMES.filter((n) => cmdOf(Stype1.linkRequest, n) !== undefined);
 * console.log(linkRequests.join(', ')); // reset-port, reset-device, port-status
 * ```
 */
export const CMD_NAMES = [
  'start-of-packet',
  'stomp',
  'end-of-packet',
  'restart-from-retry',
  'reset-port',
  'reset-device',
  'port-status',
  'multicast-event',
  'secondary-multicast-event',
  'loop-timing-request',
  'NOP',
  'RESERVED',
] as const;
/** The name of a (stype1, cmd) function; RESERVED for a reserved combination. */
export type CmdName = (typeof CMD_NAMES)[number];

const R = 'RESERVED';
/**
 * cmd function per stype1 (Table 3-17; link-request Table 3-23; timing Table 3-24, where rev 4.1
 * adds secondary multicast-event 0b001 and loop-timing request 0b011 to DECISIONS §2's
 * multicast-event 0b000). Every other cmd value is reserved.
 */
const CMD_TABLE: readonly (readonly CmdName[])[] = [
  ['start-of-packet', R, R, R, R, R, R, R],
  ['stomp', R, R, R, R, R, R, R],
  ['end-of-packet', R, R, R, R, R, R, R],
  ['restart-from-retry', R, R, R, R, R, R, R],
  [R, R, 'reset-port', 'reset-device', 'port-status', R, R, R],
  ['multicast-event', 'secondary-multicast-event', R, 'loop-timing-request', R, R, R, R],
  [R, R, R, R, R, R, R, R],
  ['NOP', R, R, R, R, R, R, R],
];

/**
 * The function of a (stype1, cmd) pair (Table 3-17, Table 3-23, Table 3-24).
 *
 * @example
 * ```ts
 * import { Stype1, cmdName } from 'riodp/wire';
 *
 * console.log(cmdName(Stype1.timing, 0b011)); // loop-timing-request
 * console.log(cmdName(Stype1.linkRequest, 0b000)); // RESERVED
 * ```
 */
export function cmdName(stype1: number, cmd: number): CmdName {
  return CMD_TABLE[stype1 & 7]?.[cmd & 7] ?? R;
}

/**
 * The cmd value of a named function under an stype1; undefined for RESERVED or a mismatch.
 *
 * @example
 * ```ts
 * import { Stype1, cmdOf } from 'riodp/wire';
 *
 * console.log(cmdOf(Stype1.linkRequest, 'reset-device')); // 3
 * console.log(cmdOf(Stype1.timing, 'reset-device')); // undefined
 * ```
 */
export function cmdOf(stype1: number, name: string): number | undefined {
  if (name === R) return undefined;
  const i = (CMD_TABLE[stype1 & 7] ?? []).indexOf(name as CmdName);
  return i < 0 ? undefined : i;
}
