/**
 * The bytes a decoded packet arrived in, so that a packet forwarded unchanged (a switch's
 * forwarding path) leaves in those bytes instead of being encoded again, CRC(s) included. The
 * switch forwards the packet object it decoded, unchanged, or builds a new one (a Type 8 request
 * with its hop_count decremented, Part 3 §2.5), so object identity says "unchanged", and the
 * bytes the encoder would write for it are the bytes it came in (ackID included: the link
 * re-encoded the decoded ackID before this shortcut too).
 *
 * Exactness: the codec contract (CONTRIBUTING.md) is that encoding a decoded packet "reproduces
 * the input bit for bit", with two exceptions this module rules out when it records the bytes:
 * - a non-zero pad (Part 6 §2.3 "the pad shall be 0x0000"), accepted by a lenient decode and
 *   written as 0x0000 by the encoder;
 * - a 5-bit ackID (`ackIdBits: 5`), decoded shifted and re-encoded as 6 bits by a link.
 * packet-bytes.prop.test.ts checks the equivalence against the full encoder.
 *
 * A driver keeps the record beside the packet (the switch element hands it back with the packet:
 * SwitchPacketInput.wire) and sends it with `Link.sendPacket(packet, wire)`.
 *
 * The recorded bytes are views, not copies: a link's frames are views of the socket's chunk or
 * of a buffer the frame reader allocated for that frame alone, neither written again
 * (frame-reader.ts), so the view stays valid while the packet is referenced. Decoded packets
 * are plain objects their receivers treat as immutable (their types are readonly); a caller that
 * changes one in place must not send it with its record.
 */
import type { SerialPacket } from '../wire/packet.ts';
import { packetLength } from '../wire/packet.ts';
import { EARLY_CRC_AT } from '../wire/serial.ts';

/** The serial packet at bytes[start, end) (prefix to pad, no frame header) a packet was decoded from. */
export class ReceivedBytes {
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
  ) {}
}

/**
 * Whether the encoder writes exactly the bytes `packet` was decoded from (with 6-bit ackIDs), the
 * serial packet ending at `end`: true unless it has a pad (Part 6 §2.3) that is not 0x0000.
 */
export function reencodesExactly(packet: SerialPacket, bytes: Uint8Array, end: number): boolean {
  if (((bytes[end - 2] as number) | (bytes[end - 1] as number)) === 0) return true;
  const n = packetLength(packet);
  // serial.ts serialLength: CRC(s) then a pad only when they end on a half-word boundary.
  return (n + 2 + (n > EARLY_CRC_AT ? 2 : 0)) % 4 === 0;
}

/** The bytes `packet` was decoded from, when they are what the encoder would write for it; else undefined. */
export function receivedBytes(packet: SerialPacket, bytes: Uint8Array, start: number, end: number): ReceivedBytes | undefined {
  return reencodesExactly(packet, bytes, end) ? new ReceivedBytes(bytes, start, end) : undefined;
}
