import { reservedBits, writeCause } from './symbol-parameters.ts';
import type { CauseName, Writable } from './symbol-parameters.ts';
import { STYPE0_NAMES, Stype0 } from './symbol-types.ts';
import type { Stype0Name } from './symbol-types.ts';

/**
 * Encodings of the Control Symbol 64 fields (Part 6 §3.4 Table 3-3, §3.5 Table 3-18) and the
 * meaning of its 12-bit parameter0/parameter1 per stype0. stype0 0–7 keep the Control Symbol
 * 24/48 functions and names; stype1 is 8 bits and folds in the CS24/48 cmd.
 *
 * @example
 * ```ts
 * import { LINK_CS64, LINKS } from 'riodp/wire';
 *
 * // Every control symbol form riodp decodes, for a --link option.
 * console.log([...LINKS, LINK_CS64].join('|')); // cs24|cs48|cs64
 * ```
 */
export const LINK_CS64 = 'cs64';
/** The Control Symbol 64 form. */
export type Link64 = typeof LINK_CS64;

export const CLAUSE_STYPE0_64 = 'Part 6 §3.4 Table 3-3';
export const CLAUSE_STYPE1_64 = 'Part 6 §3.5 Table 3-18';

/**
 * Table 3-3: the CS24/48 encodings widened to 4 bits, plus loop-response and VoQ-backpressure.
 *
 * @example
 * ```ts
 * import { Stype0_64, decodeSymbol64, parseHex } from 'riodp/wire';
 *
 * // A captured CS64: loop-response with Delay 0xFFF, "exceeded 4094 nanoseconds".
 * const s = decodeSymbol64(parseHex('bfff0000ad9d3dfc'), 0, 8);
 * if (s.stype0 === Stype0_64.loopResponse) console.log(s.delay); // 4095
 * ```
 */
export const Stype0_64 = {
  ...Stype0,
  loopResponse: 0b1011,
  voqBackpressure: 0b1101,
} as const;
export type Stype0_64 = (typeof Stype0_64)[keyof typeof Stype0_64];

const R = 'RESERVED';
/**
 * The name of each CS64 stype0 value (Table 3-3), indexed by it.
 *
 * @example
 * ```ts
 * import { STYPE0_64_NAMES } from 'riodp/wire';
 *
 * // stype0 is the top 4 bits of a CS64's first byte.
 * console.log(STYPE0_64_NAMES[0xdf >> 4], STYPE0_64_NAMES[0x8f >> 4]); // VoQ-backpressure RESERVED
 * ```
 */
export const STYPE0_64_NAMES = [...STYPE0_NAMES, R, R, R, 'loop-response', R, 'VoQ-backpressure', R, R] as const;
/** The name of a CS64 stype0 function. */
export type Stype0Name64 = Stype0Name | 'loop-response' | 'VoQ-backpressure' | 'RESERVED';

/**
 * Table 3-18. Start-of-packet is "0b10, ackID[0:5]" (unpadded) or "0b11, ackID[0:5]" (padded):
 * every value 0x80–0xFF is a start-of-packet whose low 6 bits are the most significant 6 bits of
 * the packet's 12-bit ackID (§3.5.1).
 *
 * @example
 * ```ts
 * import { Stype0_64, Stype1_64, encodeSymbol64, toHex } from 'riodp/wire';
 *
 * // A status symbol (ackID_status 1, 4094 buffers) starting a packet whose ackID[0:5] is 0b101010.
 * const bytes = new Uint8Array(8);
 * const stype1 = Stype1_64.startOfPacketUnpadded | 0b101010;
 * encodeSymbol64({ link: 'cs64', stype0: Stype0_64.status, parameter0: 1, parameter1: 4094, stype1 }, bytes, 0);
 * console.log(stype1.toString(16), toHex(bytes)); // aa 4001ffe2aa057d30
 * ```
 */
export const Stype1_64 = {
  stomp: 0x08,
  endOfPacketUnpadded: 0x10,
  endOfPacketPadded: 0x11,
  restartFromRetry: 0x18,
  resetPort: 0x22,
  resetDevice: 0x23,
  portStatus: 0x24,
  multicastEvent: 0x28,
  secondaryMulticastEvent: 0x29,
  loopTimingRequest: 0x2b,
  nop: 0x38,
  startOfPacketUnpadded: 0x80,
  startOfPacketPadded: 0xc0,
} as const;
export type Stype1_64 = (typeof Stype1_64)[keyof typeof Stype1_64];

