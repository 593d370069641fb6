import { oneOf, positiveInteger, integerInRange } from '../engine/config-checks.ts';
import { attrConveyanceMailbox, attrMacAddress, attrMtu } from '../wire/smp/attribute-build.ts';
import { attributeName } from '../wire/smp/attributes.ts';
import type { AttributeLike, ConveyanceAttribute, MacAddressAttribute, MtuAttribute } from '../wire/smp/attributes.ts';
import { PROTO_ID } from '../wire/smp/header.ts';
import { checkMailbox } from './type11-mailbox.ts';

/**
 * Ethernet encapsulation (Annex 2 Chapter 7): its ProtoID and required attributes (§7.1–§7.2),
 * the pending frames kept under XOFF (§7.3.1) and broadcast (§7.3.2).
 */

/** "The protocol ID value for Ethernet encapsulation is 0x0102" (§7.1). */
export const ETHERNET_PROTO_ID = PROTO_ID.ETHERNET;

/**
 * "The reserved StreamID value 0xF000 may be used for transmission of broadcast traffic. Note
 * that no OPEN message is required for this StreamID" (§7.3.2.2).
 */
export const BROADCAST_STREAM_ID = 0xf000;

/** "The value of the destination ID for ethernet encapsulation should be 0xFE for 8-bit IDs or 0xFFFE for 16-bit IDs" (§7.3.2.1). */
export const MULTICAST_DEST_ID: Readonly<Record<8 | 16, number>> = { 8: 0xfe, 16: 0xfffe };

/**
 * "Receivers of broadcast traffic know that it is a broadcast message, by reading the StreamID of
 * incoming messages" (§7.3.2.2); broadcast servers "must not re-transmit incoming broadcast
 * messages received on the broadcast StreamID 0xF000" (§7.3.2.3).
 */
export function isBroadcastStream(streamID: number): boolean {
  return streamID === BROADCAST_STREAM_ID;
}

export type PendingPolicy = 'keep-newest' | 'bounded';

/**
 * §7.3.1: "If a node has received an XOFF from the remote system using Ethernet encapsulation at
 * the time a new message is to be sent, the node must retain at least one pending message for
 * transmission, however it may choose to drop additional messages. The pending message(s) should
 * be the most recent message(s), and older messages should be dropped."
 *
 * 'keep-newest' is that rule: at most `limit` frames, the oldest dropped first. 'bounded' drops
 * the new PDU when full, for protocols other than Ethernet, whose PDUs are a sequence that losing
 * the oldest would break in the middle.
 */
export class PendingQueue {
  readonly policy: PendingPolicy;
  readonly limit: number;
  #items: Uint8Array[] = [];

  constructor(policy: PendingPolicy, limit: number) {
    this.policy = oneOf(policy, ['keep-newest', 'bounded'], 'policy', 'or');
    // "must retain at least one pending message": a limit of 0 would retain none.
    this.limit = positiveInteger(limit, 'limit');
  }

