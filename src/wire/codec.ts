import type { PacketDecodeOptions, PacketHeader } from './header.ts';

/**
 * A logical packet format (one ftype) at the transport level: from the 16-bit prefix to the
 * last logical field, without CRCs or padding. `end` bounds the packet; payloads run to it.
 * Serial framing (serial.ts) strips CRCs and padding before calling `decode`.
 */
export interface LogicalCodec<P extends PacketHeader> {
  readonly ftype: number;
  readonly name: string;
  decode(bytes: Uint8Array, offset: number, end: number, opts: PacketDecodeOptions): P;
  /** Writes the packet at `offset` and returns the offset after its last byte. */
  encode(packet: P, bytes: Uint8Array, offset: number, ackIdBits: 5 | 6): number;
  encodedLength(packet: P): number;
  /**
   * Whether the logical packet starting at `offset` (`available` bytes of header readable) has
   * an odd number of half-words. Serial framing needs it to tell a final CRC followed by the
   * 0x0000 pad from a CRC that ends the packet, since a zero pad leaves the CRC residue at zero
   * (Part 6 §2.4.1). For Type 9 this is what the O bit is for (Part 10 §4.2).
   */
  oddHalfwords(bytes: Uint8Array, offset: number, available: number, opts: PacketDecodeOptions): boolean;
  /**
   * Whether the parity `oddHalfwords` gives for this packet is an assumption its header does not
   * state, which a malformed packet may break (Type 9 start and continuation segments: their
   * payload is taken to be the MTU, a multiple of 4 bytes, Part 10 §3.2.4). Serial framing then
   * tries the other layout when the CRC does not match at the assumed one. Absent: never.
   */
  parityAssumed?(bytes: Uint8Array, offset: number, available: number): boolean;
}
