import { FTYPE_FLOW_CONTROL } from '../../wire/type7.ts';
import { FTYPE_MAINTENANCE } from '../../wire/type8.ts';

/**
 * The header fields the switch element reads of a packet (`SwitchCore`, core.ts), whatever object
 * its host keeps the packet in: the simulator's light `SimPacket` descriptors and the software
 * fabric's decoded frames both have them, so one element serves both hosts without a copy.
 */
export type Priority = 0 | 1 | 2 | 3;

/** What a switch needs of a packet it holds: its header fields and size. */
export interface SwitchPacket {
  /** Format type (Part 1 §3.1): 7 and 8 have ordering rules of their own (queues below). */
  readonly ftype: number;
  /**
   * sourceID, which a port's source filter checks; for a Type 7 packet its tgtdestinationID (Part 9
   * §3.2 Figure 3-1: a CCP has no sourceID, and in every Type 7 an end point sends that field names
   * the sender).
   */
  readonly src: number;
  readonly dst: number;
  readonly prio: Priority;
  readonly crf: 0 | 1;
  /** Part 6 VC bit / VC number; 0 on VC0. */
  readonly vc: number;
  /** Octets on the link (header, payload, CRCs, pad): the congestion points' `bytes` unit. */
  readonly bytes: number;
  /** Transport type, where the host has it without a decoded packet (a frame batch's column); else read from `wire`. */
  readonly tt?: number;
  /**
   * The decoded packet, where the element needs one: a Type 8 packet to answer or forward with its
   * hop_count decremented, the transport type a congestion point classifies by.
   */
  readonly wire?: unknown;
}

/** Traffic classes: prio × 2 + CRF, served 7 (prio 3, CRF 1) down to 0 (Part 6 §5 priorities). */
export const CLASSES = 8;

/**
 * A packet's class. Maintenance packets take the class of their priority with CRF 0, whatever their
 * CRF: Part 6 §6.11 packet delivery rule 6 "A switch processing element shall not allow a priority
 * N maintenance packet (ftype = 8) to pass another maintenance packet of priority N or greater that
 * takes the same path", so two of one priority share a FIFO.
 */
export function classOf(p: SwitchPacket): number {
  return p.prio * 2 + (p.ftype === FTYPE_MAINTENANCE ? 0 : p.crf);
}

/** Part 9 §2.4.4 rule 3: Type 7 packets pass through a switch in the order received, whatever their priorities. */
export function isFlowControl(p: SwitchPacket): boolean {
  return p.ftype === FTYPE_FLOW_CONTROL;
}

/** Part 6 §5: a packet of priority p may go while more than (3 − p) × reserve buffers are free at the receiver. */
export function priorityAllowed(prio: number, free: number, reserve: number): boolean {
  return free > (3 - prio) * reserve;
}