  /** Returns the PDUs dropped to make room (keep-newest drops the oldest; bounded drops the new one). */
  push(pdu: Uint8Array): readonly Uint8Array[] {
    if (this.policy === 'bounded') {
      if (this.#items.length >= this.limit) return [pdu];
      this.#items.push(pdu);
      return [];
    }
    this.#items.push(pdu);
    const excess = this.#items.length - this.limit;
    return excess > 0 ? this.#items.splice(0, excess) : [];
  }

  shift(): Uint8Array | undefined {
    return this.#items.shift();
  }

  get size(): number {
    return this.#items.length;
  }

  /** Empties the queue; returns what it held, oldest first. */
  clear(): readonly Uint8Array[] {
    const all = this.#items;
    this.#items = [];
    return all;
  }

  snapshot(): { readonly policy: PendingPolicy; readonly limit: number; readonly size: number; readonly octets: number } {
    return { policy: this.policy, limit: this.limit, size: this.#items.length, octets: this.#items.reduce((n, p) => n + p.length, 0) };
  }
}

export type BroadcastPlan =
  | { readonly mode: 'multicast'; readonly destID: number }
  | {
      readonly mode: 'unicast';
      readonly destIDs: readonly number[];
      readonly streamID: number;
      /** Members that are not device IDs of the configured width, left out of `destIDs`. */
      readonly rejected: readonly number[];
    };

/**
 * §7.3.2: "If multicast capabilities are available in the RapidIO switches, they should be used
 * for broadcast messages" (destination ID 0xFE / 0xFFFE, §7.3.2.1); "If multicast capabilities
 * are not available, broadcast messages must be sent by unicast transmission" on StreamID 0xF000
 * (§7.3.2.2), to every member except this node, each once, in the members' order.
 */
export function broadcastPlan(members: readonly number[], self: number, multicast: boolean, deviceIdBits: 8 | 16): BroadcastPlan {
  const bits = oneOf(deviceIdBits, [8, 16], 'deviceIdBits', 'or');
  if (multicast) return { mode: 'multicast', destID: MULTICAST_DEST_ID[bits] };
  const seen = new Set<number>([self]);
  const destIDs: number[] = [];
  const rejected: number[] = [];
  for (const m of members) {
    if (!Number.isInteger(m) || m < 0 || m >= 2 ** bits) rejected.push(m);
    else if (!seen.has(m)) {
      seen.add(m);
      destIDs.push(m);
    }
  }
  return { mode: 'unicast', destIDs, streamID: BROADCAST_STREAM_ID, rejected };
}

export type EthernetAttributeName = 'MTU' | 'CONVEYANCE' | 'MAC_ADDRESS';
const REQUIRED: readonly EthernetAttributeName[] = ['MTU', 'CONVEYANCE', 'MAC_ADDRESS'];

/**
 * §7.2: "Several protocol attributes are required: MTU, CONVEYANCE, and MAC_ADDRESS"; returns the
 * missing ones (empty = fine), in that order. IDs are read under ProtoID 0x0102, where 0x8003 is
 * MAC_ADDRESS, not DATA_OFFSET (DECISIONS §7). "No ordering restrictions are placed on these
 * attributes by the specification", so order is not looked at.
 */
export function missingEthernetAttributes(attrs: readonly AttributeLike[]): readonly string[] {
  const present = new Set(attrs.map((a) => attributeName(a.id, ETHERNET_PROTO_ID)));
  return REQUIRED.filter((n) => !present.has(n));
}

/**
 * §7.2.3: "the first three octets of the MAC address should be a valid OUI (Organizationally
 * Unique Identifier) assigned by IEEE". An IEEE-assigned OUI has the I/G bit (bit 0 of the first
 * octet: a group address) clear and the U/L bit (bit 1: a locally administered address) clear; a
 * locally administered address has no IEEE-assigned OUI.
 */
export function macIsOuiValid(mac: Uint8Array): boolean {
  const first = mac[0];
  return mac.length === 6 && first !== undefined && (first & 0x03) === 0;
}

export interface EthernetAttributeOptions {
  /** §7.2.1: "Only the lowest two octets should be used, allowing a maximum MTU of 64 KBytes". */
  readonly mtu: number;
  /** §7.2.2 / Table 3-8: channel 0x0001 (message), "0x0000_00nn; nn indicates a mailbox" (0–63). */
  readonly mailbox: number;
  /** §7.2.3: six octets. */
  readonly mac: Uint8Array;
}

/**
 * The three required Ethernet attributes (§7.2) in the order §7.2 names them: MTU, CONVEYANCE,
 * MAC_ADDRESS. The MAC address is not required to pass `macIsOuiValid` ("should"): callers that
 * want it enforced check it first.
 */
export function ethernetAttributes(opts: EthernetAttributeOptions): readonly [MtuAttribute, ConveyanceAttribute, MacAddressAttribute] {
  const mtu = integerInRange(opts.mtu, 1, 0xffff, 'mtu');
  // Table 3-8 has room for 0–255; a mailbox is a Part 2 one, 0–63 (decision T2).
  const mailbox = checkMailbox(opts.mailbox, 'mailbox');
  if (!(opts.mac instanceof Uint8Array) || opts.mac.length !== 6) throw new RangeError('mac must be six octets');
  return [attrMtu(mtu), attrConveyanceMailbox(mailbox), attrMacAddress(opts.mac)];
}
