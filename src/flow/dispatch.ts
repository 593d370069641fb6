import type { Type7Packet } from '../wire/type7.ts';

/**
 * Which engine of an end point a received Type 7 packet belongs to. "A device that does not
 * support the SAR protocol ignores the FAM bits" (Part 9 §3.3): without flow arbitration every
 * Type 7 is congestion management. With it, Table 3-2 splits the commands by direction: XON(ARB)
 * and XOFF(ARB) answer our REQUESTs (the transmitter), REQUEST and RELEASE come from a
 * transmitter to us (the receiver). Undefined XON/XOFF+FAM combinations are left alone
 * (DECISIONS §3 "never guess").
 */
export type CcpTarget = 'congestion' | 'arb-tx' | 'arb-rx' | 'undefined';

export function ccpTarget(packet: Pick<Type7Packet, 'command'>, flowArbitration: boolean): CcpTarget {
  if (!flowArbitration) return 'congestion';
  switch (packet.command) {
    case 'XOFF':
    case 'XON':
      return 'congestion';
    case 'XON_ARB':
    case 'XOFF_ARB':
      return 'arb-tx';
    case 'REQUEST_SINGLE_PDU':
    case 'REQUEST_MULTI_PDU':
    case 'RELEASE':
      return 'arb-rx';
    case 'UNDEFINED':
      return 'undefined';
  }
}