const STYPE1_64_TABLE: Readonly<Record<number, string>> = {
  0x08: 'stomp',
  0x10: 'end-of-packet-unpadded',
  0x11: 'end-of-packet-padded',
  0x18: 'restart-from-retry',
  0x22: 'link-request/reset-port',
  0x23: 'link-request/reset-device',
  0x24: 'link-request/port-status',
  0x28: 'multicast-event',
  0x29: 'secondary-multicast-event',
  0x2b: 'loop-timing-request',
  0x38: 'NOP',
};
/**
 * Every CS64 stype1 function name (Table 3-18).
 *
 * @example
 * ```ts
 * import { STYPE1_64_NAMES, stype1Of64 } from 'riodp/wire';
 *
 * // The link-request functions and their stype1 values, for a trace legend.
 * const requests = STYPE1_64_NAMES.filter((n) => n.startsWith('link-request/'));
 * console.log(requests.map((n) => `${n.slice(13)} 0x${(stype1Of64(n) ?? 0).toString(16)}`).join(', ')); // reset-port 0x22, reset-device 0x23, port-status 0x24
 * ```
 */
export const STYPE1_64_NAMES = [
  'stomp',
  'end-of-packet-unpadded',
  'end-of-packet-padded',
  'restart-from-retry',
  'link-request/reset-port',
  'link-request/reset-device',
  'link-request/port-status',
  'multicast-event',
  'secondary-multicast-event',
  'loop-timing-request',
  'NOP',
  'start-of-packet-unpadded',
  'start-of-packet-padded',
  R,
] as const;
/** The name of a CS64 stype1 function. */
export type Stype1Name64 = (typeof STYPE1_64_NAMES)[number];

/**
 * The function of an 8-bit CS64 stype1 (Table 3-18); RESERVED for a reserved value.
 *
 * @example
 * ```ts
 * import { stype1Name64 } from 'riodp/wire';
 *
 * console.log(stype1Name64(0x24)); // link-request/port-status
 * console.log(stype1Name64(0xea)); // start-of-packet-padded
 * console.log(stype1Name64(0x30)); // RESERVED
 * ```
 */
export function stype1Name64(stype1: number): Stype1Name64 {
  if (stype1 >= 0x80 && stype1 <= 0xff) return stype1 >= 0xc0 ? 'start-of-packet-padded' : 'start-of-packet-unpadded';
  return (STYPE1_64_TABLE[stype1] as Stype1Name64 | undefined) ?? R;
}

/**
 * The stype1 of a named function (start-of-packet with `ackIDHigh`); undefined for RESERVED and unknown names.
 *
 * @example
 * ```ts
 * import { stype1Of64 } from 'riodp/wire';
 *
 * // The start-of-packet for a packet with 12-bit ackID 0xA81 carries its top 6 bits, 0b101010.
 * const ackID = 0xa81;
 * console.log(stype1Of64('start-of-packet-unpadded', ackID >>> 6)?.toString(16)); // aa
 * console.log(stype1Of64('NOP')?.toString(16)); // 38
 * ```
 */
export function stype1Of64(name: string, ackIDHigh = 0): number | undefined {
  if (name === 'start-of-packet-unpadded') return Stype1_64.startOfPacketUnpadded | (ackIDHigh & 0x3f);
  if (name === 'start-of-packet-padded') return Stype1_64.startOfPacketPadded | (ackIDHigh & 0x3f);
  for (const [k, v] of Object.entries(STYPE1_64_TABLE)) if (v === name) return Number(k);
  return undefined;
}

/**
 * Table 3-15 Input/Output Port Status, "encoded in increasing order of priority": 0b00 no error
 * condition, 0b01 retry-stopped, 0b10 error-stopped, 0b11 fatal error.
 *
 * @example
 * ```ts
 * import { PORT_CONDITION_NAMES, decodeSymbol64, parseHex } from 'riodp/wire';
 *
 * // A captured CS64 link-response: the conditions are "encoded in increasing order of priority".
 * const s = decodeSymbol64(parseHex('60013180e02e3f48'), 0, 8);
 * const worst = PORT_CONDITION_NAMES[Math.max(s.inputPortStatus ?? 0, s.outputPortStatus ?? 0)];
 * console.log(s.inputPortStatusName, s.outputPortStatusName, worst); // retry-stopped none retry-stopped
 * ```
 */
export const PORT_CONDITION_NAMES = ['none', 'retry-stopped', 'error-stopped', 'fatal-error'] as const;
/** A port's condition in a CS64 status (Table 3-15). */
export type PortConditionName = (typeof PORT_CONDITION_NAMES)[number];

/**
 * Decoded parameter0/parameter1 views of a CS64 per stype0. `rsrv0`/`rsrv1` keep the reserved
 * bits of parameter0/parameter1, read in bit order as one number, when they are not zero.
 */
export interface ParameterMeanings64 {
  /** packet-accepted, packet-retry: packet_ackID (12 bits). */
  readonly packetAckID?: number;
  /** packet-not-accepted ("arbitrary/ackID_status"), status, link-response. */
  readonly ackIDStatus?: number;
  /** packet-accepted, packet-retry, status, VC_status: 0–4093 buffers, 4094 "at least", 4095 retry. */
  readonly bufStatus?: number;
  /** VC_status: "0b0_0000_0000, VCID" (Table 3-11). */
  readonly vcid?: number;
  readonly cause?: number;
  readonly causeName?: CauseName;
  /** timestamp (Table 6-5): parameter0 bits 3–4, the symbol's place 0–3 in the sequence. */
  readonly sequence?: number;
  /** timestamp: parameter0 bits 8–11 ‖ parameter1, Timestamp[16·sequence : 16·sequence + 15]. */
  readonly timestamp?: number;
  /** link-response port_status (Table 3-15) bits 1–2, 3, 5–6, 7 and 8. */
  readonly inputPortStatus?: number;
  readonly inputPortStatusName?: PortConditionName;
  readonly inputPortEnabled?: number;
  readonly outputPortStatus?: number;
  readonly outputPortStatusName?: PortConditionName;
  readonly outputPortEnabled?: number;
  readonly portWritePending?: number;
  /** loop-response (Table 3-16): "Delay bits 0–11" in parameter0. */
  readonly delay?: number;
  readonly rsrv0?: number;
  readonly rsrv1?: number;
}

/**
 * Writes the meanings of parameter0/parameter1 onto `out`. `at` is the byte offset of the
 * symbol's first byte: parameter0 is symbol bits 4–15 (bytes 0–1), parameter1 bits 16–27 (bytes 2–3).
 */
export function writeMeanings64(out: Writable<ParameterMeanings64>, stype0: number, p0: number, p1: number, strict: boolean, at: number): void {
  switch (stype0) {
    case Stype0_64.packetAccepted:
    case Stype0_64.packetRetry:
      out.packetAckID = p0;
      out.bufStatus = p1;
      return;
    case Stype0_64.packetNotAccepted:
      out.ackIDStatus = p0;
      // Table 3-7 "0b000_0000, cause".
      reservedBits(out, 'rsrv1', p1 >>> 5, strict, 'parameter1', at + 2, 'Part 6 §3.4.3 Table 3-7');
      writeCause(out, p1 & 0x1f, strict, at + 2);
      return;
    case Stype0_64.timestamp:
      // Table 6-5: parameter0 bits 0–2 and 5–7 "Reserved", bits 3–4 the sequence number, bits
      // 8–11 and parameter1 bits 0–11 sixteen timestamp bits.
      reservedBits(out, 'rsrv0', ((p0 >>> 9) << 3) | ((p0 >>> 4) & 7), strict, 'parameter0', at, 'Part 6 §6.5.3.5.1 Table 6-5');
      out.sequence = (p0 >>> 7) & 3;
      out.timestamp = ((p0 & 0xf) << 12) | p1;
      return;
    case Stype0_64.status:
      out.ackIDStatus = p0;
      out.bufStatus = p1;
      return;
    case Stype0_64.vcStatus:
      // Table 3-11 "0b0_0000_0000, VCID"; "The remaining bits of the parameter0 field are reserved".
      reservedBits(out, 'rsrv0', p0 >>> 3, strict, 'parameter0', at, 'Part 6 §3.4.6 Table 3-11');
      out.vcid = p0 & 7;
      out.bufStatus = p1;
      return;
    case Stype0_64.linkResponse:
      out.ackIDStatus = p0;
      // Table 3-15 bits 0, 4 and 9–11 are reserved.
      reservedBits(out, 'rsrv1', (((p1 >>> 11) & 1) << 4) | (((p1 >>> 7) & 1) << 3) | (p1 & 7), strict, 'parameter1', at + 2, 'Part 6 §3.4.7 Table 3-15');
      out.inputPortStatus = (p1 >>> 9) & 3;
      out.inputPortStatusName = PORT_CONDITION_NAMES[(p1 >>> 9) & 3] as PortConditionName;
      out.inputPortEnabled = (p1 >>> 8) & 1;
      out.outputPortStatus = (p1 >>> 5) & 3;
      out.outputPortStatusName = PORT_CONDITION_NAMES[(p1 >>> 5) & 3] as PortConditionName;
      out.outputPortEnabled = (p1 >>> 4) & 1;
      out.portWritePending = (p1 >>> 3) & 1;
      return;
    case Stype0_64.loopResponse:
      out.delay = p0;
      // Table 3-16 parameter1 "Reserved" (Table 3-3: "0x000").
      reservedBits(out, 'rsrv1', p1, strict, 'parameter1', at + 2, 'Part 6 §3.4.8 Table 3-16');
      return;
    default:
      // implementation-defined, VoQ-backpressure (read by voq-cs64.ts) and reserved encodings.
      return;
  }
}

/**
 * The raw parameter0/parameter1 that the meanings give (inverse of `writeMeanings64`), or
 * undefined where a meaning the stype0 needs is missing. For JSON input.
 */
export function parametersOf64(stype0: number, m: { readonly [K in keyof ParameterMeanings64]?: ParameterMeanings64[K] | undefined }): { parameter0?: number; parameter1?: number } {
  const r0 = m.rsrv0 ?? 0;
  const r1 = m.rsrv1 ?? 0;
  switch (stype0) {
    case Stype0_64.packetAccepted:
    case Stype0_64.packetRetry:
      return defined(m.packetAckID, m.bufStatus);
    case Stype0_64.packetNotAccepted: {
      const cause = m.cause;
      return defined(m.ackIDStatus, cause === undefined ? undefined : (r1 << 5) | cause);
    }
    case Stype0_64.timestamp: {
      const { sequence, timestamp } = m;
      if (sequence === undefined || timestamp === undefined) return {};
      return { parameter0: ((r0 >>> 3) << 9) | (sequence << 7) | ((r0 & 7) << 4) | (timestamp >>> 12), parameter1: timestamp & 0xfff };
    }
    case Stype0_64.status:
      return defined(m.ackIDStatus, m.bufStatus);
    case Stype0_64.vcStatus:
      return defined(m.vcid === undefined ? undefined : (r0 << 3) | m.vcid, m.bufStatus);
    case Stype0_64.linkResponse: {
      const { inputPortStatus: i, inputPortEnabled: ie, outputPortStatus: o, outputPortEnabled: oe, portWritePending: pw } = m;
      const p1 = i === undefined || ie === undefined || o === undefined || oe === undefined || pw === undefined
        ? undefined
        : (((r1 >>> 4) & 1) << 11) | (i << 9) | (ie << 8) | (((r1 >>> 3) & 1) << 7) | (o << 5) | (oe << 4) | (pw << 3) | (r1 & 7);
      return defined(m.ackIDStatus, p1);
    }
    case Stype0_64.loopResponse:
      return defined(m.delay, m.delay === undefined ? undefined : r1);
    default:
      return {};
  }
}

function defined(parameter0: number | undefined, parameter1: number | undefined): { parameter0?: number; parameter1?: number } {
  return { ...(parameter0 === undefined ? {} : { parameter0 }), ...(parameter1 === undefined ? {} : { parameter1 }) };
}
